"""The sheet digest audited against the code (sheet.md), part three: the sheet block's shape and
what import refuses (SHEET-FILE, -SEC-03, -IMPORT, the shape rules of -DRV, -LST, -LIVE, -WND), and
how a character is stored and read (SHEET-BUILD, -BLANK, -STORE), each with its JSON path.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from middleware.engine import Engine
from middleware.errors import TranscriptError
from middleware.rules.load import validate_ruleset
from middleware.rules.sheet import SheetBlock
from middleware.sheet.evaluate import blank_build
from middleware.sheet.party import read_party
from middleware.sheet.rules_view import sheet_rules
from middleware.state import Build, Live
from middleware.stores.memory import MemoryStore
from tests.rulesets import by_id, by_ids, entry, raw_json, row_path
from tests.sheet.audit_helpers import Raw, built, changed, member, rules, view
from tests.sheet.sheet_helpers import BRAM

Change = Callable[[Raw], object]


def refused(name: str, change: Change) -> list[str]:
    """The JSON paths ``validate`` reports for a ruleset with ``change`` applied (catalog entries
    named by id)."""
    data = raw_json(name)
    change(data)
    return [by_ids(data, p.path) for p in validate_ruleset(data)]


def sheet(d: Raw) -> Any:
    return d["sheet"]


def row(d: Raw, where: str, wanted: str) -> Any:
    """The sheet row ``wanted`` of list ``where`` (``abilities``, ``live.pools``...), to change."""
    rows: Any = sheet(d)
    for key in where.split("."):
        rows = rows[key]
    return by_id(rows, wanted)


def printed(name: str, path: str) -> str:
    """``path`` with its rows named by id (``$.sheet.fields[lantern]``), as the product prints it
    for ruleset ``name`` (``$.sheet.fields[2]``)."""
    return row_path(raw_json(name), path)


# --- SHEET-FILE --------------------------------------------------------------------------------


def test_only_version_is_required() -> None:
    """SHEET-FILE-01: ``{version: 1}`` is a whole sheet: empty lists, bonusRange -20..40 and an
    empty live block."""
    block = SheetBlock.model_validate({"version": 1})
    actual = (block.abilities, block.skills, block.fields, block.derived, block.lists,
              (block.bonus_range.min, block.bonus_range.max), block.live.pools,
              block.live.tracks)
    assert ((), (), (), (), (), (-20, 40), (), ()) == tuple(
        tuple(x) if isinstance(x, list | tuple) else x for x in actual)


@pytest.mark.parametrize("version", [0, None, 1.5])
def test_version_is_a_whole_number_from_one(version: Any) -> None:
    """SHEET-FILE-02: a sheet without a whole ``version`` >= 1 is refused."""
    assert ["$.sheet.version"] == refused(
        "cinder-watch", lambda d: sheet(d).update(version=version) if version is not None
        else sheet(d).pop("version"))


def test_a_build_is_read_whatever_its_v() -> None:
    """SHEET-FILE-02, SHEET-BUILD-02: a stored ``v`` of 7 under sheet version 1 is read as it
    is (no migration): Bram's Ward is still 7."""
    data = copy.deepcopy(BRAM)
    data["sheet"]["v"] = 7
    party = read_party(rules("gravewatch"), [data])
    assert (7, 7) == (party[0].sheet.v,  # type: ignore[union-attr]
                      view(rules("gravewatch"), party[0]).skill_number("ward"))


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: row(d, "abilities", "grip").update(id="Sinew"), "$.sheet.abilities[grip].id"),
    (lambda d: row(d, "abilities", "grip").update(id="s" * 41), "$.sheet.abilities[grip].id"),
    (lambda d: row(d, "fields", "station").update(id="1post"), "$.sheet.fields[station].id"),
    (lambda d: row(d, "live.pools", "ember").update(id="re-solve"),
     "$.sheet.live.pools[ember].id"),
])
def test_ids_are_lowercase_words(change: Change, path: str) -> None:
    """SHEET-FILE-03, SHEET-IMPORT-02: ids match ``^[a-z][a-z0-9_]*$``, at most 40 characters."""
    assert [printed("cinder-watch", path)] == refused("cinder-watch", change)


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: row(d, "abilities", "grip").update(label="Sinew [x]"),
     "$.sheet.abilities[grip].label"),
    (lambda d: row(d, "fields", "station").update(label="{{post}}"),
     "$.sheet.fields[station].label"),
    (lambda d: row(d, "abilities", "grip").update(short="SINEWYYYY"),
     "$.sheet.abilities[grip].short"),
])
def test_labels_are_prompt_safe(change: Change, path: str) -> None:
    """SHEET-IMPORT-02: a label with brackets or braces, or a ``short`` over 8, is refused."""
    assert [printed("cinder-watch", path)] == refused("cinder-watch", change)


def rename_level(d: Raw) -> None:
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "field" and value == "level":
                    node[key] = "rank"
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(d)
    next(f for f in sheet(d)["fields"] if f["id"] == "level")["id"] = "rank"


def test_no_id_is_special() -> None:
    """SHEET-FILE-05: 5e with its ``level`` field renamed ``rank`` loads and works the same:
    PB 3 and 5 hit dice at rank 5."""
    renamed = changed("5e", rename_level)
    sheet_view = view(renamed, built({"fields": {"rank": 5}}))
    assert (3, 5) == (sheet_view.proficiency_bonus(), sheet_view.live.pools()["hit_dice"][1])


def more_abilities(d: Raw) -> None:
    sheet(d)["abilities"] += [{"id": f"a{i}", "label": "A", "min": 1, "max": 5, "default": 2}
                              for i in range(18)]


@pytest.mark.parametrize(("change", "path"), [
    (more_abilities, "$.sheet.abilities"),
    (lambda d: d["resolution"]["adjust"].extend([{"value": {"const": 1}}] * 8),
     "$.resolution.adjust"),
    (lambda d: row(d, "live.states", "lamp").update(values=["lit"], default="lit",
                                                     valueLabels={}),
     "$.sheet.live.states[lamp].values"),
])
def test_size_limits(change: Change, path: str) -> None:
    """SHEET-FILE-07, SHEET-ADJ-01, SHEET-LIVE-11: 21 abilities, 9 adjust entries, a state with one
    value are refused (on Lantern and Ledger, which has an adjust entry and a lamp state)."""
    assert [printed("lantern-and-ledger", path)] == refused("lantern-and-ledger", change)


# --- SHEET-IMPORT: what else a file may not say ------------------------------------------------


@pytest.mark.parametrize(("name", "change", "path"), [
    ("cinder-watch", lambda d: row(d, "abilities", "grip").update(min=6),
     "$.sheet.abilities[grip]"),
    ("cinder-watch", lambda d: row(d, "abilities", "grip").update(default=9),
     "$.sheet.abilities[grip]"),
    ("gravewatch", lambda d: row(d, "fields", "lantern").update(default=9),
     "$.sheet.fields[lantern]"),
    ("gravewatch", lambda d: row(d, "fields", "watch").update(values=["dusk", "dusk", "dawn"]),
     "$.sheet.fields[watch]"),
    ("gravewatch", lambda d: row(d, "fields", "watch").update(default="noon"),
     "$.sheet.fields[watch]"),
    ("cinder-watch", lambda d: row(d, "fields", "station").update(default="x" * 61),
     "$.sheet.fields[station]"),
    ("cinder-watch", lambda d: sheet(d).update(bonusRange={"min": 3, "max": 0}),
     "$.sheet.bonusRange"),
])
def test_ranges_defaults_and_enums(name: str, change: Change, path: str) -> None:
    """SHEET-IMPORT-04, SHEET-ABL-01, SHEET-FLD-01: min > max, a default outside the range or not
    among the values, duplicate enum values, a text default past maxLength, a bonusRange
    upside down."""
    assert [printed(name, path)] == refused(name, change)


@pytest.mark.parametrize(("name", "change", "path"), [
    ("cinder-watch", lambda d: row(d, "derived", "ember_max")["of"].append({"field": "nope"}),
     "$.sheet.derived[ember_max].of[2]"),
    ("cinder-watch", lambda d: row(d, "derived", "ember_max")["of"].append(
        {"field": "station"}), "$.sheet.derived[ember_max].of[2]"),
    ("gravewatch", lambda d: row(d, "derived", "resolve_max")["of"].append(
        {"abilityModFromField": "lantern"}), "$.sheet.derived[resolve_max].of[3]"),
    ("cinder-watch", lambda d: row(d, "derived", "ember_max")["of"].append(
        {"skillMod": "juggle"}), "$.sheet.derived[ember_max].of[2]"),
    ("ember", lambda d: row(d, "derived", "burden")["of"].append({"livePool": "tricks"}),
     "$.sheet.derived[burden].of[1]"),
    ("ember", lambda d: row(d, "derived", "burden")["of"].append(
        {"liveTrack": "heat", "read": "penalty"}), "$.sheet.derived[burden].of[1]"),
    ("ember", lambda d: row(d, "derived", "burden")["of"][0]["listSum"].update(column="name"),
     "$.sheet.derived[burden].of[0]"),
    ("ember", lambda d: row(d, "derived", "burden")["of"][0]["listSum"].update(
        onlyWhen="bulk"), "$.sheet.derived[burden].of[0]"),
    ("ember", lambda d: row(d, "derived", "guard")["of"][2]["itemStat"].update(stat="shine"),
     "$.sheet.derived[guard].of[2].itemStat.stat"),
])
def test_references_to_what_does_not_exist(name: str, change: Change, path: str) -> None:
    """SHEET-IMPORT-08, SHEET-FLD-04, SHEET-REF-10: an unknown or non-number field, an
    abilityModFromField on a number field, an unknown skill, a livePool naming a list,
    ``read: penalty`` on a plain track, a listSum column that is not a number or an onlyWhen
    that is not a boolean, an undeclared item stat."""
    assert printed(name, path) in refused(name, change)


@pytest.mark.parametrize(("hide", "path"), [
    ({"field": "nope", "equals": 1}, "$.sheet.fields[lantern].hideWhen.field"),
    ({"field": "watch", "notEquals": "noon"}, "$.sheet.fields[lantern].hideWhen.notEquals"),
    ({"field": "watch", "in": ["dawn", "noon"]}, "$.sheet.fields[lantern].hideWhen.in[1]"),
    ({"field": "watch", "equals": True}, "$.sheet.fields[lantern].hideWhen.equals"),
    ({"field": "post", "notEquals": "x" * 61}, "$.sheet.fields[lantern].hideWhen.notEquals"),
    ({"field": "watch", "notEquals": "night", "equals": "dawn"},
     "$.sheet.fields[lantern].hideWhen"),
])
def test_hide_when_compares_only_what_the_field_can_hold(hide: Raw, path: str) -> None:
    """SHEET-IMPORT-09, SHEET-FLD-05: the lantern's hideWhen on an unknown field, with a watch
    that does not exist ("noon", in notEquals or in ``in``), with a boolean against an enum,
    with a post longer than 60, or with two comparisons, is refused at that value."""
    assert [printed("gravewatch", path)] == refused(
        "gravewatch", lambda d: row(d, "fields", "lantern").update(hideWhen=hide))


def test_an_out_of_range_equals_is_accepted() -> None:
    """SHEET-IMPORT-09: ``equals`` 99 on the lantern (0..6) is what older files had: accepted."""
    assert [] == refused("gravewatch", lambda d: row(d, "fields", "lantern").update(
        hideWhen={"field": "lantern", "equals": 99}))


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: row(d, "live.states", "lamp").update(values=["lit", 'shut"ter', "out"],
                                                     valueLabels={}), "$.sheet.live.states[lamp]"),
    (lambda d: row(d, "live.states", "lamp").update(default="dim"),
     "$.sheet.live.states[lamp]"),
    (lambda d: row(d, "live.states", "lamp").update(values=["lit", "lit", "out"],
                                                     valueLabels={}), "$.sheet.live.states[lamp]"),
    (lambda d: row(d, "live.states", "lamp")["valueLabels"].update(dim="Dim"),
     "$.sheet.live.states[lamp]"),
])
def test_states(change: Change, path: str) -> None:
    """SHEET-IMPORT-20, SHEET-LIVE-11: a value with ``"``, a default not among the values,
    duplicate values, a valueLabels key that is not a value (Lantern and Ledger's lamp)."""
    assert [printed("lantern-and-ledger", path)] == refused("lantern-and-ledger", change)


def test_spend_pool_must_exist_and_start_full() -> None:
    """SHEET-IMPORT-23: ``resolution.spend`` naming no pool, or a pool that starts empty."""
    assert (["$.resolution.spend[0].pool"], ["$.resolution.spend[0].pool"]) == (
        refused("cinder-watch", lambda d: d["resolution"]["spend"][0].update(pool="grit")),
        refused("cinder-watch", lambda d: row(d, "live.pools", "ember").update(start="empty")))


def test_catalog_rows_must_fit_their_list() -> None:
    """SHEET-IMPORT-23: a charm row with a column the charms list does not have is refused."""
    def colour(d: Raw) -> None:
        entry(d, "charms/steady-hand")["rows"][0]["colour"] = "red"
    assert ["<charms/steady-hand>.rows[0].colour"] == refused("gravewatch", colour)


@pytest.mark.parametrize(("name", "change", "path"), [
    ("cinder-watch", lambda d: row(d, "derived", "ember_max").update(id="station"),
     "$.sheet.derived[ember_max].id"),
    ("gravewatch", lambda d: by_id(row(d, "lists", "charms")["columns"], "notes").update(
        id="name"), "$.sheet.lists[charms].columns[notes].id"),
    ("cinder-watch", lambda d: row(d, "saves", "endure").update(id="douse"),
     "$.sheet.saves[endure].id"),
    ("cinder-watch", lambda d: row(d, "live.pools", "ember").update(id="scorch"),
     "$.sheet.live.pools[ember].id"),
    ("cinder-watch", lambda d: row(d, "fields", "station").update(section="cellar"),
     "$.sheet.fields[station].section"),
])
def test_ids_that_may_not_meet(name: str, change: Change, path: str) -> None:
    """SHEET-DRV-01, SHEET-LST-01, SHEET-SKL-01, SHEET-LIVE-01, SHEET-SEC-03: a derived value
    named like a field, two columns of one list, a save named like a skill, a pool named like
    a track, and a section nobody declared are refused."""
    assert printed(name, path) in refused(name, change)


@pytest.mark.parametrize(("name", "change", "path"), [
    ("cinder-watch", lambda d: row(d, "live.tracks", "scorch").pop("kinds"),
     "$.sheet.live.tracks[scorch].levels"),
    ("ember", lambda d: row(d, "live.tracks", "strain").update(
        levels=[{"label": "Ok", "penalty": 0}]), "$.sheet.live.tracks[strain]"),
    ("cinder-watch", lambda d: row(d, "live.tracks", "scorch")["levels"][2].update(penalty=0),
     "$.sheet.live.tracks[scorch].levels[2].penalty"),
    ("cinder-watch", lambda d: row(d, "live.tracks", "scorch").update(min=1),
     "$.sheet.live.tracks[scorch].max"),
    ("cinder-watch", lambda d: by_id(row(d, "live.tracks", "scorch")["kinds"], "burn").update(
        severity=0), "$.sheet.live.tracks[scorch].kinds"),
    ("cinder-watch", lambda d: by_id(row(d, "live.tracks", "scorch")["kinds"], "burn").update(
        id="singe"), "$.sheet.live.tracks[scorch].kinds[burn].id"),
    ("cinder-watch", lambda d: row(d, "live.tracks", "scorch").update(
        hideWhen={"field": "station", "equals": "gate"}),
     "$.sheet.live.tracks[scorch].hideWhen"),
])
def test_wound_tracks(name: str, change: Change, path: str) -> None:
    """SHEET-WND-01/02/03/12: levels without kinds, levels and boxes together, a level kinder
    than the one above, a levels track whose min is not 0, two kinds of one severity or id,
    and a hidden wound track are refused."""
    assert printed(name, path) in refused(name, change)


# --- SHEET-BUILD, SHEET-BLANK, SHEET-STORE -----------------------------------------------------


def test_a_build_defaults_every_key_and_holds_scalars() -> None:
    """SHEET-BUILD-01, SHEET-FLD-02: an empty build has six empty maps and evaluates on the
    defaults (a blank warden's Ward 2); a field holding a list is refused."""
    empty = Build()
    keys = (empty.abilities, empty.skills, empty.saves, empty.bonuses, empty.fields, empty.lists)
    with pytest.raises(ValidationError):
        Build.model_validate({"fields": {"post": ["a"]}})
    assert ([{}] * 6, 2) == (list(keys), view(rules("gravewatch"), built({})).skill_number("ward"))


def party_error(entry: Raw, name: str = "gravewatch") -> str:
    with pytest.raises(TranscriptError) as caught:
        read_party(rules(name), [entry])
    return str(caught.value)


def test_transcript_envelope_and_tiers_are_strict() -> None:
    """SHEET-BUILD-02, SHEET-TIER-06, SHEET-LST-02: a sheet without ``v``, a 5e save at
    ``expertise`` (outside saveTiers), and a charm row marked from a catalog that does not
    exist are refused with their paths."""
    no_v = {"name": "Ada", "sheet": {"build": {}}}
    expert = {"name": "Ada", "sheet": {"v": 1, "build": {"saves": {"dex_save": "expertise"}}}}
    bad_mark = {"name": "Ada", "sheet": {"v": 1, "build": {"lists": {"charms": [
        {"name": "Luck", "_catalog": "amulets/luck"}]}}}}
    messages = (party_error(no_v), party_error(expert, "5e"), party_error(bad_mark))
    paths = ("$.party[0].sheet.v", "$.party[0].sheet.build.saves.dex_save",
             "$.party[0].sheet.build.lists.charms[0]._catalog")
    assert [True] * 3 == [path in m for path, m in zip(paths, messages, strict=True)]


def new_fields(d: Raw) -> None:
    sheet(d)["fields"] += [
        {"id": "age", "label": "Age", "type": "number", "min": 3, "max": 9},
        {"id": "oath", "label": "Oath", "type": "enum", "values": ["iron", "ash"]},
        {"id": "sworn", "label": "Sworn", "type": "boolean"},
        {"id": "fist", "label": "Fist", "type": "dice"}]


def test_the_blank_build() -> None:
    """SHEET-BLANK-01: every ability at its default, every field present: the lantern's default
    3, a number without one min(max(0, 3), 9) = 3, an enum its first value, a boolean false,
    text and dice ""; skills, saves, bonuses and lists empty."""
    build = blank_build(sheet_rules(changed("gravewatch", new_fields)))
    assert ({"sinew": 2, "nerve": 2, "warmth": 2},
            {"post": "", "watch": "night", "lantern": 3, "age": 3, "oath": "iron",
             "sworn": False, "fist": ""}, {}) == (build.abilities, build.fields, build.lists)


def test_live_state_shape() -> None:
    """SHEET-STORE-01: the sparse shape reads as written; ``{"pools": {"resolve": {"value": 0}}}``
    is a warden with no Resolve left."""
    live = Live.model_validate({
        "pools": {"resolve": {"value": 0, "temp": 2}}, "tracks": {"heat": 1},
        "wounds": {"harm": {"marks": ["tear"], "overflow": 1}}, "text": {"note": "x"},
        "conditions": ["marked"], "states": {"light": "out"}})
    warden = member(BRAM, live={"pools": {"resolve": {"value": 0}}})
    assert ((0, 2, 1), (0, 6)) == (
        (live.pools["resolve"].value, live.pools["resolve"].temp, live.wounds["harm"].overflow),
        view(rules("gravewatch"), warden).live.pools()["resolve"])


def test_a_hidden_pool_keeps_its_stored_value() -> None:
    """SHEET-STORE-05: a 5e non-caster's stored slot value is kept (not read); once the
    character casts with Intelligence the same stored 1 of 2 is read."""
    live = {"pools": {"slots_1": {"value": 1}}}
    plain = built({"fields": {"slots_max_1": 2}}, live)
    caster = built({"fields": {"slots_max_1": 2, "spellcasting_ability": "int"}}, live)
    assert (False, 1, (1, 2)) == ("slots_1" in view(rules("5e"), plain).live.pools(),
                                  plain.live.pools["slots_1"].value,
                                  view(rules("5e"), caster).live.pools()["slots_1"])


@pytest.mark.parametrize(("live", "path"), [
    ({"pools": {"resolve": {"value": 2_000_000}}}, "$.party[0].live.pools.resolve"),
    ({"tracks": {"harm": 2}}, "$.party[0].live.tracks.harm"),
    ({"pools": {"r" * 201: {"value": 1}}}, "$.party[0].live.pools." + "r" * 201),
])
def test_transcript_live_values_are_bounded(live: Raw, path: str) -> None:
    """SHEET-STORE-04: a pool value past 1,000,000 (and past its maximum), a wound track written
    as a plain number, and a key of 201 characters are refused when a transcript is loaded."""
    message = party_error({"name": "Ada", "live": live})
    assert path in message


def test_a_party_holds_at_most_64_characters() -> None:
    """SHEET-STORE-04: a game's live state covers at most 64 characters: a 65-member party is
    refused when the transcript is loaded."""
    party = [{"name": f"Warden {n}"} for n in range(65)]
    with pytest.raises(TranscriptError):
        read_party(rules("gravewatch"), party)


async def test_a_regenerated_reply_starts_from_the_turn_state() -> None:
    """SHEET-STORE-03, SHEET-CHK-08: Bram's live state is part of S(n): a reply spending 1
    Resolve leaves 3; a regenerated reply of the same turn starts again from 4 and spends 2."""
    engine = Engine(MemoryStore())
    await engine.create_game("c", rules("gravewatch"), [member(BRAM)])
    spend = '[skill_check: skill="Ward" dc="1" spend="resolve:{n}"]'
    first = await engine.process("c", 1, spend.format(n=1), dice=[2] * 6)
    second = await engine.process("c", 1, spend.format(n=2), dice=[2] * 6)
    assert (3, 2) == (first.state.party[0].live.pools["resolve"].value,
                      second.state.party[0].live.pools["resolve"].value)
