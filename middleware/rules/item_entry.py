"""The ``item`` object of an item-catalog entry (ITM-ENTRY, ITM-CHECK, ITM-USE, ITM-FAKE).

Every key the page gives an item is modelled so nothing is dropped. Combat-only parts (``attack``,
a use's ``plus``/``save``/``applies``/``area``, an extra ``weapons`` effect) are kept whole as JSON
under their declared names: combat has no tag here (SPEC §1), but the Game Master still reads them.
Cross-references (a category the block declares, a stat value its stat allows) are checked in
``rules/audit/item_entries.py`` (ITM-IMPORT-06..09).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, JsonValue, StringConstraints, model_validator

from middleware.json_input import JsonObject
from middleware.rules.base import Strict
from middleware.rules.combat import Modifier
from middleware.rules.common import Label
from middleware.rules.items_money import Cost, DiceText, GateCheck, ItemId, Ref, Tell, Threshold
from middleware.rules.refs import ValueRef

StatValue = bool | float | str
"""A value an item gives one of the block's stats (ITM-ENTRY-04)."""

Word = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class StatRef(Strict):
    """A number read from one of the item's own stats instead of written literally."""

    stat: ItemId
    """The item's own number stat read (a stat id)."""


class DiceAmount(Strict):
    """An amount as a catalog entry's ``mechanics`` writes it: ``dice`` plus ``flat``."""

    dice: DiceText | None = None
    """Dice rolled, e.g. ``1d4``."""
    flat: int | None = Field(default=None, ge=-1000, le=1000)
    """A whole number added (-1000 to 1000)."""

    @model_validator(mode="after")
    def _something(self) -> DiceAmount:
        if self.dice is None and self.flat is None:
            raise ValueError("an amount gives dice, flat or both")
        return self


# --- worn / carried / requires (ITM-ENTRY-12/13, ITM-CHECK) ----------------------------------


class AbilityChange(Strict):
    """ITM-CHECK-05: ``set`` (at least N) and/or ``add`` (negative lowers) on one attribute."""

    set: float | None = None
    """The ability is at least this while the item works (a higher score stays)."""
    add: float | None = None
    """Added to the ability (negative lowers it); every ``add`` applies before the highest
    ``set``."""

    @model_validator(mode="after")
    def _something(self) -> AbilityChange:
        if self.set is None and self.add is None:
            raise ValueError("an attribute change gives set or add")
        return self


class Resistance(Strict):
    """A typed defence that some blows bypass (``{ "type": ..., "except": [tags] }``)."""

    type: Word
    """The kind of harm resisted."""
    except_: tuple[Word, ...] = Field(default=(), alias="except", max_length=8)
    """Tags of blows that get through anyway (e.g. ``silvered``)."""


Defence = Word | Resistance


class ItemEffect(Strict):
    """ITM-CHECK-03/05 and the combat parts (1.56): what an item does while worn or carried."""

    effects: tuple[Word, ...] = Field(default=(), max_length=20)
    """Named effects on the holder: ``own-checks-advantage``, ``own-checks-disadvantage``,
    ``own-saves-advantage``, ``own-saves-disadvantage``; others are fight effects."""
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=20)
    """Changes to the holder's checks or saves (``to``, ``flat``, ``dice``, ``mode``...), exactly
    as on a condition."""
    fails_saves: tuple[Word, ...] = Field(default=(), alias="failsSaves", max_length=20)
    """Saves the holder fails without a roll."""
    skills: tuple[Word, ...] | None = None
    """The skills the effects and modifiers that name none of their own reach; all when absent."""
    saves: tuple[Word, ...] | None = None
    """The saves the effects and modifiers that name none of their own reach; all when absent."""
    abilities: dict[str, AbilityChange] = Field(default_factory=dict)
    """Abilities the item sets or raises, by ability id; applied before the sheet is worked out."""
    resist: tuple[Defence, ...] = Field(default=(), max_length=30)
    """Kinds of harm the holder resists in a fight."""
    vulnerable: tuple[Word, ...] = Field(default=(), max_length=30)
    """Kinds of harm the holder is vulnerable to in a fight."""
    immune: tuple[Defence, ...] = Field(default=(), max_length=30)
    """Kinds of harm the holder is immune to in a fight."""
    condition_immunities: tuple[Word, ...] = Field(default=(), alias="conditionImmunities",
                                                   max_length=40)
    """Conditions the holder cannot be given."""


class Requirement(Strict):
    """ITM-CHECK-08..10: a sheet value the wearer must reach, and what applies while short."""

    value: ValueRef
    """The wearer's sheet value read (after their items' ability changes)."""
    at_least: float = Field(alias="atLeast")
    """The least it must reach."""
    otherwise: ItemEffect
    """What applies while the wearer falls short; it may not change an ability."""


class Binds(Strict):
    """ITM-ENTRY-11: bound before it works as worn; ``cursed`` items do not let go."""

    restriction: str | None = Field(default=None, max_length=400)
    """Who may bind the item, in words (up to 400 characters)."""
    cursed: bool = False
    """Whether the item does not let go once bound (it cannot be unbound or sold)."""


class Sold(Strict):
    """ITM-ENTRY-08: the smallest place selling the item, and/or how many per market day."""

    place: ItemId | None = None
    """The smallest place size that sells the item, whatever the market's rules say."""
    limited: Annotated[int, Field(ge=0, le=999_999)] | DiceText | None = None
    """How many pieces a place has for sale each day: a number or dice."""

    @model_validator(mode="after")
    def _something(self) -> Sold:
        if self.place is None and self.limited is None:
            raise ValueError("sold gives a place, a limited count or both")
        return self


class Toggle(Strict):
    """ITM-ENTRY-15: a switch shown on the stack; on, the item forms its own stack."""

    label: Label
    """The switch's name (``Flames``); on, the item forms a stack of its own."""
    budget: Word
    """What turning it on costs in a fight (``bonus``)."""


# --- use and charges (ITM-USE) ---------------------------------------------------------------


class Restore(Strict):
    """ITM-USE-05: refill one of the ruleset's pools (never the health pool)."""

    pool: Word
    """The live pool refilled (never the health pool)."""
    amount: DiceAmount
    """How many points come back: dice and a flat number."""


class Gate(Strict):
    """ITM-USE-16..18: a check to pass before the item works, skipped when ``unless`` holds."""

    check: GateCheck
    """The check the user must pass first: a skill, an ability or a sheet value."""
    difficulty: Annotated[int, Field(ge=1, le=100)] | StatRef
    """Its difficulty: 1 to 100, or one of the item's number stats."""
    unless: Threshold | None = None
    """The check is skipped when the user's sheet value reaches this."""


class ItemUse(Strict):
    """ITM-USE-02: a use in the vocabulary of catalog ``mechanics``, plus budget and charges.

    The sheet-entry keys a use may not carry (ITM-IMPORT-09) are declared so that
    ``rules/audit/item_entries.py`` can refuse each by its own path with the rule's words.
    """

    kind: Literal["heal", "attack", "buff", "debuff"]
    """What the use does: ``heal``, ``attack``, ``buff`` or ``debuff``."""
    budget: Word | None = None
    """What using it costs in a fight (``action``, ``bonus``)."""
    free: bool = False
    """Whether using it costs nothing in a fight."""
    amount: DiceAmount | None = None
    """How much it heals or deals: dice and a flat number."""
    damage_type: Word | None = Field(default=None, alias="damageType")
    """The kind of harm it deals."""
    plus: JsonValue = None
    """What is added to the amount; kept as the file gives it for fights and the Game Master, not
    read out of combat."""
    attack_roll: bool = Field(default=False, alias="attackRoll")
    """Whether using it on someone takes an attack roll."""
    to_hit: JsonValue = Field(default=None, alias="toHit")
    """The bonus to hit; kept as the file gives it for fights and the Game Master, not read out of
    combat."""
    save: JsonValue = None
    """The save a target makes against it; kept as the file gives it for fights and the Game
    Master, not read out of combat."""
    save_difficulty: Annotated[int, Field(ge=1, le=100)] | StatRef | None = Field(
        default=None, alias="saveDifficulty")
    """The difficulty of that save: 1 to 100, or one of the item's number stats."""
    applies: JsonValue = None
    """Conditions it applies, which stay until something removes them; kept as the file gives it
    for fights and the Game Master, not read out of combat."""
    temporary: DiceAmount | None = None
    """Temporary points it gives the health pool."""
    range: float | None = Field(default=None, ge=0)
    """How far it reaches, in the ruleset's distance units."""
    area: JsonValue = None
    """The area it covers; kept as the file gives it for fights and the Game Master, not read out
    of combat."""
    targets: Literal["self", "ally", "enemy", "any"] | None = None
    """Who it is for: ``self``, ``ally``, ``enemy`` or ``any``."""
    target_count: int | None = Field(default=None, alias="targetCount", ge=1, le=20)
    """How many it reaches (1 to 20)."""
    friendly_fire: bool = Field(default=False, alias="friendlyFire")
    """Whether it also strikes allies in its area."""
    concentration: JsonValue = None
    """How it is held by concentration; kept as the file gives it for fights and the Game Master,
    not read out of combat."""
    zone: JsonValue = None
    """A zone it leaves in a fight; kept as the file gives it for fights and the Game Master, not
    read out of combat."""
    consumes: bool = False
    """Whether a use takes one piece off the stack (an item with charges spends them instead)."""
    charges: int | None = Field(default=None, ge=1, le=100)
    """How many of the item's charges one use spends (1 to 100)."""
    restore: Restore | None = None
    """A live pool the use refills (``heal`` and ``buff`` uses only)."""
    gate: Gate | None = None
    """A check to pass before the item works; a failed one uses it up for nothing."""
    # Refused in a use (ITM-IMPORT-09); kept only to be named in the refusal.
    cost: JsonValue = None
    """Belongs to sheet catalog entries and is refused in a use; declared only so the refusal names
    it."""
    per_cost_step: JsonValue = Field(default=None, alias="perCostStep")
    """Belongs to sheet catalog entries and is refused in a use; declared only so the refusal names
    it."""
    check: JsonValue = None
    """Belongs to sheet catalog entries and is refused in a use; declared only so the refusal names
    it."""
    reaction: JsonValue = None
    """Belongs to sheet catalog entries and is refused in a use; declared only so the refusal names
    it."""
    scales: JsonValue = None
    """Belongs to sheet catalog entries and is refused in a use; declared only so the refusal names
    it."""
    gives: JsonValue = None
    """Belongs to sheet catalog entries and is refused in a use; declared only so the refusal names
    it."""
    standard: JsonValue = None
    """Belongs to sheet catalog entries and is refused in a use; declared only so the refusal names
    it."""
    riders: JsonValue = None
    """Belongs to sheet catalog entries and is refused in a use; declared only so the refusal names
    it."""


REFUSED_IN_USE = ("cost", "perCostStep", "check", "reaction", "scales", "gives", "standard",
                  "riders")
"""ITM-USE-02 / ITM-IMPORT-09: keys of sheet catalog entries that a use may not carry."""


class Recharge(Strict):
    """ITM-USE-12: which rests restore charges, and how many (``"max"`` refills)."""

    rests: tuple[Word, ...] = Field(min_length=1, max_length=12)
    """The rests (ids) that bring charges back (1 to 12)."""
    amount: Literal["max"] | DiceAmount = "max"
    """How many come back: ``max`` (default) refills, or dice and a flat number, never above
    ``max``."""


class BreaksOn(Strict):
    """ITM-USE-15: spending the last charge rolls a dD; K or less and the item breaks."""

    die: int = Field(ge=2, le=100)
    """The die rolled when the last charge is spent (2 to 100 faces)."""
    at_most: int = Field(alias="atMost", ge=1, le=100)
    """On this or lower the item breaks and is gone from the bag."""


class Charges(Strict):
    """ITM-USE-08/12/15: capacity 1..100 (literal or an item stat), recharge, breaking."""

    max: Annotated[int, Field(ge=1, le=100)] | StatRef
    """How many charges the item holds: 1 to 100, or one of its number stats."""
    recharge: Recharge | None = None
    """Which rests bring charges back, and how many."""
    breaks_on: BreaksOn | None = Field(default=None, alias="breaksOn")
    """A roll made when the last charge is spent that may break the item."""


# --- the item --------------------------------------------------------------------------------


class Item(Strict):
    """ITM-ENTRY-03..16, ITM-FAKE-01/02/14: everything an item entry's ``item`` may hold."""

    category: ItemId
    """What kind of thing the item is (an ``items.categories`` id); required."""
    rarity: ItemId | None = None
    """How rare it is (an ``items.rarities`` id)."""
    tags: tuple[ItemId, ...] = Field(default=(), max_length=48)
    """Its properties (``items.tags`` ids), e.g. thrown or silvered."""
    stats: dict[str, StatValue] = Field(default_factory=dict)
    """The values it gives the block's stats, by stat id (``{"damage": "1d6"}``)."""
    slots: dict[str, int] = Field(default_factory=dict)
    """How many of each slot it takes when worn, by slot id."""
    stack: int | None = Field(default=None, ge=1, le=999_999)
    """The most one stack holds (1 to 999 999); an item with charges always stacks alone."""
    cost: Cost | None = None
    """Its price: a whole amount of one coin; without it the item is not for sale."""
    sold: Sold | None = None
    """Where it is sold and how many per day, whatever the market's rules say."""
    service: bool = False
    """Whether it is a service (lodging, passage, a blessing): bought like an item, never
    carried."""
    binds: Binds | None = None
    """It must be bound before it works as worn (needs ``items.binding``)."""
    worn: ItemEffect | None = None
    """What it does to the holder's checks and saves (and in a fight) while worn."""
    carried: ItemEffect | None = None
    """What it does while merely carried."""
    requires: tuple[Requirement, ...] = Field(default=(), max_length=4)
    """What it asks of its wearer, and what applies while they fall short (up to 4)."""
    attack: JsonObject | None = None
    """Makes it a weapon in a fight while worn; kept as the file gives it for fights and the Game
    Master."""
    weapons: JsonValue = None
    """Extra weapon effects for fights; kept as the file gives it."""
    toggle: Toggle | None = None
    """A switch shown on the stack, starting off (a flame tongue's flames)."""
    use: ItemUse | None = None
    """What using it does, in and out of a fight."""
    charges: Charges | None = None
    """The charges it holds, how they come back, and whether it may break."""
    risky: str | None = Field(default=None, min_length=1, max_length=400)
    """What an honest seller warns about before selling it (up to 400 characters)."""
    passes_for: Ref | None = Field(default=None, alias="passesFor")
    """Makes it a fake of another item (``<catalog>/<entry>``) it looks like until revealed."""
    tells: tuple[Tell, ...] = Field(default=(), max_length=6)
    """Checks that may betray the fake (up to 6)."""
    fools_reveal: tuple[ItemId, ...] = Field(default=(), alias="foolsReveal", max_length=12)
    """Ways of seeing through fakes (``items.revealsFakes`` ids) this fake fools."""

    @property
    def is_fake(self) -> bool:
        """ITM-FAKE-02: the item passes for another one."""
        return self.passes_for is not None
