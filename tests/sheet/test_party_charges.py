"""A transcript stack's charges against an item whose capacity is one of its own stats."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from middleware.errors import TranscriptError
from middleware.sheet.party import read_party
from tests.rulesets import item_of
from tests.sheet.sheet_helpers import BRAM, raw, ruleset


def _bell_reads_its_peals() -> Any:
    """Gravewatch with the Dawn Bell's capacity read from its own ``peals`` stat (3)."""
    data = raw("gravewatch")
    bell = item_of(data, "kit/dawn-bell")
    bell["stats"]["peals"] = 3
    bell["charges"]["max"] = {"stat": "peals"}
    return ruleset("gravewatch", data)


def test_charges_within_a_stat_capacity_load() -> None:
    """SHEET-TRN-05 / ITM-USE-08: Bram's bell with 2 of its 3 peals loads as written."""
    bram = read_party(_bell_reads_its_peals(), [BRAM], line=1)[0]
    assert [("kit/dawn-bell", 2)] == [(s.item, s.charges) for s in bram.bag
                                      if s.item == "kit/dawn-bell"]


@pytest.mark.parametrize("charges", [4, -1, 1.5])
def test_charges_past_a_stat_capacity_are_refused(charges: object) -> None:
    """SHEET-TRN-05 / ITM-USE-08: more than the stat gives, or not a whole number, is refused
    with the stack's path and the capacity the stat gives."""
    entry = copy.deepcopy(BRAM)
    entry["bag"][0]["charges"] = charges
    with pytest.raises(TranscriptError) as caught:
        read_party(_bell_reads_its_peals(), [entry], line=2)
    assert ((2, "$.party[0].bag[0].charges"), True) == (
        (caught.value.line, caught.value.path), "0..3" in str(caught.value))
