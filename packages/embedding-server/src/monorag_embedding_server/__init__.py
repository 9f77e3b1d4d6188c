"""monorag embedding server: POST /embed, GET /health, GET /info over a sentence-transformers model."""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
