"""structlog set-up: one event per resolved tag (SPEC §9); JSON lines when not on a terminal."""

from __future__ import annotations

import logging
import sys
from typing import Any, TextIO

import orjson
import structlog


def configure(level: int = logging.INFO, *, stream: TextIO | None = None) -> None:
    """Configure structlog once for a face (CLI, proxy). Libraries never call this on import."""
    out = stream or sys.stderr
    renderer: Any = (structlog.dev.ConsoleRenderer() if out.isatty()
                     else structlog.processors.JSONRenderer(serializer=_json_line))
    # One writer for every logger: ``WriteLoggerFactory`` built a new one, looking up its file's
    # lock, on every bind, and the engine binds once per reply.
    writer = structlog.WriteLogger(out)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=lambda *_: writer,
        cache_logger_on_first_use=False,
    )


_LOGGER = structlog.get_logger("gm_middleware")


def get_logger() -> Any:
    """The package's logger: one lazy proxy, which reads structlog's configuration on every bind."""
    return _LOGGER


def _json_line(event: dict[str, Any], **options: Any) -> str:
    """One event as a JSON line, by orjson: the event per tag (SPEC §9) is written on every reply
    the proxy serves, and the standard library's encoder took twice as long as the rest of it."""
    return orjson.dumps(event, default=options.get("default")).decode()
