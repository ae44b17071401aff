"""Replaying a transcript through the real pipeline (SPEC §4).

Every line is read and validated before anything is stored, so a malformed line stops the replay
with its number and nothing half-written. Each ``gm`` line becomes a ``Step`` with the candidate and
its state summary; an expectation that fails raises ``ExpectationError`` with a readable diff.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TypedDict

from middleware.character.summary import state_summary
from middleware.collector import collection_paused, existing_objects_frozen
from middleware.dice import derive_seed
from middleware.engine import Engine, Processed
from middleware.errors import ExpectationError, GMError, RulesetError, TranscriptError
from middleware.json_input import JsonObject
from middleware.rules.layers import layer_problem
from middleware.rules.load import load_ruleset
from middleware.rules.registry import bundled_ids, load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.sheet.party import read_party
from middleware.state import GameState
from middleware.transcript.expect import mismatches, text_diff
from middleware.transcript.lines import (
    EditLine,
    ForkLine,
    GameLine,
    GearTakeLine,
    GmLine,
    Line,
    RestLine,
    SelectLine,
    UserLine,
    read_lines,
)


class StepJson(TypedDict):
    """A replayed candidate as ``--json`` prints it (SPEC §7)."""

    turn: int
    candidate: int
    text: str
    records: list[JsonObject]
    state: dict[str, object] | None


class Step(NamedTuple):
    """One replayed line: its number and kind; for ``gm`` lines the candidate and state summary.

    A named tuple, not a frozen dataclass: two are built per turn, and a frozen dataclass sets
    each field through ``object.__setattr__`` (about 1 µs a step, 1 % of a memory replay)."""

    line: int
    kind: str
    chat: str
    turn: int
    text: str = ""
    processed: Processed | None = None
    summary: dict[str, object] | None = None

    def as_json(self) -> StepJson:
        """SPEC §7: ``turn``, ``candidate``, ``text``, ``records``, ``state`` and nothing else."""
        assert self.processed is not None
        return {"turn": self.turn, "candidate": self.processed.candidate,
                "text": self.processed.text,
                "records": [r.model_dump(mode="json") for r in self.processed.records],
                "state": self.summary}


@dataclass(frozen=True, slots=True)
class Prepared:
    """A transcript read and checked whole: its lines, ruleset and party, nothing stored yet."""

    lines: list[tuple[int, Line]]
    game: GameLine
    ruleset: Ruleset


def prepare(text_lines: Iterable[str], base: Path | None = None) -> Prepared:
    """Read and validate every line, the ruleset and the party before anything is stored."""
    with collection_paused():
        lines = read_lines(text_lines)
    number, game = lines[0]
    assert isinstance(game, GameLine)
    ruleset = _ruleset(game.ruleset, base, number)
    problem = layer_problem(ruleset, game.options.layers)
    if problem is not None:
        raise TranscriptError(problem[1], line=number, path=f"$.options.layers[{problem[0]}]")
    return Prepared(lines, game, ruleset)


async def replay(prepared: Prepared, engine: Engine) -> AsyncGenerator[Step, None]:
    """Replay every line on ``engine``, yielding a ``Step`` per line after the game line.

    The whole replay is one batch (``Engine.batch``): a line that fails stops it, and nothing
    of it is kept, in the store or in the engine.
    """
    async with engine.batch():
        with existing_objects_frozen():
            async for step in _replay(prepared, engine):
                yield step


class _Summaries:
    """The ``--json`` state summary, worked out once per state object: a reply that changes
    nothing ends on the very state it started from (states are never changed in place), so a
    long run of such replies shares one summary."""

    __slots__ = ("_last", "_ruleset")

    def __init__(self, ruleset: Ruleset) -> None:
        self._ruleset = ruleset
        self._last: tuple[GameState, dict[str, object]] | None = None

    def of(self, state: GameState) -> dict[str, object]:
        if self._last is None or self._last[0] is not state:
            self._last = (state, state_summary(self._ruleset, state))
        return self._last[1]


async def _replay(prepared: Prepared, engine: Engine) -> AsyncIterator[Step]:
    game, ruleset = prepared.game, prepared.ruleset
    party = read_party(ruleset, game.party, line=prepared.lines[0][0])
    chat, turn, count = game.id, 0, 0
    summaries = _Summaries(ruleset)
    await engine.create_game(chat, ruleset, party, seed=game.seed, dice=game.options.dice,
                             layers=game.options.layers, branches=game.options.branches)
    for number, line in prepared.lines[1:]:
        try:
            if isinstance(line, UserLine):
                turn, count = turn + 1, 0
                await engine.user(chat, turn, line.text)
                yield Step(number, "user", chat, turn, line.text)
            elif isinstance(line, GmLine):
                if turn == 0:
                    raise TranscriptError("a 'gm' line before any 'user' line", line=number)
                step = await _gm(engine, prepared, summaries, chat, (turn, count, number), line)
                count += 1
                yield step
            elif isinstance(line, SelectLine):
                await engine.select(chat, turn, line.candidate)
                yield Step(number, "select", chat, turn, str(line.candidate))
            elif isinstance(line, EditLine | RestLine | GearTakeLine):
                await engine.event(chat, turn, line.model_dump())
                yield Step(number, line.type, chat, turn, line.who)
            elif isinstance(line, ForkLine):
                await engine.fork(chat, line.at, line.id)
                chat, turn, count = line.id, line.at, 0
                yield Step(number, "fork", chat, turn, line.id)
        except (ExpectationError, TranscriptError):
            raise
        except GMError as exc:
            raise TranscriptError(str(exc), line=number) from exc


async def _gm(engine: Engine, prepared: Prepared, summaries: _Summaries, chat: str,
              where: tuple[int, int, int], line: GmLine) -> Step:
    turn, count, number = where
    seed = line.seed
    if seed is None and prepared.game.options.dice == "candidate":
        seed = derive_seed(prepared.game.seed, chat, turn, count)
    done = await engine.process(chat, turn, line.text, key=line.key, seed=seed, dice=line.dice)
    if line.dice:  # only the line's own scripted faces can fall outside their die
        _check_scripted(done, number)
    summary = summaries.of(done.state)
    step = Step(number, "gm", chat, turn, line.text, done, summary)
    if line.expect is not None:
        _check(line, step, number)
    return step


def _check_scripted(done: Processed, number: int) -> None:
    """SPEC §5: a scripted face outside its die is the transcript's fault, not a tag's."""
    outside = next((r.feedback for r in done.records if r.status == "error" and r.feedback
                    and r.feedback.startswith("DiceError: scripted throw")), None)
    if outside is not None:
        raise TranscriptError(outside.removeprefix("DiceError: "), line=number, path="$.dice")


def _check(line: GmLine, step: Step, number: int) -> None:
    assert line.expect is not None
    got = step.as_json()
    problems: list[str] = []
    if line.expect.text is not None:
        problems += text_diff(line.expect.text, got["text"])
    if line.expect.records is not None:
        problems += mismatches({"records": line.expect.records}, {"records": got["records"]})
    if line.expect.state is not None:
        problems += mismatches({"state": line.expect.state}, {"state": got["state"]})
    if problems:
        raise ExpectationError("\n".join(f"  {p}" for p in problems), line=number)


def _ruleset(ref: str | JsonObject, base: Path | None, line: int) -> Ruleset:
    """SPEC §4: a bundled id, a path relative to the transcript, or the ruleset inline."""
    try:
        if isinstance(ref, dict):
            return load_ruleset(ref)
        if ref in bundled_ids():
            return load_bundled(ref)
        path = (base or Path.cwd()) / ref
        if not path.is_file():
            raise TranscriptError(f"ruleset {ref!r} is neither bundled ({', '.join(bundled_ids())})"
                                  " nor a file", line=line, path="$.ruleset")
        return load_ruleset(path)
    except RulesetError as exc:
        raise TranscriptError(str(exc), line=line, path="$.ruleset") from exc
