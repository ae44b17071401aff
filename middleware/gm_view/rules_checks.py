"""The rules block's check parts: how to write ``[skill_check:]`` for this ruleset only.

Each line names only what the ruleset has (CHK-COMMON-08, CHK-OUT-13, CHK-SUM-09): the attributes
that apply to its resolution kind and to the keys it declares, the skills, saves and abilities by
label, the ladder rungs with their numbers, the outcome tiers with their ``text``, the spend rules,
the named re-rolls and the charms (catalog entries whose ``mechanics.check`` changes a roll). Pure
functions of the ruleset and the game's layers, so the block is the same on every turn.
"""

from __future__ import annotations

from collections.abc import Iterator

from middleware.gm_view.parts import Part, safe
from middleware.rules.common import AgainstRung, PoolRung, Rung, SpendEntry
from middleware.rules.resolution import (
    AnyResolution,
    DiceHighest,
    DicePool,
    DiceSum,
    RollAgainst,
    SymbolPool,
)
from middleware.rules.ruleset import Ruleset

_DC_MEANS = {"dice-sum": "the total to reach", "dice-pool": "the successes needed",
             "dice-highest": "the kept die to reach", "roll-against": "a shift of the target",
             "symbol-pool": "the number of opposing dice"}


def check_parts(ruleset: Ruleset, ladder: tuple[Rung, ...]) -> list[Part]:
    """The check parts, in the order the model needs them; empty ones are left out later."""
    res = ruleset.resolution
    return [Part("checks", "CHECKS", (*_form(ruleset, res, bool(ladder)), *_attributes(res))),
            Part("names", "WHAT CAN BE CHECKED", tuple(_names(ruleset))),
            Part("ladder", "DIFFICULTY LADDER", tuple(_rung(r) for r in ladder)),
            Part("tiers", "OUTCOMES", tuple(_tiers(res))),
            Part("spends", "SPENDING ON A CHECK", tuple(_spends(ruleset, res))),
            Part("charms", "CHARMS", tuple(_charms(ruleset)))]


def _form(ruleset: Ruleset, res: AnyResolution, has_ladder: bool) -> list[str]:
    difficulty = ' difficulty="<rung>"' if has_ladder else ""
    form = f'[skill_check: skill="<skill, save or ability>" dc="N"{difficulty} who="<name>"]'
    lines = [f"Call for a check with {form}. Without who= the player rolls.",
             f"This game rolls {_dice(res)}; dc= is {_DC_MEANS[res.kind]}."]
    if has_ladder:
        lines.append("difficulty= names a rung of the ladder below; dc= wins when both are given.")
    if ruleset.sheet.abilities:
        lines.append('with="<ability>" rolls the skill with another ability'
                     + (" (on an ability check: adds a second ability)."
                        if isinstance(res, DicePool) and res.pool.ability_plus_ability else "."))
    return lines


def _dice(res: AnyResolution) -> str:
    if isinstance(res, DiceSum):
        return f"{res.dice.count}d{res.dice.sides} plus the sheet number"
    if isinstance(res, DicePool):
        return (f"a pool of d{res.die.sides}, as many as the sheet number; each die at "
                f"{res.target.default} or more is a success")
    if isinstance(res, DiceHighest):
        return f"a handful of d{res.die.sides} (the sheet number), the highest kept"
    if isinstance(res, RollAgainst):
        word = "at most" if res.against == "at-most" else "at least"
        return f"{res.dice.count}d{res.dice.sides}, which must come {word} the sheet number"
    return "narrative dice whose symbols count and cancel"


def _attributes(res: AnyResolution) -> Iterator[str]:
    """Only the attributes this kind and these keys read."""
    if isinstance(res, DiceSum):
        yield from _sum_attributes(res)
    elif isinstance(res, DicePool):
        yield from _pool_attributes(res)
    elif isinstance(res, DiceHighest):
        if res.situational_dice is not None:
            yield (f'bonus="N" adds or takes dice ({res.situational_dice.min} to '
                   f"{res.situational_dice.max}).")
        if res.dark is not None:
            yield (f'dark="N" adds up to {res.dark.max} {safe(res.dark.label)}'
                   + (f": {safe(res.dark.text)}" if res.dark.text else "."))
    elif isinstance(res, RollAgainst):
        if res.tens is not None:
            yield f'bonus="N" adds bonus (or, negative, penalty) tens dice, up to {res.tens.max}.'
    else:
        yield from _symbol_attributes(res)


def _sum_attributes(res: DiceSum) -> Iterator[str]:
    if res.advantage:
        yield 'mode="advantage" or mode="disadvantage" rolls twice and keeps the better or worse.'
    if res.unmodified:
        faces = ", ".join(str(f) for f in res.unmodified)
        yield (f"When a check comes back with unmodified= (faces {faces}), apply what these rules "
               "say about that unmodified roll.")


def _pool_attributes(res: DicePool) -> Iterator[str]:
    if res.target.min < res.target.max:
        yield (f'threshold="N" sets the per-die target for one check ({res.target.min} to '
               f"{res.target.max}).")
    if res.situational_dice is not None:
        yield (f'bonus="N" adds or takes dice ({res.situational_dice.min} to '
               f"{res.situational_dice.max}).")
    for word, rule in (("explode", res.explode), ("double", res.double)):
        if rule is not None and rule.min is not None:
            yield f'{word}="N" moves the {word} face for one check (down to {rule.min}).'
    for named in res.reroll:
        again = "until above it" if named.mode == "until" else "once"
        yield f'reroll="{named.id}" throws every die showing {named.up_to} or less again, {again}.'


def _symbol_attributes(res: SymbolPool) -> Iterator[str]:
    if res.difficulty.upgrade:
        yield 'upgrade="N" upgrades N opposing dice.'
    if res.setback is not None:
        yield f'setback="N" adds up to {res.setback.max} setback dice.'
    if res.boost is not None or res.setback is not None:
        yield 'bonus="N" adds boost dice (negative: setback dice).'
    if res.allow_own_upgrade:
        yield 'upgradeOwn="N" upgrades N of the roller\'s own dice.'
    for symbol in res.symbols:
        yield f"{safe(symbol.label)}" + (f": {safe(symbol.text)}" if symbol.text else "")


def _names(ruleset: Ruleset) -> Iterator[str]:
    sheet = ruleset.sheet
    if sheet.skills:
        yield "Skills: " + ", ".join(s.label for s in sheet.skills) + "."
    if sheet.saves:
        yield "Saves: " + ", ".join(s.label for s in sheet.saves) + "."
    if sheet.abilities:
        yield "Abilities: " + ", ".join(a.label for a in sheet.abilities) + "."
    yield "Name one of these; any other name is refused and the roller is told so."


def _rung(rung: Rung) -> str:
    if isinstance(rung, PoolRung):
        target = f", each die at {rung.target}+" if rung.target is not None else ""
        return f"{rung.label}: {rung.successes} success{'' if rung.successes == 1 else 'es'}{target}"
    if isinstance(rung, AgainstRung):
        divide = f", target divided by {rung.divide}" if rung.divide else ""
        return f"{rung.label}: shift {rung.dc:+d}{divide}"
    return f"{rung.label}: {rung.dc}"


def _tiers(res: AnyResolution) -> Iterator[str]:
    if res.outcomes is None:
        return
    yield "The check comes back with outcome=; narrate that tier."
    for tier in res.outcomes.tiers:
        yield f"{tier.label}" + (f": {safe(tier.text)}" if tier.text else "")


def _spends(ruleset: Ruleset, res: AnyResolution) -> Iterator[str]:
    for rule in res.spend:
        yield _spend_line(ruleset, rule)
    if res.spend:
        yield "Write the spend on the check itself; the Engine pays it from the pool."


def _spend_line(ruleset: Ruleset, rule: SpendEntry) -> str:
    pool = ruleset.sheet.by_id.pools.get(rule.pool)
    label = pool.label if pool else rule.pool
    buys = [f"{rule.successes} automatic success" if rule.successes else None,
            f"{rule.dice} more dice" if rule.dice else None,
            f"a re-roll of dice at {rule.reroll.up_to} or less" if rule.reroll else None]
    most = f", at most {rule.per_check} per check" if isinstance(rule.per_check, int) else ""
    return (f'spend="{rule.pool}:N": each {rule.amount} {label} buys '
            f"{', '.join(b for b in buys if b) or 'a better roll'}{most}.")


def _charms(ruleset: Ruleset) -> Iterator[str]:
    found = [e.label for c in ruleset.catalogs for e in c.entries
             if e.mechanics is not None and e.mechanics.check is not None]
    if found:
        yield ('use="<entry>" spends a catalog entry the roller has marked on their sheet: '
               + ", ".join(found) + ".")


def roll_line(res: AnyResolution) -> str:
    """What this game throws for a check and what its difficulty number means, in words (tool
    mode's rules block, where the form is the function's own)."""
    return f"This game rolls {_dice(res)}; the difficulty (dc) is {_DC_MEANS[res.kind]}."
