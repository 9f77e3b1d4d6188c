"""Idle shutdown: calls a callback once no request has been seen for `idle_seconds`."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable

log = logging.getLogger("monorag_embedding_server.idle")


class IdleWatcher:
    """Tracks requests in flight and the time of the last one; `run()` fires `on_idle` once.

    Time is in seconds (monotonic clock). A request in flight is never cut off: the idle time
    counts from the end of the last request.
    """

    def __init__(self, idle_seconds: float, on_idle: Callable[[], None], clock: Callable[[], float] = time.monotonic) -> None:
        if idle_seconds <= 0:
            raise ValueError(f"idle_seconds must be > 0, got {idle_seconds}")
        self.idle_seconds = idle_seconds
        self._on_idle = on_idle
        self._clock = clock
        self._last = clock()
        self._in_flight = 0

    def request_started(self) -> None:
        self._in_flight += 1
        self._last = self._clock()

    def request_finished(self) -> None:
        self._in_flight -= 1
        self._last = self._clock()

    def idle_for(self) -> float:
        """Seconds since the last request ended; 0 while one is in flight."""
        return 0.0 if self._in_flight > 0 else self._clock() - self._last

    async def run(self) -> None:
        """Sleeps until idle for `idle_seconds`, then calls `on_idle` and returns.

        Idle time counts from when `run()` starts (the server is ready), not from construction: a
        model that takes longer to load than `idle_seconds` must not stop the server before its first
        request.
        """
        if self._in_flight == 0:
            self._last = self._clock()
        tick = min(self.idle_seconds / 4, 1.0)
        while self.idle_for() < self.idle_seconds:
            await asyncio.sleep(tick)
        log.info("no request for %.0f s; shutting down", self.idle_seconds)
        self._on_idle()
