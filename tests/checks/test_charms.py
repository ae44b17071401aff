"""A charm on a pool check: ``use=`` names a chosen catalog entry whose ``mechanics.check``
changes the roll, paid with the entry's own cost (checks.md §11, CHK-CHARM-01..13, SHEET-LST-05,
SHEET-TRN-10)."""

from __future__ import annotations

import copy
from typing import Any

from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState
from tests.checks.pool_helpers import attrs_of, bram, gravewatch, gravewatch_data, resolve
from tests.rulesets import by_id
from tests.rulesets import entry as catalog_entry
from tests.sheet.sheet_helpers import BRAM


def resolve_left(state: GameState) -> int:
    stored = state.party[0].live.pools.get("resolve")
    return stored.value if stored is not None else 6


def with_mechanics(**mechanics: Any) -> Ruleset:
    """Gravewatch whose Steady Hand ``mechanics`` keys are replaced (None removes one)."""
    data = gravewatch_data()
    entry = catalog_entry(data, "charms/steady-hand")
    for key, value in mechanics.items():
        if value is None:
            entry["mechanics"].pop(key, None)
        else:
            entry["mechanics"][key] = value
    return load_ruleset(data)


def bram_with_charms(*rows: dict[str, Any], resolve_points: int = 4) -> Character:
    data = copy.deepcopy(BRAM)
    data["sheet"]["build"]["lists"]["charms"] = list(rows)
    data["live"]["pools"]["resolve"]["value"] = resolve_points
    return Character.model_validate(data)


STEADY = {"name": "Steady Hand", "_catalog": "charms/steady-hand"}
SIGHT = {"name": "Grave Sight", "_catalog": "charms/grave-sight"}


def test_steady_hand_rethrows_ones_and_adds_a_success() -> None:
    """SHEET-TRN-10, CHK-CHARM-02/04/09: ``use="Steady Hand" spend="resolve:1"`` on Dig (4 dice):
    1, 1, 7, 3 → the 1s thrown once more (8, 2) → 8, 2, 7, 3 → 2 successes + 1 → 3; 1 Resolve
    paid; the record shows ``spend``, ``auto``, ``use`` and ``rerolled``."""
    record, state = resolve(gravewatch(), (bram(),), [1, 1, 7, 3, 8, 2], skill="Dig", dc="1",
                            use="Steady Hand", spend="resolve:1")
    assert ([1, 1, 7, 3, 8, 2], 2, 3) == (record.rolls, record.used, record.total)
    assert {"spend": "resolve:1", "auto": "1", "use": "Steady Hand", "rerolled": "2"} == \
        attrs_of(record, "spend", "auto", "use", "rerolled")
    assert 3 == resolve_left(state)


def test_per_cost_step_scales_successes_but_not_the_reroll() -> None:
    """CHK-CHARM-10/12 derived, Ambiguity 19: ``spend="resolve:3"`` → 3 purchases → +3
    successes, the 1s thrown once, 3 Resolve paid."""
    record, state = resolve(gravewatch(), (bram(),), [1, 2, 2, 2, 5], skill="Dig", dc="1",
                            use="Steady Hand", spend="resolve:3")
    assert (3, 3, "resolve:3", 1) == (record.auto, record.total, record.spend,
                                      resolve_left(state))


def test_without_per_cost_step_it_is_bought_once() -> None:
    """CHK-CHARM-10/12 derived: without ``perCostStep`` → +1 success, one price paid."""
    record, state = resolve(with_mechanics(perCostStep=None), (bram(),), [1, 2, 2, 2, 5],
                            skill="Dig", dc="1", use="Steady Hand", spend="resolve:3")
    assert (1, "resolve:1", 3) == (record.auto, record.spend, resolve_left(state))


def test_use_alone_pays_one_price() -> None:
    """CHK-CHARM-09: ``use=`` without ``spend=`` buys the entry once at its own cost."""
    record, state = resolve(gravewatch(), (bram(),), [2, 2, 2, 2], skill="Dig", dc="1",
                            use="Steady Hand")
    assert (1, "resolve:1", 3) == (record.auto, record.spend, resolve_left(state))


def test_all_or_nothing_when_the_price_cannot_be_paid() -> None:
    """CHK-CHARM-12 derived: with only 2 Resolve, ``spend="resolve:3"`` buys and pays nothing:
    no success, no re-throw."""
    record, state = resolve(gravewatch(), (bram(resolve=2),), [1, 2, 2, 2], skill="Dig",
                            dc="1", use="Steady Hand", spend="resolve:3")
    assert (None, None, None, "insufficient", 2) == (
        record.auto, record.rerolled, record.use, record.reason, resolve_left(state))


def test_an_entry_not_chosen_does_nothing() -> None:
    """CHK-CHARM-13, SHEET-LST-05: Grave Sight is not on Bram's list → ``unknown-entry``; nothing
    is paid, and the spend does not fall back to the standing rule."""
    record, state = resolve(gravewatch(), (bram(),), [2, 2, 2, 2], skill="Dig", dc="1",
                            use="Grave Sight", spend="resolve:1")
    assert ("unknown-entry", None, None, 4) == (record.reason, record.auto, record.spend,
                                                resolve_left(state))


def test_two_entries_answering_one_name_are_ambiguous() -> None:
    """SHEET-LST-05: rows from two different entries both answering "Steady Hand" →
    ``ambiguous-entry``, nothing used."""
    rows = (STEADY, {"name": "Steady Hand", "_catalog": "charms/grave-sight"})
    record, state = resolve(gravewatch(), (bram_with_charms(*rows),), [2, 2, 2, 2],
                            skill="Dig", dc="1", use="steady hand")
    assert ("ambiguous-entry", None, 4) == (record.reason, record.use, resolve_left(state))


def test_a_row_answers_to_its_shown_name_and_its_entry_label() -> None:
    """SHEET-LST-05: a renamed copy answers to its own name and to the entry's label (any
    case); a row without a mark never answers."""
    renamed = bram_with_charms({"name": "Mother's Hand", "_catalog": "charms/steady-hand"})
    unmarked = bram_with_charms({"name": "Steady Hand"})
    by_name, _ = resolve(gravewatch(), (renamed,), [2] * 4, skill="Dig", dc="1",
                         use="mother's hand")
    by_label, _ = resolve(gravewatch(), (renamed,), [2] * 4, skill="Dig", dc="1",
                          use="STEADY HAND")
    none, _ = resolve(gravewatch(), (unmarked,), [2] * 4, skill="Dig", dc="1",
                      use="Steady Hand")
    assert ("Steady Hand", "Steady Hand", "unknown-entry") == (by_name.use, by_label.use,
                                                               none.reason)


def test_an_entry_explode_wins_over_the_tag() -> None:
    """CHK-CHARM-06, CHK-REC-04: Grave Sight (``explode`` 8) makes an 8 explode even when the
    tag asks for 9; the record shows ``explode="8"``."""
    record, _ = resolve(gravewatch(), (bram_with_charms(SIGHT),), [8, 2, 2, 2, 3], skill="Dig",
                        dc="1", use="Grave Sight", explode="9")
    assert (8, [8, 2, 2, 2, 3], "resolve:1") == (record.explode, record.rolls, record.spend)


def test_an_entry_threshold_and_dice() -> None:
    """CHK-CHARM-03/05: ``threshold`` 5 replaces the tag's 8 (clamped to the target range);
    ``dice`` 1 per purchase adds dice before the throw (2 purchases → 4 + 2 = 6 dice)."""
    ruleset = with_mechanics(check={"threshold": 5, "dice": 1})
    record, _ = resolve(ruleset, (bram(),), [5, 2, 2, 2, 2, 2], skill="Dig", dc="1",
                        use="Steady Hand", threshold="8", spend="resolve:2")
    assert (5, 6, 1, "resolve:2") == (record.threshold, record.pool, record.total, record.spend)


def test_careful_beats_the_entry_reroll() -> None:
    """CHK-POOL-15 derived: tag ``reroll="careful"`` (upTo 6) plus the entry's (upTo 1) →
    "careful" is rolled and named on the record."""
    record, _ = resolve(gravewatch(), (bram(),), [1, 6, 9, 9, 8, 8], skill="Dig", dc="1",
                        use="Steady Hand", reroll="careful")
    assert ("careful", 2, 5) == (record.reroll, record.rerolled, record.total)


def test_an_entry_that_changes_no_check_is_not_paid() -> None:
    """CHK-CHARM-01/07: Lantern Flare has no ``mechanics.check``: nothing used or paid."""
    flare = bram_with_charms({"name": "Lantern Flare", "_catalog": "charms/lantern-flare"})
    record, state = resolve(gravewatch(), (flare,), [2] * 4, skill="Dig", dc="1",
                            use="Lantern Flare", spend="resolve:1")
    assert (None, None, 4) == (record.use, record.spend, resolve_left(state))


def test_an_entry_counter_is_paid_too() -> None:
    """CHK-CHARM-09: the cost pool plus one use of each counter (row pool) the entry's rows
    make; with the counter spent a second use is refused ``insufficient``."""
    data = gravewatch_data()
    charms = by_id(data["sheet"]["lists"], "charms")
    charms["columns"].append({"id": "uses", "label": "Uses", "type": "number", "min": 0,
                              "max": 9})
    charms["pools"] = {"nameColumn": "name", "maxColumn": "uses"}
    ruleset = load_ruleset(data)
    counted = bram_with_charms({**STEADY, "uses": 1})
    first, state = resolve(ruleset, (counted,), [2] * 4, skill="Dig", dc="1",
                           use="Steady Hand")
    second, after = resolve(ruleset, state.party, [2] * 4, skill="Dig", dc="1",
                            use="Steady Hand")
    assert ("resolve:1,charms:steady hand:1", 3) == (first.spend, resolve_left(state))
    assert ("insufficient", 3) == (second.reason, resolve_left(after))
