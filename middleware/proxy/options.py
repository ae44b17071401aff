"""How ``gm-middleware serve`` runs the proxy: what it shows, what it accepts, what it keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from middleware.display import Display

MAX_BODY: Final = 16 * 1024 * 1024
"""The default limit on a request body (bytes): a longer one is refused with 413 (SPEC §8)."""


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """``display``: what the chat is shown (the engine's resolved tags, or a card line per tag);
    ``max_body``: the longest request body accepted, in bytes; ``auth_token``: the bearer token
    every request must carry (None: no token asked); ``keepalive``: seconds between SSE comments
    while a stream has nothing to send (0: none); ``chats``: how many chats are kept in memory
    (one evicted is read back from the store); ``timeout``: seconds the upstream may take to
    answer (then 504); ``tools``: tool mode, the model calls the Engine's functions instead of
    writing tags (``middleware.proxy.tools``)."""

    display: Display = "tags"
    max_body: int = MAX_BODY
    auth_token: str | None = None
    keepalive: float = 10.0
    chats: int = 1024
    timeout: float = 300.0
    tools: bool = False
