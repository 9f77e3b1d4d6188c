"""The FastAPI app: POST /embed, GET /health, GET /info."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
from contextlib import asynccontextmanager
from typing import AsyncIterator, Callable

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, StrictStr

from .idle_watcher import IdleWatcher
from .model import EmbeddingModel, load_model
from .settings import Settings

log = logging.getLogger("monorag_embedding_server.app")


class EmbedRequest(BaseModel):
    """Body of POST /embed."""

    texts: list[StrictStr]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": message})


def _describe_validation_error(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        loc = [str(p) for p in item.get("loc", ()) if p != "body"]
        where = loc[0] + "".join(f"[{p}]" for p in loc[1:]) if loc else "body"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) + '. Send a JSON body {"texts": ["...", ...]} whose items are strings.'


def _terminate_self() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


def create_app(settings: Settings, on_idle: Callable[[], None] | None = None) -> FastAPI:
    """Builds the app. The model is loaded in the lifespan (so /health answers only when it is ready).

    When `settings.idle_seconds` > 0, `on_idle` is called after that many seconds without a
    request; the default sends SIGTERM to this process (uvicorn then shuts down cleanly).
    """
    holder: dict[str, EmbeddingModel] = {}
    watcher = IdleWatcher(settings.idle_seconds, on_idle or _terminate_self) if settings.idle_seconds > 0 else None
    lock = asyncio.Lock()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        holder["model"] = load_model(settings)
        task = asyncio.create_task(watcher.run()) if watcher else None
        try:
            yield
        finally:
            if task:
                task.cancel()
            holder.pop("model").close()

    app = FastAPI(title="monorag embedding server", lifespan=lifespan)

    @app.middleware("http")
    async def track_activity(request: Request, call_next):  # type: ignore[no-untyped-def]
        if watcher is None:
            return await call_next(request)
        watcher.request_started()
        try:
            return await call_next(request)
        finally:
            watcher.request_finished()

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, error: RequestValidationError) -> JSONResponse:
        return _error(422, _describe_validation_error(error))

    @app.get("/health")
    async def health() -> JSONResponse:
        if "model" not in holder:
            return JSONResponse(status_code=503, content={"status": "loading"})
        return JSONResponse({"status": "ok"})

    @app.get("/info")
    async def info() -> dict[str, object]:
        model = holder["model"]
        return {"model": model.model_id, "dim": model.dim, "maxSeqLength": model.max_seq_length}

    @app.post("/embed")
    async def embed(body: EmbedRequest) -> Response:
        texts = body.texts
        if not texts:
            return _error(422, 'texts is empty; send at least one string in {"texts": [...]}.')
        if len(texts) > settings.max_texts:
            return _error(
                413,
                f"Too many texts: {len(texts)} in one request, the limit is {settings.max_texts} "
                "(EMBEDDING_MAX_TEXTS); send smaller batches.",
            )
        for i, text in enumerate(texts):
            if len(text) > settings.max_chars:
                return _error(
                    422,
                    f"texts[{i}] has {len(text)} characters, over the limit of {settings.max_chars} "
                    "characters per text (EMBEDDING_MAX_CHARS); split or truncate it.",
                )
        model = holder["model"]
        async with lock:
            vectors = await anyio.to_thread.run_sync(model.embed, texts)
        payload = {"embeddings": vectors.tolist(), "model": model.model_id, "dim": model.dim}
        return Response(content=json.dumps(payload), media_type="application/json")

    return app
