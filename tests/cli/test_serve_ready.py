"""``serve`` loads before it listens what a turn would load on first use (``ready_to_serve``), so
the first player's turn waits no longer than the next.

A fresh interpreter builds the proxy as ``serve`` does (the bundled Hearth and Haul, cards shown,
SQLite), readies it, and plays a first streamed turn over HTTP against a fake model on 127.0.0.1
whose reply holds a check and an item tag: the turn imports no module of the package and builds
no model of the state or the records. Without ``ready_to_serve`` the same turn built the state's
and the records' models and imported a module of the GM's view (about 23 ms of its first byte).
This file is also that interpreter's script (``python -m tests.cli.test_serve_ready DB``).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from tests.loaded import assert_loaded_nothing, first_turn_in_a_fresh_interpreter


def test_a_first_turn_after_serve_is_ready_loads_nothing(tmp_path: Path) -> None:
    found = first_turn_in_a_fresh_interpreter("tests.cli.test_serve_ready",
                                              str(tmp_path / "ready.db"))
    assert found["streamed"].startswith("You set your shoulder")  # the turn was played
    assert "Rope" in found["streamed"]
    assert_loaded_nothing(found)


async def _first_turn(db: str) -> dict[str, object]:
    import httpx

    from middleware.cli.serve import game_config, proxy_app
    from middleware.lazy import ready_to_serve
    from middleware.proxy import ServeOptions
    from tests.loaded import Since
    from tests.proxy.conftest import CHECK, serving
    from tests.proxy.fake_upstream import Answer, FakeUpstream

    reply = f"You set your shoulder to the grate. {CHECK} It gives. " \
            '[inventory: action="add" item="Rope" who="Ada"]'
    model = FakeUpstream(always=Answer(reply))
    async with serving(model.app()) as upstream:
        app, _, close = await proxy_app(game_config("hearth-and-haul", None), f"{upstream}/v1",
                                        None, f"sqlite:///{db}", ServeOptions(display="cards"))
        ready_to_serve()
        since = Since()
        body = {"model": "m", "stream": True,
                "messages": [{"role": "user", "content": "I force the grate."}]}
        async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as http, \
                http.stream("POST", "/v1/chat/completions", json=body) as response:
            raw = (await response.aread()).decode()
        await close()
    events = [json.loads(line[6:]) for line in raw.split("\n") if line.startswith("data: {")]
    streamed = "".join(e["choices"][0]["delta"].get("content") or ""
                       for e in events if e["choices"])
    return {"streamed": streamed, **since.found()}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(_first_turn(sys.argv[1]))))
