"""Gravewatch's market (compat file) and its market day as the items page shows it (ITM-DAY
reference example): purses on the hamlet and the market town, ``buyBack`` 0.5, rare wares limited
to ``1d2`` a day, and a smith who draws an odd lot each day."""

from __future__ import annotations

from typing import Any

from middleware.dice import Dice
from middleware.records import Record
from middleware.resolve import Context, Resolution
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import GameState
from tests.conftest import compat_json
from tests.rulesets import by_id

SMITHS_ODD_LOT: dict[str, Any] = {
    "id": "smiths_odd_lot", "label": "Smith's odd lot", "rolls": 2,
    "entries": [{"item": "kit/silver-nail", "weight": 1, "count": "1d4"},
                {"item": "kit/grave-spade", "weight": 2},
                {"coins": "shilling", "weight": 1, "count": "1d6"}]}


def market_day_data() -> dict[str, Any]:
    """Gravewatch's JSON with the items page's market-day keys added."""
    data: dict[str, Any] = compat_json("gravewatch.json")
    market = data["items"]["market"]
    places = {p["id"]: p for p in market["places"]}
    places["hamlet"]["purse"] = {"amount": 10, "unit": "shilling"}
    places["town"]["purse"] = {"amount": 100, "unit": "shilling"}
    market["buyBack"] = 0.5
    rare = next(s for s in market["sold"] if s["filter"] == {"rarity": "rare"})
    rare["limited"] = "1d2"
    data["items"]["lootTables"].append(SMITHS_ODD_LOT)
    by_id(market["sellers"], "smith")["stock"] = {"table": "smiths_odd_lot"}
    return data


def market_day() -> Ruleset:
    """Gravewatch with a market day (ITM-DAY reference example)."""
    return load_ruleset(market_day_data())


def context(ruleset: Ruleset, *, seed: int = 7, script: tuple[int, ...] = ()) -> Context:
    """A resolver context for a game of ``seed`` with scripted candidate dice."""
    return Context(ruleset=ruleset, dice=Dice(0, script=script), seed=seed)


def start(ruleset: Ruleset) -> GameState:
    """A game with nobody in it yet: places need no party."""
    return GameState(ruleset=ruleset.id)


def probe(seen: list[Any], read: Any) -> Any:
    """A resolver (registered in a test under a spare tag name) that keeps ``read(state, ctx)``."""

    def resolver(tag: Tag, state: GameState, ctx: Context) -> Resolution:
        seen.append(read(state, ctx))
        return Resolution(state, Record(tag=tag.name, status="resolved", source=tag.raw))

    return resolver
