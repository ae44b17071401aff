"""A 5e ruleset (compat file) with the items page's fake examples added in memory (ITM-FAKE
reference examples): the Potion of Poison passing for a Potion of Healing with its two tells and
``foolsReveal: ["identify"]``, the Bag of Devouring passing for a Bag of Holding, the Fence (a
dishonest seller with a ``manner`` and an odd lot), ``namesItAt: 5`` and two ways to see through
fakes, Identify and Detect Poison and Disease."""

from __future__ import annotations

from typing import Any

from middleware.dice import Dice
from middleware.pipeline import ResolvedReply
from middleware.resolve import Context
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, Place, Stack
from tests.conftest import compat_json
from tests.items.inventory_helpers import record as record
from tests.items.inventory_helpers import reply as inventory_reply

HEALING = "magic_items/potion-of-healing"
POISON = "magic_items/potion-of-poison"
HOLDING = "magic_items/bag-of-holding"
DEVOURING = "magic_items/bag-of-devouring"
PROTECTION = "magic_items/ring-of-protection"
CLUMSY = "magic_items/ring-of-clumsiness"
WARDING = "magic_items/ring-of-warding"
EMBERS = "magic_items/ring-of-embers"
KIT = "gear/poisoners-kit"

POISON_TELLS = [
    {"check": {"skill": "medicine"}, "dc": 13, "carries": {"anyOf": [KIT]},
     "says": "a faint bitterness under the sweetness"},
    {"check": {"skill": "arcana"}, "dc": 18, "says": "its magic does not feel like healing magic"}]
MANNER = {"check": {"skill": "insight"}, "dc": 13,
          "advantageIf": [{"value": {"abilityScore": "wis"}, "atLeast": 18}],
          "says": "their eyes slide away when you ask about it"}


def _entry(entry_id: str, label: str, **item: Any) -> dict[str, Any]:
    return {"id": entry_id, "label": label, "item": item}


def _ring(entry_id: str, label: str, **item: Any) -> dict[str, Any]:
    return _entry(entry_id, label, category="ring", tags=["magical"], slots={"finger": 1},
                  cost={"amount": 100, "unit": "gp"}, **item)


MAGIC_ITEMS = [
    _entry("potion-of-healing", "Potion of Healing", category="potion", tags=["magical"],
           cost={"amount": 50, "unit": "gp"},
           use={"kind": "heal", "budget": "action", "amount": {"dice": "2d4", "flat": 2},
                "consumes": True}),
    _entry("potion-of-poison", "Potion of Poison", category="potion", tags=["magical"],
           passesFor=HEALING, cost={"amount": 10, "unit": "gp"}, tells=POISON_TELLS,
           foolsReveal=["identify"]),
    _entry("bag-of-holding", "Bag of Holding", category="wondrous", tags=["magical"],
           cost={"amount": 50, "unit": "gp"}),
    _entry("bag-of-devouring", "Bag of Devouring", category="wondrous",
           passesFor=HOLDING, cost={"amount": 5, "unit": "gp"},
           tells=[{"check": {"skill": "arcana"}, "dc": 15, "says": "it breathes",
                   "needs": [{"value": {"abilityScore": "int"}, "atLeast": 18}]}]),
    _ring("ring-of-protection", "Ring of Protection",
          worn={"modifiers": [{"to": "checks", "flat": 1}]}),
    _ring("ring-of-clumsiness", "Ring of Clumsiness", passesFor=PROTECTION,
          worn={"modifiers": [{"to": "checks", "flat": -1}]},
          tells=[{"check": {"skill": "arcana"}, "dc": 12, "says": "the runes are scratched"}]),
    _ring("ring-of-warding", "Ring of Warding", worn={"resist": ["fire"]},
          binds={"restriction": "anyone"}),
    _ring("ring-of-embers", "Ring of Embers", passesFor=WARDING, worn={"resist": ["cold"]},
          binds={"restriction": "anyone"}),
    _entry("wand-of-wonder", "Wand of Wonder", category="wand", tags=["magical"],
           cost={"amount": 200, "unit": "gp"},
           risky="every wave is a gamble; some effects turn on the one who waves it")]


def fakes_data() -> dict[str, Any]:
    """The 5e compat file with an items block, a market and the fake examples."""
    data: dict[str, Any] = compat_json("ruleset-5e-2014.example.json")
    data["items"] = {
        "categories": [{"id": c, "label": c.title()}
                       for c in ("potion", "wondrous", "ring", "wand", "gear")],
        "tags": [{"id": "magical", "label": "Magical"}],
        "slots": [{"id": "finger", "label": "Finger", "count": 2}],
        "binding": {"label": "Attunement", "max": {"const": 3}},
        "currencies": [{"id": "coin", "label": "Coin", "units": [
            {"id": "cp", "label": "copper pieces", "one": "copper piece", "value": 1},
            {"id": "gp", "label": "gold pieces", "one": "gold piece", "value": 100}]}],
        "lootTables": [{"id": "fences_odd_lot", "label": "Fence's odd lot", "rolls": 1,
                        "entries": [{"item": POISON, "count": 2}]}],
        "market": {
            "prices": [{"id": "fair", "label": "fair", "times": 1, "default": True}],
            "places": [{"id": "village", "label": "village"}, {"id": "town", "label": "town"}],
            "sellers": [
                {"id": "fence", "label": "Fence", "sells": [{"category": "wand"}], "place": "town",
                 "honest": False, "stock": {"table": "fences_odd_lot"}, "manner": MANNER},
                {"id": "apothecary", "label": "Apothecary", "sells": [{"tag": "magical"}]}]},
        "namesItAt": 5,
        "revealsFakes": [{"id": "identify", "label": "Identify"},
                         {"id": "detect-poison", "label": "Detect Poison and Disease",
                          "items": [POISON]}]}
    data["catalogs"] = [*data.get("catalogs", []),
                        {"id": "magic_items", "label": "Magic items", "holds": "items",
                         "entries": MAGIC_ITEMS},
                        {"id": "gear", "label": "Gear", "holds": "items", "entries": [
                            _entry("poisoners-kit", "Poisoner's kit", category="gear",
                                   cost={"amount": 50, "unit": "gp"})]}]
    return data


def fakes_ruleset(edit: Any = None) -> Ruleset:
    data = fakes_data()
    if edit is not None:
        edit(data)
    return load_ruleset(data)


FAKE_HEALING = Stack(item=HEALING, really=POISON)
"""A Potion of Poison in a bag, passing for a Potion of Healing."""


def mira(*bag: Stack, wis: int = 12, **skills: str) -> Character:
    """Mira: Int 14 and proficient in Arcana at level 1 (Arcana +4), Wis as given."""
    build = {"abilities": {"str": 10, "dex": 10, "con": 10, "int": 14, "wis": wis, "cha": 10},
             "skills": {"arcana": "proficient", **skills}}
    return Character.model_validate({"name": "Mira", "player": True, "bag": bag,
                                     "sheet": {"v": 1, "build": build}})


def ada(*bag: Stack, wis: int = 10, **skills: str) -> Character:
    """Ada: every ability 10 except Wis; no skills unless given."""
    build = {"abilities": {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": wis, "cha": 10},
             "skills": skills}
    return Character.model_validate({"name": "Ada", "bag": bag,
                                     "sheet": {"v": 1, "build": build}})


def party(ruleset: Ruleset, *members: Character, place: Place | None = None) -> GameState:
    return GameState(ruleset=ruleset.id, party=members, place=place)


TOWN = Place(name="Millbrook", size="town")


def context(ruleset: Ruleset, *faces: int) -> Context:
    """Scripted candidate dice (then seeded), game seed 7."""
    return Context(ruleset=ruleset, dice=Dice(1, script=faces), seed=7)


def reply(ruleset: Ruleset, state: GameState, text: str, *faces: int) -> ResolvedReply:
    """``text`` resolved with scripted ``faces`` in a game of seed 7."""
    return inventory_reply(ruleset, state, text, *faces, seed=7)
