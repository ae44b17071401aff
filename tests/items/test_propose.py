"""GM-invented items: ``[inventory: action="add" item=… like=… …]`` (ITM-PROPOSE-01..18).

Ember Roads (rarityCaps: guard 1/2/3, bonus 1/1/2; Guard sums worn ``guard``) and Gravewatch
(binding, a hidden ``conceal`` stat, usable items with charges) from the compat files.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from middleware.items.lookup import find_item, forget_unheld, remember
from middleware.items.propose import Proposal, describes_item, propose, propose_instructions
from middleware.rules.combat import Modifier
from middleware.rules.item_entry import AbilityChange, Binds, ItemEffect
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, InventedItem, Stack
from tests.conftest import compat_json


@cache
def ember() -> Ruleset:
    return load_ruleset(compat_json("ember-roads.json"))


@cache
def grave() -> Ruleset:
    return load_ruleset(compat_json("gravewatch.json"))


def with_items(name: str, **block: Any) -> Ruleset:
    data = compat_json(name)
    data["items"].update(block)
    return load_ruleset(data)


def made(ruleset: Ruleset, name: str, **attrs: str) -> Proposal:
    return propose(ruleset, GameState(ruleset=ruleset.id), attrs, name)


def invented_of(proposal: Proposal) -> InventedItem:
    assert proposal.invented is not None, proposal
    return proposal.invented


def item_of(proposal: Proposal) -> Any:
    return invented_of(proposal).entry.item


def checks(flat: int | None = None, skills: list[str] | None = None,
           mode: str | None = None) -> Modifier:
    return Modifier.model_validate({"to": "checks", "flat": flat, "skills": skills, "mode": mode})


# --- ITM-PROPOSE-01/02: describing a new item ------------------------------------------------


def test_an_add_with_invention_attributes_describes_an_item() -> None:
    """ITM-PROPOSE-01/02: any of like/category/.../summary makes the add describe an item."""
    expected: tuple[bool, ...] = (True, True, False)
    actual = (describes_item({"Category": "gear"}), describes_item({"like": "Hand axe"}),
              describes_item({"item": "Rope", "who": "Ada", "count": "2"}))
    assert expected == actual


def test_an_invented_item_is_made_in_the_rulesets_words() -> None:
    """ITM-PROPOSE-02/03: parts by id or label; the page's worn/carried examples."""
    proposal = made(ember(), "Ember charm", category="Gear", rarity="Storied", tags="Thrown",
                    stats="Bulk=1", slots="Body=1", worn="+1 Sneak; disadvantage on Sway checks",
                    carried="+1 Brawn", summary="Warm to the touch.")
    item = item_of(proposal)
    expected = ("invented", "gear", "storied", ("thrown",), {"bulk": 1}, {"body": 1},
                ItemEffect(modifiers=(checks(1, ["sneak"]),
                                      checks(skills=["sway"], mode="disadvantage"))),
                ItemEffect(abilities={"brawn": AbilityChange(add=1)}), "Warm to the touch.", ())
    actual = (proposal.outcome, item.category, item.rarity, item.tags, item.stats, item.slots,
              item.worn, item.carried, invented_of(proposal).entry.summary, proposal.changes)
    assert expected == actual


def test_like_starts_from_a_ruleset_item_and_the_given_parts_replace_its_own() -> None:
    """ITM-PROPOSE-02: ``like=`` is the starting point; the parts given change it."""
    item = item_of(made(ember(), "Patched coat", like="Leather coat", worn="none",
                        stats="bulk=2"))
    expected = ("armor", "common", {"bulk": 2, "guard": 1}, {"body": 1}, None)
    assert expected == (item.category, item.rarity, item.stats, item.slots, item.worn)


def test_changes_on_every_check_every_save_and_saves_failed() -> None:
    """ITM-PROPOSE-03: ``checks``/``saves`` for all; ``fails`` on a save by name."""
    item = item_of(made(grave(), "Grave dust", category="token", carried="-1 checks; "
                        "advantage on saves; fails Steel saves"))
    expected = ItemEffect(modifiers=(Modifier(to="checks", flat=-1),
                                     Modifier(to="saves", mode="advantage")),
                          fails_saves=("steel",))
    assert expected == item.carried


def test_attacks_and_defence_where_the_ruleset_has_combat() -> None:
    """ITM-PROPOSE-04/06: attacks and the ruleset's defence word, with "bonus" after them."""
    item = item_of(made(ember(), "Lucky band", category="gear", slots="hands=1",
                        worn="+1 attack roll bonus; +1 Guard bonus"))
    expected = (Modifier(to="attacks", flat=1), Modifier(to="defense", flat=1))
    assert expected == item.worn.modifiers


def test_attacks_are_dropped_where_the_ruleset_has_no_combat() -> None:
    """ITM-PROPOSE-04: only where the ruleset has combat."""
    data = compat_json("ember-roads.json")
    data.pop("combat")
    proposal = propose(load_ruleset(data), GameState(ruleset="x"),
                       {"category": "gear", "worn": "+1 attacks; +1 Sneak"}, "Odd ring")
    expected = (ItemEffect(modifiers=(checks(1, ["sneak"]),)),
                ("worn: +1 on attacks: this ruleset has no combat; dropped",))
    assert expected == (item_of(proposal).worn, proposal.changes)


def test_a_defence_change_beside_the_stat_defence_sums_is_dropped() -> None:
    """ITM-PROPOSE-05: ``guard=1`` and ``+1 Guard`` are one +1; the reply says so."""
    proposal = made(ember(), "Rusty hook", like="Hand axe", stats="guard=1, worn=+1 Guard")
    expected = (1, None, ("worn defence change dropped: the item's Guard already raise defence",))
    assert expected == (item_of(proposal).stats["guard"], item_of(proposal).worn,
                        proposal.changes)


# --- ITM-PROPOSE-06/07/08: small-model habits, unknown parts --------------------------------


def test_small_model_habits_are_read() -> None:
    """ITM-PROPOSE-06: ``Brawn +1``, ``none`` lists, worn/carried/summary inside ``stats=``."""
    item_proposal = made(ember(), "Rope belt", category="gear", tags="none", slots="none",
                         stats="bulk=1, carried=Brawn +1, summary=Knotted hemp.")
    item = item_of(item_proposal)
    expected: tuple[Any, ...] = ((), {}, {"bulk": 1}, ItemEffect(abilities={"brawn": AbilityChange(add=1)}),
                "Knotted hemp.")
    assert expected == (item.tags, item.slots, item.stats, item.carried,
                        invented_of(item_proposal).entry.summary)


def test_unknown_parts_are_dropped_and_said() -> None:
    """ITM-PROPOSE-07: an unknown tag, stat, slot, skill is dropped; the reply lists each."""
    proposal = made(ember(), "Glass eye", category="gear", tags="glowing, thrown",
                    stats="shine=3", slots="head=1", worn="+1 Juggling")
    item = item_of(proposal)
    expected: tuple[Any, ...] = (("thrown",), {}, {}, None,
                ("tag 'glowing' is not one of this ruleset's; dropped",
                 "slot 'head' is not one of this ruleset's; dropped",
                 "worn: 'juggling' is not a skill, save or attribute of this ruleset; dropped",
                 "stat 'shine' is not one of this ruleset's; dropped"))
    assert expected == (item.tags, item.slots, item.stats, item.worn, proposal.changes)


def test_an_unknown_category_keeps_the_like_items() -> None:
    """ITM-PROPOSE-07, Ambiguity 15: the template's category stays."""
    proposal = made(ember(), "Bent axe", like="Hand axe", category="Polearm")
    assert ("weapon", ("category 'Polearm' is not one of this ruleset's; kept weapon",)) == \
        (item_of(proposal).category, proposal.changes)


def test_no_category_at_all_is_a_plain_item_or_refused_without_native() -> None:
    """Ambiguity 15 (ours): without a category or ``like=``, plain where plain is allowed."""
    plain = made(ember(), "Old letter", summary="Sealed in wax.")
    refused = made(with_items("ember-roads.json", native=False), "Old letter",
                   summary="Sealed in wax.")
    assert (("plain", None), ("refused", "unknown-category")) == \
        ((plain.outcome, plain.reason), (refused.outcome, refused.reason))


def test_an_unknown_rarity_becomes_the_lowest() -> None:
    """ITM-PROPOSE-08: a rarity the ruleset does not have becomes its lowest."""
    proposal = made(ember(), "Star shard", category="gear", rarity="legendary")
    assert ("common", ("rarity 'legendary' is not one of this ruleset's; made Common",)) == \
        (item_of(proposal).rarity, proposal.changes)


def test_no_rarity_inherits_the_like_items_or_is_the_lowest() -> None:
    """Ambiguity 16: from ``like=``, else the lowest."""
    assert ("storied", "common") == (
        item_of(made(ember(), "Road stone", like="Waystone")).rarity,
        item_of(made(ember(), "Pebble", category="gear")).rarity)


# --- ITM-PROPOSE-09/10: clamped to ranges and caps -------------------------------------------


def test_a_stat_is_clamped_to_its_range_then_to_the_rarity_cap() -> None:
    """ITM-PROPOSE-09: guard 9 -> 4 (range 0..4) -> 1 (common cap); halves round up."""
    proposal = made(ember(), "Iron vest", category="armor", stats="guard=9, bulk=2.5",
                    slots="body")
    expected = ({"guard": 1, "bulk": 3},
                ("Guard 9 is outside its range; made 4",
                 "Guard 4 is above what a Common item gives; made 1"))
    assert expected == (item_of(proposal).stats, proposal.changes)


def test_a_worn_bonus_is_capped_and_a_penalty_is_not() -> None:
    """ITM-PROPOSE-10: +3 -> +1 at Common; -2 stays; +1d4 is dropped (ITM-BLOCK-21)."""
    proposal = made(ember(), "Jangling mail", category="armor", slots="body",
                    worn="+3 Sway; -2 Sneak; +1d4 Scrap; -1d4 Tinker")
    expected = ((checks(1, ["sway"]), checks(-2, ["sneak"]),
                 Modifier(to="checks", dice="1d4", minus=True, skills=["tinker"])),
                ("worn: +3 on checks (sway) is more than a Common item gives; made +1",
                 "worn: +1d4 on checks (scrap) dropped; a Common item's bonus cannot be dice"))
    assert expected == (item_of(proposal).worn.modifiers, proposal.changes)


def test_the_part_inherited_through_like_is_capped_too() -> None:
    """ITM-PROPOSE-10: a Common copy of the Waystone (+1 Sway) keeps +1; an attribute raise
    is capped like any bonus."""
    proposal = made(ember(), "Cheap waystone", like="Waystone", rarity="common",
                    worn="+2 Brawn", slots="body")
    item = item_of(proposal)
    assert (checks(1, ["sway"]), {"brawn": AbilityChange(add=1)}) == \
        (item.carried.modifiers[0], item.worn.abilities)


def test_without_caps_a_bonus_is_still_bounded() -> None:
    """SPEC §8: quantities are bounded even where the ruleset sets no cap (ours: 20)."""
    item = item_of(made(grave(), "Saint's knuckle", category="token", carried="+500 Ward"))
    assert (Modifier(to="checks", flat=20, skills=["ward"]),) == item.carried.modifiers


STATS = st.sampled_from(["guard", "bulk", "Guard", "bulk", "damage", "reach", "shine"])
NUMBERS = st.one_of(st.integers(-50, 50).map(str), st.floats(-50, 50).map(lambda f: f"{f:.2f}"),
                    st.sampled_from(["1d6", "far", "lots", ""]))
CHANGES = st.tuples(st.sampled_from(["+", "-"]), st.integers(0, 99).map(str),
                    st.sampled_from([" Sway", " Sneak", " checks", " Brawn", " attacks",
                                     " Guard", "d6 Scrap"])).map("".join)


@settings(max_examples=150, deadline=None)
@given(stats=st.lists(st.tuples(STATS, NUMBERS), max_size=5),
       rarity=st.sampled_from(["common", "uncommon", "storied", "mythic", ""]),
       worn=st.lists(CHANGES, max_size=4), carried=st.lists(CHANGES, max_size=4),
       like=st.sampled_from(["", "Waystone", "Leather coat", "Hand axe"]))
def test_an_invented_item_never_exceeds_the_blocks_limits(
        stats: list[tuple[str, str]], rarity: str, worn: list[str], carried: list[str],
        like: str) -> None:
    """Issue 4 / ITM-PROPOSE-09/10, ITM-BLOCK-20/21: every stat inside its range and its
    rarity's cap; every worn/carried bonus at most the rarity's ``bonus``, never dice."""
    attrs = {"category": "armor", "slots": "body", "rarity": rarity, "like": like,
             "stats": ", ".join(f"{k}={v}" for k, v in stats),
             "worn": "; ".join(worn), "carried": "; ".join(carried)}
    item = item_of(propose(ember(), GameState(ruleset="ember-roads"), attrs, "Thing"))
    block = ember().items
    assert block is not None
    cap = next(c for c in block.rarity_caps if c.rarity == item.rarity)
    for stat in block.stats:
        if stat.id in item.stats and stat.type == "number":
            most = min(stat.max if stat.max is not None else 99, cap.stats.get(stat.id, 99))
            assert (stat.min or 0) <= item.stats[stat.id] <= most
    for effect in (item.worn, item.carried):
        for mod in effect.modifiers if effect else ():
            assert mod.flat is None or mod.flat <= (cap.bonus or 0)
            assert mod.dice is None or mod.minus
        for change in (effect.abilities.values() if effect else ()):
            assert change.add is None or change.add <= (cap.bonus or 0)


# --- ITM-PROPOSE-11/12/13: names, the reply, kept for the game ------------------------------


def test_a_proposed_name_that_is_a_ruleset_item_means_that_item() -> None:
    """ITM-PROPOSE-11: "hand AXE" with a description adds the ruleset's Hand axe."""
    proposal = made(ember(), "hand AXE", category="armor", stats="guard=3")
    expected = ("ruleset", "outfitter/hand-axe", None,
                ("Hand axe is this ruleset's own item; the description was not used",))
    assert expected == (proposal.outcome, proposal.item.ref if proposal.item else None,
                        proposal.invented, proposal.changes)


def test_the_reply_never_names_a_stat_the_gm_is_not_shown() -> None:
    """ITM-PROPOSE-12: the hidden ``conceal`` stat's change is in the details, not the reply."""
    proposal = made(grave(), "Sewn pocket", category="token", stats="conceal=sleeve, target=12")
    hidden = "Hidden in 'sleeve' is not a value it takes; dropped"
    assert (("Target 12 is outside its range; made 10",), True) == \
        (proposal.changes, hidden in invented_of(proposal).changes)


def test_an_invented_item_is_kept_and_its_name_means_it_for_the_rest_of_the_game() -> None:
    """ITM-PROPOSE-13: stored, found by name or ref, the same name means the same item."""
    first = made(ember(), "Ember charm", category="gear", carried="+1 Sway")
    state = first.kept_in(GameState(ruleset="ember-roads"))
    again = propose(ember(), state, {"category": "weapon"}, "EMBER charm")
    expected = ("invented/ember-charm", "invented/ember-charm", "known", "gear",
                ("Ember charm was made earlier in this game and stays as it was",))
    found = find_item(ember(), state, "ember charm")
    assert expected == (found.ref if found else None, state.invented[0].ref, again.outcome,
                        again.item.item.category if again.item else None, again.changes)


def test_an_invented_item_survives_the_states_json_form() -> None:
    """ITM-PROPOSE-13: the state is stored as JSON and read back unchanged."""
    state = made(grave(), "Vigil lamp", like="Dawn bell", binds="cursed").kept_in(
        GameState(ruleset="gravewatch"))
    assert state == GameState.model_validate(state.model_dump(mode="json"))


def test_a_new_session_keeps_only_the_inventions_someone_holds() -> None:
    """ITM-PROPOSE-13: kept as long as someone still holds it."""
    state = GameState(ruleset="ember-roads", party=(Character(name="Ada"),))
    for name in ("Kept charm", "Lost charm"):
        state = made(ember(), name, category="gear").kept_in(state)
    ada = state.party[0].model_copy(update={"bag": (Stack(item="invented/kept-charm"),)})
    state = forget_unheld(state.with_character(0, ada))
    assert ["Kept charm"] == [i.label for i in state.invented]


def test_remembering_twice_keeps_one() -> None:
    """ITM-PROPOSE-13: one stored item per ref."""
    invented = made(ember(), "Ember charm", category="gear").invented
    assert isinstance(invented, InventedItem)
    state = remember(remember(GameState(ruleset="ember-roads"), invented), invented)
    assert 1 == len(state.invented)


# --- ITM-PROPOSE-14..18: weapons and usable items --------------------------------------------


def test_an_item_like_a_weapon_fights_with_its_own_capped_stats() -> None:
    """ITM-PROPOSE-14: the attack is copied; it reads the new item's own stats."""
    item = item_of(made(ember(), "Cleaver", like="Hand axe", stats="damage=1d8, swing=wits"))
    axe = find_item(ember(), None, "Hand axe")
    assert axe is not None
    expected = (axe.item.attack, {"bulk": 1, "damage": "1d8", "swing": "wits", "reach": "close"})
    assert expected == (item.attack, item.stats)


def test_an_item_with_neither_slots_nor_binding_has_no_attack() -> None:
    """ITM-PROPOSE-15: never worn, so created without an attack."""
    proposal = made(ember(), "Axe head", like="Hand axe", slots="none")
    assert (None, ("it takes no slot and does not bind, so it is never worn and has no attack",)) \
        == (item_of(proposal).attack, proposal.changes)


def test_a_weapon_without_like_fights_as_the_most_similar_weapon_of_its_category() -> None:
    """ITM-PROPOSE-16: "crossbow" resembles "Hunting bow"; its unread stats and slots come too."""
    proposal = made(ember(), "Crossbow", category="weapon", stats="damage=1d10")
    item = item_of(proposal)
    expected = ("Hunting bow", {"damage": "1d10", "swing": "wits"}, {"hands": 2},
                ("It fights as Hunting bow does.",), "outfitter/hunting-bow")
    bow = find_item(ember(), None, "Hunting bow")
    assert bow is not None
    assert expected == (bow.label, item.stats, item.slots, proposal.changes,
                        invented_of(proposal).fights_as)
    assert bow.item.attack == item.attack


def test_a_weapon_with_no_similar_name_fights_as_the_first_of_its_category() -> None:
    """ITM-PROPOSE-16: else the first weapon of that category."""
    proposal = made(ember(), "Flail", category="weapon")
    assert ("It fights as Hand axe does.",) == proposal.changes


def test_an_item_like_a_usable_item_is_used_like_it_charges_included() -> None:
    """ITM-PROPOSE-18: use and charges are the template's; a use makes single stacks."""
    bell: Any = find_item(grave(), None, "Dawn bell")
    item = item_of(made(grave(), "Dusk bell", like="Dawn bell"))
    found = made(grave(), "Dusk bell", like="Dawn bell").item
    assert found is not None
    expected = (bell.item.use.model_dump(), bell.item.charges.model_dump(),
                bell.item.binds.model_dump(), 1)
    assert expected == (item.use.model_dump(), item.charges.model_dump(),
                        item.binds.model_dump(), found.stack_limit)


def test_binds_yes_cursed_or_no_where_the_ruleset_binds() -> None:
    """ITM-PROPOSE-02, ITM-ENTRY-11: ``binds=`` only in a ruleset with binding."""
    cursed = item_of(made(grave(), "Black ring", category="token", slots="worn", binds="cursed"))
    dropped = made(ember(), "Black ring", category="gear", binds="yes")
    assert (Binds(cursed=True), None, ("binds 'yes' dropped: this ruleset has no binding",)) == \
        (cursed.binds, item_of(dropped).binds, dropped.changes)


# --- ITM-BLOCK-22, Ambiguity 29: propose off -------------------------------------------------


@pytest.mark.parametrize(("native", "expected"), [(True, ("plain", None)),
                                                 (False, ("refused", "not-ruleset-item"))])
def test_propose_false_refuses_invention(native: bool, expected: tuple[str, str | None]) -> None:
    """ITM-BLOCK-22 / Ambiguity 29: the description is ignored; plain or ``not-ruleset-item``."""
    proposal = made(with_items("ember-roads.json", propose=False, native=native), "Ember charm",
                    category="gear", carried="+1 Sway")
    assert (*expected, None) == (proposal.outcome, proposal.reason, proposal.invented)


def test_native_false_does_not_prevent_invention() -> None:
    """ITM-PROPOSE-01: ``native: false`` still lets the Game Master invent."""
    proposal = made(with_items("ember-roads.json", native=False), "Ember charm", category="gear")
    assert "invented" == proposal.outcome


def test_the_proposal_form_says_a_weapon_made_like_another_fights_like_it() -> None:
    """ITM-PROPOSE-17: the form names the ruleset's words, never a hidden stat; none when off."""
    form = propose_instructions(grave())
    assert form is not None
    expected = (True, True, False, True, None)
    actual = ("fights like it" in form, "binds=yes|cursed|no" in form, "Hidden in" in form,
              "Soak (blunt)" in form,
              propose_instructions(with_items("ember-roads.json", propose=False)))
    assert expected == actual
