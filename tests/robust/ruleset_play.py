"""A short game on any ruleset that loads, for the mutated-rulesets hunt (SPEC §8).

From what the ruleset declares (skills, saves, the difficulty ladder, pools and tracks, rests,
items, coins, place sizes, sellers, loot tables, kits) ``replies`` writes the tags a Game Master
of that ruleset writes, in the shapes of the bundled transcripts; ``play`` creates a game on the
memory store with a party built from the ruleset (or the transcript's own party, when it still
reads), resolves the replies over two turns (each shown as the chat's cards too), takes a rest
and a kit, builds the GM's view, the peek and the state summary, and works out the odds of every
check. The game has every layer on that can be, fair dice on an odd seed and branch blocks on a
seed divisible by three. It returns every record, for the caller to hold to "no resolver bug".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import suppress
from functools import cache
from typing import Any

from pydantic import JsonValue

from middleware.character.summary import state_summary
from middleware.display import for_people
from middleware.engine import Engine
from middleware.errors import GameError, TranscriptError
from middleware.gm_view import ViewOptions, build_view
from middleware.proxy.inject import InjectConfig
from middleware.proxy.peek import peek, peek_text
from middleware.records import Record
from middleware.resolve.checks.chance import OddsError
from middleware.resolve.sheet import chance_after_sheet
from middleware.rules.layers import layer_ids, layer_problem
from middleware.rules.ruleset import Ruleset
from middleware.sheet.party import read_party
from middleware.state import Character
from middleware.stores import open_store
from tests.peer import ROOT

PLAIN_PARTY: list[JsonValue] = [{"name": "Ada", "player": True}, {"name": "Bram"}]


@cache
def transcript_party(ruleset_id: str) -> tuple[str, ...]:
    """The parties (as JSON text) of the bundled transcripts played on ``ruleset_id``: sheets
    filled in as the ruleset asks."""
    found: list[str] = []
    for path in sorted((ROOT / "transcripts").glob("*.jsonl")):
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        if lines and lines[0].get("ruleset") == ruleset_id:
            found.append(json.dumps(lines[0]["party"]))
    return tuple(found)


@cache
def transcript_replies(ruleset_id: str) -> tuple[str, ...]:
    """The Game Master's replies of those transcripts: real tags of the ruleset."""
    replies: list[str] = []
    for path in sorted((ROOT / "transcripts").glob("*.jsonl")):
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        if lines and lines[0].get("ruleset") == ruleset_id:
            replies += [x["text"] for x in lines if x.get("type") == "gm"]
    return tuple(replies)


def built_party(rules: Ruleset) -> list[JsonValue]:
    """Ada at the top of every ability, skill and save, with the first items and coins in her
    bag; Bram as the ruleset makes him."""
    tiers = [t.id for t in rules.resolution.proficiency_tiers]
    skill_tier = next(reversed(rules.sheet.skill_tiers or tiers), None)
    save_tier = next(reversed(rules.sheet.save_tiers or tiers), None)
    build: dict[str, Any] = {"abilities": {a.id: a.max for a in rules.sheet.abilities}}
    if skill_tier is not None:
        build["skills"] = {s.id: skill_tier for s in rules.sheet.skills[:6]}
    if save_tier is not None:
        build["saves"] = {s.id: save_tier for s in rules.sheet.saves[:3]}
    bag: list[JsonValue] = [{"item": ref, "count": 1} for ref, _ in items(rules)[:4]]
    bag += [{"coins": unit, "count": 40} for unit, _ in coins(rules)[:1]]
    return [{"name": "Ada", "player": True, "sheet": {"v": 1, "build": build}, "bag": bag},
            {"name": "Bram"}]


def party(rules: Ruleset) -> tuple[Character, ...]:
    """The first party that reads on ``rules``: a transcript's, the built one, the plain one
    (which every ruleset that loads must take)."""
    for entries in (*map(json.loads, transcript_party(rules.id)), built_party(rules)):
        try:
            return read_party(rules, entries)
        except TranscriptError:
            continue
    return read_party(rules, PLAIN_PARTY)


def items(rules: Ruleset) -> list[tuple[str, str]]:
    """Each ruleset item as ``(ref, label)``."""
    return [(f"{c.id}/{e.id}", e.label) for c in rules.catalogs if c.holds_items
            for e in c.entries]


def coins(rules: Ruleset) -> list[tuple[str, str]]:
    """Each coin as ``(id, label)``."""
    return [(u.id, u.label) for f in (rules.items.currencies if rules.items else ()) for u in f.units]


def layers(rules: Ruleset) -> tuple[str, ...]:
    """Every layer the ruleset declares that can be on with those before it."""
    chosen: tuple[str, ...] = ()
    for layer in layer_ids(rules):
        if layer_problem(rules, (*chosen, layer)) is None:
            chosen += (layer,)
    return chosen


def _checks(rules: Ruleset, who: str) -> Iterator[str]:
    sheet = rules.sheet
    pool = next((p.id for p in sheet.live.pools), None)
    for i, skill in enumerate(sheet.skills[:4]):
        extra = f' spend="{pool}:1"' if pool and i == 1 else " advantage" if i == 2 else ""
        yield f'[skill_check: skill="{skill.label}" dc="{2 + 3 * i}"{extra}]'
    for save in sheet.saves[:2]:
        yield f'[skill_check: skill="{save.label} save" dc="10" who="{who}"]'
    for ability in sheet.abilities[:2]:
        yield f'[skill_check: skill="{ability.label}" dc="1"]'
    for rung in rules.resolution.difficulty_ladder[:2]:
        named = sheet.skills[0].label if sheet.skills else "Notice"
        yield f'[skill_check: skill="{named}" difficulty="{rung.label}" bonus="-1"]'


def _sheet_tags(rules: Ruleset) -> Iterator[str]:
    live = rules.sheet.live
    for pool in live.pools[:2]:
        yield f'[sheet: op="damage" pool="{pool.id}" amount="1d4"]'
        yield f'[sheet: op="heal" pool="{pool.id}" amount="1"]'
    for track in live.tracks[:2]:
        kind = f' kind="{track.kinds[0].id}"' if track.kinds else ""
        yield f'[sheet: op="damage" track="{track.id}"{kind} amount="2"]'
    for condition in live.conditions[:1]:
        yield f'[sheet: op="condition" name="{condition.label}"]'
    for rest in rules.rests[:1]:
        yield f'[sheet: op="rest" rest="{rest.id}"]'
    yield "[dice: 2d6]"


def _goods(rules: Ruleset, who: str) -> Iterator[str]:
    for ref, label in items(rules)[:4]:
        yield f'[inventory: action="add" item="{label}" count="2"]'
        yield f'[inventory: action="equip" item="{label}"]'
        yield f'[inventory: action="use" item="{label}"]'
        yield f'[inventory: action="give" item="{ref}" to="{who}"]'
    for _, label in coins(rules)[:2]:
        yield f'[inventory: action="earn" amount="30 {label}"]'
        yield f'[inventory: action="pay" amount="1 {label}"]'
    for table in (rules.items.loot_tables if rules.items else ())[:2]:
        yield f'[loot: table="{table.id}" who="{who}"]'


def _market(rules: Ruleset) -> Iterator[str]:
    market = rules.items.market if rules.items else None
    if market is None:
        return
    for size in market.places[:2]:
        yield f'[place: name="Millbrook" size="{size.label}" day="new"]'
        for _, label in items(rules)[:3]:
            yield f'[inventory: action="buy" item="{label}"]'
        for seller in market.sellers[:1]:
            for _, label in items(rules)[:1]:
                yield f'[inventory: action="buy" item="{label}" seller="{seller.id}" level="dear"]'
                yield f'[inventory: action="sell" item="{label}" seller="{seller.id}"]'


def replies(rules: Ruleset, who: str) -> list[str]:
    """The replies of the game: the transcripts' own, then one per tag family."""
    written = [*_checks(rules, who)], [*_sheet_tags(rules)], [*_goods(rules, who)], [*_market(rules)]
    return [*transcript_replies(rules.id)[:6], *(" Then ".join(tags) for tags in written if tags)]


async def play(rules: Ruleset, seed: int) -> list[Record]:
    """Every record of a short game on ``rules``; the view, the peek and the odds are worked out
    on the way (each raising if it breaks)."""
    engine = Engine(await open_store("memory://"))
    members = party(rules)
    await engine.create_game("hunt", rules, members, seed=seed, layers=layers(rules),
                             dice="turn" if seed % 2 else "candidate", branches=seed % 3 == 0)
    who = members[-1].name
    written = replies(rules, who)
    records: list[Record] = []
    for turn in (1, 2):
        await engine.user("hunt", turn, "We go on.")
        for reply in written[turn - 1::2]:
            done = await engine.process("hunt", turn, reply)
            for_people(done.text, done.records)  # the chat's cards
            records += done.records
        await engine.select("hunt", turn, 0)
        await _between_turns(engine, rules, members[0].name, turn)
    state = await engine.state("hunt")
    for tools in (False, True):
        build_view(rules, state, records, ViewOptions(tools=tools), seed=seed)
    peek_text(await peek(engine, "hunt", InjectConfig()))
    state_summary(rules, state)  # replay --json's state
    for check in _checks(rules, who):
        with suppress(OddsError):  # what ``gm-middleware odds`` prints; OddsError: it refuses
            chance_after_sheet(rules, state, check, None)
    return records


async def _between_turns(engine: Engine, rules: Ruleset, who: str, turn: int) -> None:
    """A rest after turn 1, a kit after turn 2: ``GameError`` is how either says no."""
    try:
        if turn == 1 and rules.rests:
            await engine.event("hunt", turn, {"type": "rest", "who": who, "rest": rules.rests[0].id})
        kits = rules.items.starting_gear if rules.items else ()
        if turn == 2 and kits:
            await engine.take_gear("hunt", who, kits[0].label)
    except GameError:
        pass
