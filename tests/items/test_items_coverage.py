"""Every requirement of the items digest is tested or named out of scope (items.md, all ITM-*).

The ids are read from ``spec/items.md`` at test time, so a requirement added to the page and
forgotten here fails. An id counts as tested when a test's docstring (a ``test_*`` function or a
``Test*`` class) or a comment anywhere under ``tests/`` cites it: one by one (``ITM-BAG-05``), as a
range (``ITM-CHECK-08..10``), or as a list continuing the same area (``ITM-BAG-05/10``,
``ITM-IMPORT-02..05, -10..12``). Module docstrings do not count: a module that says it is "about
ITM-FAKE-01..32" has not tested each of them. Coverage modules' own ids are excluded. The parser
is ``tests/coverage.py``.
"""

from __future__ import annotations

from pathlib import Path

from tests.coverage import Digest, docstrings_of_tests_and_comments
from tests.peer import spec_path

ITEMS = Digest(spec_path("items.md"), "ITM", continued=True)
TESTS = Path(__file__).resolve().parents[1]

_COMBAT = "combat only: the middleware has no combat tag (SPEC §1)"
_VERSIONS = ("Capability API versions are opaque strings the middleware never gates on "
             "(items.md Ambiguity 20)")

OUT_OF_SCOPE: dict[str, str] = {
    "ITM-ENTRY-14": _COMBAT + "; the loader keeps ``attack`` and the GM line describes it "
                    "(ITM-ENTRY-20/21)",
    "ITM-ENTRY-15": "the toggle is an inventory-screen button and a combat option; no tag "
                    "switches it, the loader only keeps the key",
    "ITM-ENTRY-17": "the inventory screen's details pane and selector (chat UI)",
    "ITM-BAG-02": "the inventory screen's \"From the ruleset\" selector (chat UI)",
    "ITM-BAG-19": _COMBAT + ": a weapon's loaded count changes only by shooting and reloading",
    "ITM-BAG-20": "the toggle's state changes only by the inventory button or in combat; no tag "
                  "reaches it",
    "ITM-LOOT-01": _COMBAT + ": loot from a won fight",
    "ITM-LOOT-02": _COMBAT + ": where a won fight's loot comes from",
    "ITM-LOOT-09": _COMBAT + ": creature loot drawn when a ruleset-resolved fight is won",
    "ITM-LOOT-11": "fight loot's summary, the adventure journal and the notification (combat "
                   "and chat UI)",
    "ITM-MONEY-03": "the selector's \"Coins\" list and the player's split/transfer/merge on the "
                    "inventory screen (chat UI)",
    "ITM-MONEY-14": "the adventure journal and notifications (chat UI)",
    "ITM-FAKE-13": "Peek Prompt in single-player trust mode (chat UI)",
    "ITM-FAKE-18": "the inventory's Inspect button (chat UI); the tag it leads to is "
                   "ITM-FAKE-17",
    "ITM-FAKE-32": _VERSIONS,
    "ITM-IMPORT-15": _COMBAT + ": combat-side import checks (typed defences, modes, onHit, "
                     "plus, offHand, reach/range, hardness)",
    "ITM-IMPORT-16": _VERSIONS,
}


def cited_under_tests() -> set[str]:
    """Every id cited under ``tests/`` by a test's docstring or a comment."""
    return ITEMS.cited_under(TESTS, count=docstrings_of_tests_and_comments)


def test_the_digest_lists_270_requirements_in_14_sections() -> None:
    """items.md: 270 ids, each once, over BLOCK, ENTRY, BAG, PROPOSE, SHEET, CHECK, USE, LOOT,
    MONEY, GEAR, MARKET, DAY, FAKE and IMPORT (the parser reads them all)."""
    declared = ITEMS.declared()
    assert (270, 270) == (len(declared), len(set(declared)))
    assert ["BLOCK", "ENTRY", "BAG", "PROPOSE", "SHEET", "CHECK", "USE", "LOOT", "MONEY", "GEAR",
            "MARKET", "DAY", "FAKE", "IMPORT"] == list(dict.fromkeys(
                one.split("-")[1] for one in declared))


def test_ranges_and_lists_cite_every_id_in_them() -> None:
    """``ITM-IMPORT-02..04, -10..11`` and ``ITM-BAG-05/10`` cite each id they span or list; an id
    of another area in the same text starts afresh."""
    assert {"ITM-IMPORT-02", "ITM-IMPORT-03", "ITM-IMPORT-04", "ITM-IMPORT-10", "ITM-IMPORT-11",
            "ITM-BAG-05", "ITM-BAG-10", "ITM-USE-07"} == \
        ITEMS.cited("ITM-IMPORT-02..04, -10..11 / ITM-BAG-05/10; ITM-USE-07.")


def test_a_module_docstring_cites_nothing(tmp_path: Path) -> None:
    """Only a test's docstring or a comment cites an id; a module's summary line does not."""
    module = tmp_path / "test_x.py"
    module.write_text('"""ITM-BAG-01."""\n\n# ITM-BAG-02\n\ndef test_x() -> None:\n'
                      '    """ITM-BAG-03."""\n\n\ndef helper() -> None:\n    """ITM-BAG-04."""\n',
                      encoding="utf-8")
    assert {"ITM-BAG-02", "ITM-BAG-03"} == \
        ITEMS.cited_under(tmp_path, count=docstrings_of_tests_and_comments)


def test_out_of_scope_names_real_ids_with_a_reason() -> None:
    """Every id put out of scope is one of the digest's, with a reason written out."""
    declared = set(ITEMS.declared())
    assert [] == [one for one in OUT_OF_SCOPE if one not in declared]
    assert [] == [one for one, reason in OUT_OF_SCOPE.items() if len(reason) < 20]


def test_every_requirement_is_tested_or_out_of_scope() -> None:
    """items.md, every ITM-* id: cited by a test under tests/, or out of scope with its reason."""
    cited = cited_under_tests()
    declared = ITEMS.declared()
    assert [] == [one for one in declared if one not in cited and one not in OUT_OF_SCOPE]
