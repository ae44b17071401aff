"""A PostgreSQL schema of its own for each test (SPEC §2: one suite runs against every store).

The server is ``GM_TEST_POSTGRES`` (default: the local one CI starts, trust auth). When it cannot be
reached the test fails, naming the server and how to start it: a store never tested is not skipped
silently.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
import pytest

PG_URL = os.environ.get("GM_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/test")


async def connect(schema: str = "public") -> asyncpg.Connection[asyncpg.Record]:
    """A plain connection to the test server, or a failed test that says what to do."""
    try:
        return await asyncpg.connect(PG_URL, server_settings={"search_path": schema})
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        pytest.fail(f"PostgreSQL is not reachable at {PG_URL}: {exc}\n"
                    "The PostgreSQL store tests need it: start it with "
                    "`pg_ctlcluster <version> main start` (.ci/run does), or set GM_TEST_POSTGRES "
                    "to a server's URL.", pytrace=False)


def schema_of(url: str) -> str:
    """The schema a URL made by ``fresh_schema`` names."""
    return url.rsplit("schema=", 1)[1]


@asynccontextmanager
async def fresh_schema() -> AsyncIterator[str]:
    """The URL of a store in a new, empty schema ``gm_test_<random>``, dropped afterwards."""
    name = f"gm_test_{secrets.token_hex(6)}"
    admin = await connect()
    try:
        joiner = "&" if "?" in PG_URL else "?"
        yield f"{PG_URL}{joiner}schema={name}"
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        await admin.close()
