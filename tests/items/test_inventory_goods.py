"""``[inventory:]`` add, remove and give end to end on Gravewatch and Ember Roads with Bram and Juno
(sheet.md §23): the rewritten tag, the record, the bags after (ITM-BAG, SPEC §1b, §3, §6, §10)."""

from __future__ import annotations

from typing import Any

import pytest

from middleware.engine import Engine
from middleware.state import GameState, Stack
from middleware.stores.memory import MemoryStore
from tests.items.inventory_helpers import (
    bag_of,
    bram,
    changed,
    ember,
    gravewatch,
    juno,
    record,
    reply,
    state_of,
)

BRAM_NAME = "Bram the Quiet"


def grave(*extra: Stack) -> GameState:
    who = bram()
    return state_of(gravewatch(), who.model_copy(update={"bag": (*who.bag, *extra)}), juno())


# --- add to a named bag ----------------------------------------------------------------------


def test_add_names_a_ruleset_item_by_label_without_case() -> None:
    """ITM-BAG-03, SPEC §6: "warming TONIC" is the Warming tonic; Bram held 2, now 4; the tag is
    rewritten in the peer's order and the model's own result/now are discarded."""
    done = reply(gravewatch(), grave(), '[inventory: action="add" item="warming TONIC" count="2" '
                 f'who="{BRAM_NAME}" result="refused" now="99"]')
    assert ('[inventory: action="add" item="Warming tonic" count="2" who="Bram the Quiet" '
            'result="ok" now="4"]') == done.text
    assert ("kit/warming-tonic", 4) == bag_of(done.state, 0)[2]


def test_a_bare_action_word_and_unquoted_values_read_as_written() -> None:
    """SPEC §1b: ``[inventory: add item=Shot and powder who=Bram the Quiet qty=3]``."""
    done = reply(gravewatch(), grave(), f"[inventory: add item=Shot and powder who={BRAM_NAME} "
                 "qty=3]")
    assert ("resolved", "Shot and powder", 3, 3) == (record(done).status, record(done).item,
                                                     record(done).count, record(done).now)


def test_two_items_sharing_a_label_resolve_to_the_first_listed() -> None:
    """ITM-BAG-04: a second catalog with another "Grave spade": the kit's one is added."""
    def twin(data: Any) -> None:
        kit = next(c for c in data["catalogs"] if c["id"] == "kit")
        spade = next(e for e in kit["entries"] if e["id"] == "grave-spade")
        data["catalogs"].append({"id": "spares", "label": "Spares", "holds": "items",
                                 "entries": [{**spade, "id": "other-spade"}]})
    ruleset = changed("gravewatch.json", twin)
    done = reply(ruleset, state_of(ruleset, juno()), '[inventory: add item="grave spade"]')
    assert ("kit/grave-spade", 1) == bag_of(done.state, 0)[-1]


def test_an_add_past_the_stack_limit_starts_a_new_stack() -> None:
    """ITM-BAG-05: Silver coffin nails stack 12: 13 of them are two stacks, 13 held."""
    done = reply(gravewatch(), grave(), f'[inventory: add item="Silver coffin nail" count="13" '
                 f'who="{BRAM_NAME}"]')
    assert [("kit/silver-nail", 12), ("kit/silver-nail", 1)] == bag_of(done.state, 0)[-2:]
    assert 13 == record(done).now


def test_an_item_list_gives_one_resolved_tag_per_item() -> None:
    """SPEC §1b: ``items="Rope, Warming tonic"`` → two tags, side by side, one record."""
    done = reply(gravewatch(), grave(), f'[inventory: items="Rope, Warming tonic" '
                 f'who="{BRAM_NAME}"]')
    assert ('[inventory: action="add" item="Rope" count="1" who="Bram the Quiet" result="ok" '
            'now="1"] [inventory: action="add" item="Warming tonic" count="1" '
            'who="Bram the Quiet" result="ok" now="3"]') == done.text
    assert (1, 2) == (len(done.records), len(record(done).parts))


def test_an_unknown_action_reads_as_add_and_the_gm_is_told() -> None:
    """SPEC §1b: ``action="pocket"`` adds."""
    done = reply(gravewatch(), grave(), f'[inventory: action="pocket" item="Rope" '
                 f'who="{BRAM_NAME}"]')
    assert ("add", "Action pocket is not one we know: read as add.") == (record(done).action,
                                                                          record(done).note)


@pytest.mark.parametrize(("written", "count", "note"), [
    ("50000", 10_000, "Count 50000 clamped to 10000."),
    ("0", 1, "Count 0 clamped to 1."),
    ("a few", 1, "Count a few is not a number: read as 1."),
])
def test_a_count_is_bounded_and_the_gm_told(written: str, count: int, note: str) -> None:
    """SPEC §8: counts are held to 1..10,000."""
    done = reply(gravewatch(), grave(), f'[inventory: add item="Rope" count="{written}" '
                 f'who="{BRAM_NAME}"]')
    assert (count, note) == (record(done).count, record(done).note)


def test_a_plain_item_is_added_by_its_name() -> None:
    """ITM-BAG-06/08: with ``native`` on, a name that is no ruleset item is a plain item (the
    player-only ``freeform: "refuse"`` does not govern the GM)."""
    def refuse_typed(data: Any) -> None:
        data["items"]["freeform"] = "refuse"
    ruleset = changed("gravewatch.json", refuse_typed)
    done = reply(ruleset, state_of(ruleset, bram()), '[inventory: add item="Lantern oil"]')
    assert ("Lantern oil", 1) == bag_of(done.state, 0)[-1]


def test_with_native_off_only_ruleset_items_or_more_of_something_held() -> None:
    """ITM-BAG-07: "Lantern oil" is refused ``not-ruleset-item``; once Bram holds some, more of
    it may be added; a ruleset item always may."""
    def no_native(data: Any) -> None:
        data["items"]["native"] = False
    ruleset = changed("gravewatch.json", no_native)
    refused = reply(ruleset, state_of(ruleset, bram()), '[inventory: add item="Lantern oil"]')
    assert "not-ruleset-item" == record(refused).reason
    holding = bram()
    holding = holding.model_copy(update={"bag": (*holding.bag, Stack(plain="Lantern oil"))})
    more = reply(ruleset, state_of(ruleset, holding), '[inventory: add item="lantern oil"]')
    assert ("resolved", 2) == (record(more).status, record(more).now)


def test_a_coin_is_added_as_a_coin_stack() -> None:
    """ITM-MONEY-01: coins are stacks like any other; "shillings" names the shilling."""
    done = reply(gravewatch(), grave(), f'[inventory: add item="shillings" count="3" '
                 f'who="{BRAM_NAME}"]')
    assert (("shilling", 7), "shillings") == (bag_of(done.state, 0)[3], record(done).item)


# --- the shared view (no who=) ---------------------------------------------------------------


def test_an_add_without_who_goes_to_the_player_first() -> None:
    """ITM-BAG-15: Juno, the player, carries 6.69 of her Load 7: a bulk-1 bundle of arrows would
    encumber her, so the next in the party, Ada (empty), takes it whole."""
    ada = juno(name="Ada", player=False, bag=[])
    state = state_of(ember(), juno(player=True), ada)
    done = reply(ember(), state, '[inventory: add item="Arrows"]')
    assert ("Ada", 1) == (record(done).who, record(done).now)


def test_what_nobody_can_carry_stays_behind_and_the_gm_is_told() -> None:
    """ITM-BAG-16: 3 Leather coats (bulk 3) for Juno alone: 1 fits below her limit of 12."""
    done = reply(ember(), state_of(ember(), juno(player=True)),
                 '[inventory: add item="Leather coat" count="3"]')
    assert ('[inventory: action="add" item="Leather coat" count="1" who="Juno" result="ok" '
            'now="2" note="Juno is now encumbered. 2 left behind: nobody can carry more."]') == \
        done.text


def test_an_add_split_between_bags_is_one_tag_per_bag() -> None:
    """ITM-BAG-15: 8 arrows; nobody takes all 8 unencumbered. Juno (6.69 of Load 7) has no room
    below her Load, Ada (empty, Load 7) room for 7; the last one goes to Juno below her limit."""
    ada = juno(name="Ada", player=False, bag=[])
    done = reply(ember(), state_of(ember(), juno(player=True), ada),
                 '[inventory: add item="Arrows" count="8"]')
    assert [("Juno", 1), ("Ada", 7)] == [(p.who, p.count) for p in record(done).parts]
    assert 2 == done.text.count("[inventory:")


def test_nothing_moves_when_nobody_can_carry_any() -> None:
    """ITM-BAG-16: a full bag: refused ``too-heavy``, every bag as it was."""
    full = juno(player=True, bag=[{"item": "outfitter/leather-coat", "count": 1}] * 4)
    state = state_of(ember(), full)
    done = reply(ember(), state, '[inventory: add item="Leather coat"]')
    assert ("too-heavy", state) == (record(done).reason, done.state)


# --- remove and give -------------------------------------------------------------------------


def test_remove_takes_what_is_held_and_says_when_it_is_less() -> None:
    """SPEC §6: ``count`` is what really moved; Bram holds 2 tonics, 5 are asked for."""
    done = reply(gravewatch(), grave(), '[inventory: remove item="Warming tonic" count="5"]')
    assert (2, 0, "Only 2 held: 2 moved.") == (record(done).count, record(done).now,
                                               record(done).note)
    assert "kit/warming-tonic" not in [ref for ref, _ in bag_of(done.state, 0)]


def test_a_renamed_stack_is_found_by_its_nickname_and_stays_its_item() -> None:
    """ITM-BAG-01: "Old Faithful" is Bram's Grave spade."""
    state = grave(Stack(item="kit/grave-spade", nickname="Old Faithful"))
    done = reply(gravewatch(), state, '[inventory: give item="Old Faithful" to="Juno"]')
    assert ("Grave spade", ("kit/grave-spade", 1)) == (record(done).item,
                                                       bag_of(done.state, 1)[-1])


def test_give_moves_pieces_into_the_receivers_bag() -> None:
    """``to=`` receives; ``now`` counts the receiver's bag; who defaults to the player."""
    done = reply(gravewatch(), grave(), '[inventory: give item="shilling" count="3" to="juno"]')
    assert ('[inventory: action="give" item="shillings" count="3" who="Bram the Quiet" '
            'to="Juno" result="ok" now="3"]') == done.text
    assert (("shilling", 1), ("shilling", 3)) == (bag_of(done.state, 0)[3],
                                                  bag_of(done.state, 1)[-1])


def test_a_give_past_the_receivers_limit_is_refused() -> None:
    """SPEC §10: Juno (limit 12) cannot take 3 Leather coats more; nothing moves."""
    giver = juno(name="Ada", player=True, bag=[{"item": "outfitter/leather-coat", "count": 3}])
    state = state_of(ember(), giver, juno())
    done = reply(ember(), state, '[inventory: give item="Leather coat" count="3" to="Juno"]')
    assert ("too-heavy", state) == (record(done).reason, done.state)


# --- refusals: each code, and nothing changes --------------------------------------------------


REFUSALS = [
    ('[inventory: add item="A bed at the watch-house"]', "service"),
    ('[inventory: add item="Rope" who="Nobody"]', "unknown-character"),
    ('[inventory: remove item="Dawn bell" who="Juno"]', "not-held"),
    ('[inventory: remove item="Flying carpet"]', "unknown-item"),
    ('[inventory: give item="Grave spade"]', "no-recipient"),
    ('[inventory: give item="Grave spade" to="Bram the Quiet"]', "same-character"),
    ('[inventory: give item="Grave spade" to="Nobody"]', "unknown-character"),
    ('[inventory: add who="Juno"]', "no-item"),
    ('[inventory: action="buy" item="Grave spade"]', "no-place"),
    ('[inventory: reveal item="Grave spade"]', "not-fake"),
    ('[inventory: action="add" item=="Rope"]', "unreadable"),
]


@pytest.mark.parametrize(("tag", "reason"), REFUSALS)
def test_a_refused_action_leaves_every_bag_exactly_as_it_was(tag: str, reason: str) -> None:
    """Issue 4: unknown items, characters and actions get their codes and change nothing."""
    state = grave()
    done = reply(gravewatch(), state, tag)
    assert ("refused", reason, state) == (record(done).status, record(done).reason, done.state)
    assert f'result="refused" reason="{reason}"' in done.text


def test_a_bound_cursed_item_cannot_be_removed_or_given() -> None:
    """ITM-BAG-13: the Widow's ring, bound, does not let go: ``cursed``, nothing changes."""
    state = grave(Stack(item="kit/widows-ring", equipped=True, bound=True))
    for tag in ('[inventory: remove item="Widow\'s ring"]',
                '[inventory: give item="Widows ring" to="Juno"]'):
        done = reply(gravewatch(), state, tag)
        assert ("cursed", state) == (record(done).reason, done.state)


def test_an_unreadable_tag_is_rewritten_with_its_raw_text() -> None:
    """SPEC §6: ``[inventory: raw="…" result="refused" reason="unreadable"]``."""
    done = reply(gravewatch(), grave(), "[inventory: ==]")
    assert '[inventory: raw="inventory: ==" result="refused" reason="unreadable"]' == done.text


# --- turns -----------------------------------------------------------------------------------


async def test_a_regenerated_reply_never_applies_an_add_twice() -> None:
    """ITM-BAG-21, SPEC §3: both candidates start from the turn's start: one Rope each."""
    engine = Engine(MemoryStore())
    await engine.create_game("road", ember(), [juno(player=True)], seed=3)
    first = await engine.process("road", 1, '[inventory: add item="Rope" who="Juno"]')
    again = await engine.process("road", 1, '[inventory: add item="Rope" who="Juno"]')
    assert (1, 1) == (record_now(first.records[0]), record_now(again.records[0]))
    state = await engine.state("road", 1)
    assert [1] == [s.count for s in state.party[0].bag if s.plain == "Rope"]


def record_now(found: object) -> int | None:
    return getattr(found, "now", None)
