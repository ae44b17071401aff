"""Standing spend: points of a live pool turned into a better pool roll (CHK-SPEND-01..16).

The GM writes ``spend="resolve:1"`` on the check (CHK-SPEND-11); ``buy_spend`` finds the
``resolution.spend`` rule of that pool, works out how many whole purchases the points make,
clamps them to ``perCheck`` (CHK-SPEND-08/14/15) and pays all or nothing from the roller's live
pool as it stands now (CHK-SPEND-13, SHEET-CHK-05/08). ``Bought`` is also what a used entry
answers (``charms.py``): what it adds to the roll, what it paid, and the roller after paying.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from middleware.character.check import current, pool_value, spend_pool, view_for
from middleware.resolve.checks.dice_pool.rules import Reroll
from middleware.resolve.checks.kind import Roll
from middleware.rules.common import SpendEntry
from middleware.state import Character, GameState

PER_CHECK_MAX = 100
"""CHK-SPEND-08: a sheet-read ``perCheck`` is held to 0..100."""


@dataclass(frozen=True, slots=True)
class Offer:
    """``spend="<pool>:<points>"`` as the GM wrote it (CHK-SPEND-11)."""

    pool: str
    points: int

    @classmethod
    def parse(cls, text: str | None) -> Offer | None:
        """``"resolve:1"``, ``"Resolve : 2"`` -> an offer; anything unreadable -> None."""
        match = re.fullmatch(r"\s*([^:]+?)\s*:\s*\+?(\d{1,7})\s*", text or "")
        return cls(match.group(1), int(match.group(2))) if match else None


@dataclass(frozen=True, slots=True)
class Bought:
    """What a spend or a used entry adds to one check and what it paid (CHK-SPEND-16, CHK-REC-20).

    ``character`` is the roller after paying; None when nothing was paid. ``paid`` is the
    record's ``spend=`` (``"resolve:2"``), ``use`` its ``use=``; ``note`` and ``reason`` tell the
    GM why nothing was bought.
    """

    dice: int = 0
    successes: int = 0
    reroll: Reroll | None = None
    threshold: int | None = None
    explode: int | None = None
    double: int | None = None
    paid: str | None = None
    use: str | None = None
    character: Character | None = None
    note: str | None = None
    reason: str | None = None

    def paid_state(self, roll: Roll) -> GameState:
        """The state after paying: the roller's new self in the party (unchanged if unpaid)."""
        if self.character is None or roll.roller.index is None:
            return roll.state
        return roll.state.with_character(roll.roller.index, self.character)


NOTHING = Bought()


def buy_spend(roll: Roll) -> Bought:
    """CHK-SPEND-08/11..16: the purchases ``spend=`` makes under the ruleset's standing rules."""
    offer = Offer.parse(roll.ask.attrs.get("spend"))
    rules = tuple(getattr(roll.ctx.ruleset.resolution, "spend", ()) or ())
    if offer is None or not rules:
        return NOTHING
    found = pool_value(roll.ctx.ruleset, roll.state, roll.roller, offer.pool)
    rule = next((r for r in rules if found is not None and r.pool == found[0]), None)
    if rule is None:
        return Bought(note=f'No spend rule takes "{offer.pool}": nothing spent.')
    wanted = min(offer.points // rule.amount, per_check(roll, rule))
    if wanted <= 0:
        return Bought(note=f"spend {offer.pool}:{offer.points} buys nothing on this check.")
    return _pay(roll, rule, wanted, offer)


def per_check(roll: Roll, rule: SpendEntry) -> int:
    """CHK-SPEND-08: the most purchases one check may make; a sheet value is floored, 0..100."""
    limit = rule.per_check
    if limit is None:
        return PER_CHECK_MAX
    if isinstance(limit, int):
        return limit
    if limit == "pool":
        return _held(roll.sheet.number)
    character = current(roll.state, roll.roller)
    if character is None:
        return 0
    return _held(math.floor(view_for(roll.ctx.ruleset, character, state=roll.state).ref(limit)))


def _pay(roll: Roll, rule: SpendEntry, purchases: int, offer: Offer) -> Bought:
    """CHK-SPEND-13: all or nothing; the roll is unchanged when the pool cannot cover it."""
    cost = purchases * rule.amount
    character = current(roll.state, roll.roller)
    paid = spend_pool(roll.ctx.ruleset, character, rule.pool, cost, roll.state) \
        if character else None
    if paid is None:
        return Bought(note=f"Not enough {offer.pool} for {cost}: nothing spent.",
                      reason="insufficient")
    clamped = purchases * rule.amount < offer.points
    note = f"spend clamped to {cost} {rule.pool}." if clamped else None
    return Bought(
        dice=(rule.dice or 0) * purchases, successes=(rule.successes or 0) * purchases,
        reroll=Reroll(rule.reroll.up_to, rule.reroll.mode) if rule.reroll else None,
        paid=f"{rule.pool}:{cost}", character=paid, note=note,
    )


def _held(value: float) -> int:
    return int(min(max(value, 0), PER_CHECK_MAX))
