"""HTTP contract of the app, with the deterministic fake model."""

import math

from fastapi.testclient import TestClient

from monorag_embedding_server import Settings, create_app


def test_health_and_info(fake_client):
    assert fake_client.get("/health").json() == {"status": "ok"}
    assert fake_client.get("/info").json() == {"model": "fake-hash-embedder-py", "dim": 384, "maxSeqLength": 256}


def test_embed_returns_one_unit_vector_per_text_in_order(fake_client):
    texts = ["parse http headers", "bake bread", "parse http headers"]
    body = fake_client.post("/embed", json={"texts": texts}).json()
    assert body["model"] == "fake-hash-embedder-py"
    assert body["dim"] == 384
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


def test_non_string_is_422_naming_the_item(fake_client):
    response = fake_client.post("/embed", json={"texts": ["ok", 7]})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("texts[1]: Input should be a valid string")


def test_missing_texts_is_422(fake_client):
    response = fake_client.post("/embed", json={"text": ["a"]})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("texts: Field required")


def test_settings_come_from_embedding_env(monkeypatch):
    monkeypatch.setenv("EMBEDDING_MAX_TEXTS", "2")
    monkeypatch.setenv("EMBEDDING_MODEL_IMPL", "fake")
    settings = Settings()
    assert settings.max_texts == 2
    with TestClient(create_app(settings)) as client:
        assert client.post("/embed", json={"texts": ["a", "b", "c"]}).status_code == 413


def test_idle_callback_fires_after_idle_seconds():
    fired = []
    app = create_app(Settings(model_impl="fake", idle_seconds=0.2), on_idle=lambda: fired.append(True))
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
        import time

        time.sleep(0.6)
    assert fired == [True]
