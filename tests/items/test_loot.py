"""Loot tables and ``[loot:]`` (ITM-LOOT-03..16, SPEC §3, §5, §6).

Brass Fair's ``road_finds`` draws ``1d2`` times from entries weighing 2, 1, 1 (a d4 per draw):
faces 1-2 a coil of rope, 3 ``2d6`` coppers, 4 one of the two provisions in catalog order (a d2:
honey cake, bitter tonic; tonics stack by 5). Brass Fair carries by weight: a hand axe weighs
3 lb, fifty coins a pound; nobody has a sheet, so everyone's Brawn is the default 1, their Load
6 lb and their limit (Most carried) 11 lb. Lantern and Ledger has items but no tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from middleware.dice import Dice
from middleware.engine import Engine
from middleware.items.loot import Drop, draw, draw_table, find_table, loot_instructions
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.resolve import Context
from middleware.resolve.dispatch import record_from_json
from middleware.resolve.loot import LootRecord
from middleware.rules import Ruleset, load_ruleset
from middleware.rules.items_money import LootTable
from middleware.state import Character, GameState, Stack
from middleware.stores.memory import MemoryStore
from tests.items.inventory_helpers import bag_of as bag
from tests.items.inventory_helpers import found
from tests.rulesets import bundled_json, by_id, ruleset

ROPE, HONEY, TONIC = "wares/rope", "wares/honey-cake", "wares/tonic"
SILVER, LODESTONE = "wares/silver-knife", "wares/lodestone"
AXE = "wares/hand-axe"


def brass() -> Ruleset:
    return ruleset("brass-fair")


def tableless() -> Ruleset:
    """Lantern and Ledger: items and coins, no loot tables."""
    return ruleset("lantern-and-ledger")


def with_tables(edit: Callable[[Any], None]) -> Ruleset:
    """Brass Fair loaded after ``edit`` changed its parsed items block."""
    data = bundled_json("brass-fair")
    edit(data["items"])
    return load_ruleset(data)


def road(**table: Any) -> Ruleset:
    """Brass Fair with ``road_finds`` changed by ``table`` (its keys replaced)."""
    return with_tables(lambda block: by_id(block["lootTables"], "road_finds").update(table))


def fair(*entries: dict[str, Any]) -> Ruleset:
    """Brass Fair with one more table, ``cache``, drawn once from ``entries``."""
    table = {"id": "cache", "label": "Roadside cache", "rolls": 1, "entries": list(entries)}
    return with_tables(lambda block: block["lootTables"].append(table))


def road_finds(rules: Ruleset | None = None) -> LootTable:
    found = find_table(rules or brass(), "road_finds")
    assert found is not None
    return found


def ada(*bag: Stack) -> Character:
    return Character(name="Ada", player=True, bag=bag)


def bram(*bag: Stack) -> Character:
    return Character(name="Bram", bag=bag)


def party(rules: Ruleset, *members: Character) -> GameState:
    return GameState(ruleset=rules.id, party=members or (ada(), bram()))


def loot(text: str, faces: list[int], rules: Ruleset | None = None,
         state: GameState | None = None) -> tuple[ResolvedReply, Dice]:
    """``text`` resolved with the scripted ``faces``; the dice are returned to see what was thrown."""
    rules = rules or brass()
    dice = Dice(7, faces)
    done = resolve_reply(text, state or party(rules), Context(ruleset=rules, dice=dice))
    return done, dice


def record(done: ResolvedReply) -> LootRecord:
    return found(done, LootRecord)


# --- drawing the table (ITM-LOOT-03..08) -----------------------------------------------------


@pytest.mark.parametrize(("faces", "expected"), [
    ([1, 1], [Drop(0, 1, item=ROPE)]),
    ([1, 2], [Drop(0, 1, item=ROPE)]),
    ([1, 3, 1, 1], [Drop(1, 2, coins="copper")]),
    ([1, 3, 3, 4], [Drop(1, 7, coins="copper")]),
    ([1, 3, 6, 6], [Drop(1, 12, coins="copper")]),
    ([1, 4, 1], [Drop(2, 1, item=HONEY)]),
    ([1, 4, 2], [Drop(2, 1, item=TONIC)]),
    ([2, 1, 4, 1], [Drop(0, 1, item=ROPE), Drop(2, 1, item=HONEY)]),
    ([2, 4, 2, 4, 1], [Drop(2, 1, item=TONIC), Drop(2, 1, item=HONEY)]),
    ([2, 2, 3, 2, 2], [Drop(0, 1, item=ROPE), Drop(1, 4, coins="copper")]),
    ([2, 3, 5, 1, 3, 2, 2], [Drop(1, 6, coins="copper"), Drop(1, 4, coins="copper")]),
])
def test_each_face_of_the_d4_picks_its_entry(faces: list[int], expected: list[Drop]) -> None:
    """ITM-LOOT-04..07: the ``1d2`` of draws, then one d4 per draw by weight (2, 1, 1), then a d2
    among the provisions the filter matches, or the count's dice; a literal count throws
    nothing."""
    dice = Dice(1, faces)
    assert expected == draw_table(brass(), road_finds(), dice)
    assert faces == dice.thrown


def test_rolls_as_dice_draw_that_many_times() -> None:
    """ITM-LOOT-04: ``1d2`` showing 2 draws twice: rope, then provisions (the d2 shows the
    tonic)."""
    dice = Dice(1, [2, 1, 4, 2])
    drawn = draw(brass(), road_finds(), dice)
    assert (2, (Drop(0, 1, item=ROPE), Drop(2, 1, item=TONIC))) == (drawn.rolls, drawn.drops)


def test_rolls_zero_draws_nothing_and_throws_nothing() -> None:
    """ITM-LOOT-04: ``rolls: 0`` is a legal table that never drops anything."""
    rules = road(rolls=0)
    dice = Dice(1)
    assert ([], []) == (draw_table(rules, road_finds(rules), dice), dice.thrown)


def test_rolls_twenty_draws_twenty_times() -> None:
    """ITM-LOOT-04: the largest literal number of draws."""
    rules = road(rolls=20, entries=[{"item": TONIC}])
    drops = draw_table(rules, road_finds(rules), Dice(3))
    assert [Drop(0, 1, item=TONIC)] * 20 == drops


def test_rolls_thrown_past_twenty_are_held_to_twenty() -> None:
    """ITM-LOOT-04, SPEC §8: ``3d10`` showing 30 still draws only 20 times."""
    rules = road(rolls="3d10", entries=[{"item": TONIC}])
    drawn = draw(rules, road_finds(rules), Dice(3, [10, 10, 10]))
    assert (20, 20) == (drawn.rolls, len(drawn.drops))


def test_a_huge_count_is_held_to_ten_thousand() -> None:
    """ITM-LOOT-07, SPEC §8: ``999d100`` pieces are bounded like an inventory count."""
    rules = road(rolls=1, entries=[{"item": ROPE, "count": "999d100"}])
    assert [Drop(0, 10_000, item=ROPE)] == draw_table(rules, road_finds(rules), Dice(5))


def test_a_count_of_zero_drops_nothing() -> None:
    """ITM-LOOT-07: zero pieces is no drop at all."""
    rules = road(rolls=1, entries=[{"item": ROPE, "count": 0}])
    assert [] == draw_table(rules, road_finds(rules), Dice(5, [1]))


@pytest.mark.parametrize(("removed", "faces"), [
    (frozenset({ROPE}), [1, 1]),
    (frozenset({"copper"}), [1, 3]),
    (frozenset({HONEY, TONIC}), [1, 4]),
])
def test_what_a_layer_removed_yields_nothing(removed: frozenset[str], faces: list[int]) -> None:
    """ITM-LOOT-08: a removed item, a removed coin, a filter left with no match: no drop and no
    further dice (no count is thrown for it)."""
    dice = Dice(1, faces)
    assert ([], faces) == (draw_table(brass(), road_finds(), dice, removed), dice.thrown)


def test_a_filter_draws_only_among_what_a_layer_left() -> None:
    """ITM-LOOT-06/08: with the honey cake removed the filter throws a d1: 1 is the tonic."""
    dice = Dice(1, [1, 4, 1])
    drops = draw_table(brass(), road_finds(), dice, frozenset({HONEY}))
    assert [Drop(2, 1, item=TONIC)] == drops


def test_a_filter_matching_nothing_yields_nothing() -> None:
    """ITM-LOOT-08: no provisions are heirlooms, so the entry drops nothing."""
    rules = road(rolls=1, entries=[{"filter": {"category": "provisions", "tag": "heirloom"}}])
    assert [] == draw_table(rules, road_finds(rules), Dice(1, [1]))


def test_filters_select_by_rarity_category_and_tag() -> None:
    """ITM-LOOT-06: two literal draws, each a d2 between the entries; the rare things are the
    silvered knife, the lamp charm and the lodestone (a d3: 3 is the lodestone); only the knife
    is an heirloom arm (a d1)."""
    rules = road(rolls=2, entries=[{"filter": {"rarity": "rare"}},
                                   {"filter": {"category": "arm", "tag": "heirloom"}}])
    dice = Dice(1, [1, 3, 2, 1])
    assert [Drop(0, 1, item=LODESTONE), Drop(1, 1, item=SILVER)] == \
        draw_table(rules, road_finds(rules), dice)
    assert [1, 3, 2, 1] == dice.thrown


def test_the_weighted_pick_follows_the_weights() -> None:
    """ITM-LOOT-05, SPEC §5: 12,000 seeded draws of road finds fall on the entries in proportion
    2:1:1 (chi-square with 2 degrees of freedom below 13.82, p = 0.001)."""
    rules = road(rolls=20)
    table, dice = road_finds(rules), Dice(2024)
    seen = [0] * 3
    for _ in range(600):
        for drop in draw_table(rules, table, dice):
            seen[drop.entry] += 1
    expected = [12_000 * w / 4 for w in (2, 1, 1)]
    chi2 = sum((o - e) ** 2 / e for o, e in zip(seen, expected, strict=True))
    assert 12_000 == sum(seen)
    assert chi2 < 13.82, (seen, chi2)


def test_a_table_is_found_by_id_or_label() -> None:
    """Ambiguity 27: ids and labels match without case or punctuation."""
    found = [find_table(brass(), n) for n in ("road_finds", "Road finds", "ROAD-FINDS")]
    assert [road_finds()] * 3 == found
    assert find_table(brass(), "barrow hoard") is None


def test_the_instructions_list_the_tables() -> None:
    """ITM-LOOT-15: the ``[loot:]`` instructions name every table; none without tables."""
    line = loot_instructions(brass())
    assert line is not None and "road_finds (Road finds)" in line
    assert loot_instructions(tableless()) is None


# --- [loot:] into the bags (ITM-LOOT-10..14, SPEC §6) ----------------------------------------


def test_loot_to_one_bag_is_answered_as_the_adds_it_made() -> None:
    """ITM-LOOT-12/14: two draws for Ada (coppers, 1 + 3 on the 2d6; then the tonic), each kind
    answered as an inventory add."""
    done, _ = loot('Ada digs. [loot: table="road_finds" who="Ada"]', [2, 3, 1, 3, 4, 2])
    assert ('Ada digs. [inventory: action="add" item="coppers" count="4" who="Ada" '
            'result="ok" now="4"] [inventory: action="add" item="Bitter tonic" count="1" '
            'who="Ada" result="ok" now="1"]') == done.text
    assert [("copper", 4), (TONIC, 1)] == bag(done.state)
    assert "Road finds (2 draws): 4 coppers, 1 Bitter tonic; already in Ada's bag." \
        == record(done).feedback


def test_the_bare_table_form_shares_the_loot_player_first() -> None:
    """ITM-LOOT-10, SPEC §1b: ``[loot: road_finds]`` goes to the shared view; a honey cake and 5
    coppers (2 + 3) weigh far below the player's Load, so everything goes to her."""
    done, _ = loot("[loot: road_finds]", [2, 4, 1, 3, 2, 3])
    assert [(HONEY, 1), ("copper", 5)] == bag(done.state)
    assert [] == bag(done.state, 1)
    assert ('[inventory: action="add" item="Honey cake" count="1" who="Ada" result="ok" '
            'now="1"] [inventory: action="add" item="coppers" count="5" who="Ada" result="ok" '
            'now="5"]') == done.text


def test_the_same_item_twice_is_one_add() -> None:
    """ITM-LOOT-14: two draws of coppers (1 + 1, then 1 + 2) are added once as 5; ``fell`` keeps
    both."""
    done, _ = loot('[loot: road_finds who="Ada"]', [2, 3, 1, 1, 3, 1, 2])
    assert [2, 3] == [f.count for f in record(done).fell]
    assert [("copper", 5)] == bag(done.state)
    assert 1 == done.text.count("[inventory:")


def test_loot_fills_stacks_to_their_limit() -> None:
    """ITM-BAG-05: a tonic stacks by 5; Ada holds 4 and finds 2 more: stacks of 5 and 1."""
    state = party(brass(), ada(Stack(item=TONIC, count=4)))
    done, _ = loot('[loot: road_finds who="Ada"]', [2, 4, 2, 4, 2], state=state)
    assert [(TONIC, 5), (TONIC, 1)] == bag(done.state)
    assert 6 == record(done).parts[0].now


def test_a_drawing_that_drops_nothing_says_so() -> None:
    """SPEC §6: ``[loot: table="…" who="…" result="nothing"]`` and nothing changes."""
    rules = road(rolls=0)
    state = party(rules)
    done, _ = loot('[loot: road_finds who="Bram"]', [], rules, state)
    assert '[loot: table="road_finds" who="Bram" result="nothing"]' == done.text
    assert (state, "resolved") == (done.state, done.records[0].status)


def test_results_the_model_wrote_are_never_read() -> None:
    """SPEC §3, §6: ``rolls=`` and ``result=`` from the model are ignored; the table is drawn."""
    done, _ = loot('[loot: table="road_finds" who="Ada" rolls="20" result="nothing"]', [1, 1])
    assert [(ROPE, 1)] == bag(done.state)
    assert 1 == record(done).draws


def test_a_table_named_by_its_label() -> None:
    """Ambiguity 27: ``[loot: Road finds]`` and ``table="ROAD FINDS"`` name road_finds."""
    for text in ("[loot: Road finds]", '[loot: table="ROAD FINDS"]'):
        done, _ = loot(text, [1, 1])
        assert ("road_finds", [(ROPE, 1)]) == (record(done).table, bag(done.state))


def test_a_service_never_goes_into_a_bag() -> None:
    """ITM-BAG-09 / ITM-LOOT-14: a drawn service is answered as an add refused ``service``."""
    rules = road(rolls=1, entries=[{"item": "wares/inn-bed"}])
    state = party(rules)
    done, _ = loot('[loot: road_finds who="Ada"]', [1], rules, state)
    assert state == done.state
    assert ("refused", "service") == (record(done).parts[0].status, record(done).parts[0].reason)


@pytest.mark.parametrize(("text", "rules", "members", "expected"), [
    ("[loot: road_finds]", "lantern-and-ledger", None,
     '[loot: table="road_finds" result="refused" reason="no-tables"]'),
    ('[loot: table="barrow hoard" who="Ada"]', "brass-fair", None,
     '[loot: table="barrow hoard" result="refused" reason="unknown-table"]'),
    ('[loot: who="Ada"]', "brass-fair", None, '[loot: table="" result="refused" '
     'reason="unknown-table"]'),
    ('[loot: table="road_finds" who="Zed"]', "brass-fair", None,
     '[loot: table="road_finds" result="refused" reason="unknown-character"]'),
    ("[loot: road_finds]", "brass-fair", (),
     '[loot: table="road_finds" result="refused" reason="unknown-character"]'),
])
def test_refusals_change_nothing_and_throw_nothing(text: str, rules: str,
                                                   members: tuple[Character, ...] | None,
                                                   expected: str) -> None:
    """SPEC §6: ``no-tables``, ``unknown-table``, ``unknown-character`` (nobody by that name, or
    an empty party): the state is as it was and no die is thrown."""
    played = ruleset(rules)
    state = GameState(ruleset=played.id, party=(ada(), bram()) if members is None else members)
    done, dice = loot(text, [], played, state)
    assert (expected, state, []) == (done.text, done.state, dice.thrown)
    assert "refused" == done.records[0].status


def test_the_record_reads_back_from_its_json() -> None:
    """SPEC §6: a stored loot record is read back as a ``LootRecord`` with what fell."""
    done, _ = loot('[loot: road_finds who="Ada"]', [2, 3, 1, 3, 4, 2])
    back = record_from_json(done.records[0].model_dump(mode="json"))
    assert done.records[0] == back


# --- carrying it (ITM-LOOT-10, ITM-BAG-15/16) ------------------------------------------------


def test_the_carry_rule_splits_what_the_player_cannot_take_whole() -> None:
    """ITM-BAG-15: 3 hand axes (9 lb) fit nobody's Load of 6 lb whole: Ada takes 2, Bram 1."""
    rules = fair({"item": AXE, "count": 3})
    done, _ = loot("[loot: cache]", [1], rules, party(rules))
    assert ([(AXE, 2)], [(AXE, 1)]) == (bag(done.state, 0), bag(done.state, 1))
    assert ["Ada", "Bram"] == [p.who for p in record(done).parts]


def test_what_nobody_can_carry_stays_behind_and_the_gm_is_told() -> None:
    """ITM-BAG-16 / ITM-LOOT-10: 10 axes; each can hold 3 (9 lb) below the limit of 11 lb; 4
    stay."""
    rules = fair({"item": AXE, "count": 10})
    done, _ = loot("[loot: cache]", [1], rules, party(rules))
    assert ([(AXE, 3)], [(AXE, 3)]) == (bag(done.state, 0), bag(done.state, 1))
    assert [("Hand axe", 4)] == [(f.item, f.count) for f in record(done).left]
    assert "4 left behind" in (record(done).parts[-1].note or "")
    assert "Left behind, nobody can carry it: 4 Hand axe." in (record(done).feedback or "")


def test_loot_for_one_character_stops_at_their_limit() -> None:
    """ITM-LOOT-12, ITM-BAG-16: ``who="Ada"`` takes 3 of 10 axes; 7 stay where they are."""
    rules = fair({"item": AXE, "count": 10})
    done, _ = loot('[loot: cache who="Ada"]', [1], rules, party(rules))
    assert ([(AXE, 3)], []) == (bag(done.state, 0), bag(done.state, 1))
    assert "Ada is now encumbered. 7 left behind: nobody can carry more." == \
        record(done).parts[0].note


def test_a_full_bag_refuses_the_add_and_changes_nothing() -> None:
    """ITM-BAG-16: Ada already carries 9 lb; a 3 lb axe would take her past 11: ``too-heavy``."""
    rules = fair({"item": AXE})
    state = party(rules, ada(Stack(item=AXE, count=3)), bram())
    done, _ = loot('[loot: cache who="Ada"]', [1], rules, state)
    assert state == done.state
    assert ('[inventory: action="add" item="Hand axe" who="Ada" result="refused" '
            'reason="too-heavy" note="Ada cannot carry Hand axe: past their limit; it stays '
            'where it is."]') == done.text


def test_coins_weigh_by_their_family() -> None:
    """ITM-MONEY-02: 800 coppers weigh 16 lb: Ada takes 300 to her Load (6 lb), Bram 300, then
    Ada the last 200 below her limit of 11 lb."""
    rules = fair({"coins": "copper", "count": 800})
    done, _ = loot("[loot: cache]", [1], rules, party(rules))
    assert ([("copper", 500)], [("copper", 300)]) == (bag(done.state, 0), bag(done.state, 1))


# --- turns (ITM-LOOT-13, SPEC §3) ------------------------------------------------------------


async def test_a_regenerated_reply_gives_the_loot_once() -> None:
    """ITM-LOOT-13: every candidate of a turn draws from the turn-start state; the loot of a
    replaced reply is not kept, and the next turn builds on the selected candidate only."""
    engine = Engine(MemoryStore())
    await engine.create_game("chat", brass(), [ada()])
    tag = '[loot: road_finds who="Ada"]'
    first = await engine.process("chat", 1, tag, dice=[1, 4, 2])
    second = await engine.process("chat", 1, f"Again. {tag}", dice=[1, 1])
    assert ([(TONIC, 1)], [(ROPE, 1)]) == (bag(first.state), bag(second.state))
    await engine.select("chat", 1, 0)
    turn_two = await engine.process("chat", 2, tag, dice=[1, 4, 2])
    assert [(TONIC, 2)] == bag(turn_two.state)
