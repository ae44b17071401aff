"""The PostgreSQL schema and every statement the PostgreSQL store runs, kept together (SPEC §2, §3).

The tables mirror the SQLite store's. JSON is TEXT written by ``codec.encode_json`` rather than
``jsonb``, which would reorder keys and drop duplicate ones, so rows read back exactly as written.
The player's and the model's text is kept as JSON strings too: PostgreSQL TEXT cannot hold a NUL
character, and a reply may carry one. Seeds are TEXT because a transcript may give a seed wider than
64 bits. A state's text may refer to fragments in ``parts`` (``codec.Parted``).

Version 2 added ``parts`` and the function ``gm_add_candidate``; version 3 a second
``gm_add_candidate`` that also starts the turn, which workers of version 3 call in a batch (this
version sends a batch's turns and candidates together, ``FLUSH``, and does not call it); version
4 keeps a game's ruleset in ``parts`` too, its row only the reference (``codec.RulesetTexts``; no
table changes, and older rows, holding the whole text, read back as they are). An older schema is
brought up to date on open (``UPGRADES``, each step once): a version 1 schema's states, stored
whole, read back as they are.
"""

from __future__ import annotations

VERSION = 4

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

# From version 1: what version 2 added, each part only if it is missing.
_UPGRADE_2 = """
CREATE TABLE IF NOT EXISTS parts (
    key  text PRIMARY KEY,
    body text NOT NULL
);

-- A candidate in one round trip: lock the turn, check what it starts from, number, insert, select.
-- Each statement of a volatile function sees what was committed before it began (READ
-- COMMITTED), so the count after the lock sees every candidate stored before ours. The turn
-- before is read, not locked, as a writer that reads it first and then writes reads it.
-- Returns the new index; -1: the turn does not exist; -2: the turn before changed (p_check);
-- -3: the key was seen (the caller reads that candidate).
CREATE OR REPLACE FUNCTION gm_add_candidate(
    p_chat text, p_turn bigint, p_key text, p_seed text, p_reply text, p_text text,
    p_records text, p_state text, p_keys text[], p_bodies text[],
    p_check boolean, p_before bigint, p_selected bigint, p_events integer)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    PERFORM 1 FROM turns WHERE chat = p_chat AND turn = p_turn FOR UPDATE;
    IF NOT FOUND THEN
        RETURN -1;
    END IF;
    IF p_check THEN
        PERFORM 1 FROM turns WHERE chat = p_chat AND turn = p_before
            AND selected IS NOT DISTINCT FROM p_selected AND cardinality(events) = p_events;
        IF NOT FOUND THEN
            RETURN -2;
        END IF;
    END IF;
    IF p_key IS NOT NULL AND EXISTS (
            SELECT 1 FROM candidates WHERE chat = p_chat AND turn = p_turn AND key = p_key) THEN
        RETURN -3;
    END IF;
    IF cardinality(p_keys) > 0 THEN
        INSERT INTO parts (key, body) SELECT * FROM unnest(p_keys, p_bodies)
        ON CONFLICT (key) DO NOTHING;
    END IF;
    SELECT COALESCE(MAX(idx) + 1, 0) INTO n FROM candidates WHERE chat = p_chat AND turn = p_turn;
    INSERT INTO candidates (chat, turn, idx, key, seed, reply, text, records, state)
    VALUES (p_chat, p_turn, n, p_key, p_seed, p_reply, p_text, p_records, p_state);
    UPDATE turns SET selected = n WHERE chat = p_chat AND turn = p_turn;
    RETURN n;
END $$;
"""

# From version 2: the player's line and its candidate in one round trip. The turn is started as
# START_TURN starts it (kept as it is if it exists), then the candidate is stored by version 2's
# function, which stays: workers of version 2 already running go on calling it.
_UPGRADE_3 = """
CREATE OR REPLACE FUNCTION gm_add_candidate(
    p_chat text, p_turn bigint, p_key text, p_seed text, p_reply text, p_text text,
    p_records text, p_state text, p_keys text[], p_bodies text[],
    p_check boolean, p_before bigint, p_selected bigint, p_events integer, p_user text)
RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO turns (chat, turn, user_text)
    SELECT p_chat, p_turn, p_user WHERE EXISTS (SELECT 1 FROM games WHERE chat = p_chat)
    ON CONFLICT (chat, turn) DO NOTHING;
    RETURN gm_add_candidate(p_chat, p_turn, p_key, p_seed, p_reply, p_text, p_records, p_state,
                            p_keys, p_bodies, p_check, p_before, p_selected, p_events);
END $$;
"""

UPGRADES = ((2, _UPGRADE_2), (3, _UPGRADE_3))
"""Each version's additions to the one before, in order: a schema runs those past its version."""

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

TURNS = """
SELECT turn, user_text, selected, events FROM turns WHERE chat = $1 AND turn BETWEEN $2 AND $3"""

LAST_TURN = """
SELECT (SELECT COALESCE(MAX(turn), 0) FROM turns WHERE turns.chat = games.chat)
FROM games WHERE chat = $1"""

ADD_CANDIDATE = """
SELECT gm_add_candidate($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"""

# What a batch held back for the chats it owns (``held``), in one statement: fragments,
# turns started (the player's text) or selected since the last flush (an existing turn keeps its
# text and takes the selection), and candidates with the indexes the batch gave them. The
# candidates' foreign key is checked when the statement ends, after the turns are in.
FLUSH = """
WITH parts_added AS (
    INSERT INTO parts (key, body) SELECT * FROM unnest($1::text[], $2::text[])
    ON CONFLICT (key) DO NOTHING
), turns_written AS (
    INSERT INTO turns (chat, turn, user_text, selected)
    SELECT * FROM unnest($3::text[], $4::bigint[], $5::text[], $6::bigint[])
    ON CONFLICT (chat, turn) DO UPDATE SET selected = COALESCE(EXCLUDED.selected, turns.selected)
)
INSERT INTO candidates (chat, turn, idx, key, seed, reply, text, records, state)
SELECT * FROM unnest($7::text[], $8::bigint[], $9::bigint[], $10::text[], $11::text[],
                     $12::text[], $13::text[], $14::text[], $15::text[])"""

ADDED, NO_TURN, STALE, KEY_SEEN = 0, -1, -2, -3
"""What ``gm_add_candidate`` answers: an index from 0 up, or one of the negative codes."""

ADD_PARTS = """
INSERT INTO parts (key, body) SELECT * FROM unnest($1::text[], $2::text[])
ON CONFLICT (key) DO NOTHING"""

GET_PARTS = "SELECT key, body FROM parts WHERE key = ANY($1::text[])"

_CANDIDATE = "SELECT chat, turn, idx, key, seed, reply, text, records, state FROM candidates"

FIND_CANDIDATE = f"{_CANDIDATE} WHERE chat = $1 AND turn = $2 AND key = $3"

GET_CANDIDATE = f"{_CANDIDATE} WHERE chat = $1 AND turn = $2 AND idx = $3"

LIST_CANDIDATES = f"{_CANDIDATE} WHERE chat = $1 AND turn = $2 ORDER BY idx"

REPLIES = """
SELECT turn, idx, text, records FROM candidates WHERE chat = $1 AND turn BETWEEN $2 AND $3
ORDER BY turn, idx"""

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
