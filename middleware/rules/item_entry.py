"""The ``item`` object of an item-catalog entry (ITM-ENTRY, ITM-CHECK, ITM-USE, ITM-FAKE).

Every key the page gives an item is modelled so nothing is dropped. Combat-only parts (``attack``,
a use's ``plus``/``save``/``applies``/``area``, an extra ``weapons`` effect) are kept whole as JSON
under their declared names: combat has no tag here (SPEC §1), but the Game Master still reads them.
Cross-references (a category the block declares, a stat value its stat allows) are checked in
``rules/audit/item_entries.py`` (ITM-IMPORT-06..09).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, model_validator

from middleware.rules.base import Strict
from middleware.rules.combat import Modifier
from middleware.rules.common import Label
from middleware.rules.items_money import Cost, DiceText, GateCheck, ItemId, Ref, Tell, Threshold
from middleware.rules.refs import ValueRef

Json = dict[str, Any]
StatValue = bool | float | str
"""A value an item gives one of the block's stats (ITM-ENTRY-04)."""

Word = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class StatRef(Strict):
    """A number read from one of the item's own stats instead of written literally."""

    stat: ItemId


class DiceAmount(Strict):
    """An amount as a catalog entry's ``mechanics`` writes it: ``dice`` plus ``flat``."""

    dice: DiceText | None = None
    flat: int | None = Field(default=None, ge=-1000, le=1000)

    @model_validator(mode="after")
    def _something(self) -> DiceAmount:
        if self.dice is None and self.flat is None:
            raise ValueError("an amount gives dice, flat or both")
        return self


# --- worn / carried / requires (ITM-ENTRY-12/13, ITM-CHECK) ----------------------------------


class AbilityChange(Strict):
    """ITM-CHECK-05: ``set`` (at least N) and/or ``add`` (negative lowers) on one attribute."""

    set: float | None = None
    add: float | None = None

    @model_validator(mode="after")
    def _something(self) -> AbilityChange:
        if self.set is None and self.add is None:
            raise ValueError("an attribute change gives set or add")
        return self


class Resistance(Strict):
    """A typed defence that some blows bypass (``{ "type": ..., "except": [tags] }``)."""

    type: Word
    except_: tuple[Word, ...] = Field(default=(), alias="except", max_length=8)


Defence = Word | Resistance


class ItemEffect(Strict):
    """ITM-CHECK-03/05 and the combat parts (1.56): what an item does while worn or carried."""

    effects: tuple[Word, ...] = Field(default=(), max_length=20)
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=20)
    fails_saves: tuple[Word, ...] = Field(default=(), alias="failsSaves", max_length=20)
    skills: tuple[Word, ...] | None = None
    saves: tuple[Word, ...] | None = None
    abilities: dict[str, AbilityChange] = Field(default_factory=dict)
    resist: tuple[Defence, ...] = Field(default=(), max_length=30)
    vulnerable: tuple[Word, ...] = Field(default=(), max_length=30)
    immune: tuple[Defence, ...] = Field(default=(), max_length=30)
    condition_immunities: tuple[Word, ...] = Field(default=(), alias="conditionImmunities",
                                                   max_length=40)


class Requirement(Strict):
    """ITM-CHECK-08..10: a sheet value the wearer must reach, and what applies while short."""

    value: ValueRef
    at_least: float = Field(alias="atLeast")
    otherwise: ItemEffect


class Binds(Strict):
    """ITM-ENTRY-11: bound before it works as worn; ``cursed`` items do not let go."""

    restriction: str | None = Field(default=None, max_length=400)
    cursed: bool = False


class Sold(Strict):
    """ITM-ENTRY-08: the smallest place selling the item, and/or how many per market day."""

    place: ItemId | None = None
    limited: Annotated[int, Field(ge=0, le=999_999)] | DiceText | None = None

    @model_validator(mode="after")
    def _something(self) -> Sold:
        if self.place is None and self.limited is None:
            raise ValueError("sold gives a place, a limited count or both")
        return self


class Toggle(Strict):
    """ITM-ENTRY-15: a switch shown on the stack; on, the item forms its own stack."""

    label: Label
    budget: Word


# --- use and charges (ITM-USE) ---------------------------------------------------------------


class Restore(Strict):
    """ITM-USE-05: refill one of the ruleset's pools (never the health pool)."""

    pool: Word
    amount: DiceAmount


class Gate(Strict):
    """ITM-USE-16..18: a check to pass before the item works, skipped when ``unless`` holds."""

    check: GateCheck
    difficulty: Annotated[int, Field(ge=1, le=100)] | StatRef
    unless: Threshold | None = None


class ItemUse(Strict):
    """ITM-USE-02: a use in the vocabulary of catalog ``mechanics``, plus budget and charges.

    The sheet-entry keys a use may not carry (ITM-IMPORT-09) are declared so that
    ``rules/audit/item_entries.py`` can refuse each by its own path with the rule's words.
    """

    kind: Literal["heal", "attack", "buff", "debuff"]
    budget: Word | None = None
    free: bool = False
    amount: DiceAmount | None = None
    damage_type: Word | None = Field(default=None, alias="damageType")
    plus: Any = None
    attack_roll: bool = Field(default=False, alias="attackRoll")
    to_hit: Any = Field(default=None, alias="toHit")
    save: Any = None
    save_difficulty: Annotated[int, Field(ge=1, le=100)] | StatRef | None = Field(
        default=None, alias="saveDifficulty")
    applies: Any = None
    temporary: DiceAmount | None = None
    range: float | None = Field(default=None, ge=0)
    area: Any = None
    targets: Literal["self", "ally", "enemy", "any"] | None = None
    target_count: int | None = Field(default=None, alias="targetCount", ge=1, le=20)
    friendly_fire: bool = Field(default=False, alias="friendlyFire")
    concentration: Any = None
    zone: Any = None
    consumes: bool = False
    charges: int | None = Field(default=None, ge=1, le=100)
    restore: Restore | None = None
    gate: Gate | None = None
    # Refused in a use (ITM-IMPORT-09); kept only to be named in the refusal.
    cost: Any = None
    per_cost_step: Any = Field(default=None, alias="perCostStep")
    check: Any = None
    reaction: Any = None
    scales: Any = None
    gives: Any = None
    standard: Any = None
    riders: Any = None


REFUSED_IN_USE = ("cost", "perCostStep", "check", "reaction", "scales", "gives", "standard",
                  "riders")
"""ITM-USE-02 / ITM-IMPORT-09: keys of sheet catalog entries that a use may not carry."""


class Recharge(Strict):
    """ITM-USE-12: which rests restore charges, and how many (``"max"`` refills)."""

    rests: tuple[Word, ...] = Field(min_length=1, max_length=12)
    amount: Literal["max"] | DiceAmount = "max"


class BreaksOn(Strict):
    """ITM-USE-15: spending the last charge rolls a dD; K or less and the item breaks."""

    die: int = Field(ge=2, le=100)
    at_most: int = Field(alias="atMost", ge=1, le=100)


class Charges(Strict):
    """ITM-USE-08/12/15: capacity 1..100 (literal or an item stat), recharge, breaking."""

    max: Annotated[int, Field(ge=1, le=100)] | StatRef
    recharge: Recharge | None = None
    breaks_on: BreaksOn | None = Field(default=None, alias="breaksOn")


# --- the item --------------------------------------------------------------------------------


class Item(Strict):
    """ITM-ENTRY-03..16, ITM-FAKE-01/02/14: everything an item entry's ``item`` may hold."""

    category: ItemId
    rarity: ItemId | None = None
    tags: tuple[ItemId, ...] = Field(default=(), max_length=48)
    stats: dict[str, StatValue] = Field(default_factory=dict)
    slots: dict[str, int] = Field(default_factory=dict)
    stack: int | None = Field(default=None, ge=1, le=999_999)
    cost: Cost | None = None
    sold: Sold | None = None
    service: bool = False
    binds: Binds | None = None
    worn: ItemEffect | None = None
    carried: ItemEffect | None = None
    requires: tuple[Requirement, ...] = Field(default=(), max_length=4)
    attack: Json | None = None
    weapons: Any = None
    toggle: Toggle | None = None
    use: ItemUse | None = None
    charges: Charges | None = None
    risky: str | None = Field(default=None, min_length=1, max_length=400)
    passes_for: Ref | None = Field(default=None, alias="passesFor")
    tells: tuple[Tell, ...] = Field(default=(), max_length=6)
    fools_reveal: tuple[ItemId, ...] = Field(default=(), alias="foolsReveal", max_length=12)

    @property
    def is_fake(self) -> bool:
        """ITM-FAKE-02: the item passes for another one."""
        return self.passes_for is not None
