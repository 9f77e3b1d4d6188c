"""JSON log lines on stderr: one object per record with time, level, logger, message and extras."""

from __future__ import annotations

import json
import logging
import sys
from datetime import datetime, timezone
from typing import Any

# Attributes every LogRecord has; anything else was passed with `extra=` and is logged as a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "color_message"}
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """Formats a record as `{"time", "level", "logger", "msg", ...extra, "exc"?}` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def log_config(level: str, fmt: str = "json") -> dict[str, Any]:
    """A `logging.config.dictConfig` for the server and uvicorn: everything to stderr, stdout unused.

    `fmt` is `json` (one object per line) or `text`. Pass it to uvicorn as `log_config`.
    """
    formatter: dict[str, Any] = {"()": JsonFormatter} if fmt == "json" else {"format": TEXT_FORMAT}
    handler = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "main"}
    logger = {"handlers": ["stderr"], "level": level, "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"stderr": handler},
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {"uvicorn": logger, "uvicorn.access": logger, "uvicorn.error": logger},
    }


def configure_logging(level: str, fmt: str = "json") -> None:
    """Applies `log_config(level, fmt)` to this process's logging."""
    import logging.config

    logging.config.dictConfig(log_config(level, fmt))
    logging.captureWarnings(True)
    sys.stderr.flush()
