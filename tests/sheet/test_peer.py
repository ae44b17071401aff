"""Characters exported from the peer, read tolerantly (SHEET-BUILD-02/03, SHEET-STORE-04/05).

The Bram and Juno entries of sheet.md §23 become peer cards and a peer game live state, then damaged
copies of them. Transcripts stay strict: the same damage refuses a transcript party (SHEET-TRN-05).
"""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from structlog.testing import capture_logs

import middleware
from middleware.character.check import view_for
from middleware.errors import TranscriptError
from middleware.rules import Ruleset, load_ruleset
from middleware.sheet.evaluate import SheetView
from middleware.sheet.party import read_party
from middleware.sheet.peer import PeerCharacter, read_peer_character, read_peer_party
from middleware.state import Live, PoolValue, Stack, Wounds
from tests.conftest import compat_path
from tests.sheet.sheet_helpers import BRAM, JUNO

GRAVE: Ruleset = load_ruleset(compat_path("gravewatch.json"))
EMBER: Ruleset = load_ruleset(compat_path("ember-roads.json"))


def bram_card() -> dict[str, Any]:
    """SHEET-BUILD-04: a library card keeps the sheet under the pinned ruleset id."""
    return {"name": BRAM["name"], "player": True,
            "rulesetSheets": {"local/gravewatch": copy.deepcopy(BRAM["sheet"])}}


def bram(sheet: Any = None, live: Any = None, **changes: Any) -> PeerCharacter:
    """Bram read through the tolerant path, with a damaged sheet or live state when given."""
    return read_peer_character(GRAVE, BRAM["name"],
                               sheet=copy.deepcopy(BRAM["sheet"]) if sheet is None else sheet,
                               live=copy.deepcopy(BRAM["live"]) if live is None else live,
                               **changes)


def damaged_sheet(change: Any) -> dict[str, Any]:
    sheet: dict[str, Any] = copy.deepcopy(BRAM["sheet"])
    change(sheet)
    return sheet


def view(read: PeerCharacter, ruleset: Ruleset = GRAVE) -> SheetView:
    return view_for(ruleset, read.character)


def strict_bram() -> middleware.Character:
    return read_party(GRAVE, [BRAM])[0]


# The worked examples, undamaged ----------------------------------------------------------------

def test_bram_card_and_game_state_read_as_the_transcript_entry() -> None:
    """SHEET-TRN-02/07, SHEET-STORE-03: a card plus the game live state keyed "bram the quiet"
    gives the transcript's sheet and live state, with no warnings."""
    party, warnings = read_peer_party(GRAVE, [bram_card()],
                                      {"bram the quiet": copy.deepcopy(BRAM["live"])})
    strict = strict_bram()
    expected = (strict.name, True, strict.sheet, strict.live, ())
    assert expected == (party[0].name, party[0].player, party[0].sheet, party[0].live, warnings)


def test_bram_evaluates_as_the_worked_example() -> None:
    """SHEET-TRN-08/10: Resolve 4/6, dawn_resolve 1, Ward's sheet number 7."""
    seen = view(bram())
    expected = {"resolve": (4, 6), "dawn_resolve": 1, "ward": 7}
    assert expected == {"resolve": seen.live.pools()["resolve"],
                        "dawn_resolve": seen.derived("dawn_resolve"),
                        "ward": seen.skill_number("ward")}


def test_juno_game_card_with_row_pool() -> None:
    """SHEET-TRN-12/13, SHEET-BUILD-04: a game card's ``rulesetSheet``; Grit 5/8, Luck 2/3 and
    the row pool Second Breath 0/1 read from the game state under "juno"."""
    card = {"name": "Juno", "rulesetSheet": copy.deepcopy(JUNO["sheet"])}
    party, warnings = read_peer_party(EMBER, [card], {"juno": copy.deepcopy(JUNO["live"])})
    pools = view_for(EMBER, party[0]).live.pools()
    expected = ({"grit": (5, 8), "luck": (2, 3), "tricks:second breath": (0, 1)}, ())
    assert expected == (pools, warnings)


# SHEET-BUILD-02: the envelope -------------------------------------------------------------------

@pytest.mark.parametrize(("sheet", "said"), [
    (damaged_sheet(lambda s: s.pop("v")), "no whole v >= 1"),
    (damaged_sheet(lambda s: s.update(v=0)), "no whole v >= 1"),
    (damaged_sheet(lambda s: s.update(v="1")), "no whole v >= 1"),
    (damaged_sheet(lambda s: s.update(build=[1, 2])), "the build is not an object"),
    ("v1", "not an object {v, build}"),
    (damaged_sheet(lambda s: s["build"]["lists"].update(
        arms=[{"name": "x" * 4000} for _ in range(17)])), "bytes serialized (at most 65536)"),
])
def test_an_envelope_that_does_not_parse_is_the_blank_build(sheet: Any, said: str) -> None:
    """SHEET-BUILD-02/SHEET-BLANK-04: no sheet, so the blank build (Resolve 4/4 with Bram's live
    state still read: stored 4), and one warning that says why."""
    read = bram(sheet=sheet)
    warnings = [w for w in read.warnings if "$.sheet" in w]
    expected = (None, 4, 4, 1, True)
    assert expected == (read.character.sheet, view(read).derived("resolve_max"),
                        view(read).live.pools()["resolve"][0], len(warnings), said in warnings[0])


def test_other_envelope_and_build_keys_are_ignored() -> None:
    """SHEET-BUILD-01/02: other keys read nothing; the sheet reads as Bram's, and each key the
    model cannot keep is named."""
    sheet = damaged_sheet(lambda s: (s.update(layer="dawn"), s["build"].update(notes="x")))
    read = bram(sheet=sheet)
    expected = (strict_bram().sheet, ("Bram the Quiet: $.sheet.layer: envelope key not kept",
                                      "Bram the Quiet: $.sheet.build.notes: unknown build key; "
                                      "not kept"))
    assert expected == (read.character.sheet, read.warnings)


# SHEET-BUILD-03: values inside the build ------------------------------------------------------

def test_unknown_ids_are_ignored() -> None:
    """SHEET-BUILD-03: an ability, skill, field and list the ruleset does not declare change no
    number and raise no warning."""
    def add_unknown(s: dict[str, Any]) -> None:
        build = s["build"]
        build["abilities"]["grace"] = 4
        build["skills"]["juggle"] = "rating_3"
        build["fields"]["mood"] = "grim"
        build["lists"]["songs"] = [{"name": "Dirge"}]
    read = bram(sheet=damaged_sheet(add_unknown))
    seen, plain = view(read), view(bram())
    expected = (plain.skill_number("ward"), plain.derived("resolve_max"), ())
    assert expected == (seen.skill_number("ward"), seen.derived("resolve_max"), read.warnings)


def test_values_of_the_wrong_type_read_their_defaults() -> None:
    """SHEET-BUILD-03 / SHEET-EVAL-08: sinew "3" reads 2, Ward's tier 3 reads the first tier,
    a "saves" list reads no saves; each is named once, the rest of the build is kept."""
    def mistype(s: dict[str, Any]) -> None:
        build = s["build"]
        build["abilities"]["sinew"] = "3"
        build["skills"]["ward"] = 3
        build["saves"] = ["steel"]
    read = bram(sheet=damaged_sheet(mistype))
    seen = view(read)
    # Ward untried: nerve 3 + 0 + bonus 1; Steel untried: nerve 3 + 0.
    expected = (2, 4, 3, 3, 3)
    assert expected == (seen.score("sinew"), seen.skill_number("ward"), seen.save_number("steel"),
                        seen.score("nerve"), len(read.warnings))


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_numbers_read_as_defaults(bad: float) -> None:
    """SHEET-BUILD-03: nerve NaN or infinite reads its default 2, so resolve_max is 2 + 2 + 1."""
    read = bram(sheet=damaged_sheet(lambda s: s["build"]["abilities"].update(nerve=bad)))
    seen = view(read)
    expected = (2, 5, ["Bram the Quiet: $.sheet.build.abilities.nerve: not a finite number, so "
                       "it reads its default; dropped"])
    assert expected == (seen.score("nerve"), seen.derived("resolve_max"), list(read.warnings))


def test_an_unknown_tier_is_the_first_tier() -> None:
    """SHEET-BUILD-03 / SHEET-TIER-05: Ward "rating_9" reads as rating_0 (flat 0): 3 + 0 + 1."""
    read = bram(sheet=damaged_sheet(lambda s: s["build"]["skills"].update(ward="rating_9")))
    assert (4, ()) == (view(read).skill_number("ward"), read.warnings)


def test_a_stale_enum_value_reads_as_the_default() -> None:
    """SHEET-BUILD-03 / SHEET-FLD-03: watch "noon" reads as "night": dawn_resolve 0, Resolve max 5,
    and the lantern field is shown again."""
    read = bram(sheet=damaged_sheet(lambda s: s["build"]["fields"].update(watch="noon")))
    seen = view(read)
    expected = ("night", 0, 5, False)
    assert expected == (seen.enum_value("watch"), seen.derived("dawn_resolve"),
                        seen.derived("resolve_max"),
                        seen.hidden(seen.ix.fields["lantern"].hide_when))


def test_out_of_range_numbers_are_read_as_they_are() -> None:
    """SHEET-BUILD-03 (the editor clamps, never the reader): sinew 9 (max 5) and a Ward bonus of 5
    (bonusRange 0..3) are read as stored: Ward 3 + 3 + 5 = 11."""
    def stretch(s: dict[str, Any]) -> None:
        s["build"]["abilities"]["sinew"] = 9
        s["build"]["bonuses"]["ward"] = 5
    read = bram(sheet=damaged_sheet(stretch))
    assert (9, 11, ()) == (view(read).score("sinew"), view(read).skill_number("ward"),
                           read.warnings)


def test_a_bad_list_row_or_cell_is_dropped_alone() -> None:
    """SHEET-BUILD-03 / SHEET-LST-02: a row that is not an object and a NaN cell are dropped; the
    scar row keeps its other cells, so its level still inserts (Harm 5 long)."""
    def spoil(s: dict[str, Any]) -> None:
        s["build"]["lists"]["arms"].append("hook")
        s["build"]["lists"]["scars"][0]["name"] = math.nan
    read = bram(sheet=damaged_sheet(spoil))
    wound = view(read).live.wound("harm")
    scars = read.character.sheet.build.lists["scars"] if read.character.sheet else []
    expected = ([{"levels": 1, "penalty": -1}], 1, 5, 2)
    assert expected == (scars, len(read.character.sheet.build.lists["arms"])
                        if read.character.sheet else 0, wound.length if wound else 0,
                        len(read.warnings))


# SHEET-STORE-04/05: the live state -------------------------------------------------------------

def test_a_bad_live_entry_is_dropped_without_losing_the_rest() -> None:
    """SHEET-STORE-05: a pool value "x", marks that are not a list, a state value 5 and a condition
    7 are dropped; marked, the shuttered light and a good pool stay."""
    live = {"pools": {"resolve": {"value": "x"}, "luck": {"value": 1}},
            "wounds": {"harm": {"marks": "tear"}},
            "conditions": ["marked", 7], "states": {"light": "shuttered", "mood": 5}}
    read = bram(live=live)
    expected = (Live(pools={"luck": PoolValue(value=1)}, conditions=("marked",),
                     states={"light": "shuttered"}), 4, (6, 6))
    assert expected == (read.character.live, len(read.warnings),
                        view(read).live.pools()["resolve"])


def test_undeclared_entries_are_kept_unread() -> None:
    """SHEET-STORE-05 / SHEET-LIVE-10/12: an undeclared pool, condition and a stale state value are
    kept in the live state but read nothing: no Luck pool, no "asleep", the light reads lit."""
    live = {"pools": {"luck": {"value": 2}}, "conditions": ["asleep"],
            "states": {"light": "blazing"}}
    read = bram(live=live)
    seen = view(read)
    expected = (Live(pools={"luck": PoolValue(value=2)}, conditions=("asleep",),
                     states={"light": "blazing"}), ["resolve"], (), "lit", ())
    assert expected == (read.character.live, list(seen.live.pools()),
                        seen.live.active_conditions(), seen.live.state_value("light"),
                        read.warnings)


def test_unknown_keys_dropped_and_duplicate_conditions_collapse() -> None:
    """SHEET-STORE-05: an unknown top-level key is dropped (named); ["marked", "marked"] is one;
    an unknown key inside a pool entry is not kept but the value is."""
    live = {"pools": {"resolve": {"value": 3, "note": "spent at the barrow"}},
            "conditions": ["marked", "marked"], "mood": "grim"}
    read = bram(live=live)
    expected = (Live(pools={"resolve": PoolValue(value=3)}, conditions=("marked",)),
                ("Bram the Quiet: $.live.mood: unknown key; dropped",
                 "Bram the Quiet: $.live.pools.resolve.note: unknown key; not kept"))
    assert expected == (read.character.live, read.warnings)


@pytest.mark.parametrize(("live", "said"), [
    ({"pools": {f"p{i}": {"value": 1} for i in range(601)}}, "601 pools (at most 600)"),
    ({"conditions": [f"c{i}" for i in range(81)]}, "81 conditions (at most 80)"),
    ({"text": {f"t{i}": "x" for i in range(13)}}, "13 text (at most 12)"),
    ({"pools": {"resolve": {"value": 1}}, "states": {f"s{i}": "y" * 80 for i in range(30)},
      "text": {f"t{i}": "z" * 500 for i in range(12)},
      "conditions": [f"{i:03d}" + "c" * 77 for i in range(80)],
      "tracks": {("k" * 190) + f"{i:03d}": 1 for i in range(30)},
      "wounds": {("w" * 190) + f"{i:03d}": {"marks": ["m" * 200] * 64} for i in range(30)}},
     "bytes serialized (at most 65536)"),
    ([{"resolve": 1}], "not an object"),
])
def test_a_blob_outside_the_bounds_starts_blank(live: Any, said: str) -> None:
    """SHEET-STORE-04: a live blob outside the bounds is refused whole: the blank live state
    (Resolve full 6/6) and one warning naming the bound."""
    read = bram(live=live)
    expected = (Live(), (6, 6), 1, True)
    assert expected == (read.character.live, view(read).live.pools()["resolve"],
                        len(read.warnings), said in read.warnings[0])


def test_per_value_bounds_drop_the_entry() -> None:
    """SHEET-STORE-04/05 (our reading): a pool value beyond 1,000,000, a non-whole track, a text
    longer than 500 and 65 marks are bad entries, dropped alone; Grit 5 stays."""
    live = {"pools": {"grit": {"value": 5}, "luck": {"value": 2_000_000}},
            "tracks": {"heat": 2.5}, "text": {"note": "n" * 501},
            "wounds": {"strain": {"marks": ["strain"] * 65}}}
    read = read_peer_character(EMBER, "Juno", sheet=copy.deepcopy(JUNO["sheet"]), live=live)
    seen = view(read, EMBER)
    expected = (Live(pools={"grit": PoolValue(value=5)}), 0, 4)
    assert expected == (read.character.live, seen.live.plain_value(seen.ix.tracks["heat"]),
                        len(read.warnings))


def test_integral_floats_and_wound_overflow_are_read() -> None:
    """SHEET-STORE-01: the peer's numbers are JavaScript numbers: Grit 5.0 is 5; a strain entry
    with overflow 1 keeps its mark and overflow."""
    live = {"pools": {"grit": {"value": 5.0}},
            "wounds": {"strain": {"marks": ["strain"], "overflow": 1}}}
    read = read_peer_character(EMBER, "Juno", sheet=copy.deepcopy(JUNO["sheet"]), live=live)
    expected = Live(pools={"grit": PoolValue(value=5)},
                    wounds={"strain": Wounds(marks=("strain",), overflow=1)})
    assert (expected, ()) == (read.character.live, read.warnings)


# The bag, the party and the log ----------------------------------------------------------------

def test_a_bad_stack_is_dropped_alone() -> None:
    """SHEET-TRN-04 shapes read one stack at a time: two kinds in one stack and a count "2" are
    dropped; the bell and the shillings stay."""
    bag = [{"item": "kit/dawn-bell", "count": 1, "equipped": True, "bound": True},
           {"item": "kit/grave-spade", "coins": "penny"},
           {"coins": "shilling", "count": 4},
           {"item": "kit/warming-tonic", "count": "2"}]
    read = bram(bag=bag)
    expected = (Stack(item="kit/dawn-bell", equipped=True, bound=True),
                Stack(coins="shilling", count=4))
    assert (expected, 2) == (read.character.bag, len(read.warnings))


def test_party_cards_by_name() -> None:
    """SHEET-BUILD-04 / SHEET-TRN-03: a card without a name is dropped; a shared name keeps the
    player's card; a live entry for no member is dropped; a sheet for another ruleset only is no
    sheet (the blank build)."""
    other = {"name": "Ada", "rulesetSheets": {"alice/ember-roads": copy.deepcopy(JUNO["sheet"])}}
    impostor = {"name": "BRAM the quiet", "rulesetSheet": {"v": 1, "build": {}}}
    cards = [{"rulesetSheet": {"v": 1}}, impostor, bram_card(), other]
    party, warnings = read_peer_party(GRAVE, cards, {"bram the quiet": {}, "zed": {}})
    expected = ([("Bram the Quiet", True, strict_bram().sheet), ("Ada", False, None)], 3)
    assert expected == ([(m.name, m.player, m.sheet) for m in party], len(warnings))


def test_second_player_card_reads_as_a_member() -> None:
    """SHEET-TRN-03: one player; a second card marked player is read as a party member."""
    cards = [bram_card(), {"name": "Juno", "player": True}]
    party, warnings = read_peer_party(GRAVE, cards, None)
    assert ([True, False], 1) == ([m.player for m in party], len(warnings))


def test_an_oversize_game_state_starts_everyone_blank() -> None:
    """SHEET-STORE-04: more than 64 characters' entries refuse the game live state: Bram starts
    with the blank live state."""
    game = {f"extra {i}": {} for i in range(64)} | {"bram the quiet": BRAM["live"]}
    party, warnings = read_peer_party(GRAVE, [bram_card()], game)
    assert (Live(), 1) == (party[0].live, len(warnings))


def test_each_warning_is_logged() -> None:
    """SPEC §9 / SHEET-BUILD-02: every warning is one structlog event naming whose it is."""
    with capture_logs() as logs:
        read = bram(sheet=damaged_sheet(lambda s: s.pop("v")), live={"mood": 1})
    expected = [("peer_state_tolerated", "Bram the Quiet", w.split(": ", 1)[1])
                for w in read.warnings]
    assert expected == [(e["event"], e["who"], e["warning"]) for e in logs]
    assert 2 == len(logs)


def test_a_name_with_nothing_to_match_raises() -> None:
    """SHEET-TRN-01: a character needs a name ``who=`` can match; the caller's mistake raises."""
    with pytest.raises(ValueError, match="letter or digit"):
        read_peer_character(GRAVE, "  !! ")


def test_the_transcript_path_stays_strict() -> None:
    """SHEET-TRN-05 / SPEC §10: the damage the tolerant path reads refuses a transcript party."""
    entry = copy.deepcopy(BRAM)
    entry["sheet"]["build"]["skills"]["ward"] = "rating_9"
    entry["live"]["mood"] = 1
    with pytest.raises(TranscriptError, match="2 problem"):
        read_party(GRAVE, [entry])


def test_exported_from_the_package() -> None:
    """The tolerant readers are part of the public API."""
    assert (read_peer_character, read_peer_party) == (middleware.read_peer_character,
                                                      middleware.read_peer_party)


async def test_a_tolerantly_read_party_plays() -> None:
    """SPEC §7 / SHEET-STORE-05: a damaged peer export still starts a game; Bram's Ward check
    (5 dice: SHEET-TRN-10 without the bell, which a peer card does not carry) spends from the
    Resolve read, and the undeclared pool rides along."""
    live = copy.deepcopy(BRAM["live"]) | {"mood": 1}
    live["pools"]["luck"] = {"value": "x"}
    live["pools"]["hidden"] = {"value": 2}
    party, _ = read_peer_party(GRAVE, [bram_card()], {"bram the quiet": live})
    engine = middleware.Engine(await middleware.open_store("memory://"))
    await engine.create_game("peer", GRAVE, party, seed=7)
    await engine.user("peer", 1, "I ward the gate.")
    done = await engine.process("peer", 1, '[skill_check: skill="Ward" dc="2" spend="resolve:1"]',
                                dice=[7, 7, 1, 1, 1])
    after = (await engine.state("peer")).party[0].live.pools
    record = done.records[0].model_dump()
    expected = ("resolved", [7, 7, 1, 1, 1],
                {"resolve": PoolValue(value=3), "hidden": PoolValue(value=2)})
    assert expected == (record["status"], record["rolls"], after)
