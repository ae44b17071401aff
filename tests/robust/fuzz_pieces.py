"""What the fuzz suite and the long fuzz run build hostile replies from (issue 16).

A reply is a run of pieces: prose, lone surrogates and pairs, quotes and colons in every mix,
headers and stray brackets, numbers past every limit, junk names, and whole tags whose values are
drawn from the same lists. ``check_reply`` is the one property both runs hold every reply to.
"""

from __future__ import annotations

import random
from functools import cache

from middleware.dice import Dice
from middleware.items.stack_room import stacks_in
from middleware.pipeline import MAX_GOODS_TAGS, ResolvedReply, resolve_reply
from middleware.records import model_json
from middleware.resolve import Context
from middleware.resolve.dispatch import records_json
from middleware.rules.load import load_ruleset
from middleware.rules.registry import load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.rules.stack_limits import REPLY_STACKS
from middleware.sheet.party import read_party
from middleware.state import GameState, Place
from tests.conftest import compat_path

HUGE = ("9" * 5000, "-" + "9" * 4400, "1e999", "1e-999", "NaN", "inf", "10000", "99999999999",
        "0", "-1", "4301" * 1100)
SURROGATES = ("\ud800", "\udfff", "\ud83d\ude00", "\udc00\ud800", "x\ud800y")
COLON_QUOTES = ("a:'b", 'x:"y', "note=a:'b]", ":'", ':"', "’:‘", "«:»", "'s rope' holds", "=:'")
JUNK_NAMES = ("?", "—", "...", ";", "", " ", "«»")
NAMES = ("Ward", "Scrap", "Climb", "Dawn bell", "Warming tonic", "Hand axe", "Ada",
         "Bram the Quiet", "Juno", "grave_goods", "market town", *JUNK_NAMES)
ACTIONS = ("add", "remove", "give", "use", "equip", "bind", "buy", "sell", "pay", "earn",
           "inspect")
PROSE = ("She climbs. ", "The bell rings", " ", "\n", "[", "]", "=", ":", '"', "'", "“", "”",
         "‘", "’", "„", "«", "»", "[skill_check: ", "[inventory:", "[loot: ", "[PLACE :")


def tag_templates(value: str, name: str, action: str) -> tuple[str, ...]:
    """Whole tags with ``value`` in their numbers and ``name`` in their names."""
    return (f'[skill_check: skill="{name}" dc="{value}" bonus="{value}"]',
            f'[inventory: action="{action}" item="{name}" count="{value}" who="Bram the Quiet"]',
            f'[inventory: action="{action}" item="{name}" count="{value}"]',
            f'[inventory: action="{action}" amount="{value} shillings" who="{name}"]',
            f'[loot: table="{name}" who="{name}"]',
            f'[place: name="{name}" size="{name}" day="{value}"]',
            f"[skill_check: skill={name} note=a:'b dc={value}]")


RULESETS = ("gravewatch", "ember-roads", "brass-fair", "hearth-and-haul", "far-signal")


@cache
def ruleset(name: str) -> Ruleset:
    return load_ruleset(compat_path(f"{name}.json")) if name in ("gravewatch", "ember-roads") \
        else load_bundled(name)


@cache
def start_state(name: str) -> GameState:
    rules = ruleset(name)
    party = read_party(rules, [{"name": "Ada", "player": True}, {"name": "Bram the Quiet"},
                               {"name": "Juno"}])
    return GameState(ruleset=rules.id, party=party,
                     place=Place(name="Millbrook", size="market_town"))


def check_reply(name: str, reply: str, seed: int) -> ResolvedReply:
    """Resolve ``reply`` and hold it to every guarantee of the Reliability section: nothing
    raises, no record is a resolver bug, text, records and state are valid UTF-8 JSON a store
    keeps, and the reply started no more stacks than a reply may (200 from adds, gives, loot
    and earnings, and at most one more per tag where change is given or a stack is split off
    to be equipped)."""
    start = start_state(name)
    done = resolve_reply(reply, start, Context(ruleset(name), Dice(seed), seed=seed))
    errors = [r.feedback for r in done.records if r.status == "error"]
    assert [] == errors, (reply[:200], errors)
    done.text.encode("utf-8")
    records_json(done.records).encode("utf-8")
    model_json(done.state).encode("utf-8")
    assert stacks_in(done.state) - stacks_in(start) <= REPLY_STACKS + MAX_GOODS_TAGS
    return done


def random_reply(rng: random.Random, pieces: int) -> str:
    """A reply of ``pieces`` pieces drawn by ``rng`` (the long run's generator)."""
    out: list[str] = []
    for _ in range(pieces):
        kind = rng.random()
        if kind < 0.35:
            out.append(rng.choice(tag_templates(rng.choice((*HUGE, "2", "7")), rng.choice(NAMES),
                                                rng.choice(ACTIONS))))
        elif kind < 0.5:
            out.append(rng.choice(SURROGATES))
        elif kind < 0.65:
            out.append(rng.choice(COLON_QUOTES))
        else:
            out.append(rng.choice(PROSE))
    return "".join(out)
