"""A bag holds at most 500 stacks, and one reply starts at most 200 (ITM-GEAR-12, SPEC §8).

Gravewatch's Dawn bell has charges, so each bell sits in a stack of its own: ``count="10000"``
used to make 10,000 stacks, forty such tags 400,000. Now an add is cut at the limit and the Game
Master is told how many were left behind, as the carry limit does.
"""

from __future__ import annotations

from typing import Any

from middleware.errors import RulesetError
from middleware.items.stack_room import REPLY_STACKS, stacks_in
from middleware.rules.load import load_ruleset
from middleware.rules.stack_limits import BAG_STACKS
from middleware.state import Stack
from tests.conftest import compat_json
from tests.items.inventory_helpers import bram, juno, record, reply, state_of
from tests.rulesets import gravewatch

BELLS = '[inventory: action="add" item="Dawn bell" count="10000" who="Bram the Quiet"]'


def test_an_add_is_cut_at_what_one_reply_may_start() -> None:
    """``count="10000"`` of an item held one to a stack: 200 bells move, the record says 200 and
    that 9,800 were left behind; Bram's bag grows by 200 stacks."""
    state = state_of(gravewatch(), bram(), juno())
    done = reply(gravewatch(), state, BELLS)
    part = record(done)
    assert ("resolved", REPLY_STACKS) == (part.status, part.count)
    assert "9800 left behind: one reply starts at most 200 new stacks." in (part.note or "")
    assert REPLY_STACKS == stacks_in(done.state) - stacks_in(state)


def test_forty_tags_start_no_more_stacks_than_one_reply_may() -> None:
    """Forty 10,000-bell tags: the first moves 200, the other 39 are refused ``bag-full``; the
    party holds 200 stacks more, not 400,000."""
    state = state_of(gravewatch(), bram(), juno())
    done = reply(gravewatch(), state, " ".join([BELLS] * 40))
    reasons = [r.reason for r in done.records[1:]]
    assert ["bag-full"] * 39 == reasons
    assert REPLY_STACKS == stacks_in(done.state) - stacks_in(state)


def test_a_bag_holds_at_most_500_stacks() -> None:
    """Bram already carries 498 stacks: of 10 bells, 2 fit and the GM is told why the rest stay."""
    pebbles = tuple(Stack(plain=f"pebble {i}") for i in range(BAG_STACKS - 2 - len(bram().bag)))
    state = state_of(gravewatch(), bram(bag=[*bram().bag, *pebbles]), juno())
    done = reply(gravewatch(), state,
                 '[inventory: action="add" item="Dawn bell" count="10" who="Bram the Quiet"]')
    part = record(done)
    assert (2, BAG_STACKS) == (part.count, len(done.state.party[0].bag))
    assert "8 left behind: a bag holds at most 500 stacks." in (part.note or "")


def test_a_shared_add_is_cut_the_same_way() -> None:
    """Without ``who=``, the bells go to the player and the reply's limit still holds."""
    state = state_of(gravewatch(), bram(), juno())
    done = reply(gravewatch(), state, '[inventory: action="add" item="Dawn bell" count="10000"]')
    assert REPLY_STACKS == stacks_in(done.state) - stacks_in(state)
    assert "left behind" in (record(done).feedback or "")


def test_a_kit_needing_more_stacks_than_a_bag_holds_is_refused_at_import() -> None:
    """ITM-GEAR-12 / ITM-IMPORT-12: a kit of 600 Dawn bells (one per stack) is refused, with
    the kit's JSON path; 400 are accepted."""
    def with_kit(count: int) -> Any:
        data = compat_json("gravewatch.json")
        data["items"]["startingGear"] = [{"id": "bells", "label": "Bells",
                                          "lines": [{"item": "kit/dawn-bell", "count": count}]}]
        return data

    load_ruleset(with_kit(400))
    try:
        load_ruleset(with_kit(600))
    except RulesetError as exc:
        assert "$.items.startingGear[0]" in str(exc) and "500" in str(exc)
    else:
        raise AssertionError("a kit of 600 one-piece stacks was accepted")


def test_earnings_start_no_stack_past_the_reply_limit() -> None:
    """Found by the long fuzz run: after 200 bells, an ``earn`` of crowns (a coin kind Bram
    does not hold) would start stack 201; it is refused ``bag-full`` and nothing is paid in."""
    state = state_of(gravewatch(), bram(), juno())
    done = reply(gravewatch(), state, BELLS + ' [inventory: action="earn" amount="3 crowns" '
                 'who="Bram the Quiet"]')
    assert "bag-full" == done.records[1].reason
    assert REPLY_STACKS == stacks_in(done.state) - stacks_in(state)
