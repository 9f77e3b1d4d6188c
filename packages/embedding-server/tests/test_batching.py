"""Dynamic batching: concurrent requests share forward calls, bounded in size, each gets its own rows."""

import asyncio

import numpy as np
import pytest

from monorag_embedding_server import Settings, create_app
from monorag_embedding_server.batcher import BatcherClosedError, DynamicBatcher

from helpers import metric, run_async, running


def test_concurrent_requests_share_one_forward_call():
    # A long join window makes this independent of machine load; the fake model is slow enough
    # that nothing starts before all eight requests are in.
    app = create_app(Settings(model_impl="fake", batch_wait_ms=300, fake_delay_ms=100))

    async def scenario():
        async with running(app) as client:
            texts = [[f"request {i} text a", f"request {i} text b"] for i in range(8)]
            answers = await asyncio.gather(*(client.post("/embed", json={"texts": t}) for t in texts))
            solo = await client.post("/embed", json={"texts": texts[5]})
            return texts, answers, solo, (await client.get("/metrics")).text

    texts, answers, solo, metrics = run_async(scenario)
    assert [a.status_code for a in answers] == [200] * 8
    # Each request gets its own rows, the same as when it is embedded alone.
    np.testing.assert_allclose(answers[5].json()["embeddings"], solo.json()["embeddings"], atol=1e-6)
    assert all(len(a.json()["embeddings"]) == 2 for a in answers)
    # 8 requests of 2 texts in one forward call, then the solo request in a second one.
    assert metric(metrics, "embedding_batch_size_texts_count") == 2
    assert metric(metrics, "embedding_batch_size_texts_sum") == 18
    assert metric(metrics, "embedding_batch_requests_sum") == 9
    assert metric(metrics, "embedding_texts_total") == 18


def test_batches_never_exceed_max_batch_texts():
    app = create_app(Settings(model_impl="fake", max_batch_texts=4, batch_wait_ms=100, fake_delay_ms=20))

    async def scenario():
        async with running(app) as client:
            answers = await asyncio.gather(*(client.post("/embed", json={"texts": [f"t{i}", f"u{i}"]}) for i in range(8)))
            return answers, (await client.get("/metrics")).text

    answers, metrics = run_async(scenario)
    assert [a.status_code for a in answers] == [200] * 8
    assert metric(metrics, "embedding_batch_size_texts_sum") == 16
    batches = metric(metrics, "embedding_batch_size_texts_count")
    assert batches >= 4
    assert metric(metrics, "embedding_batch_size_texts_bucket", 'le="4.0"') == batches


def test_a_request_larger_than_the_batch_bound_runs_whole():
    app = create_app(Settings(model_impl="fake", max_batch_texts=2))

    async def scenario():
        async with running(app) as client:
            answer = await client.post("/embed", json={"texts": ["a", "b", "c", "d", "e"]})
            return answer, (await client.get("/metrics")).text

    answer, metrics = run_async(scenario)
    assert len(answer.json()["embeddings"]) == 5
    assert metric(metrics, "embedding_batch_size_texts_count") == 1
    assert metric(metrics, "embedding_batch_size_texts_sum") == 5


def forward_lengths(texts):
    return np.array([[float(len(t))] for t in texts], dtype=np.float32), [len(t) for t in texts]


def test_batcher_splits_rows_back_to_their_requests():
    async def scenario():
        batcher = DynamicBatcher(forward_lengths, max_batch_texts=16, max_wait_ms=50)
        batcher.start()
        results = await asyncio.gather(batcher.embed(["a", "bb"]), batcher.embed(["ccc"]), batcher.embed(["dddd", "eeeee", "f"]))
        await batcher.close()
        return results

    results = run_async(scenario)
    assert [r[0][:, 0].tolist() for r in results] == [[1, 2], [3], [4, 5, 1]]
    assert [r[1] for r in results] == [[1, 2], [3], [4, 5, 1]]


def test_batcher_gives_a_forward_error_to_every_request_of_that_batch():
    def broken(texts):
        raise ValueError("bad batch")

    async def scenario():
        batcher = DynamicBatcher(broken, max_batch_texts=16, max_wait_ms=50)
        batcher.start()
        results = await asyncio.gather(batcher.embed(["a"]), batcher.embed(["b"]), return_exceptions=True)
        await batcher.close()
        return results

    results = run_async(scenario)
    assert [type(r) for r in results] == [ValueError, ValueError]


def test_close_finishes_queued_requests_then_refuses_new_ones():
    calls = []

    def slow(texts):
        import time

        calls.append(list(texts))
        time.sleep(0.2)
        return forward_lengths(texts)

    async def scenario():
        batcher = DynamicBatcher(slow, max_batch_texts=1, max_wait_ms=0)
        batcher.start()
        pending = [asyncio.ensure_future(batcher.embed([t])) for t in ["a", "bb", "ccc"]]
        await asyncio.sleep(0.05)  # the first forward call is running, two requests are queued
        await batcher.close()
        done = [p.result()[1] for p in pending]
        with pytest.raises(BatcherClosedError):
            await batcher.embed(["late"])
        return done

    assert run_async(scenario) == [[1], [2], [3]]
    assert calls == [["a"], ["bb"], ["ccc"]]
