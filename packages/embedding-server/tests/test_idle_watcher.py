"""IdleWatcher counts idle time only when no request is in flight."""

import asyncio

import pytest

from monorag_embedding_server.idle_watcher import IdleWatcher


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_idle_time_counts_from_end_of_last_request():
    clock = Clock()
    watcher = IdleWatcher(10, lambda: None, clock=clock)
    clock.now += 4
    assert watcher.idle_for() == 4
    watcher.request_started()
    clock.now += 50
    assert watcher.idle_for() == 0
    watcher.request_finished()
    clock.now += 3
    assert watcher.idle_for() == 3


def test_rejects_non_positive_idle_seconds():
    with pytest.raises(ValueError, match="idle_seconds must be > 0"):
        IdleWatcher(0, lambda: None)


def test_run_calls_on_idle_once():
    calls = []
    asyncio.run(IdleWatcher(0.05, lambda: calls.append(1)).run())
    assert calls == [1]
