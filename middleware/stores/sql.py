"""The SQLite schema and every statement the SQLite store runs, kept together to be read as one.

Parameters are numbered where a statement uses one twice. Seeds are TEXT because a transcript may
give a seed wider than SQLite's 64-bit integers. JSON is TEXT written by ``codec.encode_json``; a
state's text may refer to fragments in ``parts`` (``codec.Parted``).

Version 2 added ``parts``; a version 1 file is brought up to it on open (the schema below only
creates what is missing) and its states, stored whole, read back as they are. Version 3 keeps a
game's ruleset in ``parts`` too, its row only the reference (``codec.RulesetTexts``): older rows
hold the whole text and read back as they are, and an older version refuses the file.
"""

from __future__ import annotations

VERSION = 3

SCHEMA = f"""
BEGIN IMMEDIATE;

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

-- Fragments of stored states, once each, by the digest of their text (codec.part_key).
CREATE TABLE IF NOT EXISTS parts (
    key  TEXT PRIMARY KEY,
    body TEXT NOT NULL
) WITHOUT ROWID;

-- The newest candidate is selected inside the INSERT's own transaction: one trip, never half done.
CREATE TRIGGER IF NOT EXISTS candidate_selected AFTER INSERT ON candidates BEGIN
    UPDATE turns SET selected = NEW.idx WHERE chat = NEW.chat AND turn = NEW.turn;
END;

PRAGMA user_version = {VERSION};
COMMIT;
"""

PRAGMAS = """
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA foreign_keys = ON;
PRAGMA busy_timeout = 5000;
"""

CREATE_GAME = """
INSERT INTO games (chat, ruleset_id, ruleset, seed, options, state, parent, forked_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chat) DO NOTHING"""

GET_GAME = """
SELECT ruleset_id, ruleset, seed, options, state, parent, forked_at FROM games WHERE chat = ?"""

HAS_GAME = "SELECT 1 FROM games WHERE chat = ?"

START_TURN = """
INSERT INTO turns (chat, turn, user_text) VALUES (?, ?, ?) ON CONFLICT (chat, turn) DO NOTHING"""

GET_TURN = "SELECT user_text, selected, events FROM turns WHERE chat = ? AND turn = ?"

TURNS = """
SELECT turn, user_text, selected, events FROM turns WHERE chat = ? AND turn BETWEEN ? AND ?"""

LAST_TURN = """
SELECT (SELECT COALESCE(MAX(turn), 0) FROM turns WHERE turns.chat = games.chat)
FROM games WHERE chat = ?"""

ADD_CANDIDATE = """
INSERT INTO candidates (chat, turn, idx, key, seed, reply, text, records, state)
VALUES (?1, ?2, (SELECT COUNT(*) FROM candidates WHERE chat = ?1 AND turn = ?2),
        ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT (chat, turn, key) DO NOTHING
RETURNING idx"""

# The same, only while turn ?9 still has candidate ?10 selected and ?11 events (``base.Start``).
ADD_CANDIDATE_AFTER = """
INSERT INTO candidates (chat, turn, idx, key, seed, reply, text, records, state)
SELECT ?1, ?2, (SELECT COUNT(*) FROM candidates WHERE chat = ?1 AND turn = ?2),
       ?3, ?4, ?5, ?6, ?7, ?8
WHERE EXISTS (SELECT 1 FROM turns WHERE chat = ?1 AND turn = ?9 AND selected IS ?10
              AND json_array_length(events) = ?11)
ON CONFLICT (chat, turn, key) DO NOTHING
RETURNING idx"""

ADD_PART = "INSERT INTO parts (key, body) VALUES (?, ?) ON CONFLICT (key) DO NOTHING"

def get_parts(count: int) -> str:
    """The fragments of ``count`` keys."""
    return f"SELECT key, body FROM parts WHERE key IN ({', '.join('?' * count)})"


_CANDIDATE = "SELECT chat, turn, idx, key, seed, reply, text, records, state FROM candidates"

FIND_CANDIDATE = f"{_CANDIDATE} WHERE chat = ? AND turn = ? AND key = ?"

GET_CANDIDATE = f"{_CANDIDATE} WHERE chat = ? AND turn = ? AND idx = ?"

LIST_CANDIDATES = f"{_CANDIDATE} WHERE chat = ? AND turn = ? ORDER BY idx"

REPLIES = """
SELECT turn, idx, text, records FROM candidates WHERE chat = ? AND turn BETWEEN ? AND ?
ORDER BY turn, idx"""

SELECTED_CANDIDATE = """
SELECT c.chat, c.turn, c.idx, c.key, c.seed, c.reply, c.text, c.records, c.state
FROM turns AS t JOIN candidates AS c ON c.chat = t.chat AND c.turn = t.turn AND c.idx = t.selected
WHERE t.chat = ? AND t.turn = ?"""

SELECT = """
UPDATE turns SET selected = ?3 WHERE chat = ?1 AND turn = ?2
AND EXISTS (SELECT 1 FROM candidates WHERE chat = ?1 AND turn = ?2 AND idx = ?3)"""

ADD_EVENT = """
UPDATE turns SET events = json_insert(events, '$[#]', json(?3)) WHERE chat = ?1 AND turn = ?2"""

# ?1 the new chat, ?2 the chat forked, ?3 the last turn copied.
FORK = (
    """INSERT INTO games (chat, ruleset_id, ruleset, seed, options, state, parent, forked_at)
    SELECT ?1, ruleset_id, ruleset, seed, options, state, ?2, ?3 FROM games WHERE chat = ?2""",
    """INSERT INTO turns (chat, turn, user_text, selected, events)
    SELECT ?1, turn, user_text, selected, events FROM turns WHERE chat = ?2 AND turn <= ?3""",
    """INSERT INTO candidates (chat, turn, idx, key, seed, reply, text, records, state)
    SELECT ?1, turn, idx, key, seed, reply, text, records, state FROM candidates
    WHERE chat = ?2 AND turn <= ?3""",
    # The trigger selected each copied candidate as it came in; put back the selections copied.
    """UPDATE turns SET selected =
        (SELECT o.selected FROM turns AS o WHERE o.chat = ?2 AND o.turn = turns.turn)
    WHERE chat = ?1 AND turn <= ?3""",
)

# What a batch held back for the chats it owns (``held``), each run over many rows: the turns
# started, the candidates with the indexes the batch gave them (the trigger selects each), then
# the selections the candidates alone do not leave.
HELD_TURN = "INSERT INTO turns (chat, turn, user_text) VALUES (?, ?, ?)"

HELD_CANDIDATE = """
INSERT INTO candidates (chat, turn, idx, key, seed, reply, text, records, state)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"""

HELD_SELECTION = "UPDATE turns SET selected = ? WHERE chat = ? AND turn = ?"

TRANSACTION = ("BEGIN IMMEDIATE", "COMMIT", ("ROLLBACK",))
SAVEPOINT = ("SAVEPOINT gm_batch", "RELEASE gm_batch", ("ROLLBACK TO gm_batch", "RELEASE gm_batch"))
