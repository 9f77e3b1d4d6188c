"""The real command line, as the TypeScript side launches it: cwd = src, `python -m`."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import httpx

from helpers import SRC, free_port, metric, start_server


def test_serves_then_exits_by_itself_when_idle():
    port = free_port()
    args = [sys.executable, "-m", "monorag_embedding_server", "--port", str(port), "--idle-seconds", "1", "--model-impl", "fake"]
    child = subprocess.Popen(args, cwd=SRC, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/health").json() == {"status": "ok"}
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.1)
        body = httpx.post(f"http://127.0.0.1:{port}/embed", json={"texts": ["a b"]}).json()
        assert body["dim"] == 384
        out, err = child.communicate(timeout=15)
    finally:
        child.kill()
    assert child.returncode == 0
    assert out == "", "stdout must stay unused"
    records = [json.loads(line) for line in err.splitlines() if line.strip()]
    assert {"time", "level", "logger", "msg"} <= set(records[0])
    assert any(r["msg"] == "ready" and r["model"] == "fake-hash-embedder-py" for r in records)
    assert any("shutting down" in r["msg"] for r in records)


def test_sigterm_finishes_the_request_in_flight_then_exits():
    port = free_port()
    env = {**os.environ, "EMBEDDING_FAKE_DELAY_MS": "1500", "EMBEDDING_WARMUP": "false"}
    child = start_server(port, env=env)
    url = f"http://127.0.0.1:{port}"
    answers = []
    try:
        sender = threading.Thread(
            target=lambda: answers.append(httpx.post(f"{url}/embed", json={"texts": ["in flight"]}, timeout=30))
        )
        sender.start()
        deadline = time.monotonic() + 20
        while metric(httpx.get(f"{url}/metrics").text, "embedding_in_flight_requests") < 2:  # the embed + this scrape
            assert time.monotonic() < deadline, "the request never arrived"
            time.sleep(0.05)
        child.send_signal(signal.SIGTERM)
        sender.join(timeout=30)
        _, err = child.communicate(timeout=30)
    finally:
        child.kill()
    # uvicorn re-raises the signal once its clean shutdown is done, so the process ends "by SIGTERM".
    assert child.returncode == -signal.SIGTERM, err
    assert len(answers) == 1
    assert answers[0].status_code == 200
    assert len(answers[0].json()["embeddings"]) == 1
    assert "every queued request was answered" in err
