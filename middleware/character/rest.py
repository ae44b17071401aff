"""Rests applied (SHEET-REST-01..09), and the live-state writes they share with item uses.

A rest does exactly what its restore steps say, in order, then clears text and conditions, then
recharges the charges of every item the character carries whose ``recharge`` names it (SHEET-REST-08,
ITM-USE-12/13). Everything is pure: a character in, a new character and the outcome line out.
Writes keep live state sparse (SHEET-STORE-02): a value back at its default is dropped.

The writes (``set_pool``, ``set_track``, ``heal_wound``) are also what an item use calls to heal
and restore (ITM-USE-03..05, SHEET-WND-10/11).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from middleware.character.check import view_for
from middleware.dice import Dice
from middleware.items.charges import Find, Recharged, recharge_bag
from middleware.items.index import item_index
from middleware.names import normalize_name
from middleware.rules.live import Track
from middleware.rules.rests import ByConst, ByFraction, Clear, Rest, RestoreStep
from middleware.rules.ruleset import Ruleset
from middleware.sheet.evaluate import SheetView
from middleware.sheet.numbers import round_by
from middleware.state import Character, GameState, Live, PoolValue, Wounds

Said = list[str]
Step = Callable[[Ruleset, Character, RestoreStep], tuple[Character, Said]]


@dataclass(frozen=True, slots=True)
class Rested:
    """SHEET-REST-09 / ITM-USE-14: the character after the rest, the outcome line, the charges."""

    character: Character
    line: str
    recharged: tuple[Recharged, ...] = ()


def find_rest(ruleset: Ruleset, name: str) -> Rest | None:
    """The rest ``name`` means: its id, else its id or label without case or punctuation."""
    wanted = normalize_name(name)
    exact = [r for r in ruleset.rests if r.id == name]
    loose = [r for r in ruleset.rests if wanted in (normalize_name(r.id), normalize_name(r.label))]
    return next(iter(exact or loose), None)


def take_rest(ruleset: Ruleset, character: Character, rest: Rest, dice: Dice,
              find: Find | None = None) -> Rested:
    """SHEET-REST-01..08: the steps in order, then ``clear``, then item charges. ``find`` reads
    the bag's item refs (default: the ruleset's catalogs; pass ``items.lookup.find_item`` bound
    to the game state so invented items recharge too)."""
    said: Said = []
    for step in rest.restore:
        targets = step.targets
        if len(targets) == 1:  # the import refuses any other step; play never raises
            character, step_said = _STEPS[targets[0]](ruleset, character, step)
            said += step_said
    character, cleared = _clear(ruleset, character, rest.clear)
    bag, recharged = recharge_bag(find or item_index(ruleset).find, character.bag, rest.id, dice)
    character = character.model_copy(update={"bag": bag})
    parts = [*said, *cleared, *(str(r) for r in recharged)]
    line = f"{rest.label}: {', '.join(parts) if parts else 'nothing changes'}."
    return Rested(character, line, recharged)


# --- restore steps (SHEET-REST-02..06) --------------------------------------------------------


def _target(step: RestoreStep, value: int, low: int, high: int) -> int | None:
    """SHEET-REST-02: the new value a ``to``/``by`` step gives, held to ``low..high``."""
    if step.to is not None:
        named = {"max": high, "min": low}
        wanted = named.get(step.to) if isinstance(step.to, str) else step.to
        return None if wanted is None else min(max(wanted, low), high)
    if isinstance(step.by, ByConst):
        return min(max(value + step.by.const, low), high)
    if isinstance(step.by, ByFraction):
        gain = max(step.by.min, int(round_by(step.by.fraction_of_max * high, step.by.round)))
        return min(max(value + gain, low), high)
    return None


def _pools(ruleset: Ruleset, character: Character, keys: list[str],
           step: RestoreStep) -> tuple[Character, Said]:
    """SHEET-REST-03: each pool the character has; one that does not exist is skipped."""
    view = view_for(ruleset, character)
    pools = view.live.pools()
    rows = view.live.row_pools()
    said: Said = []
    for key in keys:
        if key not in pools:
            continue
        value, top = pools[key]
        new = _target(step, value, 0, top)
        if new is not None:
            character = set_pool(ruleset, character, key, new)
            name = rows[key].name if key in rows else view.ix.pools[key].label
            said.append(f"{name} {new}/{top}")
    return character, said


def _pool_step(ruleset: Ruleset, character: Character,
               step: RestoreStep) -> tuple[Character, Said]:
    return _pools(ruleset, character, [step.pool or ""], step)


def _group_step(ruleset: Ruleset, character: Character,
                step: RestoreStep) -> tuple[Character, Said]:
    """SHEET-REST-03: every pool of the group."""
    keys = [p.id for p in ruleset.sheet.live.pools if p.group == step.pool_group]
    return _pools(ruleset, character, keys, step)


def _list_step(ruleset: Ruleset, character: Character,
               step: RestoreStep) -> tuple[Character, Said]:
    """SHEET-REST-03: every row pool of the list, only those whose recharge is listed."""
    rows = view_for(ruleset, character).live.row_pools().values()
    keys = [r.key for r in rows if r.list_id == step.list_pools
            and (step.recharge is None or r.recharge in step.recharge)]
    return _pools(ruleset, character, keys, step)


def _track_step(ruleset: Ruleset, character: Character,
                step: RestoreStep) -> tuple[Character, Said]:
    """SHEET-REST-04/05: a plain track moves within its range; a wound track can only heal."""
    view = view_for(ruleset, character)
    track = view.ix.tracks.get(step.track or "")
    if track is None:
        return character, []
    if track.wound:
        return _wound_step(ruleset, view, character, track, step)
    low, high = view.live.track_range(track)
    new = _target(step, view.live.plain_value(track), low, high)
    if new is None:
        return character, []
    return set_track(ruleset, character, track.id, new), [f"{track.label} {new}/{high}"]


def _wound_step(ruleset: Ruleset, view: SheetView, character: Character, track: Track,
                step: RestoreStep) -> tuple[Character, Said]:
    """SHEET-REST-05: ``to`` clears down to N marks and all overflow; a negative ``by`` heals
    that many; a step that would add marks is skipped silently; ``kind`` narrows the marks."""
    wound = view.live.wound(track.id)
    assert wound is not None
    marks, overflow = list(wound.marks), wound.overflow
    if step.to is not None:
        keep = 0 if step.to == "min" else step.to if isinstance(step.to, int) else None
        if keep is None:
            return character, []
        while _count(track, marks, step.kind) > max(keep, 0):
            marks = _without_lightest(track, marks, step.kind)
        overflow = 0
    elif isinstance(step.by, ByConst) and step.by.const < 0:
        marks, overflow = _heal(track, marks, overflow, -step.by.const, step.kind)
    else:
        return character, []
    character = _store_wounds(character, track.id, marks, overflow)
    return character, [f"{track.label} {sum(1 for m in marks if m)}/{wound.length}"]


def _state_step(ruleset: Ruleset, character: Character,
                step: RestoreStep) -> tuple[Character, Said]:
    """SHEET-REST-06: ``to: "default"`` or one of the values; a hidden state is skipped."""
    view = view_for(ruleset, character)
    state = view.ix.states.get(step.state or "")
    if state is None or view.hidden(state.hide_when):
        return character, []
    value = state.start if step.to == "default" else step.to
    if not isinstance(value, str) or value not in state.values:
        return character, []
    states = {k: v for k, v in character.live.states.items() if k != state.id}
    if value != state.start:
        states[state.id] = value
    shown = (state.value_labels or {}).get(value, value)
    return _with_live(character, states=states), [f"{state.label} {shown}"]


_STEPS: dict[str, Step] = {"pool": _pool_step, "poolGroup": _group_step,
                           "listPools": _list_step, "track": _track_step, "state": _state_step}
"""SHEET-REST-02: a restore step by the one target it names."""


def _clear(ruleset: Ruleset, character: Character,
           clear: Clear | None) -> tuple[Character, Said]:
    """SHEET-REST-07: empty the named text fields, remove the named (or all) conditions."""
    if clear is None:
        return character, []
    live = character.live
    gone = set(live.conditions) if clear.conditions == "all" else set(clear.conditions)
    active = view_for(ruleset, character).live.active_conditions()
    labels = ruleset.sheet.by_id.conditions
    said = [f"no longer {labels[c].label}" for c in active if c in gone]
    return _with_live(character, text={k: v for k, v in live.text.items() if k not in clear.text},
                      conditions=tuple(c for c in live.conditions if c not in gone)), said


# --- live-state writes (SHEET-LIVE-06, SHEET-WND-10, SHEET-STORE-02) --------------------------


def set_pool(ruleset: Ruleset, character: Character, key: str, value: int,
             state: GameState | None = None) -> Character:
    """A pool set to ``value`` (held to 0..max); back at its start the entry is dropped and the
    pool follows its maximum again. The temporary buffer is kept (SHEET-REST-01). ``state`` lets
    a maximum read the game's invented items (ITM-PROPOSE-13)."""
    view = view_for(ruleset, character, state=state)
    pools = view.live.pools()
    if key not in pools:
        return character
    top = pools[key][1]
    declared = view.ix.pools.get(key)
    start = 0 if declared is not None and declared.start == "empty" else top
    value = min(max(value, 0), top)
    stored = dict(character.live.pools)
    old = stored.pop(key, None)
    temp = old.temp if old else None
    if value != start or temp is not None:
        stored[key] = PoolValue(value=value, temp=temp)
    return _with_live(character, pools=stored)


def set_track(ruleset: Ruleset, character: Character, track_id: str, value: int,
              state: GameState | None = None) -> Character:
    """A plain track set to ``value`` (held to its range); at its default the entry is dropped."""
    view = view_for(ruleset, character, state=state)
    track = view.ix.tracks.get(track_id)
    if track is None or track.wound:
        return character
    low, high = view.live.track_range(track)
    default = min(max(track.default if track.default is not None else low, low), high)
    tracks = {k: v for k, v in character.live.tracks.items() if k != track_id}
    if min(max(value, low), high) != default:
        tracks[track_id] = min(max(value, low), high)
    return _with_live(character, tracks=tracks)


def heal_wound(ruleset: Ruleset, character: Character, track_id: str, n: int,
               kind: str | None = None) -> Character:
    """SHEET-WND-10: healing ``n`` clears overflow first, then the lightest marks one at a time."""
    track = ruleset.sheet.by_id.tracks.get(track_id)
    wound = view_for(ruleset, character).live.wound(track_id)
    if track is None or wound is None:
        return character
    marks, overflow = _heal(track, list(wound.marks), wound.overflow, n, kind)
    return _store_wounds(character, track_id, marks, overflow)


def _heal(track: Track, marks: list[str], overflow: int, n: int,
          kind: str | None) -> tuple[list[str], int]:
    for _ in range(max(n, 0)):
        if overflow:
            overflow -= 1
        elif _count(track, marks, kind):
            marks = _without_lightest(track, marks, kind)
        else:
            break
    return marks, overflow


def _narrow(track: Track, kind: str | None) -> str | None:
    """SHEET-WND-10: a kind the track does not declare narrows nothing."""
    return kind if kind in {k.id for k in track.kinds or ()} else None


def _count(track: Track, marks: list[str], kind: str | None) -> int:
    narrow = _narrow(track, kind)
    return sum(1 for m in marks if m and (narrow is None or m == narrow))


def _without_lightest(track: Track, marks: list[str], kind: str | None) -> list[str]:
    """The lightest mark cleared; among equally light ones the last (the highest box)."""
    severity = {k.id: k.severity for k in track.kinds or ()}
    narrow = _narrow(track, kind)
    found = [(severity.get(m, 0), i) for i, m in enumerate(marks)
             if m and (narrow is None or m == narrow)]
    if not found:
        return marks
    lightest = min(s for s, _ in found)
    at = max(i for s, i in found if s == lightest)
    if not track.indexed:
        return marks[:at] + marks[at + 1:]
    cleared = [*marks[:at], "", *marks[at + 1:]]
    while cleared and not cleared[-1]:
        cleared.pop()
    return cleared


def _store_wounds(character: Character, track_id: str, marks: list[str],
                  overflow: int) -> Character:
    wounds = {k: v for k, v in character.live.wounds.items() if k != track_id}
    if any(marks) or overflow:
        wounds[track_id] = Wounds(marks=tuple(marks), overflow=overflow)
    return _with_live(character, wounds=wounds)


def _with_live(character: Character, **update: object) -> Character:
    live: Live = character.live.model_copy(update=update)
    return character.model_copy(update={"live": live})
