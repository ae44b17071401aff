"""Every requirement of checks.md is cited by a test under ``tests/`` or named out of scope here.

The ids are read from the digest at test time (``SHARED/spec/checks.md``), so a requirement
added to the page and forgotten by the tests fails this module. A test cites an id in a docstring
(module, class or function) or a comment: one by one (``CHK-POOL-07``), as a range
(``CHK-POOL-04..09``) or as a list (``CHK-SYM-01..05/08/10``: 01 to 05, 08 and 10). Coverage
modules (``test_*_coverage.py``) cite nothing: they name ids only to test this parser.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import SHARED

DIGEST = SHARED / "spec" / "checks.md"
TESTS = Path(__file__).resolve().parents[1]

OUT_OF_SCOPE: dict[str, str] = {}
"""Requirements of checks.md that no tag reaches, each with its reason.

Empty: every requirement is reached by ``[skill_check:]`` or by importing the ruleset. The parts
of a requirement beyond the tags are tested where they touch us: symbol-pool combat (CHK-SYM-18)
only through its import refusal (CHK-IMPORT-29); the composer's custom-dice field and the GM's
``roll_dice`` tool (CHK-SYM-19) through ``roll_symbols``, the reading they would call; the card
(CHK-OUT-13, CHK-REC-19) through the record attributes it is drawn from.
"""

_DECLARED = re.compile(r"^\s*\d+\. \*\*(CHK-[A-Z]+-\d+)\*\*", re.MULTILINE)
_CITED = re.compile(r"CHK-([A-Z]+)-(\d+)((?:(?:\.\.|/)\d+)*)")
_STEP = re.compile(r"(\.\.|/)(\d+)")


def declared_ids(text: str) -> list[str]:
    """The ids the digest lists as requirements (``N. **CHK-X-NN**``), in its order."""
    return _DECLARED.findall(text)


def cited_ids(text: str) -> set[str]:
    """The ids ``text`` cites, ranges (``..``) and lists (``/``) expanded."""
    cited: set[str] = set()
    for family, first, tail in _CITED.findall(text):
        previous = int(first)
        numbers = {previous}
        for step, number in _STEP.findall(tail):
            last = int(number)
            numbers |= set(range(previous, last + 1)) if step == ".." else {last}
            previous = last
        cited |= {f"CHK-{family}-{n:02d}" for n in numbers}
    return cited


def citing_text(source: str) -> Iterator[str]:
    """Every docstring (module, class, function) and every comment of one module."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            yield ast.get_docstring(node) or ""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.string


def cited_under(root: Path) -> set[str]:
    """The ids cited by the test modules under ``root``, coverage modules left out."""
    cited: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        if path.name.endswith("_coverage.py"):
            continue
        for text in citing_text(path.read_text(encoding="utf-8")):
            cited |= cited_ids(text)
    return cited


DECLARED = declared_ids(DIGEST.read_text(encoding="utf-8"))


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
        cited_ids("CHK-SYM-01..03/08: pools; CHK-OUT-04/05 tiers, and CHK-REC-20.")


def test_comments_and_docstrings_cite_but_strings_do_not() -> None:
    """Only docstrings and comments count: an id inside an ordinary string literal is not a
    citation."""
    source = ('"""CHK-SUM-01."""\n'
              'def test_x() -> None:\n'
              '    """CHK-SUM-02."""\n'
              '    x = "CHK-SUM-03"  # CHK-SUM-04\n')
    cited = set().union(*(cited_ids(text) for text in citing_text(source)))
    assert {"CHK-SUM-01", "CHK-SUM-02", "CHK-SUM-04"} == cited


def test_every_requirement_is_cited_or_out_of_scope() -> None:
    """CHK-*: each id of checks.md is cited by a test under tests/ or named in OUT_OF_SCOPE."""
    cited = cited_under(TESTS)
    assert [] == [one for one in DECLARED if one not in cited and one not in OUT_OF_SCOPE]


def test_tests_cite_only_ids_the_digest_has() -> None:
    """A cited id the digest does not list (a typo, or a renumbered page) is caught."""
    assert [] == sorted(cited_under(TESTS) - set(DECLARED))


def test_out_of_scope_names_real_uncited_ids_with_reasons() -> None:
    """Each OUT_OF_SCOPE entry is a digest id, has a reason, and is not also cited (a tested
    requirement is in scope)."""
    cited = cited_under(TESTS)
    assert [] == [one for one, reason in OUT_OF_SCOPE.items()
                  if one not in DECLARED or not reason.strip() or one in cited]
