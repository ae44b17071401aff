"""Transcript party entries, validated strictly (SHEET-TRN-01..05)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from middleware.errors import TranscriptError
from middleware.sheet.party import read_party
from tests.sheet.sheet_helpers import BRAM, JUNO, ruleset

GRAVE = ruleset("gravewatch")


def test_worked_examples_load() -> None:
    """SHEET-TRN-07/12: Bram and Juno load as written."""
    bram = read_party(GRAVE, [BRAM], line=1)
    juno = read_party(ruleset("ember"), [JUNO], line=1)
    build = juno[0].sheet.build if juno[0].sheet else None
    expected = ("Bram the Quiet", True, "Juno", 3)
    assert expected == (bram[0].name, bram[0].player, juno[0].name,
                        len(build.lists["gear"]) if build else 0)


def broken(change: Any) -> dict[str, Any]:
    entry = copy.deepcopy(BRAM)
    change(entry)
    return entry


@pytest.mark.parametrize(("change", "path"), [
    (lambda e: e["sheet"]["build"]["abilities"].update(sinew=9),
     "$.party[0].sheet.build.abilities.sinew"),
    (lambda e: e["sheet"]["build"]["skills"].update(ward="rating_9"),
     "$.party[0].sheet.build.skills.ward"),
    (lambda e: e["sheet"]["build"]["bonuses"].update(ward=5),
     "$.party[0].sheet.build.bonuses.ward"),
    (lambda e: e["sheet"]["build"]["fields"].update(watch="noon"),
     "$.party[0].sheet.build.fields.watch"),
    (lambda e: e["sheet"]["build"].update(extra={}), "$.party[0].sheet.build.extra"),
    (lambda e: e["sheet"].pop("v"), "$.party[0].sheet.v"),
    (lambda e: e["sheet"]["build"]["lists"]["scars"][0].update(penalty=-7),
     "$.party[0].sheet.build.lists.scars[0].penalty"),
    (lambda e: e["sheet"]["build"]["lists"]["charms"][0].update(_catalog="charms/nope"),
     "$.party[0].sheet.build.lists.charms[0]._catalog"),
    (lambda e: e["live"]["pools"].update(resolve={"value": 7}),
     "$.party[0].live.pools.resolve.value"),
    (lambda e: e["live"]["pools"].update(luck={"value": 1}), "$.party[0].live.pools.luck"),
    (lambda e: e["live"]["wounds"]["harm"].update(marks=["knock", "tear"]),
     "$.party[0].live.wounds.harm.marks"),
    (lambda e: e["live"].update(conditions=["asleep"]), "$.party[0].live.conditions[0]"),
    (lambda e: e["live"]["states"].update(light="blazing"), "$.party[0].live.states.light"),
    (lambda e: e["bag"].append({"coins": "crownz", "count": 1}), "$.party[0].bag[5].coins"),
    (lambda e: e["bag"][2].update(bound=True), "$.party[0].bag[2].bound"),
    (lambda e: e["bag"][0].update(charges=9), "$.party[0].bag[0].charges"),
    (lambda e: e.update(age=40), "$.party[0].age"),
])
def test_refusals_name_their_path(change: Any, path: str) -> None:
    """SHEET-TRN-05: one broken value is refused with its line and JSON path."""
    with pytest.raises(TranscriptError) as caught:
        read_party(GRAVE, [broken(change)], line=3)
    assert (3, path) == (caught.value.line, caught.value.path)


def test_every_problem_is_listed() -> None:
    """SHEET-TRN-05: all problems in one error, and a duplicate name is one of them."""
    bad = broken(lambda e: e["sheet"]["build"]["abilities"].update(sinew=0, nerve=7))
    twin = {"name": "bram  the QUIET"}
    with pytest.raises(TranscriptError) as caught:
        read_party(GRAVE, [bad, twin], line=1)
    text = str(caught.value)
    expected = ["abilities.sinew", "abilities.nerve", "$.party[1].name"]
    assert expected == [p for p in expected if p in text]


@pytest.mark.parametrize(("change", "path"), [
    (lambda e: e["live"].update(conditions=[[]]), "$.party[0].live.conditions[0]"),
    (lambda e: e["live"].update(conditions=[{"id": "asleep"}]), "$.party[0].live.conditions[0]"),
    (lambda e: e["live"].update(conditions="asleep"), "$.party[0].live.conditions"),
    (lambda e: e["live"].update(pools=[]), "$.party[0].live.pools"),
    (lambda e: e["live"].update(pools=[1]), "$.party[0].live.pools"),
    (lambda e: e["live"].update(tracks=[1]), "$.party[0].live.tracks"),
    (lambda e: e["live"].update(wounds=[1]), "$.party[0].live.wounds"),
    (lambda e: e["live"].update(states=-3.5), "$.party[0].live.states"),
    (lambda e: e["live"].update(states=[]), "$.party[0].live.states"),
    (lambda e: e["live"].update(text=[1]), "$.party[0].live.text"),
    (lambda e: e["live"]["wounds"]["harm"].update(marks=[[]]),
     "$.party[0].live.wounds.harm.marks[0]"),
    (lambda e: e["live"]["wounds"]["harm"].update(marks=3), "$.party[0].live.wounds.harm.marks"),
    (lambda e: e["bag"].append({"coins": ["crown"], "count": 1}), "$.party[0].bag[5].coins"),
    (lambda e: e["live"]["wounds"]["harm"].update(when="dusk"),
     "$.party[0].live.wounds.harm.when"),
    (lambda e: e["live"]["wounds"]["harm"].update(overflow=-1),
     "$.party[0].live.wounds.harm.overflow"),
    (lambda e: e["sheet"]["build"]["abilities"].update(sinew=10**399),
     "$.party[0].sheet.build.abilities.sinew"),
    (lambda e: e["sheet"]["build"]["fields"].update(lantern=-(10**399)),
     "$.party[0].sheet.build.fields.lantern"),
])
def test_live_and_bag_of_the_wrong_shape_are_refused_with_their_path(change: Any,
                                                                      path: str) -> None:
    """SHEET-TRN-05: a list where an object goes, an object where a name goes, a key a wound
    track does not have, a number of 400 digits, are refused like any wrong value (they raised
    ``TypeError``, ``AttributeError``, ``OverflowError`` or pydantic's ``ValidationError``: a
    traceback from ``gm-middleware replay``, exit 1)."""
    with pytest.raises(TranscriptError) as caught:
        read_party(GRAVE, [broken(change)], line=3)
    assert (3, path) == (caught.value.line, caught.value.path)
