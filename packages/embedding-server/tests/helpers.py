"""Test helpers: an in-process async client, Prometheus sample lookup, a server process on a free port."""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator, Awaitable, Callable, TypeVar

import httpx
from fastapi import FastAPI


SRC = Path(__file__).resolve().parent.parent / "src"
T = TypeVar("T")


@asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """Runs the app's lifespan and yields an async client for concurrent in-process requests."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=60) as client:
            yield client


def run_async(make: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(make())  # type: ignore[arg-type]


def metric(text: str, name: str, labels: str = "") -> float:
    """The value of one sample in Prometheus text, e.g. metric(t, "embedding_texts_total")."""
    pattern = re.escape(name) + (r"\{" + re.escape(labels) + r"\}" if labels else "") + r" ([0-9.e+-]+)\n"
    found = re.search(pattern, text)
    assert found, f"{name}{{{labels}}} not in metrics:\n{text}"
    return float(found.group(1))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """Starts `python -m monorag_embedding_server` (fake model) on `port` and waits for /ready."""
    cmd = [sys.executable, "-m", "monorag_embedding_server", "--port", str(port), "--model-impl", "fake", *args]
    child = subprocess.Popen(cmd, cwd=SRC, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ready").status_code == 200:
                return child
        except httpx.TransportError:
            pass  # not listening yet
        if child.poll() is not None or time.monotonic() > deadline:
            child.kill()
            raise AssertionError(f"server did not start: {child.communicate()[1]}")
        time.sleep(0.1)
