"""``[inventory:]`` add, remove and give end to end on Brass Fair: the rewritten tag, the record,
the bags after (ITM-BAG, SPEC §1b, §3, §6, §10).

Odo the Carter (the player, Brawn 2: Load 8 lb, limit 14 lb) carries a belt knife in hand (1
lb), two bitter tonics (1 lb each, stacking by 5), 4 brass rings and 9 coppers (13 coins, fifty
to the pound: 0.26 lb): 3.26 lb in all. Pell (Brawn 1: Load 6 lb, limit 11 lb) carries a coil of
rope (2 lb).
"""

from __future__ import annotations

from typing import Any

import pytest

from middleware.engine import Engine
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, Stack
from middleware.stores.memory import MemoryStore
from tests.items.inventory_helpers import bag_of, record, reply, state_of
from tests.rulesets import changed, entry, ruleset

ODO_NAME = "Odo the Carter"
AXE, ROPE = "wares/hand-axe", "wares/rope"


def brass() -> Ruleset:
    return ruleset("brass-fair")


def traveller(name: str, brawn: int, *bag: Stack, player: bool = False) -> Character:
    return Character.model_validate({
        "name": name, "player": player,
        "sheet": {"v": 1, "build": {"abilities": {"brawn": brawn}}},
        "bag": [s.model_dump() for s in bag]})


def odo(*extra: Stack) -> Character:
    return traveller(ODO_NAME, 2, Stack(item="wares/knife", equipped=True),
                     Stack(item="wares/tonic", count=2), Stack(coins="ring", count=4),
                     Stack(coins="copper", count=9), *extra, player=True)


def pell(*bag: Stack) -> Character:
    return traveller("Pell", 1, *(bag or (Stack(item=ROPE),)))


def fair(*extra: Stack) -> GameState:
    """Odo (with ``extra`` after his own things) and Pell on Brass Fair."""
    return state_of(brass(), odo(*extra), pell())


# --- add to a named bag ----------------------------------------------------------------------


def test_add_names_a_ruleset_item_by_label_without_case() -> None:
    """ITM-BAG-03, SPEC §6: "bitter TONIC" is the Bitter tonic; Odo held 2, now 4; the tag is
    rewritten in the peer's order and the model's own result/now are discarded."""
    done = reply(brass(), fair(), '[inventory: action="add" item="bitter TONIC" count="2" '
                 f'who="{ODO_NAME}" result="refused" now="99"]')
    assert ('[inventory: action="add" item="Bitter tonic" count="2" who="Odo the Carter" '
            'result="ok" now="4"]') == done.text
    assert ("wares/tonic", 4) == bag_of(done.state, 0)[1]


def test_a_bare_action_word_and_unquoted_values_read_as_written() -> None:
    """SPEC §1b: ``[inventory: add item=Spark powder who=Odo the Carter qty=3]``."""
    done = reply(brass(), fair(), f"[inventory: add item=Spark powder who={ODO_NAME} qty=3]")
    assert ("resolved", "Spark powder", 3, 3) == (record(done).status, record(done).item,
                                                  record(done).count, record(done).now)


def test_two_items_sharing_a_label_resolve_to_the_first_listed() -> None:
    """ITM-BAG-04: a second catalog with another "Coil of rope": the wares' one is added."""
    def twin(data: Any) -> None:
        rope = entry(data, "wares/rope")
        data["catalogs"].append({"id": "spares", "label": "Spares", "holds": "items",
                                 "entries": [{**rope, "id": "other-rope"}]})
    rules = changed("brass-fair", twin)
    done = reply(rules, state_of(rules, odo()), '[inventory: add item="coil of rope"]')
    assert (ROPE, 1) == bag_of(done.state, 0)[-1]


def test_an_add_past_the_stack_limit_starts_a_new_stack() -> None:
    """ITM-BAG-05: Spark powder stacks 20: 23 twists are two stacks, 23 held."""
    done = reply(brass(), fair(), f'[inventory: add item="Spark powder" count="23" '
                 f'who="{ODO_NAME}"]')
    assert [("wares/spark-powder", 20), ("wares/spark-powder", 3)] == \
        bag_of(done.state, 0)[-2:]
    assert 23 == record(done).now


def test_an_item_list_gives_one_resolved_tag_per_item() -> None:
    """SPEC §1b: ``items="Coil of rope, Bitter tonic"`` → two tags, side by side, one record."""
    done = reply(brass(), fair(), f'[inventory: items="Coil of rope, Bitter tonic" '
                 f'who="{ODO_NAME}"]')
    assert ('[inventory: action="add" item="Coil of rope" count="1" who="Odo the Carter" '
            'result="ok" now="1"] [inventory: action="add" item="Bitter tonic" count="1" '
            'who="Odo the Carter" result="ok" now="3"]') == done.text
    assert (1, 2) == (len(done.records), len(record(done).parts))


def test_an_unknown_action_reads_as_add_and_the_gm_is_told() -> None:
    """SPEC §1b: ``action="pocket"`` adds."""
    done = reply(brass(), fair(), f'[inventory: action="pocket" item="Coil of rope" '
                 f'who="{ODO_NAME}"]')
    assert ("add", "Action pocket is not one we know: read as add.") == (record(done).action,
                                                                          record(done).note)


@pytest.mark.parametrize(("written", "count", "note"), [
    ("50000", 10_000, "Count 50000 clamped to 10000."),
    ("0", 1, "Count 0 clamped to 1."),
    ("a few", 1, "Count a few is not a number: read as 1."),
])
def test_a_count_is_bounded_and_the_gm_told(written: str, count: int, note: str) -> None:
    """SPEC §8: counts are held to 1..10,000 (lamp oil is no ruleset item: a plain thing weighs
    nothing and makes one stack, so all of it fits)."""
    done = reply(brass(), fair(), f'[inventory: add item="Lantern oil" count="{written}" '
                 f'who="{ODO_NAME}"]')
    assert (count, note) == (record(done).count, record(done).note)


def test_a_plain_item_is_added_by_its_name() -> None:
    """ITM-BAG-06/08: with ``native`` on, a name that is no ruleset item is a plain item (the
    player-only ``freeform: "refuse"`` does not govern the GM)."""
    def refuse_typed(data: Any) -> None:
        data["items"]["freeform"] = "refuse"
    rules = changed("brass-fair", refuse_typed)
    done = reply(rules, state_of(rules, pell()), '[inventory: add item="Lantern oil"]')
    assert ("Lantern oil", 1) == bag_of(done.state, 0)[-1]


def test_with_native_off_only_ruleset_items_or_more_of_something_held() -> None:
    """ITM-BAG-07: "Lantern oil" is refused ``not-ruleset-item``; once Pell holds some, more of
    it may be added; a ruleset item always may."""
    def no_native(data: Any) -> None:
        data["items"]["native"] = False
    rules = changed("brass-fair", no_native)
    refused = reply(rules, state_of(rules, pell()), '[inventory: add item="Lantern oil"]')
    assert "not-ruleset-item" == record(refused).reason
    holding = pell(Stack(item=ROPE), Stack(plain="Lantern oil"))
    more = reply(rules, state_of(rules, holding), '[inventory: add item="lantern oil"]')
    assert ("resolved", 2) == (record(more).status, record(more).now)
    rope = reply(rules, state_of(rules, pell()), '[inventory: add item="Coil of rope"]')
    assert ("resolved", 2) == (record(rope).status, record(rope).now)


def test_a_coin_is_added_as_a_coin_stack() -> None:
    """ITM-MONEY-01: coins are stacks like any other; "brass rings" names the ring."""
    done = reply(brass(), fair(), f'[inventory: add item="brass rings" count="3" '
                 f'who="{ODO_NAME}"]')
    assert (("ring", 7), "brass rings") == (bag_of(done.state, 0)[2], record(done).item)


# --- the shared view (no who=) ---------------------------------------------------------------


def test_an_add_without_who_goes_to_the_player_first() -> None:
    """ITM-BAG-15: Odo, the player, carries 7.26 lb of his Load 8 (two more ropes): a 3 lb hand
    axe would encumber him, so the next in the party, Pell (2 of 6), takes it whole."""
    state = fair(Stack(item=ROPE), Stack(item=ROPE))
    done = reply(brass(), state, '[inventory: add item="Hand axe"]')
    assert ("Pell", 1) == (record(done).who, record(done).now)


def test_what_nobody_can_carry_stays_behind_and_the_gm_is_told() -> None:
    """ITM-BAG-16: 5 hand axes (3 lb) for Odo alone (3.26 lb): 1 fits below his Load of 8, 2 more
    below his limit of 14 (12.26 lb); 2 stay behind."""
    done = reply(brass(), state_of(brass(), odo()), '[inventory: add item="Hand axe" count="5"]')
    assert ('[inventory: action="add" item="Hand axe" count="3" who="Odo the Carter" '
            'result="ok" now="3" note="Odo the Carter is now encumbered. 2 left behind: nobody '
            'can carry more."]') == done.text


def test_an_add_split_between_bags_is_one_tag_per_bag() -> None:
    """ITM-BAG-15: 10 tin lanterns (1 lb); nobody takes all 10 unencumbered. Odo has room for 4
    below his Load (3.26 of 8), Pell for 4 (2 of 6); the last two go to Odo below his limit."""
    done = reply(brass(), fair(), '[inventory: add item="Tin lantern" count="10"]')
    assert [(ODO_NAME, 6), ("Pell", 4)] == [(p.who, p.count) for p in record(done).parts]
    assert 2 == done.text.count("[inventory:")


def test_nothing_moves_when_nobody_can_carry_any() -> None:
    """ITM-BAG-16: a full bag (five more ropes: 13.26 of 14 lb): a 3 lb axe is refused
    ``too-heavy``, every bag as it was."""
    state = state_of(brass(), odo(*(Stack(item=ROPE) for _ in range(5))))
    done = reply(brass(), state, '[inventory: add item="Hand axe"]')
    assert ("too-heavy", state) == (record(done).reason, done.state)


# --- remove and give -------------------------------------------------------------------------


def test_remove_takes_what_is_held_and_says_when_it_is_less() -> None:
    """SPEC §6: ``count`` is what really moved; Odo holds 2 tonics, 5 are asked for."""
    done = reply(brass(), fair(), '[inventory: remove item="Bitter tonic" count="5"]')
    assert (2, 0, "Only 2 held: 2 moved.") == (record(done).count, record(done).now,
                                               record(done).note)
    assert "wares/tonic" not in [ref for ref, _ in bag_of(done.state, 0)]


def test_a_renamed_stack_is_found_by_its_nickname_and_stays_its_item() -> None:
    """ITM-BAG-01: "Old Faithful" is Odo's Tin lantern."""
    state = fair(Stack(item="wares/lantern", nickname="Old Faithful"))
    done = reply(brass(), state, '[inventory: give item="Old Faithful" to="Pell"]')
    assert ("Tin lantern", ("wares/lantern", 1)) == (record(done).item,
                                                     bag_of(done.state, 1)[-1])


def test_give_moves_pieces_into_the_receivers_bag() -> None:
    """``to=`` receives; ``now`` counts the receiver's bag; who defaults to the player."""
    done = reply(brass(), fair(), '[inventory: give item="brass ring" count="3" to="pell"]')
    assert ('[inventory: action="give" item="brass rings" count="3" who="Odo the Carter" '
            'to="Pell" result="ok" now="3"]') == done.text
    assert (("ring", 1), ("ring", 3)) == (bag_of(done.state, 0)[2], bag_of(done.state, 1)[-1])


def test_a_give_past_the_receivers_limit_is_refused() -> None:
    """SPEC §10: Pell (2 lb of his limit 11) cannot take 4 hand axes (12 lb); nothing moves."""
    state = fair(*(Stack(item=AXE) for _ in range(4)))
    done = reply(brass(), state, '[inventory: give item="Hand axe" count="4" to="Pell"]')
    assert ("too-heavy", state) == (record(done).reason, done.state)


# --- refusals: each code, and nothing changes --------------------------------------------------


REFUSALS = [
    ('[inventory: add item="A bed at the inn"]', "service"),
    ('[inventory: add item="Coil of rope" who="Nobody"]', "unknown-character"),
    ('[inventory: remove item="Lamp charm" who="Pell"]', "not-held"),
    ('[inventory: remove item="Flying carpet"]', "unknown-item"),
    ('[inventory: give item="Belt knife"]', "no-recipient"),
    ('[inventory: give item="Belt knife" to="Odo the Carter"]', "same-character"),
    ('[inventory: give item="Belt knife" to="Nobody"]', "unknown-character"),
    ('[inventory: add who="Pell"]', "no-item"),
    ('[inventory: action="buy" item="Belt knife"]', "no-place"),
    ('[inventory: reveal item="Belt knife"]', "not-fake"),
    ('[inventory: action="add" item=="Coil of rope"]', "unreadable"),
]


@pytest.mark.parametrize(("tag", "reason"), REFUSALS)
def test_a_refused_action_leaves_every_bag_exactly_as_it_was(tag: str, reason: str) -> None:
    """Issue 4: unknown items, characters and actions get their codes and change nothing."""
    state = fair()
    done = reply(brass(), state, tag)
    assert ("refused", reason, state) == (record(done).status, record(done).reason, done.state)
    assert f'result="refused" reason="{reason}"' in done.text


def test_a_bound_cursed_item_cannot_be_removed_or_given() -> None:
    """ITM-BAG-13: on Hearth and Haul with its Ward bell made cursed, the bound bell does not
    let go: ``cursed``, nothing changes."""
    def curse(data: Any) -> None:
        entry(data, "pack/ward-bell")["item"]["binds"]["cursed"] = True
    rules = changed("hearth-and-haul", curse)
    state = state_of(rules, Character(name="Wil", player=True, bag=(
        Stack(item="pack/ward-bell", bound=True),)), Character(name="Pell"))
    for tag in ('[inventory: remove item="Ward bell"]',
                '[inventory: give item="ward bell" to="Pell"]'):
        done = reply(rules, state, tag)
        assert ("cursed", state) == (record(done).reason, done.state)


def test_an_unreadable_tag_is_rewritten_with_its_raw_text() -> None:
    """SPEC §6: ``[inventory: raw="…" result="refused" reason="unreadable"]``."""
    done = reply(brass(), fair(), "[inventory: ==]")
    assert '[inventory: raw="inventory: ==" result="refused" reason="unreadable"]' == done.text


# --- turns -----------------------------------------------------------------------------------


async def test_a_regenerated_reply_never_applies_an_add_twice() -> None:
    """ITM-BAG-21, SPEC §3: both candidates start from the turn's start: each adds one rope to
    Pell's one (a rope names no stack limit, so it joins his), and the turn ends with one stack
    of two ropes, not three."""
    engine = Engine(MemoryStore())
    await engine.create_game("road", brass(), [pell()], seed=3)
    first = await engine.process("road", 1, '[inventory: add item="Coil of rope" who="Pell"]')
    again = await engine.process("road", 1, '[inventory: add item="Coil of rope" who="Pell"]')
    assert (2, 2) == (record_now(first.records[0]), record_now(again.records[0]))
    state = await engine.state("road", 1)
    assert [2] == [s.count for s in state.party[0].bag if s.item == ROPE]


def record_now(found: object) -> int | None:
    return getattr(found, "now", None)
