"""A GM-invented item works everywhere a catalog item does (ITM-PROPOSE-13/18): it takes its slots,
weighs its carry stat, binds, changes checks while worn, is read by ``itemStat``, moves between bags,
shows in the ``--json`` summary; and a regenerated reply that does not invent it knows none of it.

Ember Roads: Bulk is the carry stat (Load = 6 + Brawn before the road slows, 12 at the most), one
Body slot, Guard = 6 + Wits + the guard of worn things, and carrying 10 Bulk or more is -1 on Sneak.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from middleware.character.check import view_for
from middleware.character.summary import state_summary
from middleware.cli import app
from middleware.dice import Dice
from middleware.items.index import item_index
from middleware.items.lookup import items_in
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.resolve import Context
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.record import CheckRecord
from middleware.resolve.inventory.record import InventoryRecord
from middleware.rules.catalogs import CatalogEntry
from middleware.rules.refs import ValueRef
from middleware.segments import Tag
from middleware.state import Character, GameState, InventedItem
from tests.conftest import compat_path
from tests.items.inventory_helpers import bram, changed, ember, gravewatch

ADA = Character.model_validate({"name": "Ada", "player": True, "sheet": {"v": 1, "build": {
    "abilities": {"brawn": 1, "wits": 2, "heart": 1}, "skills": {"sneak": "trained"}}}})
BO = Character(name="Bo", player=False)

CHARM = ('[inventory: action="add" item="Ember charm" category="armor" stats="bulk=4, guard=1" '
         'slots="body=1" worn="+1 Sneak" who="Ada"]')
"""Worn on the body: Bulk 4, Guard 1, +1 on Sneak checks."""
EQUIP = '[inventory: action="equip" item="Ember charm" who="Ada"]'


def party(*members: Character) -> GameState:
    return GameState(ruleset=ember().id, party=members or (ADA, BO))


def reply(state: GameState, *tags: str) -> ResolvedReply:
    """The tags resolved as one Ember Roads reply (inventory actions throw no dice)."""
    return resolve_reply(" ".join(tags), state, Context(ruleset=ember(), dice=Dice(1)))


def outcome(done: ResolvedReply, at: int = -1) -> tuple[str, str | None]:
    found = done.records[at]
    assert isinstance(found, InventoryRecord)
    return found.status, found.reason


def sneak(state: GameState) -> CheckRecord:
    """Ada's Sneak against 10 with the dice 3 and 4."""
    tag = Tag("skill_check", {"skill": "Sneak", "dc": "10", "who": "Ada"}, (), "[skill_check:]", 0, 14)
    done = resolve_check(tag, state, Context(ruleset=ember(), dice=Dice(1, script=[3, 4])))
    assert isinstance(done.record, CheckRecord)
    return done.record


def read(record: CheckRecord, *keys: str) -> list[tuple[str, str]]:
    """The record's rewritten attributes named ``keys``, in the record's order."""
    return [(k, v) for k, v in record.tag_attrs() if k in keys]


def held(state: GameState, name: str) -> list[tuple[str | None, int, bool]]:
    """A member's bag as (item ref or coin, count, equipped)."""
    member = next(m for m in state.party if m.name == name)
    return [(s.item or s.coins or s.plain, s.count, s.equipped) for s in member.bag]


# --- slots and binding (ITM-BAG-10..13) ---------------------------------------------------------


def test_an_invented_worn_item_is_equipped_and_fills_its_slot() -> None:
    """ITM-PROPOSE-13, ITM-BAG-10: the charm goes on Ada's body, so the Leather coat finds no free
    Body slot; taken off, the coat goes on."""
    done = reply(party(), CHARM, EQUIP, '[inventory: action="add" item="Leather coat" who="Ada"]',
                 '[inventory: action="equip" item="Leather coat" who="Ada"]')
    freed = reply(done.state, '[inventory: action="unequip" item="Ember charm" who="Ada"]',
                  '[inventory: action="equip" item="Leather coat" who="Ada"]')

    assert ([("resolved", None), ("resolved", None), ("resolved", None), ("refused", "slots-full")],
            [("invented/ember-charm", 1, True), ("outfitter/leather-coat", 1, False)],
            [("resolved", None), ("resolved", None)]) == (
        [outcome(done, i) for i in range(4)], held(done.state, "Ada"),
        [outcome(freed, i) for i in range(2)])


def test_an_invented_cursed_ring_binds_and_does_not_let_go() -> None:
    """ITM-PROPOSE-13, ITM-BAG-12/13 (Gravewatch): a ring invented ``binds="cursed"`` is put on and
    bound (Bram binds up to his Nerve, 3); bound, it cannot be taken off."""
    state = GameState(ruleset=gravewatch().id, party=(bram(),))
    who = 'item="Black ring" who="Bram the Quiet"'
    text = (f'[inventory: action="add" {who} category="token" slots="worn=1" binds="cursed"] '
            f'[inventory: action="equip" {who}] [inventory: action="bind" {who}] '
            f'[inventory: action="unequip" {who}]')
    done = resolve_reply(text, state, Context(ruleset=gravewatch(), dice=Dice(1)))

    assert [("resolved", None), ("resolved", None), ("resolved", None), ("refused", "cursed")] \
        == [outcome(done, i) for i in range(4)]


# --- weight (ITM-BAG-14..16) --------------------------------------------------------------------


def test_an_invented_item_weighs_its_carry_stat() -> None:
    """ITM-PROPOSE-13, ITM-BAG-14/16: with the charm (Bulk 4) three Leather coats (Bulk 9) would
    take Ada past 12 and are refused; two (Bulk 6) fit and leave her encumbered (10 > Load 7)."""
    state = reply(party(), CHARM).state
    three = reply(state, '[inventory: action="add" item="Leather coat" count="3" who="Ada"]')
    two = reply(state, '[inventory: action="add" item="Leather coat" count="2" who="Ada"]')
    record = two.records[0]
    assert isinstance(record, InventoryRecord)

    assert (("refused", "too-heavy"), "Ada is now encumbered.") == (outcome(three), record.note)


def test_the_shared_view_hands_an_invented_item_to_whoever_can_carry_it() -> None:
    """ITM-BAG-15: Ada already carries Bulk 6 of her Load 7, so the charm (Bulk 4) added to
    nobody in particular goes to Bo, who stays unencumbered."""
    coats = reply(party(), '[inventory: action="add" item="Leather coat" count="2" who="Ada"]')
    done = reply(coats.state, CHARM.replace(' who="Ada"', ""))

    assert ([("invented/ember-charm", 1, False)], [("outfitter/leather-coat", 2, False)]) == (
        held(done.state, "Bo"), held(done.state, "Ada"))


def test_a_give_weighs_the_invented_item_against_the_receivers_limit() -> None:
    """ITM-BAG-16, SPEC §10: Bo holds three coats (Bulk 9); the charm (Bulk 4) would take him past
    12, so the give is refused and both bags stay as they were."""
    bo = BO.model_copy(update={"bag": ()})
    state = reply(party(ADA, bo), CHARM,
                  '[inventory: action="add" item="Leather coat" count="3" who="Bo"]').state
    done = reply(state, '[inventory: action="give" item="Ember charm" who="Ada" to="Bo"]')

    assert (("refused", "too-heavy"), state) == (outcome(done), done.state)


# --- checks and the sheet (ITM-CHECK, ITM-SHEET) ------------------------------------------------


def test_the_worn_effect_of_an_invented_item_changes_a_check() -> None:
    """ITM-PROPOSE-03/13, ITM-CHECK-02: worn, the charm gives Ada +1 on Sneak (modifier 3 -> 4,
    total 10 -> 11, named in ``from``); only carried, it gives nothing."""
    carried = reply(party(), CHARM).state
    worn = reply(carried, EQUIP).state

    keys = ("modifier", "total", "effects", "from")
    assert [("modifier", "3"), ("total", "10")] == read(sneak(carried), *keys)
    assert [("modifier", "4"), ("total", "11"), ("effects", "+1"), ("from", "Ember charm")] == \
        read(sneak(worn), *keys)


def test_item_stat_reads_the_guard_of_an_invented_item_while_worn() -> None:
    """ITM-SHEET-02/04: Guard = 6 + Wits 2 + the guard of worn things: 8 with the charm packed,
    9 with it on."""
    carried = reply(party(), CHARM).state
    worn = reply(carried, EQUIP).state
    guard = ValueRef.model_validate({"derived": "guard"})

    assert [8.0, 9.0] == [view_for(ember(), s.party[0], state=s).ref(guard) for s in (carried, worn)]


def test_item_stat_counts_the_bulk_of_an_invented_item_into_a_level_on_checks() -> None:
    """ITM-SHEET-02/03, SHEET-COND: an anvil invented with Bulk 10 makes Ada's Bulk carried 10,
    the level that is -1 on Sneak (modifier 3 -> 2)."""
    state = reply(party(), '[inventory: action="add" item="Road anvil" category="gear" '
                           'stats="bulk=10" who="Ada"]').state

    assert [("modifier", "2"), ("total", "9")] == read(sneak(state), "modifier", "total")


def test_a_dice_pool_target_read_by_item_stat_sees_an_invented_item() -> None:
    """ITM-SHEET-02/06, CHK-POOL-05 (Gravewatch with ``target.from`` the lowest ``target`` worn):
    Bram's Grave spade gives 6; a Bone needle invented with target 5 and put on makes it 5."""
    def from_worn(data: dict[str, Any]) -> None:
        data["resolution"]["target"]["from"] = {
            "itemStat": {"stat": "target", "from": "worn", "pick": "min", "default": 7}}

    rules = changed("gravewatch.json", from_worn)
    needle = ('[inventory: action="add" item="Bone needle" category="token" stats="target=5" '
              'slots="worn=1" who="Bram the Quiet"]')
    equip = '[inventory: action="equip" item="Bone needle" who="Bram the Quiet"]'
    ward = '[skill_check: skill="Ward" dc="2" who="Bram the Quiet"]'

    def threshold(*tags: str) -> list[tuple[str, str]]:
        done = resolve_reply(" ".join(tags), GameState(ruleset=rules.id, party=(bram(),)),
                             Context(ruleset=rules, dice=Dice(1)))
        record = done.records[-1]
        assert isinstance(record, CheckRecord)
        return read(record, "threshold")

    assert [[("threshold", "6")], [("threshold", "5")]] == [
        threshold(needle, ward), threshold(needle, equip, ward)]


# --- moving it (ITM-BAG) ------------------------------------------------------------------------


def test_an_invented_item_is_given_and_removed_by_its_name() -> None:
    """ITM-PROPOSE-13: Ada gives the charm to Bo (who now holds 1, Ada none); Bo drops it."""
    given = reply(reply(party(), CHARM).state,
                  '[inventory: action="give" item="ember CHARM" who="Ada" to="Bo"]')
    removed = reply(given.state, '[inventory: action="remove" item="Ember charm" who="Bo"]')

    assert ([], [("invented/ember-charm", 1, False)], ("resolved", None), [], 0) == (
        held(given.state, "Ada"), held(given.state, "Bo"), outcome(removed),
        held(removed.state, "Bo"), _now(removed))


def _now(done: ResolvedReply) -> int | None:
    record = done.records[-1]
    assert isinstance(record, InventoryRecord)
    return record.now


# --- the ruleset's index and the game's view (ITM-PROPOSE-11/13) --------------------------------


def test_the_game_sees_its_inventions_and_the_ruleset_never_does() -> None:
    """ITM-PROPOSE-13: the game's view finds the charm by name or ref, the ruleset's own index
    (shared by every game) does not, and the catalog items a market sells stay the ruleset's."""
    state = reply(party(), CHARM).state
    view = items_in(ember(), state)
    found = [view.find("ember charm"), view.by_ref("invented/ember-charm")]

    assert (["invented/ember-charm"] * 2, None, item_index(ember()).items) == (
        [f.ref if f else None for f in found], item_index(ember()).find("Ember charm"), view.items)


def test_a_ruleset_item_wins_over_an_invention_of_the_same_name() -> None:
    """ITM-PROPOSE-11, ITM-BAG-03: a stored invention called "Hand axe" never hides the axe."""
    axe = InventedItem(ref="invented/hand-axe", entry=CatalogEntry.model_validate(
        {"id": "hand-axe", "label": "Hand axe", "item": {"category": "gear"}}))
    state = party().model_copy(update={"invented": (axe,)})
    found = [items_in(ember(), state).find(name) for name in ("Hand axe", "invented/hand-axe")]

    assert ["outfitter/hand-axe", "invented/hand-axe"] == [f.ref if f else None for f in found]


def test_the_games_view_is_shared_while_nothing_new_is_invented() -> None:
    """ITM-PROPOSE-13: states that hold the same inventions read through one view; a game with
    none reads the ruleset's own index."""
    state = reply(party(), CHARM).state
    later = reply(state, '[inventory: action="add" item="Leather coat" who="Bo"]').state

    assert (True, True) == (items_in(ember(), state) is items_in(ember(), later),
                            items_in(ember(), party()) is item_index(ember()))


# --- the summary and regenerated replies (SPEC §3, §7) ------------------------------------------


def test_the_summary_shows_the_invented_item_by_its_name() -> None:
    """SPEC §7: Ada's bag in the summary lists the charm by the name the game stored."""
    state = reply(party(), CHARM, EQUIP).state

    assert {"Ember charm": 1} == state_summary(ember(), state)["party"]["Ada"]["bag"]


def replay_json(tmp_path: Path, *gm: dict[str, Any]) -> list[dict[str, Any]]:
    """``gm-middleware replay --json`` of one turn of Ada and Bo with the ``gm`` candidates."""
    game = {"type": "game", "id": "k1", "ruleset": str(compat_path("ember-roads.json")), "seed": 7,
            "party": [ADA.model_dump(mode="json", include={"name", "player", "sheet"}),
                      {"name": "Bo", "player": False}]}
    lines = [game, {"type": "user", "text": "We search the forge."},
             *({"type": "gm", **line} for line in gm)]
    path = tmp_path / "k1.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert 0 == result.exit_code, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_regenerated_reply_that_does_not_invent_it_sees_none_of_it(tmp_path: Path) -> None:
    """ITM-PROPOSE-13, SPEC §3/§7: the first candidate invents, equips and sneaks (+1, summary
    lists the charm); the regenerated one starts from S(0): no such item to put on, Sneak without
    the bonus, an empty bag."""
    check = '[skill_check: skill="Sneak" dc="10" who="Ada"]'
    first, again = replay_json(tmp_path, {"text": f"{CHARM} {EQUIP} {check}", "dice": [3, 4]},
                               {"text": f"{EQUIP} {check}", "dice": [3, 4]})

    def seen(out: dict[str, Any]) -> tuple[Any, ...]:
        equip, sneaked = out["records"][-2:]
        return (equip["status"], equip["reason"], sneaked["total"],
                out["state"]["party"]["Ada"]["bag"])

    assert [("resolved", None, 11, {"Ember charm": 1}), ("refused", "unknown-item", 10, {})] == [
        seen(first), seen(again)]
