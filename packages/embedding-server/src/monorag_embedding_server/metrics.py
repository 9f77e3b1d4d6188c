"""Prometheus metrics of one app instance (its own registry, so several apps can live in one process)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import CONTENT_TYPE_LATEST

# Request latency in seconds: from a few ms (one short text) to a minute (a full batch on a slow CPU).
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
# Texts per forward call: powers of two up to the default request limit.
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)


class Metrics:
    """The server's metrics, exposed at GET /metrics in the Prometheus text format.

    - `embedding_requests_total{endpoint,status}`: HTTP requests answered.
    - `embedding_request_duration_seconds{endpoint}`: latency histogram.
    - `embedding_batch_size_texts`: texts per forward call (dynamic batching at work);
      `embedding_batch_requests`: requests sharing one forward call.
    - `embedding_forward_duration_seconds`: time of each forward call.
    - `embedding_texts_total`: texts embedded; `rate(embedding_texts_total[1m])` is texts/s.
    - `embedding_texts_per_second`: throughput of the last forward call (texts / its duration).
    - `embedding_truncated_texts_total`: texts longer than the model's maximum sequence length.
    - `embedding_in_flight_requests`, `embedding_queued_texts`, `embedding_ready` (1 when serving).
    """

    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter("embedding_requests", "HTTP requests answered", ["endpoint", "status"], registry=r)
        self.latency = Histogram(
            "embedding_request_duration_seconds", "HTTP request latency", ["endpoint"], buckets=LATENCY_BUCKETS, registry=r
        )
        self.batch_texts = Histogram("embedding_batch_size_texts", "Texts per forward call", buckets=BATCH_BUCKETS, registry=r)
        self.batch_requests = Histogram(
            "embedding_batch_requests", "Requests sharing one forward call", buckets=BATCH_BUCKETS, registry=r
        )
        self.forward_seconds = Histogram(
            "embedding_forward_duration_seconds", "Duration of one forward call", buckets=LATENCY_BUCKETS, registry=r
        )
        self.texts = Counter("embedding_texts", "Texts embedded", registry=r)
        self.texts_per_second = Gauge("embedding_texts_per_second", "Throughput of the last forward call", registry=r)
        self.truncated = Counter("embedding_truncated_texts", "Texts cut at the model's maximum sequence length", registry=r)
        self.in_flight = Gauge("embedding_in_flight_requests", "HTTP requests being handled", registry=r)
        self.queued = Gauge("embedding_queued_texts", "Texts waiting for a forward call", registry=r)
        self.ready = Gauge("embedding_ready", "1 when the model is loaded and warm and the server is not draining", registry=r)

    def observe_batch(self, texts: int, requests: int, seconds: float) -> None:
        """Records one forward call of `texts` texts from `requests` requests that took `seconds`."""
        self.batch_texts.observe(texts)
        self.batch_requests.observe(requests)
        self.forward_seconds.observe(seconds)
        self.texts.inc(texts)
        if seconds > 0:
            self.texts_per_second.set(texts / seconds)

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)
