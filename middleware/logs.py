"""structlog set-up: one event per resolved tag (SPEC §9); JSON lines when not on a terminal."""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog


def configure(level: int = logging.INFO, *, stream: Any = None) -> None:
    """Configure structlog once for a face (CLI, proxy). Libraries never call this on import."""
    out = stream or sys.stderr
    renderer: Any = (structlog.dev.ConsoleRenderer() if out.isatty()
                     else structlog.processors.JSONRenderer())
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(out),
        cache_logger_on_first_use=False,
    )


def get_logger() -> Any:
    """The package's logger."""
    return structlog.get_logger("gm_middleware")
