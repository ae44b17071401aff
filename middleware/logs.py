"""structlog set-up: one event per resolved tag (SPEC §9); JSON lines when not on a terminal."""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from typing import TextIO

import orjson
import structlog
from structlog.typing import FilteringBoundLogger, Processor


def configure(level: int = logging.INFO, *, stream: TextIO | None = None) -> None:
    """Configure structlog once for a face (CLI, proxy). Libraries never call this on import."""
    out = stream or sys.stderr
    renderer: Processor = (structlog.dev.ConsoleRenderer() if out.isatty()
                     else structlog.processors.JSONRenderer(serializer=_json_line))
    # One writer for every logger: ``WriteLoggerFactory`` built a new one, looking up its file's
    # lock, on every bind, and the engine binds once per reply.
    writer = structlog.WriteLogger(out)
    wrapper = structlog.make_filtering_bound_logger(level)
    global _CONFIGURED
    _CONFIGURED = (wrapper, level)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=wrapper,
        logger_factory=lambda *_: writer,
        cache_logger_on_first_use=False,
    )


_LOGGER: FilteringBoundLogger = structlog.get_logger("gm_middleware")

_CONFIGURED: tuple[type, int] | None = None
"""The logger class ``configure`` gave structlog, and its level."""


def get_logger() -> FilteringBoundLogger:
    """The package's logger: one lazy proxy, which reads structlog's configuration on every bind."""
    return _LOGGER


def enabled_for(level: int) -> bool:
    """Whether an event at ``level`` would be written.

    While structlog runs with the logger class ``configure`` gave it, its level answers: asking a
    bound logger binds one first (a logger and its context built from the configuration), which
    cost a replayed reply about 4 µs only to learn that nothing is logged at ``warning``."""
    configured = _CONFIGURED
    if configured is not None and structlog.get_config()["wrapper_class"] is configured[0]:
        return level >= configured[1]
    return get_logger().bind().is_enabled_for(level)


def _json_line(event: Mapping[str, object], **options: object) -> str:
    """One event as a JSON line, by orjson: the event per tag (SPEC §9) is written on every reply
    the proxy serves, and the standard library's encoder took twice as long as the rest of it."""
    default = options.get("default")
    return orjson.dumps(event, default=default if callable(default) else None).decode()
