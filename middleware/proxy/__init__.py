"""The OpenAI-compatible proxy face (SPEC §7): ``gm-middleware serve``.

``create_app`` builds the ASGI app over an ``Engine`` and an ``Upstream`` (``HttpUpstream`` for a
real model server); ``GameConfig`` is what a new chat's game starts with; ``ServeOptions`` how
the proxy runs (display, limits, token). Each is imported from its module on first use (PEP 562),
so that reading ``middleware.proxy.options`` costs neither starlette nor aiohttp.
"""

import typing

import middleware.lazy as _lazy

if typing.TYPE_CHECKING:
    from middleware.proxy.app import GameConfig, create_app
    from middleware.proxy.options import ServeOptions
    from middleware.proxy.upstream import HttpUpstream, Upstream

__all__ = ["GameConfig", "HttpUpstream", "ServeOptions", "Upstream", "create_app"]

_SOURCES: dict[str, str] = {
    "GameConfig": "middleware.proxy.app",
    "HttpUpstream": "middleware.proxy.upstream",
    "ServeOptions": "middleware.proxy.options",
    "Upstream": "middleware.proxy.upstream",
    "create_app": "middleware.proxy.app",
}
"""Each public name imported on first use, and the module it comes from."""

_lazy.lazy_package(__name__, _SOURCES)
