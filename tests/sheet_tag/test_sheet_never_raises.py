"""``[sheet:]`` ops in any order, with any attributes the ops name (and nonsense), on characters
with live state (the sheet digest's worked examples) and on blank ones, on every bundled and
peer ruleset: nothing raises, no resolver bug, every value stays inside the sheet's bounds, and a
refused op leaves the state exactly as it was (SPEC §8); a resolved tag, written and read again,
gives the same attributes (STYLE habit 9)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from middleware.character.check import view_for
from middleware.dice import Dice
from middleware.parse import parse
from middleware.pipeline import resolve_reply
from middleware.records import clean_value
from middleware.resolve import Context
from middleware.rewrite import render_tag
from middleware.rules.registry import bundled_ids
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState
from tests.sheet.sheet_helpers import BRAM, JUNO
from tests.sheet_tag.helpers import WREN, bundled, party_state, peer
from tests.sheet_tag.test_dice_tag import rolls

OPS = ("damage", "heal", "restore", "temp", "track", "condition", "state", "note", "rest",
       "use", "cast", "spend", "nap", "")
KEYS = ("pool", "track", "kind", "amount", "box", "name", "value", "rest", "text", "level",
        "who", "action", "to", "remove")
VALUES = ("grit", "Resolve", "pluck", "harm", "Harm", "strain", "heat", "exhaustion", "knock",
          "tear", "cut", "strain", "1", "3", "-2", "-100000", "99999999", "1d6", "2d6+1", "0",
          "x", "", "Rattled", "shaken", "light", "Out", "stance", "reckless", "lamp", "vigil",
          "camp", "breather", "lamplight", "Steady Hand", "Second Breath", "Tam", "Bram the Quiet",
          "nobody", "clear", "mark", "remove", "true", "1e9", "NaN")
RULESETS = ("gravewatch", "ember-roads", "ruleset-5e-2014.example", *bundled_ids())
MEMBERS = {"gravewatch": BRAM, "ember-roads": JUNO, "lantern-and-ledger": WREN}


def rules_of(name: str) -> Ruleset:
    return peer(name) if name in ("gravewatch", "ember-roads", "ruleset-5e-2014.example") \
        else bundled(name)


tags = st.tuples(st.sampled_from(OPS), st.sampled_from(("", "remove", "mark", "clear")),
                 st.lists(st.tuples(st.sampled_from(KEYS), st.sampled_from(VALUES)), max_size=5)) \
    .map(lambda t: f'[sheet: {"op=" + repr(t[0]).replace(chr(39), chr(34)) if t[0] else ""} '
                   f'{t[1]} {" ".join(f"{k}={v!r}".replace(chr(39), chr(34)) for k, v in t[2])}]')


def clean(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(key, clean_value(value)) for key, value in pairs if clean_value(value)]


def in_bounds(rules: Ruleset, member: Character) -> bool:
    """Every stored value (not only as read, which clamps) inside the sheet's bounds."""
    live = view_for(rules, member).live
    pools = live.pools()
    for key, stored in member.live.pools.items():
        top = pools.get(key, (0, 0))[1]
        if key in pools and not 0 <= stored.value <= top:
            return False
    for track in rules.sheet.live.tracks:
        wound = live.wound(track.id)
        low, high = live.track_range(track)
        marks = member.live.wounds.get(track.id)
        if wound is not None and marks is not None and len(marks.marks) > wound.length:
            return False
        if wound is None and not low <= member.live.tracks.get(track.id, low) <= high:
            return False
    return True


@settings(max_examples=250, deadline=None)
@given(name=st.sampled_from(RULESETS),
       written=st.lists(st.one_of(tags, tags, rolls.map(lambda r: f"[dice: {r}]")),
                        min_size=1, max_size=4),
       seed=st.integers(0, 2**32))
def test_sheet_ops_never_raise_and_stay_in_bounds(name: str, written: list[str],
                                                  seed: int) -> None:
    """SPEC §8: resolved, refused or ignored, never an error; values held to the sheet's bounds."""
    rules = rules_of(name)
    member = MEMBERS.get(name, {"name": "Ada", "player": True})
    state: GameState = party_state(rules, member | {"player": True}, {"name": "Tam"})
    text = " then ".join(written) + ' [skill_check: skill="Ward" dc="2"]'
    done = resolve_reply(text, state, Context(rules, Dice(seed), seed=seed))
    assert [] == [r.feedback for r in done.records if r.status == "error"]
    assert all(in_bounds(rules, m) for m in done.state.party)
    for record in done.records:
        if record.tag in ("sheet", "dice") and record.tag_attrs():
            again = parse(render_tag(record.tag, record.tag_attrs()))
            assert isinstance(again[0], Tag)
            assert dict(clean(record.tag_attrs())) == again[0].attrs
    single = resolve_reply(written[0], state, Context(rules, Dice(seed), seed=seed))
    if single.records[0].status != "resolved":
        assert single.state is state
