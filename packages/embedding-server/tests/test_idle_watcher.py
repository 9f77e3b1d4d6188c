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


def test_idle_time_counts_from_run_not_from_construction():
    """A start-up longer than idle_seconds (model loading) must not count as idle time."""
    clock = Clock()
    calls = []
    watcher = IdleWatcher(5, lambda: calls.append(clock.now), clock=clock)
    clock.now += 60  # the model took a minute to load

    async def main() -> None:
        task = asyncio.create_task(watcher.run())
        await asyncio.sleep(0.05)
        assert calls == []  # ready just now: not idle yet
        clock.now += 6
        await asyncio.wait_for(task, 5)

    asyncio.run(main())
    assert calls == [166.0]
