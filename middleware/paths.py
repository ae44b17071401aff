"""A chat as a tree of candidates: Continue, edited candidates and branches (SPEC §3).

New engine steps beside ``Engine.process``, kept apart from it; each stores one candidate in one
transaction, like ``process``:

- ``extend``: Continue. The text the model adds to candidate k of a turn resolves against the
  state after candidate k (its tags see what the existing part did); the stored candidate is the
  joined text, with both parts' records. The same addition to the same candidate is stored once
  (a retry key derived from both), so a retried Continue applies nothing twice.
- ``reread``: an edited candidate. A reply the player edited so that its resolved tags changed is
  read again from the turn's start with the dice it already shows (each check's ``rolls=`` are
  scripted as its faces; nothing new is thrown for them, where ``rolls=`` are faces:
  ``rolls_are_faces``), so the state is what the edited text says. The stored text is the
  edited text exactly as the client holds it.
- ``branch``: a fork at a turn, then a candidate of the fork's next turn copied from the chat it
  left (same seed, text, records and state: it started from the same S(n)).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from middleware.dice import Dice, derive_seed
from middleware.engine import Engine, Processed
from middleware.parse import parse
from middleware.pipeline import Preview, ResolvedReply, resolve_reply
from middleware.records import Record
from middleware.resolve import Context
from middleware.resolve.dispatch import record_from_json, records_json
from middleware.rules.resolution import DiceSum, RollAgainst
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import GameState
from middleware.stores.base import CandidateRow
from middleware.stores.codec import Encoded
from middleware.text import MAX_CANDIDATE_CHARS, bounded, room


@dataclass(frozen=True, slots=True)
class Extended:
    """A Continue stored: the joined candidate, and the added part as rewritten with its records."""

    joined: Processed
    added: str
    records: tuple[Record, ...]


def continue_seed(base_seed: int, turn: int) -> int:
    """The dice of a Continue: derived from the candidate it extends (replayable, and the same
    for every retry of it)."""
    return derive_seed(base_seed, "continue", turn)


async def extend(engine: Engine, chat: str, turn: int, candidate: int, more: str,
                 *, key: str | None = None, notes: Sequence[Record] = (),
                 base: CandidateRow | None = None,
                 resolved: ResolvedReply | None = None) -> Extended:
    """Candidate ``candidate`` of ``turn`` with ``more`` added, stored as a new candidate;
    ``notes`` are records a face adds after the addition's (as ``Engine.process`` takes them).

    ``base``: that candidate as the caller read it (a stored candidate never changes);
    ``resolved``: ``more`` resolved whole as ``extender`` resolves it (a streamed Continue's own
    reading, ``ReplyStream.finished``), stored as it is rather than resolved again."""
    if base is None:
        base = await engine.store.get_candidate(chat, turn, candidate)
    key = key or _continue_key(candidate, base.text, more)
    seed = continue_seed(base.seed, turn)
    if (found := await engine.store.find_candidate(chat, turn, key)) is not None:
        return _extended(found, base)
    done = resolved if resolved is not None \
        else (await extender(engine, chat, turn, candidate, seed, base))(more)
    records = (*(record_from_json(r) for r in base.records), *done.records, *notes)
    kept = bounded(more, room(base.reply))[0]  # the joined reply stays within the limit
    stored = await _store(engine, chat, turn, key, seed, base.reply + kept,
                          base.text + done.text, records, done.state)
    return Extended(stored, done.text, (*done.records, *notes))


async def extended(engine: Engine, chat: str, turn: int, candidate: int,
                   key: str) -> Extended | None:
    """The Continue of ``candidate`` stored with retry ``key``, or None (a face answers a retry
    without asking the model again)."""
    found = await engine.store.find_candidate(chat, turn, key)
    if found is None:
        return None
    base = await engine.store.get_candidate(chat, turn, candidate)
    if base.index >= found.index:  # ``candidate`` is the stored Continue itself, or later
        base = await _base_of(engine, found)
    return _extended(found, base)


async def _base_of(engine: Engine, joined: CandidateRow) -> CandidateRow:
    """The candidate a stored Continue extended: the latest one before it whose reply and text it
    starts with. A retry is routed by the text it sends back, and where the Continue added only
    whitespace that text is, trimmed as clients trim it, the Continue's own too."""
    earlier = (await engine.store.list_candidates(joined.chat, joined.turn))[:joined.index]
    return next((row for row in reversed(earlier) if joined.reply.startswith(row.reply)
                 and joined.text.startswith(row.text)), joined)


async def extender(engine: Engine, chat: str, turn: int, candidate: int,
                   seed: int, base: CandidateRow | None = None) -> Preview:
    """What ``extend`` resolves an addition to (for a face streaming it tag by tag): at most
    what the candidate has room for (``text.room``), the rest cut and said so. ``base``: the
    candidate as the caller read it."""
    if base is None:
        base = await engine.store.get_candidate(chat, turn, candidate)
    ctx = await _context(engine, chat, turn, seed, ())
    return Preview(GameState.model_validate(base.state), lambda: replace(ctx, dice=Dice(seed)),
                   seed, room(base.reply))


async def reread(engine: Engine, chat: str, turn: int, text: str, *,
                 key: str | None = None, stored: bool = False) -> Processed:
    """``text`` (an edited reply) as a new candidate of ``turn``, read from S(turn-1) with the
    dice its checks show; the stored text is ``text`` itself.

    ``stored``: ``text`` is a stored candidate's text (a branch reads again what the chat it left
    kept), kept whole: it may be longer than a reply is (its resolved tags are), and cut it would
    no longer be what the client holds. Any other text is cut at the limit."""
    limit = max(len(text), MAX_CANDIDATE_CHARS) if stored else MAX_CANDIDATE_CHARS
    text = bounded(text, limit)[0]  # the proxy refuses longer edits; a stored candidate never is
    key = key or f"edited:{_digest(text)}"
    if (found := await engine.store.find_candidate(chat, turn, key)) is not None:
        await engine.select(chat, turn, found.index)
        return _processed(found)
    seed = derive_seed("edited", _digest(text))
    shown = shown_dice(text) if rolls_are_faces(await engine.ruleset(chat)) else []
    ctx = await _context(engine, chat, turn, seed, shown)
    done = resolve_reply(text, await engine.state_after(chat, turn - 1), ctx, limit)
    return await _store(engine, chat, turn, key, seed, text, text, done.records, done.state)


async def branch(engine: Engine, chat: str, at: int, new_chat: str) -> None:
    """``new_chat``: a fork of ``chat`` from S(at), sharing nothing after it."""
    await engine.fork(chat, at, new_chat)


async def copy_candidate(engine: Engine, source: str, turn: int, index: int,
                         chat: str) -> Processed:
    """Candidate ``index`` of ``source``'s ``turn`` stored as a candidate of ``chat``'s ``turn``
    (both chats share S(turn-1)); selected there."""
    row = await engine.store.get_candidate(source, turn, index)
    await engine.store.start_turn(chat, turn, "")
    stored = await engine.store.add_candidate(CandidateRow(
        chat=chat, turn=turn, index=-1, key=row.key, seed=row.seed, reply=row.reply,
        text=row.text, records=row.records, state=row.state))
    await engine.select(chat, turn, stored.index)
    return Processed(
        chat, turn, stored.index, row.seed, row.text,
        tuple(record_from_json(r) for r in row.records), GameState.model_validate(row.state))


def rolls_are_faces(ruleset: Ruleset) -> bool:
    """Whether a check's ``rolls=`` are the faces its dice threw, in order: not on roll-against
    (tens dice show the readings, ``73|23``) nor on a sum of custom faces (Fate dice show -1/0/1);
    there an edited candidate's checks are thrown again from its own seed."""
    res = ruleset.resolution
    if isinstance(res, RollAgainst):
        return res.tens is None
    return not (isinstance(res, DiceSum) and res.dice.faces is not None)


def shown_dice(text: str) -> list[int]:
    """The faces the text's checks show (``rolls="3|4"``), in reading order; a check whose rolls
    are not plain faces ends the list (what follows is thrown from the seed)."""
    faces: list[int] = []
    for segment in parse(text):
        if isinstance(segment, Tag) and segment.name == "skill_check":
            shown = segment.attrs.get("rolls", "")
            parts = [p.strip() for p in shown.split("|") if p.strip()]
            if not parts or not all(p.isdigit() for p in parts):
                return faces
            faces += [int(p) for p in parts]
    return faces


async def _context(engine: Engine, chat: str, turn: int, seed: int,
                   script: list[int] | tuple[int, ...]) -> Context:
    game = await engine.game(chat)
    return Context(ruleset=await engine.ruleset(chat), dice=Dice(seed, script), chat=chat,
                   turn=turn, odds={}, seed=game.seed)


async def _store(engine: Engine, chat: str, turn: int, key: str, seed: int, reply: str,
                 text: str, records: tuple[Record, ...], state: GameState) -> Processed:
    stored = await engine.store.add_candidate(CandidateRow(
        chat=chat, turn=turn, index=-1, key=key, seed=seed, reply=reply, text=text,
        records=Encoded(records_json(records)), state=engine.stored_state(chat, state)))
    if stored.replayed:  # a concurrent retry won the key
        return _processed(stored, replayed=True)
    return Processed(chat, turn, stored.index, seed, text, records, state)


def _processed(row: CandidateRow, replayed: bool = False) -> Processed:
    records = tuple(record_from_json(r) for r in row.records)
    return Processed(row.chat, row.turn, row.index, row.seed, row.text, records,
                     GameState.model_validate(row.state), replayed)


def _extended(found: CandidateRow, base: CandidateRow) -> Extended:
    """The Continue stored earlier as ``found``, answered again (``replayed``: nothing new)."""
    joined = _processed(found, replayed=True)
    added = found.text[len(base.text):] if found.text.startswith(base.text) else found.text
    return Extended(joined, added, joined.records[len(base.records):])


def _continue_key(candidate: int, text: str, more: str) -> str:
    return f"continue:{candidate}:{_digest(text)}:{_digest(more)}"


def _digest(text: str) -> str:
    """A key's digest of text as it came, a lone surrogate included (the store replaces it)."""
    return hashlib.sha256(text.encode(errors="surrogatepass")).hexdigest()[:32]
