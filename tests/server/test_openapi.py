"""Property-based tests of the lobby's REST API from its own OpenAPI document (schemathesis):
over a real server (uvicorn on 127.0.0.1), every operation is called with generated requests,
with a guest's session cookie; no answer may be a 5xx, and every answer must conform to the
document (its status code declared, its body matching the declared schema, its content type).

Default run: three examples per operation and mode (no invalid path parameters);
``-m slow``: more (CI 4, ``scripts/test.sh --long`` 150), invalid path parameters too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable

from dragonlair.server.accounts import COOKIE
from tests.server.helpers import ServerThread
from tests.sizes import size

#: both tests are slow: a plain run collects this module without importing schemathesis (a
#: second of each worker's start)
pytestmark = pytest.mark.slow


def _schemathesis() -> Any:
    return pytest.importorskip("schemathesis")


def _checks() -> list[Any]:
    _schemathesis()
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    return [not_a_server_error, status_code_conformance, content_type_conformance,
            response_schema_conformance]


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path_factory.mktemp("openapi"))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def api_schema(api_server: ServerThread) -> Any:
    return _schemathesis().openapi.from_url(f"{api_server.base}/openapi.json")


def guest(api_server: ServerThread) -> requests.Session:
    """A guest's session (a fresh one per operation: logging out ends it)."""
    s = requests.Session()
    r = s.post(f"{api_server.base}/api/auth/guest", json={"display_name": "Schema"})
    assert r.status_code == 200, r.text
    assert COOKIE in s.cookies
    return s


def checker(api_server: ServerThread, operation: Any, mode: Any,
            session: requests.Session, examples: int, derandomize: bool) -> Any:
    """A hypothesis test of one operation: generated requests, the checks on each answer."""
    checks = _checks()

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=examples, deadline=None, derandomize=derandomize,
              suppress_health_check=list(HealthCheck), database=None)
    def check(case: Any) -> None:
        case.call_and_validate(base_url=api_server.base, session=session, checks=checks)

    return check


def fuzz(api_server: ServerThread, api_schema: Any, examples: int,
         derandomize: bool, invalid_paths: bool = True) -> int:
    """Every operation of the document, ``examples`` generated requests each (valid ones,
    and invalid ones that the server must refuse with a declared 4xx). ``invalid_paths``
    false: no invalid requests to the operations with a path parameter (generating an
    invalid ``{table_id}`` costs hypothesis most of the time of the quick run)."""
    generation_mode = _schemathesis().GenerationMode
    operations = 0
    failures: list[str] = []
    for result in api_schema.get_all_operations():
        operation = result.ok()
        session = guest(api_server)
        modes = [generation_mode.POSITIVE, generation_mode.NEGATIVE]
        if not invalid_paths and "{" in operation.path:
            modes.remove(generation_mode.NEGATIVE)
        for mode in modes:
            try:
                checker(api_server, operation, mode, session, examples, derandomize)()
            except Unsatisfiable:  # nothing to make invalid (no parameters, no body)
                assert mode is generation_mode.NEGATIVE, operation.label
            except (Exception, BaseExceptionGroup) as exc:
                failures.append(f"{operation.label} ({mode.value}): {exc}")
        session.close()
        operations += 1
    assert not failures, "\n\n".join(failures)
    return operations


def test_the_lobby_answers_as_its_openapi_says(api_server: ServerThread,
                                               api_schema: Any) -> None:
    """Quick: three requests per operation and mode, no invalid path parameters (the slow
    run below makes them too)."""
    assert fuzz(api_server, api_schema, examples=3, derandomize=True, invalid_paths=False) >= 8


def test_the_lobby_answers_as_its_openapi_says_many(api_server: ServerThread,
                                                    api_schema: Any) -> None:
    """New random requests each run: CI 4 per operation and mode (the API has grown to
    about 90 operations: 6 took 35 s of CI), ``scripts/test.sh --long`` 150
    (tests/sizes.py)."""
    examples = size(ci=4, long=150)
    assert fuzz(api_server, api_schema, examples=examples, derandomize=False) >= 8
