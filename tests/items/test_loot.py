"""Loot tables and ``[loot:]`` (ITM-LOOT-03..16, SPEC §3, §5, §6).

Gravewatch's ``grave_goods`` draws ``1d2`` times from entries weighing 4, 3, 2, 1, 2 (a d12 per draw):
faces 1-4 shot and powder (``1d4`` pieces), 5-7 a warming tonic, 8-9 a page of the vigil litany,
10 one of the three arms in catalog order (a d3: grave spade, silver coffin nail, watch pistol),
11-12 ``1d6`` shillings. Gravewatch has no ``carry``; the carry cases use Ember Roads with a table
added (a leather coat weighs 3 bulk; nobody has a sheet, so everyone's Load is 6 and limit 12).
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
from tests import rulesets
from tests.conftest import compat_json
from tests.items.inventory_helpers import bag_of as bag
from tests.items.inventory_helpers import found
from tests.rulesets import gravewatch

SHOT, TONIC, PAGE = "kit/shot-and-powder", "kit/warming-tonic", "kit/litany-page"
SPADE, NAIL, PISTOL = "kit/grave-spade", "kit/silver-nail", "kit/watch-pistol"


def with_tables(name: str, edit: Callable[[Any], None]) -> Ruleset:
    """A compat ruleset loaded after ``edit`` changed its parsed items block."""
    data = compat_json(name)
    edit(data["items"])
    return load_ruleset(data)


def graves(**table: Any) -> Ruleset:
    """Gravewatch with ``grave_goods`` changed by ``table`` (its keys replaced)."""
    return with_tables("gravewatch.json", lambda block: block["lootTables"][0].update(table))


def ember(*entries: dict[str, Any]) -> Ruleset:
    """Ember Roads with one table, ``cache``, drawn once from ``entries``."""
    table = {"id": "cache", "label": "Roadside cache", "rolls": 1, "entries": list(entries)}
    return with_tables("ember-roads.json", lambda block: block.update(lootTables=[table]))


def grave_goods(rules: Ruleset | None = None) -> LootTable:
    found = find_table(rules or gravewatch(), "grave_goods")
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
    rules = rules or gravewatch()
    dice = Dice(7, faces)
    done = resolve_reply(text, state or party(rules), Context(ruleset=rules, dice=dice))
    return done, dice


def record(done: ResolvedReply) -> LootRecord:
    return found(done, LootRecord)


# --- drawing the table (ITM-LOOT-03..08) -----------------------------------------------------


@pytest.mark.parametrize(("faces", "expected"), [
    ([1, 1, 3], Drop(0, 3, item=SHOT)),
    ([1, 4, 4], Drop(0, 4, item=SHOT)),
    ([1, 5], Drop(1, 1, item=TONIC)),
    ([1, 7], Drop(1, 1, item=TONIC)),
    ([1, 8], Drop(2, 1, item=PAGE)),
    ([1, 9], Drop(2, 1, item=PAGE)),
    ([1, 10, 1], Drop(3, 1, item=SPADE)),
    ([1, 10, 2], Drop(3, 1, item=NAIL)),
    ([1, 10, 3], Drop(3, 1, item=PISTOL)),
    ([1, 11, 6], Drop(4, 6, coins="shilling")),
    ([1, 12, 2], Drop(4, 2, coins="shilling")),
])
def test_each_face_of_the_d12_picks_its_entry(faces: list[int], expected: Drop) -> None:
    """ITM-LOOT-05..07: one d12 per draw by weight (4, 3, 2, 1, 2), then a d3 among the arms the
    filter matches, then the count's dice; a literal count throws nothing."""
    dice = Dice(1, faces)
    assert [expected] == draw_table(gravewatch(), grave_goods(), dice)
    assert faces == dice.thrown


def test_rolls_as_dice_draw_that_many_times() -> None:
    """ITM-LOOT-04: ``1d2`` showing 2 draws twice: shot (d4 = 4), then a tonic."""
    dice = Dice(1, [2, 3, 4, 6])
    drawn = draw(gravewatch(), grave_goods(), dice)
    assert (2, (Drop(0, 4, item=SHOT), Drop(1, 1, item=TONIC))) == (drawn.rolls, drawn.drops)


def test_rolls_zero_draws_nothing_and_throws_nothing() -> None:
    """ITM-LOOT-04: ``rolls: 0`` is a legal table that never drops anything."""
    rules = graves(rolls=0)
    dice = Dice(1)
    assert ([], []) == (draw_table(rules, grave_goods(rules), dice), dice.thrown)


def test_rolls_twenty_draws_twenty_times() -> None:
    """ITM-LOOT-04: the largest literal number of draws."""
    rules = graves(rolls=20, entries=[{"item": TONIC}])
    drops = draw_table(rules, grave_goods(rules), Dice(3))
    assert [Drop(0, 1, item=TONIC)] * 20 == drops


def test_rolls_thrown_past_twenty_are_held_to_twenty() -> None:
    """ITM-LOOT-04, SPEC §8: ``3d10`` showing 30 still draws only 20 times."""
    rules = graves(rolls="3d10", entries=[{"item": TONIC}])
    drawn = draw(rules, grave_goods(rules), Dice(3, [10, 10, 10]))
    assert (20, 20) == (drawn.rolls, len(drawn.drops))


def test_a_huge_count_is_held_to_ten_thousand() -> None:
    """ITM-LOOT-07, SPEC §8: ``999d100`` pieces are bounded like an inventory count."""
    rules = graves(rolls=1, entries=[{"item": SHOT, "count": "999d100"}])
    assert [Drop(0, 10_000, item=SHOT)] == draw_table(rules, grave_goods(rules), Dice(5))


def test_a_count_of_zero_drops_nothing() -> None:
    """ITM-LOOT-07: zero pieces is no drop at all."""
    rules = graves(rolls=1, entries=[{"item": SHOT, "count": 0}])
    assert [] == draw_table(rules, grave_goods(rules), Dice(5, [1]))


@pytest.mark.parametrize(("removed", "faces"), [
    (frozenset({TONIC}), [1, 5]),
    (frozenset({"shilling"}), [1, 11]),
    (frozenset({SPADE, NAIL, PISTOL}), [1, 10]),
])
def test_what_a_layer_removed_yields_nothing(removed: frozenset[str], faces: list[int]) -> None:
    """ITM-LOOT-08: a removed item, a removed coin, a filter left with no match: no drop and no
    further dice (no count is thrown for it)."""
    dice = Dice(1, faces)
    assert ([], faces) == (draw_table(gravewatch(), grave_goods(), dice, removed), dice.thrown)


def test_a_filter_draws_only_among_what_a_layer_left() -> None:
    """ITM-LOOT-06/08: with the spade removed the filter throws a d2: 1 is the silver nail."""
    dice = Dice(1, [1, 10, 1])
    drops = draw_table(gravewatch(), grave_goods(), dice, frozenset({SPADE}))
    assert [Drop(3, 1, item=NAIL)] == drops


def test_a_filter_matching_nothing_yields_nothing() -> None:
    """ITM-LOOT-08: no silver coat exists, so the entry drops nothing."""
    rules = graves(rolls=1, entries=[{"filter": {"category": "coat", "tag": "silver"}}])
    assert [] == draw_table(rules, grave_goods(rules), Dice(1, [1]))


def test_filters_select_by_rarity_category_and_tag() -> None:
    """ITM-LOOT-06: two literal draws, each a d2 between the entries; rare arms are the nail and
    the pistol (a d2: 2 is the pistol); only the nail is silver (a d1)."""
    rules = graves(rolls=2, entries=[{"filter": {"rarity": "rare", "category": "arm"}},
                                     {"filter": {"tag": "silver"}}])
    dice = Dice(1, [1, 2, 2, 1])
    assert [Drop(0, 1, item=PISTOL), Drop(1, 1, item=NAIL)] == \
        draw_table(rules, grave_goods(rules), dice)


def test_the_weighted_pick_follows_the_weights() -> None:
    """ITM-LOOT-05, SPEC §5: 12,000 seeded draws of grave goods fall on the entries in proportion
    4:3:2:1:2 (chi-square with 4 degrees of freedom below 18.47, p = 0.001)."""
    rules = graves(rolls=20)
    table, dice = grave_goods(rules), Dice(2024)
    seen = [0] * 5
    for _ in range(600):
        for drop in draw_table(rules, table, dice):
            seen[drop.entry] += 1
    expected = [12_000 * w / 12 for w in (4, 3, 2, 1, 2)]
    chi2 = sum((o - e) ** 2 / e for o, e in zip(seen, expected, strict=True))
    assert 12_000 == sum(seen)
    assert chi2 < 18.47, (seen, chi2)


def test_a_table_is_found_by_id_or_label() -> None:
    """Ambiguity 27: ids and labels match without case or punctuation."""
    found = [find_table(gravewatch(), n) for n in ("grave_goods", "Grave goods", "GRAVE-GOODS")]
    assert [grave_goods()] * 3 == found
    assert find_table(gravewatch(), "barrow hoard") is None


def test_the_instructions_list_the_tables() -> None:
    """ITM-LOOT-15: the ``[loot:]`` instructions name every table; none without tables."""
    line = loot_instructions(gravewatch())
    assert line is not None and "grave_goods (Grave goods)" in line
    assert loot_instructions(rulesets.ember()) is None


# --- [loot:] into the bags (ITM-LOOT-10..14, SPEC §6) ----------------------------------------


def test_loot_to_one_bag_is_answered_as_the_adds_it_made() -> None:
    """ITM-LOOT-12/14: two draws for Ada, each kind answered as an inventory add."""
    done, _ = loot('Ada digs. [loot: table="grave_goods" who="Ada"]', [2, 3, 4, 6])
    assert ('Ada digs. [inventory: action="add" item="Shot and powder" count="4" who="Ada" '
            'result="ok" now="4"] [inventory: action="add" item="Warming tonic" count="1" '
            'who="Ada" result="ok" now="1"]') == done.text
    assert [(SHOT, 4), (TONIC, 1)] == bag(done.state)
    assert "Grave goods (2 draws): 4 Shot and powder, 1 Warming tonic; already in Ada's bag." \
        == record(done).feedback


def test_the_bare_table_form_shares_the_loot_player_first() -> None:
    """ITM-LOOT-10, SPEC §1b: ``[loot: grave_goods]`` goes to the shared view; with no carry
    rule everything fits the player. The arm is the d3's second (the nail); the d6 shows 5."""
    done, _ = loot("[loot: grave_goods]", [2, 10, 2, 12, 5])
    assert [(NAIL, 1), ("shilling", 5)] == bag(done.state)
    assert [] == bag(done.state, 1)
    assert ('[inventory: action="add" item="Silver coffin nail" count="1" who="Ada" result="ok" '
            'now="1"] [inventory: action="add" item="shillings" count="5" who="Ada" result="ok" '
            'now="5"]') == done.text


def test_the_same_item_twice_is_one_add() -> None:
    """ITM-LOOT-14: two draws of shot (2 and 3 pieces) are added once as 5; ``fell`` keeps both."""
    done, _ = loot('[loot: grave_goods who="Ada"]', [2, 1, 2, 4, 3])
    assert [2, 3] == [f.count for f in record(done).fell]
    assert [(SHOT, 5)] == bag(done.state)
    assert 1 == done.text.count("[inventory:")


def test_loot_fills_stacks_to_their_limit() -> None:
    """ITM-BAG-05: a litany page stacks by 3; Ada holds 2 and finds 2 more: stacks of 3 and 1."""
    state = party(gravewatch(), ada(Stack(item=PAGE, count=2)))
    done, _ = loot('[loot: grave_goods who="Ada"]', [2, 8, 9], state=state)
    assert [(PAGE, 3), (PAGE, 1)] == bag(done.state)
    assert 4 == record(done).parts[0].now


def test_a_drawing_that_drops_nothing_says_so() -> None:
    """SPEC §6: ``[loot: table="…" who="…" result="nothing"]`` and nothing changes."""
    rules = graves(rolls=0)
    state = party(rules)
    done, _ = loot('[loot: grave_goods who="Bram"]', [], rules, state)
    assert '[loot: table="grave_goods" who="Bram" result="nothing"]' == done.text
    assert (state, "resolved") == (done.state, done.records[0].status)


def test_results_the_model_wrote_are_never_read() -> None:
    """SPEC §3, §6: ``rolls=`` and ``result=`` from the model are ignored; the table is drawn."""
    done, _ = loot('[loot: table="grave_goods" who="Ada" rolls="20" result="nothing"]', [1, 5])
    assert [(TONIC, 1)] == bag(done.state)
    assert 1 == record(done).draws


def test_a_table_named_by_its_label() -> None:
    """Ambiguity 27: ``[loot: Grave goods]`` and ``table="GRAVE GOODS"`` name grave_goods."""
    for text in ("[loot: Grave goods]", '[loot: table="GRAVE GOODS"]'):
        done, _ = loot(text, [1, 5])
        assert ("grave_goods", [(TONIC, 1)]) == (record(done).table, bag(done.state))


def test_a_service_never_goes_into_a_bag() -> None:
    """ITM-BAG-09 / ITM-LOOT-14: a drawn service is answered as an add refused ``service``."""
    rules = graves(rolls=1, entries=[{"item": "kit/watch-house-bed"}])
    state = party(rules)
    done, _ = loot('[loot: grave_goods who="Ada"]', [1], rules, state)
    assert state == done.state
    assert ("refused", "service") == (record(done).parts[0].status, record(done).parts[0].reason)


@pytest.mark.parametrize(("text", "rules", "members", "expected"), [
    ("[loot: grave_goods]", "ember", None,
     '[loot: table="grave_goods" result="refused" reason="no-tables"]'),
    ('[loot: table="barrow hoard" who="Ada"]', "gravewatch", None,
     '[loot: table="barrow hoard" result="refused" reason="unknown-table"]'),
    ('[loot: who="Ada"]', "gravewatch", None, '[loot: table="" result="refused" '
     'reason="unknown-table"]'),
    ('[loot: table="grave_goods" who="Zed"]', "gravewatch", None,
     '[loot: table="grave_goods" result="refused" reason="unknown-character"]'),
    ("[loot: grave_goods]", "gravewatch", (),
     '[loot: table="grave_goods" result="refused" reason="unknown-character"]'),
])
def test_refusals_change_nothing_and_throw_nothing(text: str, rules: str,
                                                   members: tuple[Character, ...] | None,
                                                   expected: str) -> None:
    """SPEC §6: ``no-tables``, ``unknown-table``, ``unknown-character`` (nobody by that name, or
    an empty party): the state is as it was and no die is thrown."""
    ruleset = rulesets.ember() if rules == "ember" else gravewatch()
    state = GameState(ruleset=ruleset.id, party=(ada(), bram()) if members is None else members)
    done, dice = loot(text, [], ruleset, state)
    assert (expected, state, []) == (done.text, done.state, dice.thrown)
    assert "refused" == done.records[0].status


def test_the_record_reads_back_from_its_json() -> None:
    """SPEC §6: a stored loot record is read back as a ``LootRecord`` with what fell."""
    done, _ = loot('[loot: grave_goods who="Ada"]', [2, 3, 4, 6])
    back = record_from_json(done.records[0].model_dump(mode="json"))
    assert done.records[0] == back


# --- carrying it (ITM-LOOT-10, ITM-BAG-15/16, Ember Roads) -----------------------------------


COAT = "outfitter/leather-coat"


def test_the_carry_rule_splits_what_the_player_cannot_take_whole() -> None:
    """ITM-BAG-15: 3 coats (9 bulk) fit nobody's Load of 6 whole: Ada takes 2, Bram 1."""
    rules = ember({"item": COAT, "count": 3})
    done, _ = loot("[loot: cache]", [1], rules, party(rules))
    assert ([(COAT, 2)], [(COAT, 1)]) == (bag(done.state, 0), bag(done.state, 1))
    assert ["Ada", "Bram"] == [p.who for p in record(done).parts]


def test_what_nobody_can_carry_stays_behind_and_the_gm_is_told() -> None:
    """ITM-BAG-16 / ITM-LOOT-10: 10 coats; each can hold 4 below the limit of 12; 2 stay."""
    rules = ember({"item": COAT, "count": 10})
    done, _ = loot("[loot: cache]", [1], rules, party(rules))
    assert ([(COAT, 4)], [(COAT, 4)]) == (bag(done.state, 0), bag(done.state, 1))
    assert [("Leather coat", 2)] == [(f.item, f.count) for f in record(done).left]
    assert "2 left behind" in (record(done).parts[-1].note or "")
    assert "Left behind, nobody can carry it: 2 Leather coat." in (record(done).feedback or "")


def test_loot_for_one_character_stops_at_their_limit() -> None:
    """ITM-LOOT-12, ITM-BAG-16: ``who="Ada"`` takes 4 of 10 coats; 6 stay where they are."""
    rules = ember({"item": COAT, "count": 10})
    done, _ = loot('[loot: cache who="Ada"]', [1], rules, party(rules))
    assert ([(COAT, 4)], []) == (bag(done.state, 0), bag(done.state, 1))
    assert "Ada is now encumbered. 6 left behind: nobody can carry more." == \
        record(done).parts[0].note


def test_a_full_bag_refuses_the_add_and_changes_nothing() -> None:
    """ITM-BAG-16: Ada already carries 12 bulk; the coat's add is refused ``too-heavy``."""
    rules = ember({"item": COAT})
    state = party(rules, ada(Stack(item=COAT, count=4)), bram())
    done, _ = loot('[loot: cache who="Ada"]', [1], rules, state)
    assert state == done.state
    assert ('[inventory: action="add" item="Leather coat" who="Ada" result="refused" '
            'reason="too-heavy" note="Ada cannot carry Leather coat: past their limit; it stays '
            'where it is."]') == done.text


def test_coins_weigh_by_their_family() -> None:
    """ITM-MONEY-02: 150 pinches of salt weigh 15 bulk: Ada takes 60 to her Load (6 bulk), Bram
    60, then Ada 30 more below her limit of 12."""
    rules = ember({"coins": "pinch", "count": 150})
    done, _ = loot("[loot: cache]", [1], rules, party(rules))
    assert ([("pinch", 90)], [("pinch", 60)]) == (bag(done.state, 0), bag(done.state, 1))


# --- turns (ITM-LOOT-13, SPEC §3) ------------------------------------------------------------


async def test_a_regenerated_reply_gives_the_loot_once() -> None:
    """ITM-LOOT-13: every candidate of a turn draws from the turn-start state; the loot of a
    replaced reply is not kept, and the next turn builds on the selected candidate only."""
    engine = Engine(MemoryStore())
    await engine.create_game("chat", gravewatch(), [ada()])
    tag = '[loot: grave_goods who="Ada"]'
    first = await engine.process("chat", 1, tag, dice=[1, 5])
    second = await engine.process("chat", 1, f"Again. {tag}", dice=[1, 8])
    assert ([(TONIC, 1)], [(PAGE, 1)]) == (bag(first.state), bag(second.state))
    await engine.select("chat", 1, 0)
    turn_two = await engine.process("chat", 2, tag, dice=[1, 5])
    assert [(TONIC, 2)] == bag(turn_two.state)
