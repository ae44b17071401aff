"""``[inventory:]`` equip, unequip, bind and unbind on Hearth and Haul (slots: Hands 2, Body 1;
binding max = Nerve) with Wil the Warden (Nerve 3, his Ward bell bound, the Ash spear in both
hands) (ITM-BAG-10..13). Brass Fair has no binding; Lantern and Ledger no slots."""

from __future__ import annotations

from typing import Any

from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, Stack
from tests.items.inventory_helpers import bag_of, record, reply
from tests.rulesets import changed, entry, ruleset

BELL, SPEAR, COAT = "pack/ward-bell", "pack/ash-spear", "pack/oilskin"
COATS = Stack(item=COAT, count=3)


def hearth() -> Ruleset:
    return ruleset("hearth-and-haul")


def cursed_coat() -> Ruleset:
    """Hearth and Haul with its Oilskin coat made a cursed thing to bind."""
    def curse(data: Any) -> None:
        entry(data, "pack/oilskin")["item"]["binds"] = {"cursed": True}
    return changed("hearth-and-haul", curse)


def wil(*bag: Stack) -> Character:
    """Wil the Warden, Nerve 3; by default his bound Ward bell and the Ash spear in hand."""
    return Character.model_validate({
        "name": "Wil the Warden", "player": True,
        "sheet": {"v": 1, "build": {"abilities": {"nerve": 3}, "fields": {"warden": 1}}},
        "bag": [s.model_dump() for s in bag or (Stack(item=BELL, bound=True),
                                                Stack(item=SPEAR, equipped=True))]})


def kit(*extra: Stack) -> GameState:
    """Wil with his bell and spear, and ``extra`` after them."""
    who = wil()
    return GameState(ruleset="hearth-and-haul",
                     party=(who.model_copy(update={"bag": (*who.bag, *extra)}),))


def test_equip_splits_one_piece_off_a_larger_stack() -> None:
    """ITM-BAG-10: one of three oilskin coats goes onto his body as its own stack."""
    done = reply(hearth(), kit(COATS), '[inventory: equip item="Oilskin coat"]')
    coats = [s for s in done.state.party[0].bag if s.item == COAT]
    assert [(2, False), (1, True)] == [(s.count, s.equipped) for s in coats]
    assert ('[inventory: action="equip" item="Oilskin coat" count="1" who="Wil the Warden" '
            'result="ok" now="3"]') == done.text


def test_equip_needs_free_slots() -> None:
    """ITM-BAG-10: the Ash spear fills both hands: a second spear is refused ``slots-full``."""
    state = kit(Stack(item=SPEAR))
    done = reply(hearth(), state, '[inventory: equip item="Ash spear"]')
    assert ("slots-full", "Wil the Warden has no free Hands for Ash spear.", state) == \
        (record(done).reason, record(done).feedback, done.state)


def test_equipping_what_is_already_equipped_changes_nothing() -> None:
    """The spear is in hand: resolved, nothing moved, the GM told."""
    state = kit()
    done = reply(hearth(), state, '[inventory: equip item="Ash spear"]')
    assert ("resolved", 0, state) == (record(done).status, record(done).count, done.state)


def test_unequip_puts_a_piece_back_with_its_loose_stack() -> None:
    """ITM-BAG-05/10: an unequipped coat joins the loose coats again."""
    state = kit(Stack(item=COAT, count=2), Stack(item=COAT, equipped=True))
    done = reply(hearth(), state, '[inventory: unequip item="Oilskin coat"]')
    assert [(COAT, 3)] == [p for p in bag_of(done.state, 0) if p[0] == COAT]


def test_items_without_slots_and_rulesets_without_slots_cannot_be_equipped() -> None:
    """ITM-BAG-11: a tonic occupies no slots; Lantern and Ledger has no slots to offer."""
    tonic = reply(hearth(), kit(Stack(item="pack/tonic", count=2)),
                  '[inventory: equip item="Bitter tonic"]')
    ledger = ruleset("lantern-and-ledger")
    state = GameState(ruleset=ledger.id, party=(Character(
        name="Wren", player=True, bag=(Stack(item="chandlery/hooked-pole"),)),))
    pole = reply(ledger, state, "[inventory: equip item=\"Lamplighter's pole\"]")
    assert ("no-slots", "no-slots") == (record(tonic).reason, record(pole).reason)


def test_equip_of_a_plain_item_is_refused() -> None:
    """ITM-BAG-11: the GM equips ruleset items."""
    done = reply(hearth(), kit(Stack(plain="Lantern hook")),
                 '[inventory: equip item="Lantern hook"]')
    assert "not-ruleset-item" == record(done).reason


def test_binding_stops_at_binding_max_read_from_the_sheet() -> None:
    """ITM-BAG-12: Nerve 3: one bell is bound, two more may be, a third bind is refused (a bell
    has charges, so each stacks alone)."""
    state = kit(*(Stack(item=BELL) for _ in range(3)))
    done = reply(hearth(), state, '[inventory: bind item="Ward bell"] '
                 '[inventory: bind item="Ward bell"] [inventory: bind item="Ward bell"]')
    assert ["resolved", "resolved", "refused"] == [r.status for r in done.records]
    assert ("binding-full", "Wil the Warden has 3 of 3 bound already.") == \
        (record(done, 2).reason, record(done, 2).feedback)


def test_binding_needs_a_bindable_item_and_a_ruleset_with_binding() -> None:
    """ITM-BAG-11/12: a spear has no ``binds``; Brass Fair has no binding."""
    spear = reply(hearth(), kit(), '[inventory: bind item="Ash spear"]')
    brass = ruleset("brass-fair")
    state = GameState(ruleset=brass.id, party=(Character(
        name="Odo", player=True, bag=(Stack(item="wares/hand-axe"),)),))
    axe = reply(brass, state, '[inventory: bind item="Hand axe"]')
    assert ("not-bindable", "no-binding") == (record(spear).reason, record(axe).reason)


def test_unbind_of_an_unbound_item_is_refused() -> None:
    done = reply(hearth(), GameState(ruleset="hearth-and-haul", party=(wil(Stack(item=BELL)),)),
                 '[inventory: unbind item="Ward bell"]')
    assert "not-bound" == record(done).reason


def test_unequip_of_an_unequipped_item_is_refused() -> None:
    done = reply(hearth(), kit(COATS), '[inventory: unequip item="Oilskin coat"]')
    assert "not-equipped" == record(done).reason


def test_a_bound_cursed_item_cannot_be_taken_off() -> None:
    """ITM-BAG-13: the bound cursed coat cannot be unequipped: ``cursed``, nothing changes."""
    state = kit(Stack(item=COAT, equipped=True, bound=True))
    done = reply(cursed_coat(), state, '[inventory: unequip item="Oilskin coat"]')
    assert ("cursed", state) == (record(done).reason, done.state)


def test_the_gm_ends_a_curse_by_unbinding_and_then_it_lets_go() -> None:
    """ITM-BAG-13: only the GM can end the curse: his unbind does, then the coat comes off."""
    state = kit(Stack(item=COAT, equipped=True, bound=True))
    done = reply(cursed_coat(), state, '[inventory: unbind item="Oilskin coat"] '
                 '[inventory: remove item="Oilskin coat"]')
    assert ["resolved", "resolved"] == [r.status for r in done.records]
    assert "The curse is ended." == record(done).note
    assert COAT not in [ref for ref, _ in bag_of(done.state, 0)]
