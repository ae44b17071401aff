"""Games stored by the version before states were stored as change (schema 1) still open: their
states, stored whole, read back as they were, and play goes on in them (SPEC §2: a store is the
user's saved games). So does a PostgreSQL schema of version 2, before a turn's player line could
ride with its candidate. Each old game holds its ruleset's whole text, as every game did before
the ruleset was stored once (SQLite schema 3, PostgreSQL 4); a game created after it, beside the
old one, reads back the same ruleset."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from middleware.engine import Engine
from middleware.rules.registry import load_bundled
from middleware.state import Character, GameState, Stack
from middleware.stores import SQLiteStore, Store, postgres_sql
from middleware.stores.postgres import PostgresStore
from tests.rulesets import bundled_json
from tests.stores.pg import connect, fresh_schema, schema_of

RULESET = "lantern-and-ledger"

V1_SQLITE = """BEGIN IMMEDIATE;

CREATE TABLE IF NOT EXISTS games (
    chat       TEXT PRIMARY KEY,
    ruleset_id TEXT NOT NULL,
    ruleset    TEXT NOT NULL,
    seed       TEXT NOT NULL,
    options    TEXT NOT NULL,
    state      TEXT NOT NULL,
    parent     TEXT,
    forked_at  INTEGER
);

CREATE TABLE IF NOT EXISTS turns (
    chat      TEXT NOT NULL REFERENCES games (chat),
    turn      INTEGER NOT NULL,
    user_text TEXT NOT NULL,
    selected  INTEGER,
    events    TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (chat, turn)
);

-- The primary key is UNIQUE(chat, turn, idx); NULL keys never clash, so keyless replies are free.
CREATE TABLE IF NOT EXISTS candidates (
    chat    TEXT NOT NULL,
    turn    INTEGER NOT NULL,
    idx     INTEGER NOT NULL,
    key     TEXT,
    seed    TEXT NOT NULL,
    reply   TEXT NOT NULL,
    text    TEXT NOT NULL,
    records TEXT NOT NULL,
    state   TEXT NOT NULL,
    PRIMARY KEY (chat, turn, idx),
    UNIQUE (chat, turn, key),
    FOREIGN KEY (chat, turn) REFERENCES turns (chat, turn)
);

-- The newest candidate is selected inside the INSERT's own transaction: one trip, never half done.
CREATE TRIGGER IF NOT EXISTS candidate_selected AFTER INSERT ON candidates BEGIN
    UPDATE turns SET selected = NEW.idx WHERE chat = NEW.chat AND turn = NEW.turn;
END;

PRAGMA user_version = 1;
COMMIT;
"""

V1_POSTGRES = """CREATE TABLE IF NOT EXISTS gm_schema (version integer NOT NULL);

CREATE TABLE IF NOT EXISTS games (
    chat       text PRIMARY KEY,
    ruleset_id text NOT NULL,
    ruleset    text NOT NULL,
    seed       text NOT NULL,
    options    text NOT NULL,
    state      text NOT NULL,
    parent     text,
    forked_at  bigint
);

CREATE TABLE IF NOT EXISTS turns (
    chat      text NOT NULL REFERENCES games (chat),
    turn      bigint NOT NULL,
    user_text text NOT NULL,
    selected  bigint,
    events    text[] NOT NULL DEFAULT '{}',
    PRIMARY KEY (chat, turn)
);

-- NULL keys never clash, so keyless replies are free; a key is unique within its turn.
CREATE TABLE IF NOT EXISTS candidates (
    chat    text NOT NULL,
    turn    bigint NOT NULL,
    idx     bigint NOT NULL,
    key     text,
    seed    text NOT NULL,
    reply   text NOT NULL,
    text    text NOT NULL,
    records text NOT NULL,
    state   text NOT NULL,
    PRIMARY KEY (chat, turn, idx),
    UNIQUE (chat, turn, key),
    FOREIGN KEY (chat, turn) REFERENCES turns (chat, turn)
);

INSERT INTO gm_schema (version) VALUES (1);
"""


def old_state(stacks: int) -> GameState:
    bag = tuple(Stack(plain=f"Heirloom {i}") for i in range(stacks))
    return GameState(ruleset=RULESET, party=(Character(name="Ada", player=True, bag=bag),))


GAME = (RULESET, json.dumps(bundled_json(RULESET)), "7", '{"dice":"candidate"}')


def game_row(state: GameState) -> tuple[object, ...]:
    return ("old", *GAME, state.model_dump_json(), None, None)


def candidate_row(state: GameState) -> tuple[object, ...]:
    return ("old", 1, 0, None, "11", "A quiet turn.", "A quiet turn.", "[]",
            state.model_dump_json())


async def play_on(store: Store) -> None:
    """The old game reads back, and a new turn with a new stack is stored and read back."""
    engine = Engine(store)
    assert old_state(3) == await engine.state("old", 0)
    assert old_state(4) == await engine.state("old", 1)
    await engine.user("old", 2, "on we go")
    done = await engine.process("old", 2, '[inventory: action="add" item="New coat" who="Ada"]',
                                seed=2)
    assert ["New coat"] == [s.plain for s in done.state.party[0].bag[4:]]
    assert done.state == await Engine(store).state("old", 2)
    # a new game beside it keeps only a reference to the ruleset's text; both read it back alike
    await engine.create_game("new", load_bundled(RULESET), seed=3)
    assert bundled_json(RULESET) == (await store.get_game("old")).ruleset
    assert bundled_json(RULESET) == (await Engine(store).game("new")).ruleset


async def test_a_sqlite_file_of_schema_1_opens_and_plays_on(tmp_path: Path) -> None:
    """A file written before states were stored in parts opens, is brought up to date, and its
    game reads back and plays on."""
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(V1_SQLITE)
    db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)", game_row(old_state(3)))
    db.execute("INSERT INTO turns (chat, turn, user_text) VALUES ('old', 1, 'hello')")
    db.execute("INSERT INTO candidates VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               candidate_row(old_state(4)))
    db.close()
    store = await SQLiteStore.open(path)
    try:
        await play_on(store)
    finally:
        await store.close()


@pytest.fixture
async def old_schema() -> AsyncIterator[str]:
    async with fresh_schema() as url:
        admin = await connect()
        try:
            await admin.execute(f'CREATE SCHEMA "{schema_of(url)}"')
        finally:
            await admin.close()
        yield url


async def test_a_postgres_schema_of_version_1_opens_and_plays_on(old_schema: str) -> None:
    """A PostgreSQL schema written before states were stored in parts opens (brought up to date
    under the schema lock), and its game reads back and plays on."""
    admin = await connect(schema_of(old_schema))
    try:
        await admin.execute(V1_POSTGRES)
        await admin.execute("INSERT INTO games VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                            *game_row(old_state(3)))
        await admin.execute("INSERT INTO turns (chat, turn, user_text, selected) VALUES "
                            "('old', 1, '\"hello\"', 0)")
        old = candidate_row(old_state(4))
        await admin.execute("INSERT INTO candidates VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                            *old[:5], '"A quiet turn."', '"A quiet turn."', *old[7:])
    finally:
        await admin.close()
    store = await PostgresStore.open(old_schema)
    try:
        await play_on(store)
    finally:
        await store.close()


async def test_a_postgres_schema_of_version_2_opens_and_plays_on(old_schema: str) -> None:
    """A schema of version 2 opens, is brought up to this version, and plays on, in a batch too; the
    call a running worker of version 2 makes to store a candidate still works after it."""
    admin = await connect(schema_of(old_schema))
    try:
        await admin.execute(V1_POSTGRES)
        await admin.execute(dict(postgres_sql.UPGRADES)[2])
        await admin.execute("INSERT INTO gm_schema (version) VALUES (2)")
        await admin.execute("INSERT INTO games VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                            *game_row(old_state(3)))
        await admin.execute("INSERT INTO turns (chat, turn, user_text, selected) VALUES "
                            "('old', 1, '\"hello\"', 0)")
        old = candidate_row(old_state(4))
        await admin.execute("INSERT INTO candidates VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                            *old[:5], '"A quiet turn."', '"A quiet turn."', *old[7:])
        store = await PostgresStore.open(old_schema)
        try:
            async with store.batch():
                await play_on(store)
        finally:
            await store.close()
        assert postgres_sql.VERSION == await admin.fetchval(postgres_sql.SCHEMA_VERSION)
        assert 1 == await admin.fetchval(postgres_sql.ADD_CANDIDATE, "old", 2, None, "5",
                                         '"again"', '"again"', "[]", old[8], [], [], False, 0,
                                         None, 0)
    finally:
        await admin.close()
