"""GET /metrics: Prometheus text with requests, latency, batch sizes and throughput."""

from helpers import metric


def test_metrics_count_requests_latency_and_texts(fake_client):
    fake_client.post("/embed", json={"texts": ["a b", "c"]})
    fake_client.post("/embed", json={"texts": ["d"]})
    fake_client.post("/embed", json={"texts": []})
    fake_client.post("/v1/embeddings", json={"input": "e"})
    fake_client.get("/nowhere")
    response = fake_client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert metric(text, "embedding_requests_total", 'endpoint="/embed",status="200"') == 2
    assert metric(text, "embedding_requests_total", 'endpoint="/embed",status="422"') == 1
    assert metric(text, "embedding_requests_total", 'endpoint="/v1/embeddings",status="200"') == 1
    assert metric(text, "embedding_requests_total", 'endpoint="other",status="404"') == 1
    assert metric(text, "embedding_request_duration_seconds_count", 'endpoint="/embed"') == 3
    assert metric(text, "embedding_texts_total") == 4
    assert metric(text, "embedding_texts_per_second") > 0
    assert metric(text, "embedding_ready") == 1
    assert "embedding_forward_duration_seconds_bucket" in text
