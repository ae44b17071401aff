"""Requirement coverage: the ids a digest declares against the ids the tests cite.

A digest (``spec/checks.md``, ``sheet.md``, ``items.md``) declares each requirement as a numbered
bold id, ``12. **PREFIX-AREA-NN**``. A test cites ids in its docstrings or comments: one by one,
as a range (``..``) or as a list (``/NN``); a digest whose tests also continue a list with a comma
and a dash (``, -10..12``) says so with ``continued``. An id glued to a longer one (the ``SHEET``
inside ``ITM-SHEET-02``) is not a citation of the shorter prefix.

What counts as a citing text differs by module, so it is a parameter: every docstring and comment,
only tests' docstrings and comments, or only test functions' docstrings. Coverage modules
(``*_coverage.py``) and modules not named ``test_*.py`` never cite: they name ids only to test
this parser.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

Count = Callable[[str], Iterator[str]]
"""The rule for what counts as a citation: one module's source in, its citing texts out."""

_DOCUMENTED = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def _comments(source: str) -> Iterator[str]:
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.string


def every_docstring_and_comment(source: str) -> Iterator[str]:
    """Every docstring (module, class, function, helper too) and every comment of one module."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, _DOCUMENTED):
            yield ast.get_docstring(node) or ""
    yield from _comments(source)


def docstrings_of_tests_and_comments(source: str) -> Iterator[str]:
    """The docstrings of tests (``test*`` functions, ``Test*`` classes) and every comment; a
    module's summary or a helper's docstring has tested nothing."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) \
                and node.name.lower().startswith("test"):
            yield ast.get_docstring(node) or ""
    yield from _comments(source)


def docstrings_of_test_functions(source: str) -> Iterator[str]:
    """Only the docstrings of ``test_*`` functions: no comment, class or module counts."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
            yield ast.get_docstring(node) or ""


@dataclass(frozen=True)
class Digest:
    """One requirement digest: its ids are ``{prefix}-AREA-NN``."""

    path: Path
    prefix: str
    continued: bool = False
    """Whether ``, -NN`` continues a list of the same area (``ITM-IMPORT-02..05, -10..12``)."""

    def text(self) -> str:
        """The digest's markdown."""
        return self.path.read_text(encoding="utf-8")

    def declared(self) -> list[str]:
        """The ids the digest lists as requirements (``N. **PREFIX-AREA-NN**``), in its order."""
        pattern = rf"^[ \t]*\d+\. \*\*({re.escape(self.prefix)}-[A-Z]+-\d+)\*\*"
        return re.findall(pattern, self.text(), re.MULTILINE)

    def cited(self, text: str) -> set[str]:
        """The ids ``text`` cites, ranges expanded and lists followed within the same area."""
        joint = r"\.\.|/|,\s*-" if self.continued else r"\.\.|/"
        citation = rf"(?<![A-Z-])({re.escape(self.prefix)}-[A-Z]+)-(\d+)((?:(?:{joint})\d+)*)"
        cited: set[str] = set()
        for area, first, more in re.findall(citation, text):
            last = int(first)
            cited.add(f"{area}-{last:02d}")
            for step, number in re.findall(rf"({joint})(\d+)", more):
                upto = int(number)
                cited |= {f"{area}-{n:02d}" for n in (range(last, upto + 1) if step == ".." else (upto,))}
                last = upto
        return cited

    def cited_under(self, root: Path, *, count: Count) -> set[str]:
        """The ids cited by the ``test_*.py`` modules under ``root``, coverage modules left out,
        reading each module's citing texts by the rule ``count``."""
        cited: set[str] = set()
        for path in sorted(root.rglob("test_*.py")):
            if not path.name.endswith("_coverage.py"):
                for text in count(path.read_text(encoding="utf-8")):
                    cited |= self.cited(text)
        return cited
