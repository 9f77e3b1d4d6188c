"""The real command line, as the TypeScript side launches it: cwd = src, `python -m`."""

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

SRC = Path(__file__).resolve().parent.parent / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    assert "shutting down" in err
