"""Pages for what does not exist (issue 22): a browser opening an address nothing answers
gets the client (status 404), which shows its not-found page in the reader's language with a
way home (web/src/screens/NotFound.svelte, e2e/alerts.spec.ts); the API, the bundle's folders
and every request that is not a browser's page load keep the JSON refusal."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dragonlair.server.app import create_app
from dragonlair.web import mount_client, write_catalogues

HTML = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
PAGE = '<div id="app"></div><script src="/assets/index-abc123.js"></script>'


@pytest.fixture
def web(tmp_path: Path) -> TestClient:
    from fastapi import FastAPI
    from starlette.exceptions import HTTPException

    from dragonlair.server.openapi import http_error

    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text(PAGE)
    write_catalogues(dist / "i18n")
    app = FastAPI()
    app.add_exception_handler(HTTPException, http_error)

    @app.get("/api/ping")
    def ping() -> dict[str, bool]:
        return {"ok": True}

    mount_client(app, dist)
    return TestClient(app)


def test_a_browser_opening_an_unknown_address_gets_the_client_with_404(web: TestClient) -> None:
    for path in ("/no-such-page", "/tables/abc/extra/bits", "/users/", "/learn"):
        answer = web.get(path, headers=HTML)
        assert answer.status_code == 404, path
        assert answer.text == PAGE
        assert answer.headers["content-type"].startswith("text/html")


def test_the_api_and_other_requests_keep_the_json_refusal(web: TestClient) -> None:
    for path in ("/api/nothing", "/assets/missing.js", "/i18n/xx.json", "/ws/nothing"):
        answer = web.get(path, headers=HTML)
        assert answer.status_code == 404, path
        assert answer.json()["code"] == "server.request.no_route", path
    # not a page load: no HTML asked for, or not a GET
    answer = web.get("/no-such-page")
    assert answer.status_code == 404
    assert answer.json()["code"] == "server.request.no_route"
    assert web.post("/no-such-page", headers=HTML).json()["code"] == "server.request.no_route"
    assert web.get("/api/ping").json() == {"ok": True}


def test_the_real_app_answers_an_unknown_page_with_the_client(tmp_path: Path) -> None:
    from dragonlair.server.settings import Settings
    from dragonlair.web import is_built

    if not is_built():
        pytest.skip("the client is not built (cd web && npm run build)")
    # its own database: never the default data folder of whoever runs the tests
    with TestClient(create_app(Settings(data_dir=tmp_path, warm_up=False))) as client:
        answer = client.get("/this/is/nowhere", headers=HTML)
        assert answer.status_code == 404
        assert '<div id="app">' in answer.text
        refusal = client.get("/api/this/is/nowhere", headers=HTML)
        assert refusal.status_code == 404
        assert refusal.json()["code"] == "server.request.no_route"
