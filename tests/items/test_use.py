"""``[inventory: action="use"]`` outside combat, with scripted dice (ITM-USE).

The page's examples stay on the peer's files: the Ember Roads poultice (``1d4 + 1`` into Grit),
the Gravewatch warming tonic (one mark off Harm and a point of Resolve), the Dawn bell (breaking,
an enemy-facing use) and the page of the vigil litany (a Ward gate skipped at Nerve 3), as do the
wound tracks, conditions and gates no bundled ruleset has. Charges, binding, narrated uses,
refusals and turns play on Hearth and Haul's Ward bell and bitter tonic.
"""

from __future__ import annotations

import copy
from typing import Any

from middleware.dice import Dice
from middleware.engine import Engine
from middleware.items import charges
from middleware.resolve import Context
from middleware.resolve.inventory import resolve_inventory
from middleware.resolve.inventory.record import InventoryRecord
from middleware.rules.item_entry import Item
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState, Live, PoolValue, Stack, Wounds
from middleware.stores.memory import MemoryStore
from tests.conftest import compat_json
from tests.rulesets import ember, gravewatch, ruleset
from tests.sheet.sheet_helpers import BRAM, JUNO


def member(base: dict[str, Any], **changes: Any) -> Character:
    """A copy of a sheet.md §23 party entry with top-level keys replaced."""
    data = copy.deepcopy(base)
    data.update(changes)
    return Character.model_validate(data)


def entry(data: Any, catalog: str, entry_id: str) -> Any:
    """One entry of a parsed ruleset's catalog (to change it for a test)."""
    return next(e for c in data["catalogs"] if c["id"] == catalog
                for e in c["entries"] if e["id"] == entry_id)


def ada(nerve: int = 2, bag: list[dict[str, Any]] | None = None, **live: Any) -> Character:
    """A Gravewatch warden of Nerve 2 who reads Ward at rating 1 (three dice), Resolve 1 of 4."""
    return Character.model_validate({
        "name": "Ada", "player": True,
        "sheet": {"v": 1, "build": {"abilities": {"sinew": 2, "nerve": nerve, "warmth": 2},
                                    "skills": {"ward": "rating_1"}}},
        "live": {"pools": {"resolve": {"value": 1}}, **live},
        "bag": bag if bag is not None else [{"item": "kit/litany-page", "count": 2}]})


def hearth() -> Ruleset:
    """Hearth and Haul: its Ward bell binds, spends 1 of 3 charges a use and gives back 1 Grit;
    its bitter tonic is drunk for 1 Grit."""
    return ruleset("hearth-and-haul")


def wil(bag: list[dict[str, Any]] | None = None, **bell: Any) -> Character:
    """Wil the Warden (Nerve 3: Grit maximum 2 + 3 = 5; Grit 2) with his Ward bell bound and his
    Ash spear in hand; ``bell`` changes the bell's stack."""
    return Character.model_validate({
        "name": "Wil the Warden", "player": True,
        "sheet": {"v": 1, "build": {"abilities": {"nerve": 3}, "fields": {"warden": 1}}},
        "live": {"pools": {"grit": {"value": 2}}},
        "bag": bag if bag is not None else [
            {"item": "pack/ward-bell", "bound": True, **bell},
            {"item": "pack/ash-spear", "equipped": True}]})


def use(ruleset: Ruleset, party: tuple[Character, ...], faces: list[int],
        **attrs: str) -> tuple[GameState, InventoryRecord, GameState]:
    """Resolve one use tag with exactly ``faces``; returns (before, record, after)."""
    state = GameState(ruleset=ruleset.id, party=party)
    tag = Tag("inventory", {"action": "use", **attrs}, (), "[inventory: ...]", 0, 17)
    dice = Dice(1, script=faces)
    done = resolve_inventory(tag, state, Context(ruleset=ruleset, dice=dice))
    assert dice.script_left == 0
    assert [] == dice.thrown[len(faces):]  # no die beyond the script was thrown
    assert isinstance(done.record, InventoryRecord)
    return state, done.record, done.state


# --- heal, restore, consumes (ITM-USE-01, -03..05, -07, -21) ----------------------------------


def test_the_page_poultice_line() -> None:
    """ITM-USE-01/03/07/21: Juno (Grit 2 of 11) uses a Poultice: 1d4 thrown 3, + 1 = 4 into Grit;
    one of her two poultices is gone: ``Juno uses Poultice: heals 4 (Grit 6/11). 1 left.``"""
    sheet = copy.deepcopy(JUNO["sheet"])
    sheet["build"]["fields"]["toughness"] = 6  # Grit max 4 + 6 + Brawn 1 = 11
    juno = member(JUNO, sheet=sheet, live={"pools": {"grit": {"value": 2}}},
                  bag=[{"item": "outfitter/poultice", "count": 2}])
    _, record, after = use(ember(), (juno,), [3], item="Poultice", who="Juno")
    assert "Juno uses Poultice: heals 4 (Grit 6/11). 1 left." == record.note == record.feedback
    assert {"grit": PoolValue(value=6)} == after.party[0].live.pools
    assert [("outfitter/poultice", 1)] == [(s.item, s.count) for s in after.party[0].bag]
    assert [("action", "use"), ("item", "Poultice"), ("count", "1"), ("who", "Juno"),
            ("result", "ok"), ("now", "1"),
            ("note", "Juno uses Poultice: heals 4 (Grit 6/11). 1 left.")] == record.tag_attrs()


def test_healing_stops_at_the_maximum_and_says_so() -> None:
    """ITM-USE-03 / SHEET-LIVE-06: Grit 5 of 8 takes 3 of a rolled 4; the full pool is stored as
    absent again (SHEET-STORE-02); the last poultice takes its stack with it (ITM-USE-07)."""
    juno = member(JUNO, bag=[{"item": "outfitter/poultice", "count": 1}])
    _, record, after = use(ember(), (juno,), [3], item="poultice", who="juno")
    assert "Juno uses Poultice: heals 3 of 4 (Grit 8/8). None left." == record.note
    assert "grit" not in after.party[0].live.pools
    assert () == after.party[0].bag
    assert 0 == record.now


def test_warming_tonic_clears_one_mark_and_restores_resolve() -> None:
    """ITM-USE-03/05, SHEET-WND-10/11: on a wound-track ruleset a heal clears ONE mark, the
    lightest (the knock), whatever its amount; ``restore`` gives back 1 Resolve. No die thrown."""
    bram = member(BRAM)
    _, record, after = use(gravewatch(), (bram,), [], item="Warming tonic")
    assert ("Bram the Quiet uses Warming tonic: heals a mark (Harm 1/5), gets back 1 Resolve "
            "(Resolve 5/6). 1 left.") == record.note
    live = after.party[0].live
    assert {"harm": Wounds(marks=("tear",))} == live.wounds
    assert {"resolve": PoolValue(value=5)} == live.pools
    assert 1 == next(s.count for s in after.party[0].bag if s.item == "kit/warming-tonic")


def test_a_heal_on_a_wound_track_clears_overflow_first() -> None:
    """SHEET-WND-11 (reading: overflow first, as every heal): one point of overflow goes, the marks
    stay."""
    bram = member(BRAM, live={"wounds": {"harm": {"marks": ["tear", "knock"], "overflow": 1}}})
    _, record, after = use(gravewatch(), (bram,), [], item="Warming tonic")
    assert {"harm": Wounds(marks=("tear", "knock"))} == after.party[0].live.wounds
    assert record.note is not None and record.note.startswith(
        "Bram the Quiet uses Warming tonic: heals a mark (Harm 2/5)")


def test_a_heal_into_a_plain_health_track() -> None:
    """ITM-USE-03: where ``combat.health`` names a plain track the amount is added to it, held to
    its maximum (Ember Roads' heat made the health track for this test)."""
    data = compat_json("ember-roads.json")
    data["combat"]["health"] = {"track": "heat"}
    juno = member(JUNO, bag=[{"item": "outfitter/poultice", "count": 1}])
    _, record, after = use(load_ruleset(data), (juno,), [1], item="Poultice")
    assert {"heat": 4} == after.party[0].live.tracks
    assert "Juno uses Poultice: heals 2 (Heat 4/5). None left." == record.note


def test_applies_puts_its_conditions_on_the_user() -> None:
    """ITM-USE-04: every condition in ``applies`` is put on the user of a helpful use and stays;
    an undeclared one is ignored (the tonic made to apply Rattled and a stray id)."""
    data = compat_json("gravewatch.json")
    tonic = entry(data, "kit", "warming-tonic")["item"]["use"]
    tonic["applies"] = [{"condition": "rattled"}, {"condition": "nowhere"}]
    bram = member(BRAM)
    _, record, after = use(load_ruleset(data), (bram,), [], item="Warming tonic")
    assert ("marked", "rattled") == after.party[0].live.conditions
    assert record.note is not None and "is now Rattled" in record.note


def test_temporary_points_go_to_a_health_pool_that_takes_them() -> None:
    """ITM-USE-04: ``temporary`` points go into the health pool's buffer where ``allowTemp`` is
    set (Ember Roads' Grit made to allow them); the pool's own value is unchanged."""
    data = compat_json("ember-roads.json")
    data["sheet"]["live"]["pools"][0]["allowTemp"] = True
    entry(data, "outfitter", "poultice")["item"]["use"] = {
        "kind": "buff", "targets": "self", "consumes": True, "temporary": {"dice": "1d4"}}
    juno = member(JUNO, bag=[{"item": "outfitter/poultice", "count": 1}])
    _, record, after = use(load_ruleset(data), (juno,), [3], item="Poultice")
    assert PoolValue(value=5, temp=3) == after.party[0].live.pools["grit"]
    assert "Juno uses Poultice: gains 3 temporary Grit (3 in all). None left." == record.note


# --- charges, breaking, enemy-facing uses (ITM-USE-06..10, -15, ITM-BAG-18) --------------------


def test_the_dawn_bell_hits_nobody_but_spends_its_charge() -> None:
    """ITM-USE-06/08/09, ITM-BAG-18: a debuff aimed at enemies hits nobody outside a fight, yet
    its charge is spent on the stack; the GM is told what it does. Bram is not Rattled by it."""
    before, record, after = use(gravewatch(), (member(BRAM),), [], item="Dawn bell")
    assert ("Bram the Quiet uses Dawn bell: it hits nobody outside a fight (use (Act): Steel 7 "
            "save negates it, Rattled, 1 of 3 charges). 1 of 3 charges left.") == record.note
    assert 1 == after.party[0].bag[0].charges
    assert before.party[0].live == after.party[0].live


def test_an_unused_bell_is_full() -> None:
    """ITM-USE-09: a stack with no stored charges is full: one use of Hearth and Haul's Ward bell
    (1 charge a use, 3 in all) leaves 2 of 3, and gives back its 1 Grit (2 → 3 of 2 + Nerve 3)."""
    _, record, after = use(hearth(), (wil(),), [], item="Ward bell")
    assert 2 == after.party[0].bag[0].charges
    assert ("Wil the Warden uses Ward bell: gets back 1 Grit (Grit 3/5). 2 of 3 charges "
            "left.") == record.note
    assert {"grit": PoolValue(value=3)} == after.party[0].live.pools


def test_the_last_charge_may_break_the_bell() -> None:
    """ITM-USE-15: spending the last charge throws a d20; a 1 breaks it and it leaves the bag."""
    bag = copy.deepcopy(BRAM["bag"])
    bag[0]["charges"] = 1
    _, record, after = use(gravewatch(), (member(BRAM, bag=bag),), [1], item="Dawn bell")
    assert record.note is not None and record.note.endswith("Its last charge spent, it breaks.")
    assert all(s.item != "kit/dawn-bell" for s in after.party[0].bag)
    assert 0 == record.now


def test_the_last_charge_spent_on_a_high_roll_keeps_an_empty_bell() -> None:
    """ITM-USE-15: above ``atMost`` the bell survives with no charges left."""
    bag = copy.deepcopy(BRAM["bag"])
    bag[0]["charges"] = 1
    _, record, after = use(gravewatch(), (member(BRAM, bag=bag),), [2], item="Dawn bell")
    assert 0 == after.party[0].bag[0].charges
    assert record.note is not None and record.note.endswith("0 of 3 charges left.")


def test_an_empty_bell_is_refused_and_nothing_changes() -> None:
    """ITM-USE-10 / Ambiguity 28: no charges left (``no-charges``, ours): refused, no die, every
    bag as it was."""
    before, record, after = use(hearth(), (wil(charges=0),), [], item="Ward bell")
    assert ("refused", "no-charges") == (record.status, record.reason)
    assert before == after


def test_a_bell_not_bound_is_refused_and_nothing_changes() -> None:
    """ITM-USE-10: an item that takes slots or binds is used only while worn (``not-worn``); the
    Ward bell takes no slots, so it only needs binding."""
    before, record, after = use(hearth(), (wil(bound=False),), [], item="Ward bell")
    assert ("refused", "not-worn") == (record.status, record.reason)
    assert "Wil the Warden must have Ward bell bound to use it." == record.feedback
    assert before == after


# --- the gate (ITM-USE-16..20) ----------------------------------------------------------------


def test_the_page_failed_gate_line() -> None:
    """ITM-USE-19/20: Nerve 2 < 3, so Ada rolls Ward (3 dice at 7) needing 2 successes: 8, 3, 4
    is one success; the page is used up for nothing and Resolve is untouched."""
    before, record, after = use(gravewatch(), (ada(),), [8, 3, 4],
                                item="Page of the vigil litany", who="Ada")
    assert ("Ada uses Page of the vigil litany: Ward check 1 against 2, failed; it is used up "
            "for nothing. 1 left.") == record.note
    assert before.party[0].live == after.party[0].live
    assert 1 == after.party[0].bag[0].count


def test_a_passed_gate_lets_the_item_work() -> None:
    """ITM-USE-16/19: 8, 9, 4 is two successes: the page gives back 2 Resolve (1 → 3 of 4)."""
    _, record, after = use(gravewatch(), (ada(),), [8, 9, 4], item="Page of the vigil litany")
    assert ("Ada uses Page of the vigil litany: Ward check 2 against 2, passed; gets back 2 "
            "Resolve (Resolve 3/4). 1 left.") == record.note
    assert {"resolve": PoolValue(value=3)} == after.party[0].live.pools


def test_unless_skips_the_gate() -> None:
    """ITM-USE-18: at Nerve 3 the page is read straight through: no die is thrown."""
    _, record, after = use(gravewatch(), (ada(nerve=3),), [], item="Page of the vigil litany")
    assert "Ada uses Page of the vigil litany: gets back 2 Resolve (Resolve 3/5). 1 left." == \
        record.note
    assert {"resolve": PoolValue(value=3)} == after.party[0].live.pools


def test_the_gate_reads_wound_penalty_and_worn_items() -> None:
    """ITM-USE-19: Ada's Ward pool is 3; Winded (−1) takes a die, the bound Dawn bell adds one
    (ITM-CHECK-11): three dice are thrown."""
    bag = [{"item": "kit/litany-page", "count": 1},
           {"item": "kit/dawn-bell", "count": 1, "equipped": True, "bound": True}]
    hurt = ada(bag=bag, wounds={"harm": {"marks": ["tear", "knock"]}})
    _, record, _ = use(gravewatch(), (hurt,), [7, 7, 2], item="Page of the vigil litany")
    assert record.note is not None and "Ward check 2 against 2, passed" in record.note


def test_a_gate_on_a_sheet_value_rolls_that_many() -> None:
    """ITM-USE-16: a gate ``{"value": ...}`` rolls the sheet value as its number (here Ada's
    ``resolve_max`` 4 made the litany's check: four dice, two of them successes)."""
    data = compat_json("gravewatch.json")
    entry(data, "kit", "litany-page")["item"]["use"]["gate"]["check"] = {
        "value": {"derived": "resolve_max"}}
    _, record, _ = use(load_ruleset(data), (ada(),), [7, 7, 2, 3], item="Page of the vigil litany")
    assert record.note is not None and record.note.startswith(
        "Ada uses Page of the vigil litany: Resolve maximum check 2 against 2, passed;")


def test_a_gate_difficulty_the_item_does_not_give_is_refused() -> None:
    """ITM-USE-17: a gate reading a stat the item does not give cannot be used (``no-difficulty``,
    ours); nothing changes and no die is thrown."""
    data = compat_json("gravewatch.json")
    entry(data, "kit", "litany-page")["item"]["use"]["gate"]["difficulty"] = {"stat": "target"}
    before, record, after = use(load_ruleset(data), (ada(),), [], item="Page of the vigil litany")
    assert ("refused", "no-difficulty") == (record.status, record.reason)
    assert before == after


# --- items without rules, refusals (ITM-USE-24, SPEC §6) --------------------------------------


def test_an_item_without_use_is_narrated() -> None:
    """ITM-USE-24: the ash spear has no ``use``: nothing changes and the GM narrates it."""
    before, record, after = use(hearth(), (wil(),), [], item="Ash spear")
    assert "resolved" == record.status
    assert "Wil the Warden uses Ash spear: it has no rules for using it, so describe what " \
        "happens." == record.note
    assert before == after


def test_a_plain_item_is_narrated() -> None:
    """ITM-USE-24: a rule-less item is still used in the story (``I use my walking stick.``)."""
    walker = Character.model_validate({"name": "Juno", "bag": [{"plain": "Walking stick"}]})
    before, record, after = use(hearth(), (walker,), [], item="walking stick", who="Juno")
    assert ("resolved", "Walking stick", 1) == (record.status, record.item, record.now)
    assert before == after


def test_unknown_character_and_unheld_items_are_refused() -> None:
    """Bad input: nobody called Mira (``unknown-character``); a tonic Wil does not hold
    (``not-held``); a name that is no item (``unknown-item``); every bag as it was."""
    for attrs, reason in (({"item": "Bitter tonic", "who": "Mira"}, "unknown-character"),
                          ({"item": "Bitter tonic", "who": "Wil the Warden"}, "not-held"),
                          ({"item": "Moonbeam", "who": "Wil the Warden"}, "unknown-item")):
        before, record, after = use(hearth(), (wil(),), [], **attrs)
        assert ("refused", reason) == (record.status, record.reason)
        assert before == after


# --- turns (ITM-USE-23) -----------------------------------------------------------------------


async def test_a_regenerated_reply_never_uses_an_item_twice() -> None:
    """ITM-USE-23 / SPEC §3: both candidates of a turn start from S(0): each drinks one of two
    bitter tonics (Grit 2 → 3) and leaves one; the next turn builds on the selected one only."""
    engine = Engine(MemoryStore())
    tonics = wil(bag=[{"item": "pack/tonic", "count": 2}])
    await engine.create_game("bell", hearth(), [tonics], seed=3)
    reply = 'Wil drinks. [inventory: action="use" item="Bitter tonic"]'
    first = await engine.process("bell", 1, reply)
    second = await engine.process("bell", 1, reply)
    for done in (first, second):
        assert [1] == [s.count for s in done.state.party[0].bag if s.item == "pack/tonic"]
        assert Live.model_validate({"pools": {"grit": {"value": 3}}}) == \
            done.state.party[0].live
    third = await engine.process("bell", 2, reply)
    assert [] == [s for s in third.state.party[0].bag if s.item == "pack/tonic"]


def test_capacity_read_from_an_item_stat_is_held_to_100() -> None:
    """ITM-USE-08: ``charges.max`` may read the item's own number stat; above 100 it holds 100,
    and a stack with no stored charges is full."""
    item = Item.model_validate({"category": "tool", "stats": {"uses": 250},
                                "charges": {"max": {"stat": "uses"}}, "stack": 1,
                                "use": {"kind": "buff", "charges": 2}})
    assert 100 == charges.capacity(item)
    assert 100 == charges.left(Stack(item="x"), item)
    assert 98 == charges.left(charges.with_left(Stack(item="x"), item, 98), item)
    assert 2 == charges.cost(item)
