"""Following a request's history along a chat's stored path, branching where it leaves it.

``follow`` takes the chat and the turn offset ``ChatTree`` recognised and brings the store in line
with the history: the reply sent back for each turn is selected (or stored as an edited candidate
when its tags changed); turns the history adds are opened with the player's text. Where the history
leaves the stored path (it keeps another candidate of a turn that later turns were built on, an
older player message was changed, or it asks again for a turn that later turns follow), the chat is
forked before that turn and the history's own path is stored on the branch: the candidate it kept
at the fork's first turn copied (it started from the same state), later ones read again from the
branch's own states with the dice they show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from middleware.engine import Engine
from middleware.errors import RequestError
from middleware.logs import get_logger
from middleware.paths import branch, copy_candidate, reread
from middleware.proxy.history import History
from middleware.proxy.tree_index import Hold, PathIndex, Spot, next_branch, root_of
from middleware.stores import TurnRow
from middleware.text import MAX_CANDIDATE_CHARS

Choice = int | Literal["edit"]


@dataclass(frozen=True, slots=True)
class Follow:
    """The chat and turn the request plays, the candidate a Continue extends, edits made."""

    chat: str
    turn: int
    continues: int | None
    edited: tuple[Spot, ...]
    chosen: Mapping[int, Choice]
    """Turn -> the candidate the history kept there (``edit`` where the reply sent back was no
    candidate), for the turns it did not take as known."""


@dataclass(frozen=True, slots=True)
class Read:
    """Turns of a chat the route has just read: ``rows`` holds every turn started from ``first``
    to ``top``. Handed to ``follow``, which needs neither ``last_turn`` nor ``turns`` then: two
    store calls fewer before a streamed turn's first byte."""

    first: int
    top: int
    rows: Mapping[int, TurnRow]

    def covers(self, first: int, top: int) -> bool:
        return self.first <= first and top <= self.top

    def within(self, first: int, top: int) -> dict[int, TurnRow]:
        return {n: row for n, row in self.rows.items() if first <= n <= top}

    def last(self) -> int | None:
        """The chat's last turn where the rows tell it, else None. Turns are started one after
        another from turn 1 (``Engine.user`` refuses a turn further ahead, a fork copies turns
        1 to n): with ``top`` never started, the last is the newest row read, or 0 when the
        rows start at turn 1 and none is. With ``top`` started, only the store knows."""
        if self.top in self.rows:
            return None
        if self.rows:
            return max(self.rows)
        return 0 if self.first == 1 else None


async def follow(engine: Engine, index: PathIndex, chat: str, offset: int,
                 history: History, hold: Hold | None = None, read: Read | None = None,
                 known: int = 0) -> Follow:
    """Select, edit, open turns and branch so that ``chat``'s path is the history's (a branch
    made is held in the index with ``hold``). ``read``: ``chat``'s turns as the route read them,
    when they cover the history and the turn after it. ``known``: the history's leading turns
    the route found on the path as stored (``tree_known``): nothing to select or tell there."""
    turn = len(history.turns) + offset
    last, rows = await _stored(engine, chat, offset + 1, turn, read)
    plan = await _plan(engine, index, chat, offset, history, last, known)
    _edits_kept_whole(index, history, plan, offset)
    leaves = _leaves(rows, offset, history, plan, last, turn, known)
    if leaves is not None:
        chat, edited = await _branched(engine, index, chat, leaves, offset, history, plan,
                                       hold)
        last = await engine.store.last_turn(chat)
    else:
        edited = await _in_place(engine, index, chat, offset, history, plan, rows)
        if turn == last:
            await _said_again(engine, chat, turn, rows.get(turn), history.turns[-1].user)
    for n in range(last + 1, turn + 1):
        await engine.user(chat, n, history.turns[n - offset - 1].user)
    continues, more = await _tail(engine, index, chat, turn, history.tail)
    return Follow(chat, turn, continues, (*edited, *more), plan)


async def _stored(engine: Engine, chat: str, first: int, turn: int,
                  read: Read | None) -> tuple[int, Mapping[int, TurnRow]]:
    """The chat's last turn, and its stored turns from ``first`` up to ``turn`` (the history's),
    in one read: a history is sent back whole on every request, and reading (and selecting) turn
    by turn made a request's store work grow with it. Taken from ``read`` where it tells them."""
    if read is None or not read.covers(first, turn + 1):
        last = await engine.store.last_turn(chat)
        return last, await engine.store.turns(chat, first, min(turn, last))
    known = read.last()
    last = known if known is not None else await engine.store.last_turn(chat)
    return last, read.within(first, min(turn, last))


async def _plan(engine: Engine, index: PathIndex, chat: str, offset: int, history: History,
                last: int, known: int = 0) -> dict[int, Choice]:
    """Turn -> the candidate the history kept there, or ``edit`` for a reply no candidate is;
    after the ``known`` leading turns."""
    plan: dict[int, Choice] = {}
    for j, said in enumerate(history.turns[known:-1], start=known + 1):
        turn = j + offset
        if said.kept is None or not 1 <= turn <= last:
            continue
        found = [s.candidate for s in index.spots_in(said.kept, chat) if s.turn == turn]
        if found:
            plan[turn] = max(found)
        elif await engine.store.list_candidates(chat, turn):
            plan[turn] = "edit"
    return plan


def _leaves(rows: Mapping[int, TurnRow], offset: int, history: History,
            plan: dict[int, Choice], last: int, turn: int, known: int = 0) -> int | None:
    """The first turn where the history leaves the stored path (``rows``), or None (the
    ``known`` leading turns are on it)."""
    found: list[int] = []
    for n, choice in sorted(plan.items()):
        row = rows.get(n)
        if n < last and (choice == "edit" or row is None or choice != row.selected):
            found.append(n)
            break
    for j, said in enumerate(history.turns[known:], start=known + 1):
        row = rows.get(j + offset)
        if row is not None and row.said and row.said != said.user \
                and not _unanswered(row, last, turn):
            found.append(j + offset)
            break
    if turn < last:
        found.append(turn)
    return min(found) if found else None


async def _branched(engine: Engine, index: PathIndex, chat: str, at: int, offset: int,
                    history: History, plan: dict[int, Choice],
                    hold: Hold | None) -> tuple[str, list[Spot]]:
    """A branch of ``chat`` from S(at-1) holding the history's own path from turn ``at``."""
    new = await next_branch(engine, root_of(chat))
    await branch(engine, chat, at - 1, new)
    await index.seed(engine, new, hold)
    get_logger().info("proxy-branch", chat=chat, branch=new, at=at - 1)
    edited: list[Spot] = []
    for n in range(at, max((t for t in plan if t >= at), default=at - 1) + 1):
        await engine.user(new, n, history.turns[n - offset - 1].user)
        choice = plan.get(n)
        if choice is None:
            continue
        if n == at and choice != "edit":
            done = await copy_candidate(engine, chat, n, int(choice), new)
        else:
            done = await reread(engine, new, n, _kept(history, n - offset),
                                stored=choice != "edit")
            edited.append(Spot(new, n, done.candidate))
        index.add(new, n, done.candidate, done.text)
    return new, edited


async def _in_place(engine: Engine, index: PathIndex, chat: str, offset: int,
                    history: History, plan: dict[int, Choice],
                    rows: Mapping[int, TurnRow]) -> list[Spot]:
    """Select what the history kept (where ``rows`` say another is selected); an edited reply
    becomes an edited candidate of its turn."""
    edited: list[Spot] = []
    for n, choice in sorted(plan.items()):
        if choice == "edit":
            done = await reread(engine, chat, n, _kept(history, n - offset))
            index.add(chat, n, done.candidate, done.text)
            edited.append(Spot(chat, n, done.candidate))
        elif (row := rows.get(n)) is None or row.selected != choice:
            await engine.select(chat, n, choice)
    return edited


async def _tail(engine: Engine, index: PathIndex, chat: str, turn: int,
                tail: str | None) -> tuple[int | None, list[Spot]]:
    """The candidate a Continue extends: the stored one the tail is, else the tail stored as an
    edited candidate of the turn."""
    if tail is None:
        return None, []
    found = [s.candidate for s in index.spots_in(tail, chat)
             if s.turn == turn and index.by_text(tail)]
    if found:
        return max(found), []
    done = await reread(engine, chat, turn, tail)
    index.add(chat, turn, done.candidate, done.text)
    return done.candidate, [Spot(chat, turn, done.candidate)]


def _edits_kept_whole(index: PathIndex, history: History, plan: Mapping[int, Choice],
                      offset: int) -> None:
    """``RequestError`` before anything is stored when a reply that becomes an edited candidate
    (a Continue's tail no candidate's text is, too) is longer than a candidate keeps: it would be
    stored cut, unlike the client's. A stored candidate sent back may be longer (its resolved
    tags are), and is only found."""
    edits = [_kept(history, n - offset) for n, choice in plan.items() if choice == "edit"]
    if history.tail is not None and not index.by_text(history.tail):
        edits.append(history.tail)
    if any(len(text) > MAX_CANDIDATE_CHARS for text in edits):
        raise RequestError(f"an edited reply is longer than {MAX_CANDIDATE_CHARS} characters, "
                           "the longest reply a game keeps")


def _unanswered(row: TurnRow, last: int, turn: int) -> bool:
    """Whether ``row`` is the turn the request plays, the last, with no reply yet (the model
    failed on it): the player's message rewritten there is said again, not a branch."""
    return row.turn == last == turn and row.selected is None


async def _said_again(engine: Engine, chat: str, turn: int, row: TurnRow | None,
                      text: str) -> None:
    """The request plays ``turn``, opened before with no reply, under a rewritten message: kept
    as a ``said`` event on the turn, so that later requests find the turn by it."""
    if row is not None and row.selected is None and row.said != text:
        await engine.event(chat, turn, {"type": "said", "text": text})


def _kept(history: History, j: int) -> str:
    kept = history.turns[j - 1].kept
    return kept if kept is not None else ""
