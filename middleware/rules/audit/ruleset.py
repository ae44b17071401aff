"""Import checks the first pass left out: rules that could never trigger (CHK-IMPORT, Ambiguity 26).

Run after ``check_resolution`` (``CHECKERS`` in ``load.py``); every problem has its JSON path.

- Ladders: a rung the check could never meet or that means nothing (CHK-POOL-20 successes,
  CHK-HIGH-13 and CHK-SYM-08 ``dc`` ranges), and the ladders that layers swap in, checked in the
  shape of the ruleset's own kind and against the same rules as its own ladder (CHK-IMPORT-10).
- dice-pool, the rest of CHK-IMPORT-12: ``exceptional`` beyond the most a roll can count, stances
  naming skills the sheet lacks, ``target.from`` on a fixed target, situational dice of 0..0.
- dice-highest: a ``critical.count`` more dice than a check can throw (CHK-HIGH-05).
- roll-against: critical rules no roll of the dice reaches, ``whenTarget`` no target satisfies
  (CHK-AGAINST-06/07).
- symbol-pool: success and critical symbols no face can show (CHK-SYM-14/15).
- Charms: ``mechanics.check`` ``threshold``/``explode``/``double`` within what the ruleset allows
  (CHK-CHARM-05/06, CHK-IMPORT-08/12), and no purchase of zero dice or successes (CHK-IMPORT-45).

The kind checks also run on what each override produces, for the keys it sets (CHK-IMPORT-38).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

from pydantic import TypeAdapter, ValidationError

from middleware.errors import Problem
from middleware.rules.catalogs import Catalog, CharmCheck
from middleware.rules.common import LADDER_MAX, AgainstRung, DcRung, PoolRung, Rung
from middleware.rules.kinds.dice_highest import DiceHighest
from middleware.rules.kinds.dice_pool import DicePool, SituationalDice
from middleware.rules.kinds.roll_against import RollAgainst
from middleware.rules.kinds.symbol_pool import SymbolPool
from middleware.rules.overrides import merged_resolution
from middleware.rules.problems import RESOLUTION as R
from middleware.rules.problems import validation_problems
from middleware.rules.resolution import AnyResolution, ResolutionBlock
from middleware.rules.ruleset import Ruleset

Rungs = tuple[Rung, ...]


def check_audit(ruleset: Ruleset) -> Iterator[Problem]:
    """Every problem this module finds in ``ruleset``, each with its JSON path."""
    res = ruleset.resolution
    yield from audit_block(res, ruleset)
    yield from _overrides(ruleset)
    yield from _layer_ladders(ruleset)
    yield from _charm_limits(ruleset)


def audit_block(res: AnyResolution, ruleset: Ruleset) -> Iterator[Problem]:
    """The kind's never-trigger checks on one resolution (the file's own or an override's)."""
    yield from _rungs(res, res.difficulty_ladder, f"{R}.difficultyLadder", own=True)
    yield from _kind_audit(res, ruleset)


def _overrides(ruleset: Ruleset) -> Iterator[Problem]:
    """CHK-IMPORT-38 for this module's checks: a problem an override's resolution has and the
    file's own has not, at a key the override sets (our reading of "a face it names": a base rule
    a ``set`` merely makes unreachable, such as d20 criticals under an X-in-6 d6, stays allowed).
    An override that is no valid resolution is reported by ``check_resolution``."""
    res = ruleset.resolution
    base = set(audit_block(res, ruleset))
    for i, override in enumerate(res.overrides):
        try:
            produced = _resolution_adapter().validate_python(merged_resolution(res, override))
        except ValidationError:
            continue
        for problem in audit_block(produced, ruleset):
            rest = problem.path.removeprefix(f"{R}.")
            if problem not in base and rest.split(".")[0].split("[")[0] in override.set:
                yield Problem(f"{R}.overrides[{i}].set.{rest}", problem.message)


@cache
def _resolution_adapter() -> TypeAdapter[AnyResolution]:
    return TypeAdapter(ResolutionBlock)


# --- ladders (CHK-POOL-16/20, CHK-HIGH-13, CHK-SYM-08, CHK-IMPORT-10) ----------------------


def pool_countable(res: DicePool) -> int:
    """CHK-POOL-20: the most successes a roll can count (``pool.max``, doubled per rule)."""
    return res.pool.max * (2 if res.explode else 1) * (2 if res.double else 1)


def _rungs(res: AnyResolution, ladder: Rungs, path: str, own: bool) -> Iterator[Problem]:
    """Rungs the kind could never meet. ``own``: the resolution's own ladder, whose rung targets
    the kind's own audit in ``rules/kinds/`` already checks (CHK-IMPORT-10); a layer's ladder
    gets that check here."""
    for i, rung in enumerate(ladder):
        where = f"{path}[{i}]"
        if isinstance(res, DicePool) and isinstance(rung, PoolRung):
            yield from _pool_rung(res, rung, where, own)
        elif isinstance(res, DiceHighest) and isinstance(rung, DcRung):
            yield from _within(rung.dc, 1, res.keep * res.die.sides, f"{where}.dc",
                               "the kept dice can reach (CHK-HIGH-13)")
        elif isinstance(res, SymbolPool) and isinstance(rung, DcRung):
            yield from _within(rung.dc, 0, res.difficulty.max, f"{where}.dc",
                               "difficulty dice a check may throw (CHK-SYM-08)")


def _pool_rung(res: DicePool, rung: PoolRung, where: str, own: bool) -> Iterator[Problem]:
    most = pool_countable(res)
    if rung.successes > most:
        yield Problem(f"{where}.successes", f"needs {rung.successes} successes; a roll counts at "
                                            f"most {most} (CHK-POOL-20, CHK-IMPORT-12)")
    if own or rung.target is None:
        return
    target = res.target
    if target.min == target.max:
        yield Problem(f"{where}.target", "the target is fixed (target.min = target.max) "
                                         "(CHK-IMPORT-10)")
    elif not target.min <= rung.target <= target.max:
        yield Problem(f"{where}.target",
                      f"outside target {target.min}..{target.max} (CHK-IMPORT-10)")


def _within(value: int, low: int, high: int, path: str, what: str) -> Iterator[Problem]:
    if not low <= value <= high:
        yield Problem(path, f"{value} is outside {low}..{high}, the {what}")


_LADDER_SHAPES: dict[str, object] = {
    "dice-sum": list[DcRung], "dice-pool": list[PoolRung], "dice-highest": list[DcRung],
    "roll-against": list[AgainstRung], "symbol-pool": list[DcRung],
}
"""The ladder shape (a type form) of each kind: a layer swaps the ladder in the shape of the
ruleset's kind."""


@cache
def _ladder_adapter(kind: str) -> TypeAdapter[list[Rung]]:
    return TypeAdapter(_LADDER_SHAPES[kind])


def _layer_ladders(ruleset: Ruleset) -> Iterator[Problem]:
    """A layer's ``difficultyLadder``: the kind's rung shape, at most 40 rungs, the same rules."""
    res = ruleset.resolution
    for i, layer in enumerate(ruleset.layers):
        if not isinstance(layer, dict) or "difficultyLadder" not in layer:
            continue
        raw, path = layer["difficultyLadder"], f"$.layers[{i}].difficultyLadder"
        if not isinstance(raw, list) or not 1 <= len(raw) <= LADDER_MAX:
            yield Problem(path, f"a ladder is a list of 1 to {LADDER_MAX} rungs")
            continue
        try:
            ladder = _ladder_adapter(res.kind).validate_python(raw, strict=True)
        except ValidationError as exc:
            yield from validation_problems(exc, raw, ("layers", i, "difficultyLadder"))
            continue
        yield from _rungs(res, tuple(ladder), path, own=False)


# --- dice-pool: the rest of CHK-IMPORT-12 --------------------------------------------------


def _pool(res: DicePool, ruleset: Ruleset) -> Iterator[Problem]:
    most = pool_countable(res)
    if res.exceptional is not None and res.exceptional.successes > most:
        yield Problem(f"{R}.exceptional.successes",
                      f"a roll counts at most {most} successes; this could never trigger "
                      "(CHK-IMPORT-12)")
    skills = {s.id for s in ruleset.sheet.skills}
    for i, stance in enumerate(res.stances):
        for j, skill in enumerate(stance.skills):
            if skill not in skills:
                yield Problem(f"{R}.stances[{i}].skills[{j}]",
                              f"unknown skill {skill!r}; the stance could never apply "
                              "(CHK-IMPORT-12)")
    if res.target.from_ is not None and res.target.min == res.target.max:
        yield Problem(f"{R}.target.from", "target.from is clamped to a fixed target and could "
                                          "never move it (CHK-IMPORT-12)")
    yield from _situational(res.situational_dice)


def _situational(dice: SituationalDice | None) -> Iterator[Problem]:
    """CHK-POOL-13 / CHK-HIGH-11: situational dice that allow no bonus at all."""
    if dice is not None and dice.min == dice.max == 0:
        yield Problem(f"{R}.situationalDice", "min and max 0 allow no bonus dice; leave "
                                              "situationalDice out (CHK-IMPORT-12)")


# --- dice-highest, roll-against, symbol-pool -------------------------------------------------


def _highest(res: DiceHighest, ruleset: Ruleset) -> Iterator[Problem]:
    """CHK-HIGH-05: a critical needs no more dice than a check can throw (dark dice count only
    when they are read with the light ones, ``outcome: "all"``)."""
    most = res.pool.max + (res.dark.max if res.dark and res.dark.outcome == "all" else 0)
    if res.critical is not None and res.critical.count > most:
        yield Problem(f"{R}.critical.count", f"a check throws at most {most} dice; the critical "
                                             "could never trigger (CHK-HIGH-05)")
    yield from _situational(res.situational_dice)


def _against(res: RollAgainst, ruleset: Ruleset) -> Iterator[Problem]:
    """CHK-AGAINST-06/07: a critical rule must match some roll and some target."""
    low, high = res.dice.count, res.dice.count * res.dice.sides
    for key, rules in (("criticalSuccess", res.critical_success),
                       ("criticalFailure", res.critical_failure)):
        for i, rule in enumerate(rules):
            where = f"{R}.{key}[{i}]"
            start = rule.from_ if rule.from_ is not None else low
            end = rule.to if rule.to is not None else high
            if start > high or end < low:
                yield Problem(where, f"no roll of {res.dice.count}d{res.dice.sides} "
                                     f"({low}..{high}) is in this range (CHK-AGAINST-06)")
            when = rule.when_target
            if when is not None and when.at_least is not None and when.below is not None \
                    and when.at_least >= when.below:
                yield Problem(f"{where}.whenTarget", "no target is at least atLeast and below "
                                                     "below (CHK-AGAINST-07)")


def _symbol(res: SymbolPool, ruleset: Ruleset) -> Iterator[Problem]:
    """CHK-SYM-14/15: success and critical symbols that some face can show (or count)."""
    counts = {s.id: s.counts for s in res.symbols}
    shown = {symbol for die in res.dice for face in die.faces for symbol in face}
    reachable = shown | {counts[s] for s in shown if counts.get(s)}
    for path, symbol in (("success.symbol", res.success.symbol),
                         ("criticalSuccess", res.critical_success),
                         ("criticalFailure", res.critical_failure)):
        if symbol is not None and symbol in counts and symbol not in reachable:
            yield Problem(f"{R}.{path}", f"no die face shows {symbol!r}; it could never count "
                                         "(CHK-SYM-14/15)")


def _kind_audit(res: AnyResolution, ruleset: Ruleset) -> Iterator[Problem]:
    """The never-trigger checks of each kind beyond its audit in ``rules/kinds/`` (dice-sum has
    none left)."""
    match res:
        case DicePool():
            yield from _pool(res, ruleset)
        case DiceHighest():
            yield from _highest(res, ruleset)
        case RollAgainst():
            yield from _against(res, ruleset)
        case SymbolPool():
            yield from _symbol(res, ruleset)


# --- charms (CHK-CHARM-05/06, CHK-IMPORT-08/12/45) -------------------------------------------


def _charm_limits(ruleset: Ruleset) -> Iterator[Problem]:
    """A charm moves the target or a rule's face only within what the ruleset allows."""
    res = ruleset.resolution
    if not isinstance(res, DicePool):
        return  # CHK-IMPORT-47 already refuses any mechanics.check outside a dice pool
    for path, check in _charm_checks(ruleset.catalogs):
        if check.threshold is not None:
            yield from _within(check.threshold, res.target.min, res.target.max,
                               f"{path}.threshold", "range target allows (CHK-CHARM-05)")
        for name, face in (("explode", check.explode), ("double", check.double)):
            if face is not None:
                yield from _charm_face(res, name, face, f"{path}.{name}")
        for name, number in (("dice", check.dice), ("successes", check.successes)):
            if number == 0:
                yield Problem(f"{path}.{name}", f"{name}: 0 changes nothing (CHK-IMPORT-45)")


def _charm_face(res: DicePool, name: str, face: int, path: str) -> Iterator[Problem]:
    """CHK-CHARM-06: only a rule with a ``min``, and from that ``min`` up to the die's faces."""
    rule = getattr(res, name)
    if rule is None or rule.min is None:
        yield Problem(path, f"the ruleset's {name} has no min, so no check may move it "
                            "(CHK-CHARM-06)")
        return
    yield from _within(face, rule.min, res.die.sides, path,
                       f"faces from {name}.min to the die's highest (CHK-CHARM-06, CHK-IMPORT-08)")


def _charm_checks(catalogs: Iterable[Catalog]) -> Iterator[tuple[str, CharmCheck]]:
    """Each entry's ``mechanics.check`` with its path."""
    for i, catalog in enumerate(catalogs):
        for j, entry in enumerate(catalog.entries):
            if entry.mechanics is not None and entry.mechanics.check is not None:
                yield f"$.catalogs[{i}].entries[{j}].mechanics.check", entry.mechanics.check
