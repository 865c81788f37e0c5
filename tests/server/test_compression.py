"""Compressed answers (docs/server.md, "Compression"): the client's files precompressed at
build time (web/scripts/compress.mjs) and sent as brotli or gzip to whoever accepts them, with
``Vary: Accept-Encoding``; JSON answers of the API gzipped from a minimum size; WebSockets
untouched."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from dragonlair.web import GZIP_MINIMUM, IMMUTABLE, accepted, mount_client, write_catalogues
from tests.server.helpers import ServerThread

REPO = Path(__file__).resolve().parents[2]
SCRIPT = "console.log('dragonlair');\n" * 200


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A built client whose files have variants marked so that the test sees which one came."""
    out = tmp_path / "dist"
    (out / "assets").mkdir(parents=True)
    (out / "index.html").write_text("<!doctype html><title>Dragonlair</title>" * 40)
    (out / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'></svg>")
    write_catalogues(out / "i18n")
    app_js = out / "assets" / "index-abc123.js"
    app_js.write_text(SCRIPT)
    for file in (app_js, out / "index.html", out / "favicon.svg", out / "i18n" / "en.json"):
        file.with_name(file.name + ".br").write_bytes(b"BROTLI:" + file.name.encode())
        file.with_name(file.name + ".gz").write_bytes(gzip.compress(file.read_bytes()))
    return out


def web(dist: Path) -> TestClient:
    app = FastAPI()
    mount_client(app, dist)
    return TestClient(app)


class Got:
    """An answer and its body as sent (httpx would undo a gzip: the test wants what came)."""

    def __init__(self, client: TestClient, path: str, encoding: str) -> None:
        with client.stream("GET", path, headers={"Accept-Encoding": encoding}) as r:
            self.status_code, self.headers = r.status_code, r.headers
            self.read_bytes = b"".join(r.iter_raw())


def get(client: TestClient, path: str, encoding: str) -> Got:
    return Got(client, path, encoding)


def test_accept_encoding_is_read_with_its_weights() -> None:
    assert accepted("gzip, deflate, br") == {"gzip", "deflate", "br"}
    assert accepted("br;q=0, gzip;q=0.5") == {"gzip"}
    assert accepted("identity") == {"identity"}
    assert accepted("*") >= {"br", "gzip"}
    assert accepted(None) == set() and accepted("br;q=x") == set()


@pytest.mark.parametrize(("path", "kind"), [
    ("/assets/index-abc123.js", "text/javascript"), ("/i18n/en.json", "application/json"),
    ("/", "text/html"), ("/tables/Ab3x", "text/html"), ("/favicon.svg", "image/svg+xml")])
def test_each_file_is_sent_as_the_best_variant_the_request_accepts(
        dist: Path, path: str, kind: str) -> None:
    client = web(dist)
    name = {"/": "index.html", "/tables/Ab3x": "index.html"}.get(path, path.rsplit("/", 1)[-1])
    br = get(client, path, "gzip, deflate, br")
    assert br.status_code == 200 and br.headers["content-encoding"] == "br"
    assert br.read_bytes == b"BROTLI:" + name.encode()
    assert br.headers["content-type"].startswith(kind)
    assert br.headers["vary"] == "Accept-Encoding"
    gz = get(client, path, "gzip;q=1, br;q=0")
    assert gz.headers["content-encoding"] == "gzip"
    plain = get(client, path, "identity")
    assert "content-encoding" not in plain.headers and plain.headers["vary"] == "Accept-Encoding"
    assert gzip.decompress(gz.read_bytes) == plain.read_bytes
    if path.startswith("/assets/"):
        assert br.headers["cache-control"] == IMMUTABLE == plain.headers["cache-control"]


def test_a_file_without_variants_and_a_missing_file(dist: Path) -> None:
    client = web(dist)
    index = get(client, "/i18n/index.json", "br, gzip")
    assert index.status_code == 200 and "content-encoding" not in index.headers
    assert "vary" not in index.headers
    assert get(client, "/assets/nope.js", "br").status_code == 404
    assert get(client, "/assets/..%2F..%2Fdist%2Findex.html", "br").status_code == 404


def test_compress_script_writes_smaller_variants_only(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    (tmp_path / "big.js").write_text(SCRIPT)
    (tmp_path / "tiny.json").write_text("[]")
    (tmp_path / "photo.png").write_bytes(b"\x89PNG" * 100)
    subprocess.run(["node", str(REPO / "web" / "scripts" / "compress.mjs"), str(tmp_path)],
                   check=True, capture_output=True)
    assert gzip.decompress((tmp_path / "big.js.gz").read_bytes()).decode() == SCRIPT
    assert 0 < (tmp_path / "big.js.br").stat().st_size < len(SCRIPT)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "big.js", "big.js.br", "big.js.gz", "photo.png", "tiny.json"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path_factory.mktemp("compression")).start()
    yield srv
    srv.stop()


def test_json_answers_are_gzipped_from_the_minimum_and_websockets_are_untouched(
        server: ServerThread) -> None:
    with httpx.Client(base_url=server.base) as http:
        with http.stream("GET", "/api/games", headers={"Accept-Encoding": "gzip"}) as r:
            body = b"".join(r.iter_raw())
            assert r.headers["content-encoding"] == "gzip"
            assert "Accept-Encoding" in r.headers["vary"]
        games = json.loads(gzip.decompress(body))
        assert len(json.dumps(games)) >= GZIP_MINIMUM and {g["id"] for g in games} >= {"fist"}
        small = http.get("/api/health", headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in small.headers and small.json()["ok"] is True
        plain = http.get("/api/games", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.json() == games
        guest = http.post("/api/auth/guest", json={}, headers={"Accept-Encoding": "gzip"})
        assert guest.status_code == 200
        table = http.post("/api/tables", json={
            "game": "master", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]})
        assert table.status_code == 201, table.text
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    url = server.base.replace("http://", "ws://") + f"/ws/tables/{table.json()['id']}"
    with connect(url, additional_headers={"Cookie": cookie,
                                          "Accept-Encoding": "gzip"}) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1}))
        welcome = json.loads(ws.recv(10))  # a text frame of plain JSON
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
