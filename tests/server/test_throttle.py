"""Login, guest and registration throttling over a real server (issue 22; docs/server.md,
"Security notes"): refused with ``429 server.auth.throttled`` and ``Retry-After`` before any
argon2 hash is computed; per account and per client address (the browser's, as the trusted
proxy on this machine forwards it); time comes from the injected clock."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from dragonlair.server.clocks import FakeClock
from dragonlair.server.errors import ServerError
from dragonlair.server.settings import Limits
from dragonlair.server.throttle import Throttle
from tests.server.helpers import ServerThread

_addresses = (f"198.51.100.{n}" for n in itertools.count(1))


@pytest.fixture(scope="module")
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, clock: FakeClock) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path_factory.mktemp("throttle"), clock=clock).start()
    yield srv
    srv.stop()


@pytest.fixture
def verifies(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every argon2 verification the server runs (the password checked)."""
    calls: list[str] = []
    original = PasswordHasher.verify

    def counting(self: PasswordHasher, hash: str | bytes, password: str | bytes) -> Any:
        calls.append(str(password))
        return original(self, hash, password)

    monkeypatch.setattr(PasswordHasher, "verify", counting)
    return calls


def post(server: ServerThread, path: str, body: dict[str, Any],
         address: str | None = None) -> httpx.Response:
    headers = {"X-Forwarded-For": address} if address else {}
    return httpx.post(f"{server.base}{path}", json=body, headers=headers)


def register(server: ServerThread, username: str) -> None:
    r = post(server, "/api/auth/register", {"username": username, "password": "right-pass"},
             next(_addresses))
    assert r.status_code == 200, r.text


def login(server: ServerThread, username: str, password: str,
          address: str | None = None) -> httpx.Response:
    return post(server, "/api/auth/login", {"username": username, "password": password},
                address or next(_addresses))


def throttled(r: httpx.Response, wait: int) -> None:
    assert r.status_code == 429, r.text
    assert r.json() == {"code": "server.auth.throttled", "params": {"retry_after": wait},
                        "rule": None}
    assert r.headers["retry-after"] == str(wait)


def test_sixth_failure_is_refused_without_running_argon2(
        server: ServerThread, clock: FakeClock, verifies: list[str]) -> None:
    register(server, "carol")
    for n in range(5):  # each from another address: only the account counts
        r = login(server, "carol", f"wrong-{n}")
        assert r.status_code == 401 and r.json()["code"] == "server.auth.bad_credentials"
    assert len(verifies) == 5
    throttled(login(server, "carol", "wrong-5"), 2)
    throttled(login(server, "carol", "right-pass"), 2)  # even the right one: not looked at
    assert len(verifies) == 5  # no argon2 for a refused attempt
    clock.advance(2)
    assert login(server, "carol", "wrong-6").status_code == 401  # the 6th failure
    throttled(login(server, "carol", "right-pass"), 4)  # the delay doubles
    clock.advance(4)
    r = login(server, "carol", "right-pass")
    assert r.status_code == 200 and r.json()["username"] == "carol"
    assert login(server, "carol", "wrong-7").status_code == 401  # success forgot failures
    assert len(verifies) == 8


def test_failures_per_client_address(server: ServerThread, clock: FakeClock,
                                     verifies: list[str]) -> None:
    free = Limits().login_address_free_failures
    attacker = next(_addresses)
    for n in range(free):  # many accounts, none of them failing five times
        assert login(server, f"victim{n % 4}", "guess", attacker).status_code == 401
    throttled(login(server, "victim9", "guess", attacker), 2)
    assert len(verifies) == free
    # another address is not held back, nor is the machine itself (exempt)
    assert login(server, "victim9", "guess").status_code == 401
    assert login(server, "victim9", "guess", "127.0.0.1").status_code == 401
    clock.advance(2)
    assert login(server, "victim9", "guess", attacker).status_code == 401
    throttled(login(server, "victim9", "guess", attacker), 4)
    clock.advance(Limits().login_forget_s + 1)  # an hour without failures: forgotten
    assert login(server, "victim9", "guess", attacker).status_code == 401


def test_guests_per_address(server: ServerThread, clock: FakeClock) -> None:
    limits, address = Limits(), next(_addresses)
    for _ in range(limits.guest_burst):
        assert post(server, "/api/auth/guest", {}, address).status_code == 200
    wait = round(60 / limits.guests_per_minute)
    throttled(post(server, "/api/auth/guest", {}, address), wait)
    assert post(server, "/api/auth/guest", {}, next(_addresses)).status_code == 200
    for _ in range(limits.guest_burst + 1):  # the machine itself is exempt
        assert post(server, "/api/auth/guest", {}).status_code == 200
    clock.advance(wait)
    assert post(server, "/api/auth/guest", {}, address).status_code == 200


def test_registrations_per_address(server: ServerThread, verifies: list[str]) -> None:
    limits, address = Limits(), next(_addresses)
    for n in range(limits.registration_burst):
        r = post(server, "/api/auth/register",
                 {"username": f"reg{n}", "password": "right-pass"}, address)
        assert r.status_code == 200, r.text
    r = post(server, "/api/auth/register", {"username": "reg-more", "password": "right-pass"},
             address)
    throttled(r, round(3600 / limits.registrations_per_hour))
    assert login(server, "reg-more", "right-pass").status_code == 401  # nothing was made


def test_account_failures_ignore_letter_case() -> None:
    now = [0.0]
    throttle = Throttle(Limits(login_free_failures=1), clock=lambda: now[0])
    for n in range(3):
        throttle.login_failed(f"user{n}", f"203.0.113.{n}")
    with pytest.raises(ServerError) as caught:
        throttle.check_login("USER1", None)  # names are compared without letter case
    assert caught.value.code == "server.auth.throttled"
    throttle.login_succeeded("user1")
    throttle.check_login("user1", None)
