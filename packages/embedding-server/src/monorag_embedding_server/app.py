"""The FastAPI app: POST /embed, POST /v1/embeddings, GET /health, /ready, /info, /vocab, /metrics."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import signal
import time
from contextlib import asynccontextmanager
from typing import AsyncIterator, Callable, Literal

import anyio
import numpy as np
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, StrictStr

from .batcher import BatcherClosedError, DynamicBatcher
from .idle_watcher import IdleWatcher
from .limits import LimitError, check_texts
from .metrics import Metrics
from .model import EmbeddingModel, load_model
from .settings import Settings

log = logging.getLogger("monorag_embedding_server.app")

ROUTES = ("/embed", "/v1/embeddings", "/health", "/ready", "/info", "/vocab", "/metrics")


class EmbedRequest(BaseModel):
    """Body of POST /embed."""

    texts: list[StrictStr]


class OpenAIEmbeddingRequest(BaseModel):
    """Body of POST /v1/embeddings, as in OpenAI's embeddings API (token-array input is not supported)."""

    input: StrictStr | list[StrictStr]
    model: str | None = None
    encoding_format: Literal["float", "base64"] = "float"
    user: str | None = None


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": message})


def _openai_error(status: int, message: str, param: str | None, code: str) -> JSONResponse:
    kind = "invalid_request_error" if status < 500 else "server_error"
    return JSONResponse(status_code=status, content={"error": {"message": message, "type": kind, "param": param, "code": code}})


def _describe_validation_error(error: RequestValidationError, example: str) -> str:
    parts = []
    for item in error.errors()[:5]:
        loc = [str(p) for p in item.get("loc", ()) if p != "body"]
        where = loc[0] + "".join(f"[{p}]" for p in loc[1:]) if loc else "body"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) + f". Send a JSON body {example}."


def _terminate_self() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


class ModelFailedError(RuntimeError):
    """The forward call that carried this request raised; the request gets HTTP 500."""


class _State:
    """What the endpoints share: the model, the batcher, and whether the server takes work."""

    def __init__(self) -> None:
        self.model: EmbeddingModel | None = None
        self.batcher: DynamicBatcher | None = None
        self.ready = False
        self.draining = False


def create_app(settings: Settings, on_idle: Callable[[], None] | None = None) -> FastAPI:
    """Builds the app.

    The lifespan loads the model and runs a warm-up forward call before the server takes requests
    (uvicorn opens the port only then), and on shutdown stops taking work, finishes every queued
    request, then releases the model. When `settings.idle_seconds` > 0, `on_idle` is called after
    that many seconds without a request; the default sends SIGTERM to this process.
    """
    state = _State()
    metrics = Metrics()
    watcher = IdleWatcher(settings.idle_seconds, on_idle or _terminate_self) if settings.idle_seconds > 0 else None

    def forward(texts: list[str]) -> tuple[np.ndarray, list[int]]:
        assert state.model is not None
        return state.model.embed(texts), state.model.count_tokens(texts)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        started = time.perf_counter()
        model = await anyio.to_thread.run_sync(load_model, settings)
        state.model = model
        if settings.warmup:
            warm = time.perf_counter()
            await anyio.to_thread.run_sync(forward, ["warm-up: def main(): return 0"] * min(8, settings.max_batch_texts))
            log.info("warm-up forward call took %.3f s", time.perf_counter() - warm)
        state.batcher = DynamicBatcher(forward, settings.max_batch_texts, settings.batch_wait_ms, metrics.observe_batch)
        state.batcher.start()
        idle_task = asyncio.create_task(watcher.run()) if watcher else None
        state.ready = True
        metrics.ready.set(1)
        log.info(
            "ready",
            extra={
                "model": model.model_id,
                "dim": model.dim,
                "device": model.device,
                "startup_seconds": round(time.perf_counter() - started, 3),
                "max_batch_texts": settings.max_batch_texts,
                "batch_wait_ms": settings.batch_wait_ms,
            },
        )
        try:
            yield
        finally:
            state.ready = False
            state.draining = True
            metrics.ready.set(0)
            if idle_task:
                idle_task.cancel()
            await state.batcher.close()
            state.model = None
            model.close()
            log.info("stopped: every queued request was answered")

    app = FastAPI(title="monorag embedding server", lifespan=lifespan)

    @app.middleware("http")
    async def observe(request: Request, call_next):  # type: ignore[no-untyped-def]
        path = request.url.path
        endpoint = path if path in ROUTES else "other"
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > settings.max_body_bytes:
            message = (
                f"Request body of {length} bytes is over the limit of {settings.max_body_bytes} bytes "
                "(EMBEDDING_MAX_BODY_BYTES); send fewer or shorter texts per request."
            )
            response: Response = (
                _openai_error(413, message, None, "body_too_large") if path.startswith("/v1/") else _error(413, message)
            )
            metrics.requests.labels(endpoint, "413").inc()
            return response
        if watcher:
            watcher.request_started()
        metrics.in_flight.inc()
        started = time.perf_counter()
        status = 500
        try:
            response = await call_next(request)
            status = response.status_code
            return response
        finally:
            metrics.in_flight.dec()
            if watcher:
                watcher.request_finished()
            if endpoint != "/metrics":
                metrics.latency.labels(endpoint).observe(time.perf_counter() - started)
            metrics.requests.labels(endpoint, str(status)).inc()

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        if request.url.path.startswith("/v1/"):
            example = '{"input": "..." or ["...", ...], "model"?: "...", "encoding_format"?: "float" | "base64"}'
            return _openai_error(422, _describe_validation_error(error, example), "input", "invalid_request")
        return _error(422, _describe_validation_error(error, '{"texts": ["...", ...]} whose items are strings'))

    async def run(texts: list[str]) -> tuple[np.ndarray, list[int]]:
        """Embeds through the batcher. Raises BatcherClosedError when not serving, ModelFailedError
        when the forward call failed (logged with its traceback by the batcher)."""
        if state.batcher is None or not state.ready:
            raise BatcherClosedError("the server is not ready")
        try:
            return await state.batcher.embed(texts)
        except BatcherClosedError:
            raise
        except Exception as error:
            raise ModelFailedError(f"the model failed on a batch of {len(texts)}+ texts: {type(error).__name__}: {error}") from error

    def truncated_indices(tokens: list[int]) -> list[int]:
        assert state.model is not None
        out = [i for i, n in enumerate(tokens) if n > state.model.max_seq_length]
        if out:
            metrics.truncated.inc(len(out))
        return out

    @app.get("/health")
    async def health() -> JSONResponse:
        """Liveness: the process answers. Use /ready to know whether it takes work."""
        return JSONResponse({"status": "ok"})

    @app.get("/ready")
    async def ready() -> JSONResponse:
        if state.ready:
            return JSONResponse({"status": "ready"})
        return JSONResponse(status_code=503, content={"status": "draining" if state.draining else "loading"})

    @app.get("/info")
    async def info() -> JSONResponse:
        model = state.model
        if model is None:
            return _error(503, "The model is not loaded (the server is starting or stopping); retry shortly.")
        return JSONResponse(
            {
                "model": model.model_id,
                "dim": model.dim,
                "maxSeqLength": model.max_seq_length,
                "device": model.device,
                "maxTexts": settings.max_texts,
                "maxChars": settings.max_chars,
                "maxBatchTexts": settings.max_batch_texts,
            }
        )

    @app.get("/vocab")
    async def vocab() -> Response:
        """The tokenizer's vocabulary, so clients count word pieces exactly:
        {"model", "tokenizer": "bert-wordpiece-uncased", "tokens": [token of id 0, 1, ...]}; 404 when the
        model's tokenizer is not an uncased BERT WordPiece one (clients then estimate)."""
        model = state.model
        if model is None:
            return _error(503, "The model is not loaded (the server is starting or stopping); retry shortly.")
        tokens = model.vocabulary()
        if tokens is None:
            return _error(404, f"The model {model.model_id!r} has no uncased BERT WordPiece vocabulary; count tokens another way.")
        payload = {"model": model.model_id, "tokenizer": "bert-wordpiece-uncased", "tokens": tokens}
        return Response(content=json.dumps(payload), media_type="application/json")

    @app.get("/metrics")
    async def prometheus() -> Response:
        if state.batcher is not None:
            metrics.queued.set(state.batcher.queued_texts)
        return Response(content=metrics.render(), media_type=metrics.content_type)

    @app.post("/embed")
    async def embed(body: EmbedRequest) -> Response:
        try:
            check_texts(body.texts, settings)
            vectors, tokens = await run(body.texts)
        except LimitError as error:
            return _error(error.status, error.message)
        except BatcherClosedError as error:
            return _error(503, f"Not taking requests: {error}; retry on another replica or shortly.")
        except ModelFailedError as error:
            return _error(500, f"{error}. See the server's log.")
        assert state.model is not None
        payload = {
            "embeddings": vectors.tolist(),
            "model": state.model.model_id,
            "dim": state.model.dim,
            "maxSeqLength": state.model.max_seq_length,
            "truncated": truncated_indices(tokens),
        }
        return Response(content=json.dumps(payload), media_type="application/json")

    @app.post("/v1/embeddings")
    async def openai_embeddings(body: OpenAIEmbeddingRequest) -> Response:
        texts = [body.input] if isinstance(body.input, str) else body.input
        model = state.model
        if model is not None and body.model not in (None, model.model_id, model.model_id.split("/")[-1]):
            return _openai_error(
                404,
                f"The model {body.model!r} is not served here; this server embeds with {model.model_id!r} "
                "(send that name, or leave `model` out).",
                "model",
                "model_not_found",
            )
        try:
            check_texts(texts, settings, field="input")
            vectors, tokens = await run(texts)
        except LimitError as error:
            return _openai_error(error.status, error.message, error.param, "limit_exceeded" if error.status == 413 else "invalid_input")
        except BatcherClosedError as error:
            return _openai_error(503, f"Not taking requests: {error}; retry shortly.", None, "unavailable")
        except ModelFailedError as error:
            return _openai_error(500, f"{error}. See the server's log.", None, "model_failed")
        assert state.model is not None
        truncated = truncated_indices(tokens)
        used = sum(min(n, state.model.max_seq_length) for n in tokens)
        data = []
        for i, row in enumerate(vectors):
            vector: object = (
                base64.b64encode(np.asarray(row, dtype="<f4").tobytes()).decode("ascii")
                if body.encoding_format == "base64"
                else row.tolist()
            )
            data.append({"object": "embedding", "index": i, "embedding": vector})
        payload = {
            "object": "list",
            "data": data,
            "model": state.model.model_id,
            "usage": {"prompt_tokens": used, "total_tokens": used},
            "truncated": truncated,
        }
        return Response(content=json.dumps(payload), media_type="application/json")

    return app
