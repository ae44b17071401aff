"""The immutable game state S(n) a turn starts from (SPEC §2, §3).

A resolver never mutates a state: it returns a new one built with ``model_copy(update=...)`` or the
helpers below. Containers inside are plain dicts and tuples for speed; treat them as read-only.
The shapes follow the peer's stored forms (SHEET-BUILD-01/02, SHEET-STORE-01, SHEET-TRN-04) so a
sheet or a live state can be pasted in unchanged.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from middleware.names import normalize_name
from middleware.rules.catalogs import CatalogEntry


class Frozen(BaseModel):
    """A state value: immutable, unknown keys refused (strict where we author the data)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


class Build(Frozen):
    """SHEET-BUILD-01: one character's own choices. Every key defaults to empty."""

    abilities: dict[str, float] = Field(default_factory=dict)
    skills: dict[str, str] = Field(default_factory=dict)
    saves: dict[str, str] = Field(default_factory=dict)
    bonuses: dict[str, float] = Field(default_factory=dict)
    fields: dict[str, float | str | bool] = Field(default_factory=dict)
    lists: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)


class Sheet(Frozen):
    """SHEET-BUILD-02: the stored sheet envelope ``{v, build}``."""

    v: int = Field(ge=1)
    build: Build = Field(default_factory=Build)


class PoolValue(Frozen):
    """A live pool's stored value and temporary buffer (SHEET-STORE-01)."""

    value: int
    temp: int | None = Field(default=None, ge=0)


class Wounds(Frozen):
    """A wound track's stored marks, most severe first on a sequential track (SHEET-WND-06)."""

    marks: tuple[str, ...] = ()
    overflow: int = Field(default=0, ge=0)


class Live(Frozen):
    """SHEET-STORE-01: one character's sparse live state; only values off their default are kept."""

    pools: dict[str, PoolValue] = Field(default_factory=dict)
    tracks: dict[str, int] = Field(default_factory=dict)
    wounds: dict[str, Wounds] = Field(default_factory=dict)
    text: dict[str, str] = Field(default_factory=dict)
    conditions: tuple[str, ...] = ()
    states: dict[str, str] = Field(default_factory=dict)


class Stack(Frozen):
    """SHEET-TRN-04: one stack in a bag: a ruleset item, a coin stack or a plain item."""

    item: str | None = None
    coins: str | None = None
    plain: str | None = None
    count: int = Field(default=1, ge=1)
    nickname: str | None = None
    equipped: bool = False
    bound: bool = False
    charges: int | None = Field(default=None, ge=0)
    loaded: int | None = Field(default=None, ge=0)
    on: bool = False
    really: str | None = None
    """ITM-FAKE-07/09: a fake shows as ``item`` (what it passes for) and really is this item ref,
    until it is revealed (then ``item`` is the real ref and this is None)."""
    tried: tuple[str, ...] = ()
    """ITM-FAKE-23: who has inspected this stack (one attempt each), by character name."""
    suspects: tuple[str, ...] = ()
    """ITM-FAKE-20: who thinks this stack is a fake, by character name."""


class Character(Frozen):
    """A party member: name, whether they are the player, their sheet, live state and bag."""

    name: str = Field(min_length=1, max_length=100)
    player: bool = False
    sheet: Sheet | None = None
    live: Live = Field(default_factory=Live)
    bag: tuple[Stack, ...] = ()
    kits: tuple[str, ...] = ()  # ITM-GEAR-07: the kit groups taken (a kit without one: "kit:<id>")

    @property
    def key(self) -> str:
        """The normalized name that ``who=`` is matched against (SHEET-CHK-02)."""
        return normalize_name(self.name)


class Place(Frozen):
    """The place in force (SPEC §3): its name, its size (a place id of the market) and market day."""

    name: str
    size: str | None = None
    day: int = 1


class MarketDay(Frozen):
    """ITM-DAY-04/06/07/09: what the market of one place has sold and paid out on one day.

    Only the day in force is kept: naming another place ends it (ITM-DAY-02), and the day's stock
    and ``limited`` counts are drawn again from (game seed, place, day) whenever they are needed.
    """

    place: str
    """The place's name as names are compared (``normalize_name``)."""
    day: int = Field(default=1, ge=1)
    limited: dict[str, int] = Field(default_factory=dict)
    """Pieces of a ``limited`` ware bought today, by item ref."""
    stock: dict[str, int] = Field(default_factory=dict)
    """Pieces bought today from a seller's stock, by ``<seller>:<item ref>``."""
    paid: dict[str, int] = Field(default_factory=dict)
    """What the place's sellers paid out today, by currency family, in its smallest coin."""
    tried: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """ITM-FAKE-23: who inspected a seller's ware today, by ``<seller>:<item ref shown>``."""
    held: tuple[str, ...] = ()
    """ITM-FAKE-27: purchases held today by a party member's warning (``<seller>:<item ref>``);
    asked for again the same day, they go through."""


class InventedItem(BaseModel):
    """ITM-PROPOSE-13: one GM-invented item, the same name meaning it until the end of the game.

    ``like`` is the ref of the ruleset item it was made from, ``fights_as`` the ruleset weapon it
    fights as when it was given none (ITM-PROPOSE-16); ``changes`` lists every change the engine
    made to the proposal, hidden stats included, for the item's details (ITM-PROPOSE-12).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    ref: str
    entry: CatalogEntry
    like: str | None = None
    fights_as: str | None = None
    changes: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The item's name: the entry's label (ITM-ENTRY-02)."""
        return self.entry.label


class GameState(Frozen):
    """S(n): everything a turn starts from. ``ruleset`` is the id the game was created with."""

    ruleset: str
    party: tuple[Character, ...] = ()
    place: Place | None = None
    dice: Literal["candidate", "turn"] = "candidate"
    invented: tuple[InventedItem, ...] = ()
    """ITM-PROPOSE-13: items the Game Master invented, kept for the rest of the game."""
    market: MarketDay | None = None
    """ITM-DAY: today's market at the place in force (what it sold and paid out), if any."""
    days: dict[str, int] = Field(default_factory=dict)
    """ITM-DAY-02: how many market days each place has begun, by normalized place name."""
    layers: tuple[str, ...] = ()
    """The ruleset layers the game was created with, in the order chosen (``rules/layers.py``)."""
    branches: bool = False
    """Whether the game reads branch blocks after a check (``resolve/branch``), as created."""

    def with_character(self, index: int, character: Character) -> GameState:
        """A new state whose party member ``index`` is ``character``."""
        party = (*self.party[:index], character, *self.party[index + 1:])
        return self.model_copy(update={"party": party})

    @property
    def player_index(self) -> int | None:
        """SHEET-TRN-03: the entry marked player, else the first, else None for an empty party."""
        for index, member in enumerate(self.party):
            if member.player:
                return index
        return 0 if self.party else None
