"""``gm-middleware serve`` with its Python memory traced, for the load test's ``GM_LOAD_TRACE`` runs.

Run as ``python -m tests.benchmarks.traced_serve <serve's arguments>``: the same command, with
``tracemalloc`` on (one frame per allocation) and one more route, ``GET /debug/memory``, answering
what the process holds now: the traced bytes (now, and the peak since the last call), the objects
the collector tracks, the fill of every cache the proxy keeps, and the allocation sites that grew
most since the last call. Never part of the package: the load test starts it in place of ``serve``.
"""

from __future__ import annotations

import gc
import sys
import tracemalloc
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

import middleware.cli.serve as serve_module
from middleware.cli import main
from middleware.cli.serve import ProxyApp

_real_proxy_app = serve_module.proxy_app
_last: list[tracemalloc.Snapshot] = []


def _sizes(app: Any, engine: Any) -> dict[str, int]:
    """How full each cache the proxy keeps is (entries)."""
    proxy = next(r.endpoint.__self__ for r in app.routes if r.path == "/v1/chat/completions")
    writer = engine._writer
    return {"engine.games": len(engine._games), "engine.rulesets": len(engine._rulesets),
            "engine.states": len(engine._states), "engine.written": len(engine._written),
            "engine.last": len(engine._last), "engine.odds": len(engine._odds),
            "writer.characters": len(writer._characters._cache),
            "writer.stacks": len(writer._stacks._cache), "writer.runs": len(writer._runs),
            "index.chats": len(proxy.tree.index),
            "index.keys": len(proxy.tree.index._spots),
            "shown.known": len(proxy.history._known), "shown.texts": len(proxy.history._texts),
            "store.parts": len(getattr(engine.store, "_parts", ())),
            "inflight": len(getattr(proxy.inflight, "_running", ()))}


def _grown(top: int = 12) -> list[str]:
    """The allocation sites that grew most since the last call (all of them, the first time)."""
    now = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)])
    stats = now.compare_to(_last[0], "lineno") if _last else now.statistics("lineno")
    _last[:] = [now]
    return [str(s) for s in stats[:top]]


def _traced(app: ASGIApp, engine: Any) -> ASGIApp:
    async def memory(request: Request) -> JSONResponse:
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        return JSONResponse({"traced_mb": current / 1e6, "peak_mb": peak / 1e6,
                             "gc_objects": len(gc.get_objects()), "caches": _sizes(app, engine),
                             "grown": _grown()})

    async def traced(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/debug/memory":
            await (await memory(Request(scope, receive)))(scope, receive, send)
        else:
            await app(scope, receive, send)
    return traced


async def _proxy_app(*args: Any, **kwargs: Any) -> ProxyApp:
    made = await _real_proxy_app(*args, **kwargs)
    return ProxyApp(_traced(made.app, made.engine), made.engine, made.close)  # type: ignore[arg-type]


if __name__ == "__main__":
    tracemalloc.start(1)
    serve_module.proxy_app = _proxy_app
    sys.argv = ["gm-middleware", "serve", *sys.argv[1:]]
    main()
