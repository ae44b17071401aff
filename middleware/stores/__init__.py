"""Stores: one async interface, in memory, in SQLite and in PostgreSQL (SPEC §2, §3).

``open_store(url)`` picks one by URL::

    memory://                      a fresh in-memory store
    sqlite:///replays/game.db      a SQLite file, relative to the working directory
    sqlite:////var/lib/gm/game.db  a SQLite file by absolute path
    game.db, ./saves/game.sqlite   a bare path ending in .db, .sqlite or .sqlite3
    postgresql://user@host/db      PostgreSQL, for several workers (also postgres://); add
                                   ?schema=NAME for a schema other than public

The PostgreSQL store is imported only when a URL asks for it (asyncpg takes a while to import).
"""

from __future__ import annotations

from middleware.errors import StoreError
from middleware.stores.base import CandidateRow, GameRow, ReplyRow, Store, TurnRow
from middleware.stores.memory import MemoryStore
from middleware.stores.sqlite import SQLiteStore

__all__ = [
    "CandidateRow",
    "GameRow",
    "MemoryStore",
    "ReplyRow",
    "SQLiteStore",
    "Store",
    "TurnRow",
    "open_store",
]

_SQLITE = "sqlite:///"
_SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
_POSTGRES = ("postgresql://", "postgres://")


async def open_store(url: str) -> Store:
    """The store ``url`` names; ``StoreError`` (a ``GMError``) for one we cannot open."""
    if url == "memory://":
        return MemoryStore()
    if url.startswith(_SQLITE) and len(url) > len(_SQLITE):
        return await SQLiteStore.open(url.removeprefix(_SQLITE))
    if url.startswith(_POSTGRES):
        from middleware.stores.postgres import PostgresStore

        return await PostgresStore.open(url)
    if "://" not in url and url.lower().endswith(_SQLITE_SUFFIXES):
        return await SQLiteStore.open(url)
    raise StoreError(
        f"unknown store {url!r}: use memory://, sqlite:///path.db, a path ending in .db "
        "or postgresql://user@host/db"
    )
