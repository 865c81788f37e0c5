"""A bare FastAPI app around one router, answering refusals as the server does: for the
endpoints that need no database (the rules pages, the tutorials). A module that sends many
requests enters the client (``with client_for(router) as web``): one event loop then serves
them all, instead of a new one (and a thread) for each request."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from dragonlair.server.errors import ServerError


def client_for(router: APIRouter) -> TestClient:
    app = FastAPI()

    @app.exception_handler(ServerError)
    async def refused(_request: object, exc: ServerError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    app.include_router(router)
    return TestClient(app)
