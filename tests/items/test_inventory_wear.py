"""``[inventory:]`` equip, unequip, bind and unbind on Gravewatch (slots: Coat 1, Hands 2, Worn 3;
binding max = Nerve) with Bram (Nerve 3, Dawn bell bound, Grave spade in both hands)
(ITM-BAG-10..13)."""

from __future__ import annotations

from typing import Any

from middleware.state import GameState, Stack
from tests.items.inventory_helpers import bag_of, bram, record, reply
from tests.rulesets import changed, ember, gravewatch

NAILS = Stack(item="kit/silver-nail", count=3)
RING = Stack(item="kit/widows-ring")


def grave(*extra: Stack) -> GameState:
    who = bram()
    return GameState(ruleset="gravewatch", party=(who.model_copy(update={"bag": (*who.bag,
                                                                                  *extra)}),))


def test_equip_splits_one_piece_off_a_larger_stack() -> None:
    """ITM-BAG-10: with the spade off, one of three nails goes into a hand as its own stack."""
    done = reply(gravewatch(), grave(NAILS), '[inventory: unequip item="Grave spade"] '
                 '[inventory: equip item="Silver coffin nail"]')
    nails = [s for s in done.state.party[0].bag if s.item == "kit/silver-nail"]
    assert [(2, False), (1, True)] == [(s.count, s.equipped) for s in nails]
    assert ('[inventory: action="equip" item="Silver coffin nail" count="1" who="Bram the Quiet" '
            'result="ok" now="3"]') == done.text.split("] ", 1)[1]


def test_equip_needs_free_slots() -> None:
    """ITM-BAG-10: the Grave spade fills both hands: a nail is refused ``slots-full``."""
    state = grave(NAILS)
    done = reply(gravewatch(), state, '[inventory: equip item="Silver coffin nail"]')
    assert ("slots-full", "Bram the Quiet has no free Hands for Silver coffin nail.", state) == \
        (record(done).reason, record(done).feedback, done.state)


def test_equipping_what_is_already_equipped_changes_nothing() -> None:
    """The spade is on: resolved, nothing moved, the GM told."""
    state = grave()
    done = reply(gravewatch(), state, '[inventory: equip item="Grave spade"]')
    assert ("resolved", 0, state) == (record(done).status, record(done).count, done.state)


def test_unequip_puts_a_piece_back_with_its_loose_stack() -> None:
    """ITM-BAG-05/10: an unequipped nail joins the loose nails again."""
    state = grave(Stack(item="kit/silver-nail", count=2),
                  Stack(item="kit/silver-nail", equipped=True))
    done = reply(gravewatch(), state, '[inventory: unequip item="Silver coffin nail"]')
    assert [("kit/silver-nail", 3)] == [p for p in bag_of(done.state, 0) if p[0] ==
                                        "kit/silver-nail"]


def test_items_without_slots_and_rulesets_without_slots_cannot_be_equipped() -> None:
    """ITM-BAG-11: a tonic occupies no slots; a ruleset with no slots offers no equip."""
    tonic = reply(gravewatch(), grave(), '[inventory: equip item="Warming tonic"]')
    def no_slots(data: Any) -> None:
        data["items"].pop("slots")
        for catalog in data["catalogs"]:
            for entry in catalog.get("entries", ()):
                entry.get("item", {}).pop("slots", None)
    bare = changed("ember-roads.json", no_slots)
    state = GameState(ruleset="ember", party=(bram(name="Juno", bag=[{"item":
                                                                         "outfitter/hand-axe"}]),))
    axe = reply(bare, state, '[inventory: equip item="Hand axe"]')
    assert ("no-slots", "no-slots") == (record(tonic).reason, record(axe).reason)


def test_equip_of_a_plain_item_is_refused() -> None:
    """ITM-BAG-11: the GM equips ruleset items."""
    done = reply(gravewatch(), grave(Stack(plain="Lantern hook")),
                 '[inventory: equip item="Lantern hook"]')
    assert "not-ruleset-item" == record(done).reason


def test_binding_stops_at_binding_max_read_from_the_sheet() -> None:
    """ITM-BAG-12: Nerve 3: the bell is bound, two rings may be, a third bind is refused."""
    state = grave(Stack(item="kit/widows-ring", count=3))
    done = reply(gravewatch(), state, "[inventory: bind item=\"Widow's ring\"] "
                 "[inventory: bind item=\"Widow's ring\"] [inventory: bind item=\"Widow's ring\"]")
    assert ["resolved", "resolved", "refused"] == [r.status for r in done.records]
    assert ("binding-full", "Bram the Quiet has 3 of 3 bound already.") == \
        (record(done, 2).reason, record(done, 2).feedback)


def test_binding_needs_a_bindable_item_and_a_ruleset_with_binding() -> None:
    """ITM-BAG-11/12: a spade has no ``binds``; Ember Roads has no binding."""
    spade = reply(gravewatch(), grave(), '[inventory: bind item="Grave spade"]')
    state = GameState(ruleset="ember", party=(bram(bag=[{"item": "outfitter/hand-axe"}]),))
    axe = reply(ember(), state, '[inventory: bind item="Hand axe"]')
    assert ("not-bindable", "no-binding") == (record(spade).reason, record(axe).reason)


def test_unbind_of_an_unbound_item_is_refused() -> None:
    done = reply(gravewatch(), grave(RING), "[inventory: unbind item=\"Widow's ring\"]")
    assert "not-bound" == record(done).reason


def test_unequip_of_an_unequipped_item_is_refused() -> None:
    done = reply(gravewatch(), grave(RING), "[inventory: unequip item=\"Widow's ring\"]")
    assert "not-equipped" == record(done).reason


def test_a_bound_cursed_item_cannot_be_taken_off() -> None:
    """ITM-BAG-13: the bound Widow's ring cannot be unequipped: ``cursed``, nothing changes."""
    state = grave(RING.model_copy(update={"equipped": True, "bound": True}))
    done = reply(gravewatch(), state, "[inventory: unequip item=\"Widow's ring\"]")
    assert ("cursed", state) == (record(done).reason, done.state)


def test_the_gm_ends_a_curse_by_unbinding_and_then_it_lets_go() -> None:
    """ITM-BAG-13: only the GM can end the curse: his unbind does, then the ring comes off."""
    state = grave(RING.model_copy(update={"equipped": True, "bound": True}))
    done = reply(gravewatch(), state, "[inventory: unbind item=\"Widow's ring\"] "
                 "[inventory: remove item=\"Widow's ring\"]")
    assert ["resolved", "resolved"] == [r.status for r in done.records]
    assert "The curse is ended." == record(done).note
    assert "kit/widows-ring" not in [ref for ref, _ in bag_of(done.state, 0)]
