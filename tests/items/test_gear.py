"""Starting gear on the bundled Hearth and Haul ruleset (items.md §10, ITM-GEAR-01..11).

Bram is a warden (Brawn 1: limit 8 + 3 = 11 lb, two hands and a body free); Tilly a carter (Brawn 3:
limit 17 lb). The kits: Warden's kit (group calling, fits warden >= 1: an equipped Ash spear of 3 lb,
a Ward bell of 1 lb, then an Oilskin coat of 4 lb worn or two Bitter tonics of 1 lb), Carter's kit
(group calling, fits carter >= 1), Traveller's bundle (group background, for anyone: 20 pennies, a
plain Walking stick, rope or tonic), Spare rope (no group: two coils of 2 lb), Smith's load (no
group: a 30 lb anvil).
"""

from __future__ import annotations

import pytest

from middleware.character.gear import gear_event, kits_for, take_kit
from middleware.character.summary import bag_counts
from middleware.errors import GameError
from middleware.items.index import item_index
from middleware.rules.registry import load_bundled
from middleware.state import Build, Character, GameState, Sheet, Stack

RULES = load_bundled("hearth-and-haul")


def member(name: str, player: bool = False, bag: tuple[Stack, ...] = (), **build: object) -> Character:
    abilities = {k: v for k, v in build.items() if k in ("brawn", "wits", "nerve")}
    fields = {k: v for k, v in build.items() if k in ("warden", "carter")}
    return Character(name=name, player=player, bag=bag,
                     sheet=Sheet(v=1, build=Build.model_validate(
                         {"abilities": abilities, "fields": fields})))


def party(*bags: tuple[Stack, ...]) -> GameState:
    bram = member("Bram", True, bags[0] if bags else (), brawn=1, nerve=2, warden=1)
    tilly = member("Tilly", False, bags[1] if len(bags) > 1 else (), brawn=3, carter=2)
    return GameState(ruleset=RULES.id, party=(bram, tilly))


def bag_of(state: GameState, index: int) -> dict[str, int]:
    return bag_counts(item_index(RULES), state.party[index].bag)


def test_kits_that_fit_come_first_then_kits_for_anyone_then_the_rest() -> None:
    """ITM-GEAR-03/08: every kit is offered; Bram's warden rank puts Warden's kit first, the kits
    without ``fits`` follow in file order, and Carter's kit (which he does not fit) comes last."""
    offers = kits_for(RULES, party().party[0])

    assert [("warden", True), ("traveller", None), ("spare-rope", None), ("smithy", None),
            ("carter", False)] == \
        [(o.kit.id, o.fits) for o in offers]


def test_fits_reads_the_bare_sheet_and_a_character_without_one_reads_a_blank_sheet() -> None:
    """ITM-GEAR-08 / ITM-BAG-12: no sheet reads blank (rank 0), so no calling kit fits."""
    stranger = Character(name="Pip")

    assert {"warden": False, "carter": False} == \
        {o.kit.id: o.fits for o in kits_for(RULES, stranger) if o.fits is not None}


def test_taking_a_kit_puts_every_line_and_the_first_option_in_the_bag() -> None:
    """ITM-GEAR-02/05/06: no pick takes each choice's first option; ``equip`` lines are worn."""
    done = take_kit(RULES, party(), None, "Warden's kit")
    bag = done.state.party[0].bag

    assert ("taken", "Bram") == (done.status, done.who)
    assert [("pack/ash-spear", True), ("pack/ward-bell", False), ("pack/oilskin", True)] == \
        [(s.item, s.equipped) for s in bag]
    assert (8.0, 11.0) == (done.weight, done.room)


def test_picks_choose_an_option_and_an_item_of_a_one_of_list_by_label() -> None:
    """ITM-GEAR-02/04: "Two tonics" and "Coil of rope" are picked by label, without case."""
    warden = take_kit(RULES, party(), "Bram", "warden", ["two TONICS"])
    bundle = take_kit(RULES, party(), "Tilly", "traveller", ["coil of rope"])

    assert {"Ash spear": 1, "Ward bell": 1, "Bitter tonic": 2} == bag_of(warden.state, 0)
    assert {"pennies": 20, "Walking stick": 1, "Coil of rope": 1} == bag_of(bundle.state, 1)


def test_a_pick_that_names_nothing_in_the_kit_is_refused() -> None:
    """ITM-GEAR-02: a typo is not silently read as the default; nothing changes."""
    state = party()
    done = take_kit(RULES, state, None, "warden", ["three tonics"])

    assert ("refused", "unknown-choice") == (done.status, done.reason)
    assert done.state is state


def test_equip_waits_for_free_slots() -> None:
    """ITM-GEAR-05: with a spear already in both hands the kit's spear goes in the bag unworn."""
    worn = (Stack(item="pack/ash-spear", equipped=True),)
    done = take_kit(RULES, party(worn), None, "warden", ["Two tonics"])

    assert [True, False] == [s.equipped for s in done.state.party[0].bag if s.item == "pack/ash-spear"]
    assert "Ash spear (not equipped: no free slot)" in done.feedback


def test_a_kit_too_heavy_for_the_carrier_is_refused_whole() -> None:
    """ITM-GEAR-09: the 30 lb anvil against Bram's 11 lb: refused, the dialog shows both."""
    state = party()
    done = take_kit(RULES, state, None, "Smith's load")

    assert ("refused", "too-heavy", 30.0, 11.0) == (done.status, done.reason, done.weight, done.room)
    assert "Smith's load weighs 30 lb; Bram can still lift 11 lb." == done.feedback
    assert done.state is state


def test_what_the_bag_already_holds_counts_against_the_limit() -> None:
    """ITM-GEAR-09 / ITM-BAG-14: two 4 lb coats already carried leave Bram 3 lb: the 8 lb kit is
    refused, and coins weigh 1/100 lb each (ITM-BLOCK-19)."""
    coats = (Stack(item="pack/oilskin", count=2),)
    pennies = (Stack(coins="penny", count=1050),)  # 10.5 lb

    assert "too-heavy" == take_kit(RULES, party(coats), None, "warden").reason
    assert "too-heavy" == take_kit(RULES, party(pennies), None, "traveller").reason
    assert 2.2 == pytest.approx(take_kit(RULES, party(), None, "traveller").weight)


def test_a_group_is_taken_once_unless_the_player_says_again() -> None:
    """ITM-GEAR-07: a second calling kit is refused; with ``again`` it adds to the bag."""
    first = take_kit(RULES, party(), None, "warden", ["Two tonics"]).state
    second = take_kit(RULES, first, None, "carter")
    again = take_kit(RULES, first, None, "carter", again=True)

    assert ("refused", "group-taken") == (second.status, second.reason)
    assert {"Ash spear": 1, "Ward bell": 1, "Bitter tonic": 3, "Coil of rope": 1,
            "shillings": 5} == bag_of(again.state, 0)
    assert ("calling",) == again.state.party[0].kits


def test_a_kit_without_a_group_is_its_own_group() -> None:
    """ITM-GEAR-07: Spare rope (no group) is taken once, and a named group "spare-rope" taken
    before is not the same group."""
    named = party().model_copy(update={"party": (
        party().party[0].model_copy(update={"kits": ("spare-rope",)}), party().party[1])})
    first = take_kit(RULES, named, None, "Spare rope")
    second = take_kit(RULES, first.state, None, "Spare rope")

    assert ("taken", ("spare-rope", "kit:spare-rope")) == (first.status, first.state.party[0].kits)
    assert "group-taken" == second.reason


def test_stacks_fill_to_their_limit_then_start_anew() -> None:
    """ITM-BAG-05 via gear: four tonics (stack 5) plus two make a full stack and one more."""
    held = (Stack(item="pack/tonic", count=4),)
    done = take_kit(RULES, party(held), None, "warden", ["Two tonics"])

    assert [5, 1] == [s.count for s in done.state.party[0].bag if s.item == "pack/tonic"]


def test_items_and_coins_a_layer_removed() -> None:
    """ITM-GEAR-10: a removed item is skipped and named; removed shillings are paid as pennies
    (5 shillings = 60 pennies, the largest coin left)."""
    done = take_kit(RULES, party(), "Tilly", "carter", removed=frozenset({"pack/rope", "shilling"}))

    assert {"Bitter tonic": 1, "pennies": 60} == bag_of(done.state, 1)
    assert ("Coil of rope",) == done.skipped
    assert "Not in this game: Coil of rope." in done.feedback


def test_a_kit_with_nothing_left_is_refused() -> None:
    """ITM-GEAR-11: everything removed: refused, never marked as taken for nothing."""
    done = take_kit(RULES, party(), None, "smithy", removed=frozenset({"pack/anvil"}))

    assert ("refused", "nothing-left", ()) == (done.status, done.reason, done.state.party[0].kits)


def test_unknown_kits_and_characters_are_refused() -> None:
    """Bad input gets its code and changes nothing."""
    state = party()

    assert ["unknown-kit", "unknown-character"] == [
        take_kit(RULES, state, None, "paladin").reason,
        take_kit(RULES, state, "Nobody", "warden").reason]


def test_the_gear_event_applies_a_kit_or_refuses_with_its_reason() -> None:
    """SPEC §4 between-turn events: ``gear`` takes the kit; a refusal is a ``GameError``."""
    event = {"type": "gear", "who": "Tilly", "kit": "carter"}

    assert {"Coil of rope": 1, "Bitter tonic": 1, "shillings": 5} == \
        bag_of(gear_event(RULES, party(), event), 1)
    with pytest.raises(GameError, match="too-heavy"):
        gear_event(RULES, party(), {"type": "gear", "who": "Bram", "kit": "smithy"})
