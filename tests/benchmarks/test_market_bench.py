"""Issue 5 performance: a market turn of 20 buys and 20 sells (ITM-MARKET, ITM-DAY).

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_market_bench.py --benchmark-only``.
No time is asserted; each benchmark stores its cost per tag in ``extra_info["per_tag_us"]`` and the
two sizes sit side by side in one group, since these machines are noisy (SPEC §9).

- ``market-turn``: one reply, ``[place:]`` then 20 ``buy`` and 20 ``sell`` tags (the most goods tags
  a reply may hold), resolved (parse, resolve, rewrite; no store) at a fair town with 10 sellers.
  The ruleset is the bundled Brass Fair with its catalog replaced in memory by 50 or 500 wares
  spread over the sellers (a tenth of them ``limited``), each seller with a daily ``stock`` table.
  Pricing, seller and stock lookups go through indexes built once per ruleset, so the cost per tag
  should stay roughly flat from 50 to 500 items; a scan of every entry per tag would grow tenfold.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from middleware.dice import Dice
from middleware.pipeline import resolve_reply
from middleware.resolve import Context
from middleware.rules.load import load_ruleset
from middleware.rules.registry import load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.state import Build, Character, GameState, Sheet, Stack

SELLERS = 10
TRADES = 20
TAGS = 1 + 2 * TRADES


def market_ruleset(items: int) -> Ruleset:
    """Brass Fair with ``items`` wares in ten categories, one seller each (``stall`` everywhere),
    buy-back at a half, no daily purse and weightless coins, so every trade can go through."""
    raw = copy.deepcopy(load_bundled("brass-fair").source)
    block = raw["items"]
    block["categories"] = [{"id": f"goods{k}", "label": f"Goods {k}"} for k in range(SELLERS)]
    block["tags"], block["slots"] = [], []
    for family in block["currencies"]:
        family.pop("perWeight", None)
    block["lootTables"] = [
        {"id": f"lot{k}", "label": f"Odd lot {k}", "rolls": 3,
         "entries": [{"filter": {"category": f"goods{k}"}, "weight": 3},
                     {"coins": "copper", "weight": 1, "count": "1d6"}]}
        for k in range(SELLERS)]
    market = block["market"]
    market["places"] = [{"id": "stall", "label": "roadside stall"},
                        {"id": "fair", "label": "fair town"}]
    market["sold"] = [{"filter": {"rarity": "rare"}, "place": "fair", "limited": "1d2"}]
    market["unsold"] = []
    market["sellers"] = [{"id": f"seller{k}", "label": f"Seller {k}",
                          "sells": [{"category": f"goods{k}"}], "stock": {"table": f"lot{k}"}}
                         for k in range(SELLERS)]
    raw["catalogs"] = [{"id": "wares", "label": "Wares", "holds": "items",
                        "entries": [_ware(i) for i in range(items)]}]
    raw["id"] = f"brass-fair-{items}"
    return load_ruleset(raw)


def _ware(i: int) -> dict[str, Any]:
    item: dict[str, Any] = {"category": f"goods{i % SELLERS}", "rarity": "common",
                            "stats": {"weight": 0}, "stack": 999,
                            "cost": {"amount": i % 7 + 1, "unit": "ring"}}
    if i % 10 == 5:
        item["sold"] = {"limited": 999}
    return {"id": f"ware-{i}", "label": f"Ware {i}", "item": item}


def trader(items: int) -> GameState:
    """A rich player holding one of each of the 20 wares she will sell (the last 20 listed)."""
    goods = tuple(Stack(item=f"wares/ware-{i}") for i in _sold(items))
    purse = (Stack(coins="crown", count=500),)
    ada = Character(name="Ada", player=True, bag=goods + purse,
                    sheet=Sheet(v=1, build=Build(abilities={"brawn": 4, "wits": 2, "nerve": 2})))
    return GameState(ruleset=f"brass-fair-{items}", party=(ada,))


def _bought(items: int) -> range:
    return range(0, items, items // TRADES)[:TRADES]


def _sold(items: int) -> range:
    return range(items - TRADES, items)


def market_turn(items: int) -> str:
    """``[place:]``, 20 buys spread over the catalog and sellers, 20 sells to their dealers."""
    buys = [f'[inventory: action="buy" item="Ware {i}" seller="Seller {i % SELLERS}" who="Ada"]'
            for i in _bought(items)]
    sells = [f'[inventory: action="sell" item="Ware {i}" seller="seller{i % SELLERS}" who="Ada"]'
             for i in _sold(items)]
    return '[place: name="Brassford" size="fair town"] ' + " ".join(buys + sells)


@pytest.mark.benchmark(group="market-turn")
@pytest.mark.parametrize("items", [50, 500])
def test_cost_per_tag_against_catalog_size(benchmark: Any, items: int) -> None:
    """The same 41-tag market turn at 50 and at 500 items: every trade goes through, and the
    per-tag figures are compared side by side (roughly flat means no scan per tag)."""
    rules = market_ruleset(items)
    start = trader(items)
    text = market_turn(items)
    ctx = Context(ruleset=rules, dice=Dice(1), seed=7)
    done = resolve_reply(text, start, ctx)  # also builds the per-ruleset indexes once

    assert ([TAGS] * 2) == [len(done.records), sum(r.status == "resolved" for r in done.records)]
    benchmark(resolve_reply, text, start, ctx)
    benchmark.extra_info["per_tag_us"] = benchmark.stats.stats.mean / TAGS * 1e6
