"""``[sheet:]`` track, condition, state, note, rest, use/cast, spend and the refusals, on the
bundled Lantern and Ledger and the peer's Gravewatch and Ember Roads."""

from __future__ import annotations

from middleware.dice import Dice
from middleware.pipeline import resolve_reply
from middleware.resolve import Context
from middleware.rules.load import load_ruleset
from middleware.state import GameState
from tests.conftest import compat_json
from tests.sheet.sheet_helpers import BRAM, JUNO
from tests.sheet_tag.helpers import (
    attrs,
    bundled,
    ember_state,
    gravewatch_state,
    lantern_state,
    one,
    party_state,
    run,
)

# --- track (SHEET-LIVE-07/08, SHEET-WND-12) ---------------------------------------------------


def test_track_mark_and_clear_within_its_range() -> None:
    """SHEET-LIVE-07/08: Ember Heat 2 (0..5) marks 2 -> 4, clears 1 -> 1; marking 9 is held to 5
    and the Game Master is told."""
    rules, state = ember_state()
    record, juno = one(rules, state, '[sheet: op="track" track="heat" mark amount="2"]')
    assert (4, "4", "5") == (juno.live.tracks["heat"], attrs(record)["now"], attrs(record)["max"])
    _, juno = one(rules, state, '[sheet: op="track" track="Heat" action="clear" amount="1"]')
    assert 1 == juno.live.tracks["heat"]
    record, juno = one(rules, state, '[sheet: op="track" track="heat" mark amount="9"]')
    assert 5 == juno.live.tracks["heat"] and "held to 0..5" in (record.feedback or "")


def test_track_value_sets_and_the_default_is_dropped() -> None:
    """SHEET-STORE-02: value="0" puts Heat back at its default: the entry leaves the live state."""
    rules, state = ember_state()
    _, juno = one(rules, state, '[sheet: op="track" track="heat" value="0"]')
    assert "heat" not in juno.live.tracks


def test_plain_track_op_on_a_wound_track_is_refused() -> None:
    """SHEET-WND-12: op="track" on a wound track is ``wrong-track`` (a bare number cannot say what
    the marks are), on the peer's and on the bundled ruleset."""
    for state_of in (gravewatch_state, lantern_state):
        rules, state = state_of()
        record, member = one(rules, state, '[sheet: op="track" track="harm" amount="1"]')
        assert ("refused", "wrong-track") == (record.status, record.reason)
        assert state.party[0] == member


# --- condition (SHEET-LIVE-10, SHEET-COND-03) -------------------------------------------------


def test_condition_on_and_lifted() -> None:
    """SHEET-LIVE-10: Rattled goes on by label; a second time changes nothing; ``remove`` lifts it."""
    rules, state = gravewatch_state()
    record, bram = one(rules, state, '[sheet: op="condition" name="Rattled"]')
    assert ("marked", "rattled") == bram.live.conditions and "on" == attrs(record)["value"]
    again, twice = one(rules, state.with_character(0, bram),
                       '[sheet: op="condition" name="rattled"]')
    assert twice == bram and "already on" in (again.feedback or "")
    _, lifted = one(rules, state.with_character(0, bram),
                    '[sheet: op="condition" name="Rattled" remove]')
    assert ("marked",) == lifted.live.conditions


def test_not_a_condition_is_refused() -> None:
    """A name that is no condition is ``not-a-condition``, listing the game's conditions."""
    rules, state = lantern_state()
    record, _ = one(rules, state, '[sheet: op="condition" name="Haunted"]')
    assert "not-a-condition" == record.reason and "Rattled, Soaked" in (record.feedback or "")


def test_levelled_condition_takes_its_level() -> None:
    """SHEET-COND-03: the 5e example's exhaustion is a plain track its levels read; as a condition
    it takes level= (3), goes up one with no level, and down one on remove."""
    rules = load_ruleset(compat_json("ruleset-5e-2014.example.json"))
    state = party_state(rules, {"name": "Ada", "player": True})
    record, ada = one(rules, state, '[sheet: op="condition" name="Exhaustion" level="3"]')
    assert (3, "ok") == (ada.live.tracks["exhaustion"], attrs(record)["result"])
    _, ada = one(rules, state.with_character(0, ada), '[sheet: op="condition" name="exhaustion"]')
    assert 4 == ada.live.tracks["exhaustion"]
    _, ada = one(rules, state.with_character(0, ada),
                 '[sheet: op="condition" name="Exhaustion" remove]')
    assert 3 == ada.live.tracks["exhaustion"]


def test_lantern_condition_changes_the_next_check() -> None:
    """SHEET-COND-01 on the bundled ruleset: Rattled (-1 on Reckon) put on before a Reckon check
    in the same reply changes that check's effects."""
    rules, state = lantern_state()
    done = run(rules, state, '[sheet: op="condition" name="Rattled"] '
               '[skill_check: skill="Reckon" dc="7"]', 3, 3)
    assert "-1" == done.records[1].model_dump()["effects"]


# --- state and note (SHEET-LIVE-09/11/12) ----------------------------------------------------


def test_state_set_by_value_or_label() -> None:
    """SHEET-LIVE-11/12: Gravewatch Light to "Out" by its shown label; the default value drops the
    entry; a value the state does not offer is ``not-a-value``; an unknown state ``unknown-state``."""
    rules, state = gravewatch_state()
    record, bram = one(rules, state, '[sheet: op="state" name="Light" value="Out"]')
    assert ({"light": "out"}, "out") == (bram.live.states, attrs(record)["value"])
    _, bram = one(rules, state, '[sheet: op="state" name="light" value="lit"]')
    assert {} == bram.live.states
    assert "not-a-value" == one(rules, state, '[sheet: op="state" name="light" value="dim"]')[0].reason
    assert "unknown-state" == one(rules, state, '[sheet: op="state" name="mood" value="x"]')[0].reason


def test_state_on_the_bundled_ruleset_reaches_checks() -> None:
    """SHEET-LIVE-13: Lantern and Ledger's lamp back to lit removes the Eye adjust of a hooded lamp."""
    rules, state = lantern_state()
    done = run(rules, state, '[skill_check: skill="Slip Past" dc="7"] [sheet: op="state" name="lamp" '
               'value="lit"] [skill_check: skill="Slip Past" dc="7"]', 3, 3, 3, 3)
    first, _, second = (r.model_dump() for r in done.records)
    assert (first["adjust"], second["adjust"]) == (-1, None)


def test_note_cut_to_its_length_and_cleared() -> None:
    """SHEET-LIVE-09: the 5e concentration note is set, cut to its maxLength, and cleared by no
    text; a sheet without notes refuses ``unknown-note``."""
    rules = load_ruleset(compat_json("ruleset-5e-2014.example.json"))
    field = rules.sheet.live.text[0]
    state = party_state(rules, {"name": "Ada", "player": True})
    long = "x" * (field.max_length + 10)
    record, ada = one(rules, state, f'[sheet: op="note" name="{field.label}" text="{long}"]')
    assert field.max_length == len(ada.live.text[field.id]) and record.status == "resolved"
    _, ada = one(rules, state.with_character(0, ada), f'[sheet: op="note" name="{field.id}"]')
    assert {} == ada.live.text
    rules, state = gravewatch_state()
    assert "unknown-note" == one(rules, state, '[sheet: op="note" text="hm"]')[0].reason


# --- rest (SHEET-REST, ITM-USE-13) ------------------------------------------------------------


def test_rest_is_the_transcript_rest() -> None:
    """SHEET-REST-01..09, ITM-USE-13, SHEET-TRN-11: [sheet: op="rest" rest="vigil"] on Bram gives
    exactly what the transcript's rest line gives: Resolve 6, Harm clear, Light lit, Rattled gone,
    the Dawn bell's charges back."""
    from middleware.character.events import rest_event

    rules, state = gravewatch_state()
    record, bram = one(rules, state, '[sheet: op="rest" rest="vigil"]')
    by_line = rest_event(rules, state, "Bram the Quiet", "vigil")[0].party[0]
    assert by_line == bram
    assert ("vigil", "ok") == (attrs(record)["rest"], attrs(record)["result"])
    assert "Dawn bell 3/3 charges" in (record.feedback or "")


def test_rest_by_label_on_the_bundled_ruleset() -> None:
    """SHEET-REST-05: Lantern and Ledger's "Rest by the lamp" heals one Harm mark (the lightest),
    fills Pluck and lights the lamp."""
    rules, state = lantern_state()
    record, wren = one(rules, state, '[sheet: op="rest" rest="Rest by the lamp"]')
    assert (("cut",), {}, {}) == (wren.live.wounds["harm"].marks, wren.live.pools,
                                  wren.live.states)
    assert "lamplight" == attrs(record)["rest"]


def test_no_such_rest() -> None:
    """A rest the ruleset does not declare is ``no-such-rest``, naming the rests it has."""
    rules, state = ember_state()
    record, juno = one(rules, state, '[sheet: op="rest" rest="nap"]')
    assert "no-such-rest" == record.reason and "Make camp" in (record.feedback or "")
    assert state.party[0] == juno


# --- use / cast (CHK-CHARM-09/12) -------------------------------------------------------------


def test_use_pays_an_entry_as_a_charm_does() -> None:
    """CHK-CHARM-09/12: Bram's Steady Hand costs 1 Resolve: 4 -> 3, paid="resolve:1"; cast is the
    same op."""
    rules, state = gravewatch_state()
    record, bram = one(rules, state, '[sheet: op="use" name="Steady Hand"]')
    assert (3, "resolve:1") == (bram.live.pools["resolve"].value, attrs(record)["paid"])
    record, _ = one(rules, state, '[sheet: op="cast" name="steady hand"]')
    assert ("cast", "ok") == (attrs(record)["op"], attrs(record)["result"])


def test_use_cannot_afford_pays_nothing() -> None:
    """CHK-CHARM-12 (CHK-SPEND-13): with Resolve 0 the entry is ``cannot-afford``; Juno's Second
    Breath has no use left on its trick row: ``cannot-afford`` too."""
    rules, state = gravewatch_state(pools={"resolve": {"value": 0}})
    record, bram = one(rules, state, '[sheet: op="use" name="Steady Hand"]')
    assert "cannot-afford" == record.reason and state.party[0] == bram
    rules, state = ember_state()
    assert "cannot-afford" == one(rules, state, '[sheet: op="use" name="Second Breath"]')[0].reason


def test_use_a_trick_row_with_uses_left() -> None:
    """SHEET-LST-04 / CHK-CHARM-09: with a use left, Second Breath pays its row pool's use."""
    rules, state = ember_state(pools={"tricks:second breath": {"value": 1}})
    record, juno = one(rules, state, '[sheet: op="use" name="Second Breath"]')
    assert "tricks:second breath:1" == attrs(record)["paid"]
    assert 0 == juno.live.pools["tricks:second breath"].value


def test_use_of_an_entry_not_chosen_is_refused() -> None:
    """CHK-CHARM-13: an entry the character did not choose does nothing: ``unknown-entry``."""
    rules, state = gravewatch_state()
    assert "unknown-entry" == one(rules, state, '[sheet: op="use" name="Lantern Flare"]')[0].reason


# --- spend, op, who ---------------------------------------------------------------------------


def test_spend_points_to_the_check() -> None:
    """CHK-SPEND-12: a [sheet:] spend is refused ``spend-on-check`` and says to write spend= on
    the check; nothing is paid."""
    rules, state = gravewatch_state()
    record, bram = one(rules, state, '[sheet: op="spend" pool="resolve" amount="1"]')
    assert ("refused", "spend-on-check") == (record.status, record.reason)
    assert "spend=" in (record.feedback or "") and state.party[0] == bram


def test_unknown_op_and_missing_op() -> None:
    """Every refusal is a record with a code: an op the sheet does not know, or none at all."""
    rules, state = lantern_state()
    assert "unknown-op" == one(rules, state, '[sheet: op="fly"]')[0].reason
    assert "unknown-op" == one(rules, state, '[sheet: pool="pluck"]')[0].reason


def test_op_written_bare_and_who_by_name() -> None:
    """The op may be written as a bare word; who= names a party member without case or accents
    (SHEET-CHK-02); someone outside the party is ``unknown-character``."""
    rules = bundled("lantern-and-ledger")
    state = party_state(rules, {"name": "Wren Ashby", "player": True}, {"name": "Tobiah Crane"})
    done = run(rules, state, '[sheet: damage who="TOBIAH crane" pool="pluck" amount="1"] '
               '[sheet: op="heal" who="the bargeman"]')
    assert 2 == done.state.party[1].live.pools["pluck"].value
    assert "unknown-character" == done.records[1].reason


def test_empty_party_refuses() -> None:
    """An empty party has no one to change: ``unknown-character``, never an exception."""
    rules = bundled("lantern-and-ledger")
    done = resolve_reply('[sheet: op="damage" pool="pluck" amount="1"]',
                         GameState(ruleset=rules.id), Context(rules, Dice(1)))
    assert "unknown-character" == done.records[0].reason


def test_juno_example_from_the_peer_is_untouched_by_refusals() -> None:
    """A refused op leaves the state it was given: the same object comes back."""
    rules, state = ember_state()
    done = run(rules, state, '[sheet: op="state" name="stance" value="flying"]')
    assert done.state is state and JUNO["name"] == done.state.party[0].name


def test_use_of_a_cost_naming_a_pool_group_pays_the_first_that_can() -> None:
    """SHEET-LIVE-06: a cost naming a pool group pays from the first pool of the group, in
    declaration order, that can afford it (a parsed copy of Gravewatch whose Resolve and a new
    Grace pool form the group "will", and Steady Hand costs 1 will): with Resolve 0, Grace pays."""
    data = compat_json("gravewatch.json")
    data["sheet"]["live"]["pools"][0]["group"] = "will"
    data["sheet"]["live"]["pools"].append({"id": "grace", "label": "Grace",
                                           "max": {"const": 2}, "group": "will"})
    for catalog in data["catalogs"]:
        for entry in catalog["entries"]:
            if entry["id"] == "steady-hand":
                entry["mechanics"]["cost"] = [{"pool": "will", "amount": 1}]
    rules = load_ruleset(data)
    state = party_state(rules, BRAM | {"live": {"pools": {"resolve": {"value": 0}}}})
    record, bram = one(rules, state, '[sheet: op="use" name="Steady Hand"]')
    assert ("grace:1", 1) == (attrs(record)["paid"], bram.live.pools["grace"].value)
    state = party_state(rules, BRAM)
    record, bram = one(rules, state, '[sheet: op="use" name="Steady Hand"]')
    assert ("resolve:1", 3) == (attrs(record)["paid"], bram.live.pools["resolve"].value)
