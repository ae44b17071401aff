"""One log stream for ``serve``: uvicorn's access and error lines (and any other library's
warnings) written as structlog events beside the engine's, so the output is one JSON line per
event rather than plain text mixed into JSON.

An access line is the ``http-request`` event with its client, method, path and status; any other
line is a ``server`` event with the logger's name and the message.
"""

from __future__ import annotations

import logging
from typing import Any

from middleware.logs import get_logger


class ToStructlog(logging.Handler):
    """A ``logging`` handler that writes each record as a structlog event."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            event, fields = _event(record)
            get_logger().log(record.levelno, event, **fields)
        except Exception:  # a log line must never take the server down
            self.handleError(record)


def _event(record: logging.LogRecord) -> tuple[str, dict[str, Any]]:
    """The event name and its fields."""
    args = record.args
    if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
        client, method, path, version, status = args
        return "http-request", {"client": client, "method": method, "path": path,
                                "http": version, "status": status}
    fields: dict[str, Any] = {"logger": record.name, "message": record.getMessage()}
    if record.exc_info:
        fields["exc_info"] = record.exc_info
    return "server", fields


def uvicorn_log_config(level: int) -> dict[str, Any]:
    """The ``log_config`` for uvicorn: its loggers, and the root's warnings, through structlog."""
    handler = {"handlers": ["structlog"], "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"structlog": {"()": ToStructlog}},
        "root": {"handlers": ["structlog"], "level": "WARNING"},
        "loggers": {"uvicorn": {**handler, "level": level},
                    "uvicorn.error": {**handler, "level": level},
                    "uvicorn.access": {**handler, "level": level}},
    }
