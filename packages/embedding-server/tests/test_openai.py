"""POST /v1/embeddings in the OpenAI-compatible shape."""

import base64

import numpy as np
from fastapi.testclient import TestClient

from monorag_embedding_server import Settings, create_app


def test_list_input_gives_openai_shape_with_usage(fake_client):
    response = fake_client.post("/v1/embeddings", json={"input": ["parse http headers", "bake bread"], "model": "fake-hash-embedder-py"})
    assert response.status_code == 200
    body = response.json()
    assert body["object"] == "list"
    assert body["model"] == "fake-hash-embedder-py"
    assert [(d["object"], d["index"], len(d["embedding"])) for d in body["data"]] == [("embedding", 0, 384), ("embedding", 1, 384)]
    # words + 2 special tokens each: (3 + 2) + (2 + 2)
    assert body["usage"] == {"prompt_tokens": 9, "total_tokens": 9}
    native = fake_client.post("/embed", json={"texts": ["parse http headers", "bake bread"]}).json()["embeddings"]
    np.testing.assert_allclose([d["embedding"] for d in body["data"]], native, atol=1e-6)


def test_string_input_and_base64_encoding(fake_client):
    floats = fake_client.post("/v1/embeddings", json={"input": "read the config"}).json()["data"]
    encoded = fake_client.post("/v1/embeddings", json={"input": "read the config", "encoding_format": "base64"}).json()["data"]
    assert len(floats) == 1
    decoded = np.frombuffer(base64.b64decode(encoded[0]["embedding"]), dtype="<f4")
    np.testing.assert_allclose(decoded, floats[0]["embedding"], atol=1e-7)


def test_another_model_name_is_404_naming_the_served_model(fake_client):
    response = fake_client.post("/v1/embeddings", json={"input": "x", "model": "text-embedding-3-small"})
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "model_not_found"
    assert error["param"] == "model"
    assert "'fake-hash-embedder-py'" in error["message"]


def test_limits_and_bad_input_use_openai_error_shape(fake_client):
    too_many = fake_client.post("/v1/embeddings", json={"input": ["a"] * 5})
    assert too_many.status_code == 413
    assert too_many.json()["error"]["type"] == "invalid_request_error"
    assert "the limit is 4" in too_many.json()["error"]["message"]
    too_long = fake_client.post("/v1/embeddings", json={"input": ["ok", "x" * 51]})
    assert too_long.status_code == 422
    assert too_long.json()["error"]["param"] == "input[1]"
    tokens = fake_client.post("/v1/embeddings", json={"input": [1, 2, 3]})
    assert tokens.status_code == 422
    assert tokens.json()["error"]["message"].startswith("input")


def test_usage_counts_only_the_tokens_the_model_saw():
    with TestClient(create_app(Settings(model_impl="fake"))) as client:
        body = client.post("/v1/embeddings", json={"input": ["w " * 400]}).json()
        assert body["usage"]["prompt_tokens"] == 256
        assert body["truncated"] == [0]
