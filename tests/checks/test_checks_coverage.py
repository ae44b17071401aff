"""Every requirement of checks.md is cited by a test under ``tests/`` or named out of scope here.

The ids are read from the digest at test time (``checks.md`` in ``GM_SPEC_DIR``, see
``tests/peer.py``), so a requirement added to the page and forgotten by the tests fails this
module. A test cites an id in a docstring (module, class or function) or a comment: one by one
(``CHK-POOL-07``), as a range (``CHK-POOL-04..09``) or as a list (``CHK-SYM-01..05/08/10``: 01 to
05, 08 and 10). Coverage
modules (``test_*_coverage.py``) cite nothing: they name ids only to test this parser, which is
``tests/coverage.py``, shared with the sheet, items and import coverage modules.
"""

from __future__ import annotations

from pathlib import Path

from tests.coverage import Digest, every_docstring_and_comment
from tests.peer import spec_path

CHECKS = Digest(spec_path("checks.md"), "CHK")
TESTS = Path(__file__).resolve().parents[1]

OUT_OF_SCOPE: dict[str, str] = {}
"""Requirements of checks.md that no tag reaches, each with its reason.

Empty: every requirement is reached by ``[skill_check:]`` or by importing the ruleset. The parts
of a requirement beyond the tags are tested where they touch us: symbol-pool combat (CHK-SYM-18)
only through its import refusal (CHK-IMPORT-29); the composer's custom-dice field and the GM's
``roll_dice`` tool (CHK-SYM-19) through ``roll_symbols``, the reading they would call; the card
(CHK-OUT-13, CHK-REC-19) through the record attributes it is drawn from.
"""


def cited_under_tests() -> set[str]:
    """The ids cited anywhere under tests/: every docstring (module, class, function) and comment."""
    return CHECKS.cited_under(TESTS, count=every_docstring_and_comment)


DECLARED = CHECKS.declared()


def test_the_digest_lists_215_requirements_in_thirteen_families() -> None:
    """checks.md: 215 ids, each once, in the families COMMON 12, SUM 11, POOL 26, HIGH 15,
    AGAINST 10, SYM 21, SCOPE 3, OUT 13, OVR 8, SPEND 16, CHARM 13, REC 20, IMPORT 47."""
    families: dict[str, int] = {}
    for one in DECLARED:
        family = one.rsplit("-", 1)[0]
        families[family] = families.get(family, 0) + 1
    assert {"CHK-COMMON": 12, "CHK-SUM": 11, "CHK-POOL": 26, "CHK-HIGH": 15, "CHK-AGAINST": 10,
            "CHK-SYM": 21, "CHK-SCOPE": 3, "CHK-OUT": 13, "CHK-OVR": 8, "CHK-SPEND": 16,
            "CHK-CHARM": 13, "CHK-REC": 20, "CHK-IMPORT": 47} == families
    assert len(DECLARED) == len(set(DECLARED))


def test_ranges_and_lists_cite_every_id_in_them() -> None:
    """The parser: ``CHK-SYM-01..03/08`` cites 01, 02, 03 and 08; ``CHK-OUT-04/05`` cites 04
    and 05; a bare ``CHK-REC-20`` cites itself."""
    assert {"CHK-SYM-01", "CHK-SYM-02", "CHK-SYM-03", "CHK-SYM-08", "CHK-OUT-04",
            "CHK-OUT-05", "CHK-REC-20"} == \
        CHECKS.cited("CHK-SYM-01..03/08: pools; CHK-OUT-04/05 tiers, and CHK-REC-20.")


def test_comments_and_docstrings_cite_but_strings_do_not() -> None:
    """Only docstrings and comments count: an id inside an ordinary string literal is not a
    citation."""
    source = ('"""CHK-SUM-01."""\n'
              'def test_x() -> None:\n'
              '    """CHK-SUM-02."""\n'
              '    x = "CHK-SUM-03"  # CHK-SUM-04\n')
    cited = set().union(*map(CHECKS.cited, every_docstring_and_comment(source)))
    assert {"CHK-SUM-01", "CHK-SUM-02", "CHK-SUM-04"} == cited


def test_every_requirement_is_cited_or_out_of_scope() -> None:
    """CHK-*: each id of checks.md is cited by a test under tests/ or named in OUT_OF_SCOPE."""
    cited = cited_under_tests()
    assert [] == [one for one in DECLARED if one not in cited and one not in OUT_OF_SCOPE]


def test_tests_cite_only_ids_the_digest_has() -> None:
    """A cited id the digest does not list (a typo, or a renumbered page) is caught."""
    assert [] == sorted(cited_under_tests() - set(DECLARED))


def test_out_of_scope_names_real_uncited_ids_with_reasons() -> None:
    """Each OUT_OF_SCOPE entry is a digest id, has a reason, and is not also cited (a tested
    requirement is in scope)."""
    cited = cited_under_tests()
    assert [] == [one for one, reason in OUT_OF_SCOPE.items()
                  if one not in DECLARED or not reason.strip() or one in cited]
