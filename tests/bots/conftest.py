"""Shared pieces of the bot tests: a bundled ruleset and party, a scripted fake model server on
127.0.0.1 (the proxy tests' ``FakeModel``, served by uvicorn) and a ``Table`` over the real
upstream client and a real store."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from middleware.bots import Table, TableConfig
from middleware.engine import Engine
from middleware.proxy.upstream import HttpUpstream
from middleware.rules.registry import load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.sheet.party import read_party
from middleware.state import Character
from middleware.stores import open_store
from tests.proxy.conftest import FakeModel, serving

ROOT = Path(__file__).resolve().parents[2]


def lantern() -> Ruleset:
    return load_bundled("lantern-and-ledger")


def lantern_party(ruleset: Ruleset) -> tuple[Character, ...]:
    """Wren Ashby (the player) and Tobiah Crane, as the bundled lantern demo transcript has them."""
    first = (ROOT / "transcripts" / "lantern-demo.jsonl").read_text(encoding="utf-8").splitlines()[0]
    return tuple(read_party(ruleset, json.loads(first)["party"]))


@dataclass
class Rig:
    """A table over a real engine and store, asking the fake model over HTTP."""

    table: Table
    engine: Engine
    model: FakeModel

    def sent(self, index: int = -1) -> list[dict[str, Any]]:
        """The messages of one request the model received."""
        messages: list[dict[str, Any]] = self.model.seen[index]["messages"]
        return messages


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    """A table on SQLite with the lantern ruleset and party; the model answers from a script."""
    model = FakeModel()
    async with serving(model.app()) as url:
        store = await open_store(f"sqlite:///{tmp_path}/games.db")
        upstream = HttpUpstream(url)
        ruleset = lantern()
        engine = Engine(store)
        table = Table(engine, upstream, TableConfig(ruleset, lantern_party(ruleset), seed=3,
                                                    model="fake-gm"))
        try:
            yield Rig(table, engine, model)
        finally:
            await upstream.aclose()
            await store.close()
