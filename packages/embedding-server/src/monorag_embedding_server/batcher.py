"""Dynamic batching: requests that arrive within a few milliseconds share one forward call.

One asyncio task takes the oldest waiting request, waits up to `max_wait_ms` for others to arrive,
gathers whole requests while their texts fit in `max_batch_texts`, runs one forward call in a worker
thread (so the event loop keeps accepting requests), and hands each request its own rows. Forward
calls never overlap: the model runs one batch at a time.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import anyio
import numpy as np

log = logging.getLogger("monorag_embedding_server.batcher")

Forward = Callable[[list[str]], tuple[np.ndarray, list[int]]]
"""Embeds texts and counts their tokens: returns (vectors of shape (n, dim), tokens per text)."""
BatchObserver = Callable[[int, int, float], None]
"""Called after each forward call with (texts, requests, seconds)."""


class BatcherClosedError(RuntimeError):
    """The batcher is shutting down and takes no new requests."""


@dataclass
class _Job:
    texts: list[str]
    future: asyncio.Future[tuple[np.ndarray, list[int]]]
    queued_at: float = field(default_factory=time.perf_counter)


class DynamicBatcher:
    """Gathers concurrent `embed` calls into forward calls of at most `max_batch_texts` texts.

    A request with more than `max_batch_texts` texts runs alone, whole. Use `start()` inside a
    running event loop and `close()` to finish every queued request and stop.
    """

    def __init__(
        self,
        forward: Forward,
        max_batch_texts: int,
        max_wait_ms: float,
        on_batch: BatchObserver | None = None,
    ) -> None:
        if max_batch_texts < 1:
            raise ValueError(f"max_batch_texts must be >= 1, got {max_batch_texts}")
        self._forward = forward
        self._max_texts = max_batch_texts
        self._max_wait = max_wait_ms / 1000
        self._on_batch = on_batch
        self._pending: collections.deque[_Job] = collections.deque()
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._busy = False

    @property
    def queued_texts(self) -> int:
        """Texts waiting for a forward call (not counting the batch being run)."""
        return sum(len(job.texts) for job in self._pending)

    def start(self) -> None:
        """Starts the batching task on the running event loop."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="dynamic-batcher")

    async def embed(self, texts: Sequence[str]) -> tuple[np.ndarray, list[int]]:
        """Embeds `texts` (non-empty) in some forward call; returns their vectors and token counts.

        Raises BatcherClosedError once `close()` has been called, and whatever the forward call raised.
        """
        if self._closing or self._task is None:
            raise BatcherClosedError("the server is shutting down")
        job = _Job(list(texts), asyncio.get_running_loop().create_future())
        self._pending.append(job)
        self._wakeup.set()
        return await job.future

    async def close(self) -> None:
        """Refuses new requests, finishes every queued one, then stops the task."""
        self._closing = True
        while self._pending or self._busy:
            await asyncio.sleep(0.01)
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass  # the task was idle, waiting for work: cancelling it is how it stops

    async def _wait_for_job(self, timeout: float | None) -> bool:
        """Waits until a request is pending; False when `timeout` (s) passed first."""
        while not self._pending:
            self._wakeup.clear()
            try:
                await asyncio.wait_for(self._wakeup.wait(), timeout)
            except TimeoutError:
                return False
        return True

    def _take_batch(self) -> list[_Job]:
        batch = [self._pending.popleft()]
        size = len(batch[0].texts)
        while self._pending and size + len(self._pending[0].texts) <= self._max_texts:
            job = self._pending.popleft()
            batch.append(job)
            size += len(job.texts)
        return batch

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            was_idle = not self._pending
            await self._wait_for_job(None)
            deadline = loop.time() + self._max_wait
            # After an idle spell, let others join until the wait is over or the batch is full. Requests
            # that queued up during the previous forward call go at once: they have waited already.
            while was_idle and self.queued_texts < self._max_texts:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                self._wakeup.clear()
                try:
                    await asyncio.wait_for(self._wakeup.wait(), remaining)
                except TimeoutError:
                    break
            self._busy = True
            try:
                await self._run_batch(self._take_batch())
            finally:
                self._busy = False

    async def _run_batch(self, batch: list[_Job]) -> None:
        live = [job for job in batch if not job.future.done()]  # a client that went away has a cancelled future
        if not live:
            return
        texts = [text for job in live for text in job.texts]
        started = time.perf_counter()
        try:
            vectors, tokens = await anyio.to_thread.run_sync(self._forward, texts)
        except Exception as error:  # the forward call failed: every request of this batch gets the error
            log.exception("forward call of %d texts failed", len(texts))
            for job in live:
                if not job.future.done():
                    job.future.set_exception(error)
            return
        seconds = time.perf_counter() - started
        if self._on_batch is not None:
            self._on_batch(len(texts), len(live), seconds)
        offset = 0
        for job in live:
            end = offset + len(job.texts)
            if not job.future.done():
                job.future.set_result((vectors[offset:end], tokens[offset:end]))
            offset = end
