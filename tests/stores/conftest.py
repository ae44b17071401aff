"""The ``store`` fixture: every kind of store in turn, fresh and empty (SPEC §2: one suite runs
against every store). Every test here gets it; another folder's conftest imports it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from middleware.stores import MemoryStore, SQLiteStore, Store
from middleware.stores.postgres import PostgresStore
from tests.stores.pg import fresh_schema

KINDS = ["memory", "sqlite", "postgres"]


@pytest.fixture(params=KINDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """Every kind of store in turn, fresh and empty (PostgreSQL in a schema of its own)."""
    if request.param == "postgres":
        async with fresh_schema() as url:
            made: Store = await PostgresStore.open(url)
            yield made
            await made.close()
        return
    made = MemoryStore() if request.param == "memory" else await SQLiteStore.open(
        tmp_path / "game.db")
    yield made
    await made.close()
