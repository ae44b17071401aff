"""The ``[skill_check:]`` resolver: read the ask, assemble the sheet, roll the ruleset's kind.

The steps, in order (SHEET-CHK-03, CHK-COMMON): read what the GM asked (``ask.read_ask``), find
the roller and their check sheet, stop on an untrained ``refuse`` or an automatic failure, then
hand over to the kind picked from ``kinds.KINDS`` by ``resolution.kind`` (STYLE habit 5), with the
check's own overrides first (CHK-OVR).
"""

from __future__ import annotations

from middleware.cache import IdentityCache
from middleware.character.check import CheckSheet, assemble_check
from middleware.records import IgnoredRecord
from middleware.resolve import Context, Resolution
from middleware.resolve.checks.ask import read_ask
from middleware.resolve.checks.changes import changed_fields
from middleware.resolve.checks.kind import Roll, Rolled
from middleware.resolve.checks.kinds import KINDS
from middleware.resolve.checks.overrides import roll_with_overrides
from middleware.resolve.checks.record import Ask, CheckRecord
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.sheet.roller import Roller, find_roller
from middleware.state import GameState


def resolve_check(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """The ``skill_check`` resolver (SPEC §2, CHK-COMMON, SHEET-CHK).

    A check changes state only when its kind pays a pool (CHK-SPEND, CHK-CHARM): the kind returns
    the state after the check (``kind.Rolled``) and later tags in the reply see it.
    """
    ask = read_ask(tag)
    if ask is None:
        return Resolution(state, IgnoredRecord(
            tag="skill_check", reason="no-skill", source=tag.raw,
            feedback="A skill_check needs skill=; the tag was left as written."))
    roller, sheet = _roller_and_sheet(ctx.ruleset, state, ask)
    settled = _settled(ask, sheet)
    rolled = Rolled(settled, state) if settled else _by_kind(Roll(ask, sheet, ctx, state, roller))
    return Resolution(rolled.state, _finished(rolled.record, ask, sheet, roller, ctx))


_SHEETS: IdentityCache[tuple[Roller, CheckSheet]] = IdentityCache(256)


def _roller_and_sheet(ruleset: Ruleset, state: GameState, ask: Ask) -> tuple[Roller, CheckSheet]:
    """Who rolls and their check sheet (SHEET-CHK-01..03): a pure function of the ruleset, the
    party, the invented items and layers and what the ask names, worked out once per (ruleset,
    party, invented items) objects. Most checks roll on a party no earlier tag changed, and
    finding the roller and looking up their sheet cost a tenth of a check."""
    return _SHEETS.get(
        (ruleset, state.party, state.invented),
        (state.layers, ask.who, ask.skill, ask.with_, ask.save_hint),
        lambda: _found(ruleset, state, ask))


def _found(ruleset: Ruleset, state: GameState, ask: Ask) -> tuple[Roller, CheckSheet]:
    roller = find_roller(state, ask.who)
    return roller, assemble_check(ruleset, state, roller, ask.skill, ask.with_, ask.save_hint)


def _finished(record: CheckRecord, ask: Ask, sheet: CheckSheet, roller: Roller,
              ctx: Context) -> CheckRecord:
    """What every check record ends with (ITM-CHECK-15 ``effects``/``from``, the ``source``,
    the stranger's note), in one copy at most: a kind that already wrote the same values is
    answered with its own record."""
    update = changed_fields(record, sheet, ctx.ruleset.resolution)
    if record.source != ask.source:
        update["source"] = ask.source
    if roller.stranger and ask.who:
        # SHEET-CHK-02: a who= that names nobody rolls as a stranger; the GM is told so.
        update["feedback"] = f'{record.feedback or ""} "{ask.who}" is not in the party: rolled ' \
            "as a stranger with no sheet.".lstrip()
    return record.model_copy(update=update) if update else record


def _settled(ask: Ask, sheet: CheckSheet) -> CheckRecord | None:
    """SHEET-UNT-05 refuse and SHEET-CHK-06 automatic failure: nothing is rolled."""
    if sheet.untrained == "refuse":
        return CheckRecord.trusted(status="refused", reason="untrained", skill=ask.skill, who=ask.who,
                           dc=ask.dc, feedback=f"{ask.skill} cannot be tried untrained.")
    if sheet.fails_automatically:
        return CheckRecord.trusted(status="resolved", skill=ask.skill, who=ask.who, dc=ask.dc,
                           success=False, automatic=True, from_=sheet.fails_automatically,
                           feedback=f"Failed automatically ({sheet.fails_automatically}).")
    return None


def _by_kind(roll: Roll) -> Rolled:
    kind_name = roll.ctx.ruleset.resolution.kind
    kind = KINDS.get(kind_name)
    if kind is None:
        return roll.unchanged(CheckRecord.trusted(
            status="error", reason="unsupported-kind", skill=roll.ask.skill, who=roll.ask.who,
            feedback=f"Checks of kind {kind_name} are not supported yet."))
    return roll_with_overrides(kind.roll, roll)  # CHK-OVR: the check's own resolution first


