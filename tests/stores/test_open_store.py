"""``open_store`` picks the store a URL names (SPEC §2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from middleware.errors import GMError
from middleware.stores import MemoryStore, SQLiteStore, open_store
from middleware.stores.postgres import PostgresStore
from tests.stores.pg import fresh_schema


async def test_memory_url_opens_a_memory_store() -> None:
    """``memory://`` is a fresh in-memory store."""
    store = await open_store("memory://")
    assert isinstance(store, MemoryStore)
    await store.close()


@pytest.mark.parametrize("form", ["sqlite:///{path}", "{path}"])
@pytest.mark.parametrize("name", ["game.db", "game.sqlite"])
async def test_sqlite_urls_and_bare_paths_open_that_file(tmp_path: Path, form: str,
                                                         name: str) -> None:
    """``sqlite:///PATH`` and a bare path ending in .db or .sqlite open a SQLite file there."""
    path = tmp_path / name
    store = await open_store(form.format(path=path))
    try:
        assert (True, str(path)) == (isinstance(store, SQLiteStore), getattr(store, "path", None))
        assert path.exists()
    finally:
        await store.close()


async def test_sqlite_url_path_is_relative_to_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``sqlite:///saves.db`` (three slashes) is ``saves.db`` in the working directory."""
    monkeypatch.chdir(tmp_path)
    store = await open_store("sqlite:///saves.db")
    await store.close()
    assert (tmp_path / "saves.db").exists()


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
async def test_postgresql_url_opens_a_postgres_store(scheme: str) -> None:
    """``postgresql://`` (or ``postgres://``) opens the PostgreSQL store, in the schema named."""
    async with fresh_schema() as url:
        store = await open_store(url.replace("postgresql", scheme, 1))
        try:
            assert isinstance(store, PostgresStore)
            assert 0 == len(await store.list_candidates("millbrook", 1))
        finally:
            await store.close()


@pytest.mark.parametrize("url", ["redis://x", "game.txt", "sqlite:///"])
async def test_an_unknown_store_is_refused(url: str) -> None:
    """A URL that names no store we have is a GMError that lists the forms we accept."""
    with pytest.raises(GMError, match="memory://"):
        await open_store(url)
