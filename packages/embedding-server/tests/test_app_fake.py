"""HTTP contract of the app, with the deterministic fake model."""

import math

from fastapi.testclient import TestClient

from monorag_embedding_server import Settings, create_app

from helpers import metric, run_async, running


def test_health_ready_and_info(fake_client):
    assert fake_client.get("/health").json() == {"status": "ok"}
    assert fake_client.get("/ready").json() == {"status": "ready"}
    assert fake_client.get("/info").json() == {
        "model": "fake-hash-embedder-py",
        "dim": 384,
        "maxSeqLength": 256,
        "device": "cpu",
        "maxTexts": 4,
        "maxChars": 50,
        "maxBatchTexts": 128,
    }


def test_vocab_is_404_when_the_model_has_no_wordpiece_vocabulary(fake_client):
    response = fake_client.get("/vocab")
    assert response.status_code == 404
    assert "has no uncased BERT WordPiece vocabulary" in response.json()["detail"]


def test_embed_returns_one_unit_vector_per_text_in_order(fake_client):
    texts = ["parse http headers", "bake bread", "parse http headers"]
    body = fake_client.post("/embed", json={"texts": texts}).json()
    assert body["model"] == "fake-hash-embedder-py"
    assert body["dim"] == 384
    assert body["truncated"] == []
    vectors = body["embeddings"]
    assert len(vectors) == 3
    assert all(len(v) == 384 for v in vectors)
    for v in vectors:
        assert math.isclose(math.fsum(x * x for x in v), 1.0, rel_tol=1e-5)
    assert vectors[0] == vectors[2]
    assert vectors[0] != vectors[1]


def test_empty_list_is_422(fake_client):
    response = fake_client.post("/embed", json={"texts": []})
    assert response.status_code == 422
    assert "texts is empty" in response.json()["detail"]


def test_too_many_texts_is_413_naming_the_limit(fake_client):
    response = fake_client.post("/embed", json={"texts": ["a"] * 5})
    assert response.status_code == 413
    assert "5 in one request, the limit is 4" in response.json()["detail"]


def test_text_over_char_limit_is_422_naming_index_and_limit(fake_client):
    response = fake_client.post("/embed", json={"texts": ["ok", "x" * 51]})
    assert response.status_code == 422
    assert "texts[1] has 51 characters, over the limit of 50" in response.json()["detail"]


def test_body_over_byte_limit_is_413():
    with TestClient(create_app(Settings(model_impl="fake", max_body_bytes=100))) as client:
        response = client.post("/embed", json={"texts": ["y" * 200]})
        assert response.status_code == 413
        assert "over the limit of 100 bytes (EMBEDDING_MAX_BODY_BYTES)" in response.json()["detail"]
        assert client.post("/embed", json={"texts": ["short"]}).status_code == 200


def test_non_string_is_422_naming_the_item(fake_client):
    response = fake_client.post("/embed", json={"texts": ["ok", 7]})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("texts[1]: Input should be a valid string")


def test_missing_texts_is_422(fake_client):
    response = fake_client.post("/embed", json={"text": ["a"]})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("texts: Field required")


def test_reports_texts_longer_than_max_seq_length_as_truncated():
    # The fake model counts words + 2 special tokens against max_seq_length 256.
    long_text = "word " * 300
    with TestClient(create_app(Settings(model_impl="fake"))) as client:
        body = client.post("/embed", json={"texts": ["short", long_text, "also short", "w " * 254]}).json()
        assert body["truncated"] == [1]
        assert body["maxSeqLength"] == 256
        assert metric(client.get("/metrics").text, "embedding_truncated_texts_total") == 1


def test_settings_come_from_embedding_env(monkeypatch):
    monkeypatch.setenv("EMBEDDING_MAX_TEXTS", "2")
    monkeypatch.setenv("EMBEDDING_MODEL_IMPL", "fake")
    monkeypatch.setenv("EMBEDDING_MAX_BATCH_TEXTS", "16")
    settings = Settings()
    assert settings.max_texts == 2
    assert settings.max_batch_texts == 16
    with TestClient(create_app(settings)) as client:
        assert client.post("/embed", json={"texts": ["a", "b", "c"]}).status_code == 413


def test_model_failure_is_500_with_a_message(monkeypatch):
    from monorag_embedding_server.model import FakeModel

    app = create_app(Settings(model_impl="fake", warmup=False))

    def broken(self, texts):
        raise RuntimeError("out of memory")

    with TestClient(app) as client:
        monkeypatch.setattr(FakeModel, "embed", broken)
        response = client.post("/embed", json={"texts": ["a"]})
        assert response.status_code == 500
        assert "RuntimeError: out of memory" in response.json()["detail"]
        monkeypatch.undo()
        assert client.post("/embed", json={"texts": ["a"]}).status_code == 200, "one failed batch does not stop the server"


def test_ready_is_503_draining_after_shutdown_began():
    app = create_app(Settings(model_impl="fake"))

    async def scenario():
        import httpx

        async with running(app) as client:
            assert (await client.get("/ready")).status_code == 200
        # The lifespan has ended: the app no longer takes work and says why.
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as after:
            ready = await after.get("/ready")
            embed = await after.post("/embed", json={"texts": ["a"]})
        return ready, embed

    ready, embed = run_async(scenario)
    assert (ready.status_code, ready.json()) == (503, {"status": "draining"})
    assert embed.status_code == 503
    assert "Not taking requests" in embed.json()["detail"]


def test_idle_callback_fires_after_idle_seconds():
    fired = []
    app = create_app(Settings(model_impl="fake", idle_seconds=0.2), on_idle=lambda: fired.append(True))
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
        import time

        time.sleep(0.6)
    assert fired == [True]
