"""The OpenAI-compatible proxy face (SPEC §7): ``gm-middleware serve``.

``create_app`` builds the ASGI app over an ``Engine`` and an ``Upstream`` (``HttpUpstream`` for a
real model server); ``GameConfig`` is what a new chat's game starts with; ``ServeOptions`` how
the proxy runs (display, limits, token).
"""

from middleware.proxy.app import GameConfig, create_app
from middleware.proxy.options import ServeOptions
from middleware.proxy.upstream import HttpUpstream, Upstream

__all__ = ["GameConfig", "HttpUpstream", "ServeOptions", "Upstream", "create_app"]
