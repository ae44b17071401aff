"""``[sheet: op=…]``: the game's life between checks (the sheet digest's open point 4).

The ops, in the attribute names the peer's users already write::

    [sheet: op="damage" pool="grit" amount="2"]            a pool drained (buffer first), floored at 0
    [sheet: op="damage" track="harm" kind="knock" amount="1"]   wound marks (SHEET-WND-09)
    [sheet: op="heal" pool="grit" amount="1"]              also restore; a wound track heals marks
    [sheet: op="temp" pool="grit" amount="3"]              a temporary buffer (allowTemp pools)
    [sheet: op="track" track="heat" mark amount="1"]       a plain track (clear, value=)
    [sheet: op="condition" name="Rattled"]                 on; `remove` lifts it; level= when levelled
    [sheet: op="state" name="Light" value="out"]           one of the state's values
    [sheet: op="note" name="Concentration" text="Bless"]   a live text field
    [sheet: op="rest" rest="vigil"]                        one of the ruleset's rests
    [sheet: op="use" name="Steady Hand"]                   a chosen entry paid as a charm (also cast)

``who=`` names the character as on every tag (default: the player). Each op reads the state as
the earlier tags of the reply left it and returns a new one (SPEC §3): a regenerated reply starts
again from the turn's state, so nothing is applied twice. Every refusal is a record with its code;
``spend`` is refused with a pointer to ``spend=`` on the check (CHK-SPEND-12).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from middleware.dice import Dice
from middleware.names import normalize_name
from middleware.parse import parse
from middleware.resolve import Context, Resolution
from middleware.resolve.checks.chance import CheckChance, chance_of
from middleware.resolve.sheet.marks import condition_op, note_op, state_op, track_op
from middleware.resolve.sheet.pools import damage_pool, heal_pool, temp_pool
from middleware.resolve.sheet.read import (
    Amount,
    Op,
    find_pool,
    find_track,
    health_target,
    read_amount,
)
from middleware.resolve.sheet.record import SheetRecord, refused
from middleware.resolve.sheet.rest_use import rest_op, use_op
from middleware.resolve.sheet.teach import sheet_instructions
from middleware.resolve.sheet.wounds import damage_wound, heal_track
from middleware.segments import Tag
from middleware.sheet.roller import find_roller
from middleware.state import Character, GameState

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset

__all__ = ["OPS", "SheetRecord", "chance_after_sheet", "resolve_sheet", "sheet_before_check",
           "sheet_instructions"]

Done = tuple[Character, SheetRecord]
Handler = Callable[[Op], Done]

ALIASES = {"restore": "heal", "cast": "use", "cond": "condition", "conditions": "condition",
           "mark": "track", "hurt": "damage", "harm": "damage"}
"""Other words for an op; the record keeps the op as written."""


def resolve_sheet(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """One op on one character's live state; refused ops change nothing."""
    written = _op_word(tag)
    op_name = ALIASES.get(written, written)
    handler = OPS.get(op_name)
    if handler is None:
        return Resolution(state, _unknown_op(tag, written))
    roller = find_roller(state, tag.get("who"))
    if roller.index is None or roller.character is None:
        return Resolution(state, refused(written, "unknown-character", _nobody(tag, state),
                                         tag.raw, who=tag.get("who")))
    op = Op(tag, written, state, roller.index, state.party[roller.index], ctx)
    character, record = handler(op)
    if record.status != "resolved" or character is op.character:
        return Resolution(state, record)
    return Resolution(state.with_character(roller.index, character), record)


def _op_word(tag: Tag) -> str:
    """``op=``, else the first bare word that is an op (``[sheet: rest rest="vigil"]``)."""
    written = tag.get("op")
    if written is not None:
        return normalize_name(written).replace(" ", "_")
    known = set(OPS) | set(ALIASES)
    return next((normalize_name(w) for w in tag.words if normalize_name(w) in known), "")


def _unknown_op(tag: Tag, written: str) -> SheetRecord:
    ops = ", ".join(sorted(set(OPS) | {"restore", "cast"}))
    said = f"No sheet op {written!r}" if written else "The tag names no op"
    return refused(written, "unknown-op", f"{said} (ops: {ops}).", tag.raw, who=tag.get("who"))


def _nobody(tag: Tag, state: GameState) -> str:
    names = ", ".join(m.name for m in state.party) or "nobody"
    return f"{tag.get('who')!r} is no one in the party ({names}): nothing changes."


def _spend(op: Op) -> Done:
    """CHK-SPEND-12: a spend belongs on the check, where the dice can still change."""
    return op.character, op.refuse(
        "spend-on-check", "Spend on the check itself, with spend= on the skill_check "
        "(spend=resolve:1): a separate sheet spend comes after the "
        "dice are thrown, so nothing would be left to change. Nothing is paid.")


def _target(op: Op) -> tuple[str, str] | SheetRecord:
    """The pool or track an amount lands on: ``pool=``, ``track=``, else ``combat.health``."""
    if (pool := op.attr("pool")) is not None:
        key = find_pool(op.view, pool)
        if key in ("unknown-pool", "ambiguous-pool"):
            names = ", ".join(op.view.live.pools()) or "none"
            return op.refuse(key, f"{op.character.name} has no pool {pool!r} (pools: {names}).",
                             pool=pool)
        return "pool", key
    if (name := op.attr("track")) is not None:
        track = find_track(op.view, name)
        if track is None:
            return op.refuse("unknown-track", f"No track {name!r} on this sheet.", track=name)
        return "track", track.id
    return health_target(op.ctx.ruleset) or op.refuse(
        "no-target", "Name what it lands on: pool=... or track=... (this game names no health).")


def _amount_op(pools: Callable[[Op, str, Amount], Done],
               wounds: Callable[[Op, object, Amount], Done]) -> Handler:
    def handler(op: Op) -> Done:
        target = _target(op)
        if isinstance(target, SheetRecord):
            return op.character, target
        amount = read_amount(op)
        if isinstance(amount, str):
            return op.character, op.refuse(amount, f"{op.attr('amount')!r} is no whole number "
                                           "or roll (write amount=2 or amount=1d6).")
        where, key = target
        if where == "pool":
            return pools(op, key, amount)
        track = op.view.ix.tracks[key]
        if not track.wound:
            return op.character, op.refuse(
                "wrong-track", f"{track.label} is a plain track: move it with op=track "
                f"track={track.id} mark or clear.", track=track.id)
        return wounds(op, track, amount)
    return handler


def _temp(op: Op) -> Done:
    target = _target(op)
    if isinstance(target, SheetRecord):
        return op.character, target
    if target[0] != "pool":
        return op.character, op.refuse("no-temp", "Temporary points go on a pool.",
                                       track=target[1])
    amount = read_amount(op)
    if isinstance(amount, str):
        return op.character, op.refuse(amount, "Write amount=3 or a roll.")
    return temp_pool(op, target[1], amount)


def _track(op: Op) -> Done:
    amount = read_amount(op)
    if isinstance(amount, str):
        return op.character, op.refuse(amount, "Write amount=1 or value=3.")
    return track_op(op, amount)


OPS: dict[str, Handler] = {
    "damage": _amount_op(damage_pool, damage_wound),  # type: ignore[arg-type]
    "heal": _amount_op(heal_pool, heal_track),  # type: ignore[arg-type]
    "temp": _temp,
    "track": _track,
    "condition": condition_op,
    "state": state_op,
    "note": note_op,
    "rest": rest_op,
    "use": use_op,
    "spend": _spend,
}
"""The ops by name (STYLE habit 5): one signature, picked from a dict."""


def sheet_before_check(ruleset: Ruleset, state: GameState, text: str,
                       dice: Dice | None = None) -> GameState:
    """The state after the ``[sheet:]`` tags written before the first ``[skill_check:]`` of
    ``text``, in reading order (what that check would read in a reply): ``gm-middleware odds``
    works a check's chance after damage this way (``chance_after_sheet``). Refused ops change
    nothing."""
    ctx = Context(ruleset=ruleset, dice=dice or Dice(0))
    for segment in parse(text):
        if isinstance(segment, Tag) and segment.name == "skill_check":
            break
        if isinstance(segment, Tag) and segment.name == "sheet" and not segment.problems:
            state = resolve_sheet(segment, state, ctx).state
    return state


def chance_after_sheet(ruleset: Ruleset, state: GameState | None, text: str,
                       who: str | None = None) -> CheckChance:
    """``chance_of`` the first check of ``text`` after the ``[sheet:]`` tags written before it:
    ``'[sheet: op="damage" track="harm" amount="1"] [skill_check: skill="Ward" dc="2"]'`` gives
    the odds of Ward with the new wound penalty (what ``gm-middleware odds`` prints)."""
    start = state or GameState(ruleset=str(ruleset.id))
    return chance_of(ruleset, sheet_before_check(ruleset, start, text), text, who)
