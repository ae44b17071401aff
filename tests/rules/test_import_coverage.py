"""Every CHK-IMPORT refusal of checks.md §13 is cited by a test under ``tests/rules``.

The ids are read from the digest itself at test time, so a refusal added to the page and
forgotten here fails this test. A test cites an id in its docstring, one by one
(``CHK-IMPORT-14``) or as a range (``CHK-IMPORT-04..09``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import SHARED

DIGEST = SHARED / "spec" / "checks.md"
TESTS = Path(__file__).resolve().parent

_DECLARED = re.compile(r"^\d+\. \*\*(CHK-IMPORT-\d+)\*\*", re.MULTILINE)
_CITED = re.compile(r"CHK-IMPORT-(\d+)(?:\.\.(\d+))?")


def declared_ids(text: str) -> list[str]:
    """The CHK-IMPORT ids the digest lists as requirements, in its order."""
    return _DECLARED.findall(text)


def cited_ids(docstring: str) -> set[str]:
    """The ids a docstring cites, ranges expanded."""
    cited: set[str] = set()
    for first, last in _CITED.findall(docstring):
        for number in range(int(first), int(last or first) + 1):
            cited.add(f"CHK-IMPORT-{number:02d}")
    return cited


def docstrings_of_tests(path: Path) -> list[str]:
    """The docstrings of the test functions in one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [ast.get_docstring(node) or "" for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test_")]


def test_the_digest_lists_the_47_import_refusals() -> None:
    """checks.md §13: CHK-IMPORT-01..47 are found, each once, in order (the parser reads them)."""
    assert [f"CHK-IMPORT-{n:02d}" for n in range(1, 48)] == \
        declared_ids(DIGEST.read_text(encoding="utf-8"))


def test_a_range_cites_every_id_in_it() -> None:
    """A docstring citing ``CHK-IMPORT-04..06, CHK-IMPORT-12`` cites 04, 05, 06 and 12."""
    assert {"CHK-IMPORT-04", "CHK-IMPORT-05", "CHK-IMPORT-06", "CHK-IMPORT-12"} == \
        cited_ids("CHK-IMPORT-04..06, CHK-IMPORT-12: pool rules")


def test_every_import_refusal_is_cited_by_a_rules_test() -> None:
    """CHK-IMPORT-01..47: each refusal of the digest is cited by at least one test docstring
    under tests/rules (other than this module), so none is forgotten."""
    cited: set[str] = set()
    for path in sorted(TESTS.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue  # this module's own docstrings name ids only to test the parser
        for docstring in docstrings_of_tests(path):
            cited |= cited_ids(docstring)
    declared = declared_ids(DIGEST.read_text(encoding="utf-8"))
    assert [] == [one for one in declared if one not in cited]
