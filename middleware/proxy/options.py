"""How ``gm-middleware serve`` runs the proxy: what it shows, what it accepts, what it keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # an annotation only: the CLI reads these defaults without the display's imports
    from middleware.display import Display

MAX_BODY: Final = 8 * 1024 * 1024
"""The default limit on a request body (bytes): a longer one is refused with 413 (SPEC §8)."""

READ_TIMEOUT: Final = 10.0
"""The default seconds a client has to send a request's line and headers (then it is closed)."""

BODY_TIMEOUT: Final = 60.0
"""The default seconds a client has to send a request's whole body (then 408, and closed)."""

MAX_CONNECTIONS: Final = 1000
"""The default number of connections and requests served at once (past it: 503)."""


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """``display``: what the chat is shown (the engine's resolved tags, or a card line per tag);
    ``max_body``: the longest request body accepted, in bytes; ``auth_token``: a bearer token
    every request may carry, and ``tokens`` more (token, player name or None): with any, every
    request must carry one of them (none: every request plays as its own ``Authorization``,
    ``access``); ``keepalive``: seconds between SSE comments while a stream has nothing to send
    (0: none); ``chats``: how many chats are kept in memory (one evicted is read back from the
    store); ``timeout``: seconds the upstream may take to answer (then 504); ``read_timeout``,
    ``body_timeout``: seconds a client has for its headers and for its body;
    ``max_connections``: connections and requests served at once; ``tools``: tool mode, the model
    calls the Engine's functions instead of writing tags (``middleware.proxy.tools``)."""

    display: Display = "tags"
    max_body: int = MAX_BODY
    auth_token: str | None = None
    tokens: tuple[tuple[str, str | None], ...] = ()
    keepalive: float = 10.0
    chats: int = 1024
    timeout: float = 300.0
    tools: bool = False
    read_timeout: float = READ_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    max_connections: int = MAX_CONNECTIONS

    def all_tokens(self) -> tuple[tuple[str, str | None], ...]:
        """``auth_token`` (as a token of its own) and ``tokens``."""
        return ((self.auth_token, None), *self.tokens) if self.auth_token else self.tokens
