"""The PostgreSQL schema and every statement the PostgreSQL store runs, kept together (SPEC §2, §3).

The tables mirror the SQLite store's. JSON is TEXT written by ``codec.encode_json`` rather than
``jsonb``, which would reorder keys and drop duplicate ones, so rows read back exactly as written.
The player's and the model's text is kept as JSON strings too: PostgreSQL TEXT cannot hold a NUL
character, and a reply may carry one. Seeds are TEXT because a transcript may give a seed wider than
64 bits.
"""

from __future__ import annotations

VERSION = 1

# Every worker runs this on open; the advisory lock stops two of them creating the same table at
# once (CREATE TABLE IF NOT EXISTS alone races on the catalogue).
SCHEMA_LOCK = "SELECT pg_advisory_xact_lock(hashtext('gm-middleware schema'))"

SCHEMA = """
CREATE TABLE IF NOT EXISTS gm_schema (version integer NOT NULL);

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
"""

# Checked before any DDL: a worker whose role may only read and write rows opens a prepared schema.
HAS_TABLES = "SELECT to_regclass('gm_schema') IS NOT NULL"

HAS_SCHEMA = "SELECT 1 FROM pg_namespace WHERE nspname = $1"

SCHEMA_VERSION = "SELECT max(version) FROM gm_schema"

SET_VERSION = "INSERT INTO gm_schema (version) VALUES ($1)"

CREATE_GAME = """
INSERT INTO games (chat, ruleset_id, ruleset, seed, options, state, parent, forked_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (chat) DO NOTHING"""

GET_GAME = """
SELECT ruleset_id, ruleset, seed, options, state, parent, forked_at FROM games WHERE chat = $1"""

HAS_GAME = "SELECT 1 FROM games WHERE chat = $1"

# No foreign-key error for a missing game: inside a batch any error would spoil the transaction.
START_TURN = """
INSERT INTO turns (chat, turn, user_text)
SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM games WHERE chat = $1)
ON CONFLICT (chat, turn) DO NOTHING"""

GET_TURN = "SELECT user_text, selected, events FROM turns WHERE chat = $1 AND turn = $2"

LAST_TURN = """
SELECT (SELECT COALESCE(MAX(turn), 0) FROM turns WHERE turns.chat = games.chat)
FROM games WHERE chat = $1"""

# Writers to one turn queue on its row, in every process; the lock is held until commit, so the
# next statement (a fresh snapshot under READ COMMITTED) sees every candidate stored before it.
LOCK_TURN = "SELECT 1 FROM turns WHERE chat = $1 AND turn = $2 FOR UPDATE"

# The next index and the selection in one statement; no row back means the key was seen.
ADD_CANDIDATE = """
WITH added AS (
    INSERT INTO candidates (chat, turn, idx, key, seed, reply, text, records, state)
    SELECT $1, $2, COALESCE(MAX(idx) + 1, 0), $3, $4, $5, $6, $7, $8
    FROM candidates WHERE chat = $1 AND turn = $2
    ON CONFLICT (chat, turn, key) DO NOTHING
    RETURNING idx
)
UPDATE turns SET selected = added.idx FROM added WHERE chat = $1 AND turn = $2
RETURNING added.idx"""

_CANDIDATE = "SELECT chat, turn, idx, key, seed, reply, text, records, state FROM candidates"

FIND_CANDIDATE = f"{_CANDIDATE} WHERE chat = $1 AND turn = $2 AND key = $3"

GET_CANDIDATE = f"{_CANDIDATE} WHERE chat = $1 AND turn = $2 AND idx = $3"

LIST_CANDIDATES = f"{_CANDIDATE} WHERE chat = $1 AND turn = $2 ORDER BY idx"

SELECTED_CANDIDATE = """
SELECT c.chat, c.turn, c.idx, c.key, c.seed, c.reply, c.text, c.records, c.state
FROM turns AS t JOIN candidates AS c ON c.chat = t.chat AND c.turn = t.turn AND c.idx = t.selected
WHERE t.chat = $1 AND t.turn = $2"""

SELECT = """
UPDATE turns SET selected = $3 WHERE chat = $1 AND turn = $2
AND EXISTS (SELECT 1 FROM candidates WHERE chat = $1 AND turn = $2 AND idx = $3)"""

ADD_EVENT = """
UPDATE turns SET events = array_append(events, $3::text) WHERE chat = $1 AND turn = $2"""

# The source's turns are share-locked first, so no candidate lands between copying the turns (and
# their selections) and copying the candidates.
FORK_LOCK = "SELECT 1 FROM turns WHERE chat = $1 AND turn <= $2 FOR SHARE"  # $1 forked, $2 last

# $1 the new chat, $2 the chat forked, $3 the last turn copied.
FORK_GAME = """
INSERT INTO games (chat, ruleset_id, ruleset, seed, options, state, parent, forked_at)
SELECT $1, ruleset_id, ruleset, seed, options, state, $2, $3 FROM games WHERE chat = $2
ON CONFLICT (chat) DO NOTHING"""

FORK_ROWS = (
    """INSERT INTO turns (chat, turn, user_text, selected, events)
    SELECT $1, turn, user_text, selected, events FROM turns WHERE chat = $2 AND turn <= $3""",
    """INSERT INTO candidates (chat, turn, idx, key, seed, reply, text, records, state)
    SELECT $1, turn, idx, key, seed, reply, text, records, state FROM candidates
    WHERE chat = $2 AND turn <= $3""",
)
