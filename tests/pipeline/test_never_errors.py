"""Model output never crashes the pipeline and never reaches a resolver bug (SPEC §8).

Random tags of the four families, with the attributes and values the pages name (and nonsense),
through ``resolve_reply`` on every bundled and compat ruleset: nothing raises, no record has status
``error`` (a resolver bug), and the text outside the tag comes back unchanged.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from middleware.dice import Dice
from middleware.pipeline import resolve_reply
from middleware.resolve import Context
from middleware.rules.load import load_ruleset
from middleware.rules.registry import bundled_ids, load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.sheet.party import read_party
from middleware.state import GameState, Place
from tests.conftest import compat_path

COMPAT = ("gravewatch", "ember-roads", "ruleset-5e-2014.example")
KEYS = ("skill", "dc", "difficulty", "who", "with", "mode", "threshold", "bonus", "explode",
        "double", "reroll", "spend", "use", "dark", "upgrade", "setback", "upgradeOwn", "action",
        "item", "items", "count", "qty", "to", "level", "seller", "amount", "like", "category",
        "rarity", "tags", "stats", "slots", "binds", "worn", "carried", "summary", "name", "size",
        "day", "table", "rolls", "total", "result")
VALUES = ("Ward", "Scrap", "Climb", "Reckon", "2", "-3", "99999", "Hard", "Grim", "advantage",
          "Ada", "Bram the Quiet", "nobody", "resolve:1", "resolve:-5", "x:y", "Steady Hand",
          "1d4", "+1 Sneak", "guard=1, worn=+1 Guard", "none", "new", "market town",
          "grave_goods", "3 shillings", "1 crown", "buy", "sell", "pay", "use", "equip", "bind",
          "give", "Hand axe", "Poultice", "all", "0", "-1", "1e9", "NaN", "", "dear", "smith",
          "cursed", "2 ability vs 1 difficulty")


@cache
def ruleset(name: str) -> Ruleset:
    return load_ruleset(compat_path(f"{name}.json")) if name in COMPAT else load_bundled(name)


attrs = st.lists(st.tuples(st.sampled_from(KEYS), st.sampled_from(VALUES)), max_size=6)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(COMPAT + tuple(bundled_ids())),
       family=st.sampled_from(("skill_check", "inventory", "place", "loot")),
       word=st.sampled_from(("", "advantage", "buy", "grave_goods")),
       pairs=attrs, at=st.booleans(), seed=st.integers(0, 2**32))
def test_no_tag_raises_or_reaches_a_resolver_bug(name: str, family: str, word: str,
                                                 pairs: list[tuple[str, str]], at: bool,
                                                 seed: int) -> None:
    """SPEC §8: whatever the model writes, every tag is resolved, refused or ignored."""
    rules = ruleset(name)
    party = read_party(rules, [{"name": "Ada", "player": True}, {"name": "Bram the Quiet"}])
    place = Place(name="Millbrook", size="market_town") if at else None
    state = GameState(ruleset=rules.id, party=party, place=place)
    body = " ".join(f'{key}="{value}"' for key, value in pairs)
    done = resolve_reply(f"Before [{family}: {word} {body}] after.", state,
                         Context(rules, Dice(seed), seed=seed))
    assert [] == [r.feedback for r in done.records if r.status == "error"]
    assert done.text.startswith("Before ") and done.text.endswith(" after.")
