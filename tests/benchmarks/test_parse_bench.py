"""Issue 2 performance, the parse front alone: ``parse(text)`` of the 4 KB reply with 5 tags, side
by side with the bare "regex find + Lark LALR parse of each tag body" baseline in the same run.

Goal: parse at most the baseline (≤ 1.0×), so that resolving and storing still fit the whole
pipeline's ≤ 3×; measured about 0.5× (plain bodies read by two regex calls, the others in one Lark
parse per reply with ``_BodyLexer``, the scanner's glance), from 0.9× with every body through Lark
and 1.3-1.45× before that. Run with
``.venv/bin/python -m pytest tests/benchmarks/test_parse_bench.py --benchmark-only -p no:cacheprovider``.
No time is asserted; each case checks it did the work it is timed for.
"""

from __future__ import annotations

from typing import Any

import pytest
from lark import Lark

from middleware.parse import parse
from middleware.segments import Tag
from tests.benchmarks.test_pipeline_bench import BASELINE_GRAMMAR, FIND, baseline, four_kb_reply


@pytest.mark.benchmark(group="parse-4kb-5-tags")
def test_baseline_regex_and_lalr(benchmark: Any) -> None:
    parser = Lark(BASELINE_GRAMMAR, parser="lalr")
    text = four_kb_reply()
    assert 5 == sum(1 for _ in FIND.finditer(text))
    assert 13 == benchmark(baseline, parser, text)


@pytest.mark.benchmark(group="parse-4kb-5-tags")
def test_parse_front(benchmark: Any) -> None:
    text = four_kb_reply()
    segments = benchmark(parse, text)
    tags = [s for s in segments if isinstance(s, Tag)]
    assert [{"skill": "Scrap", "dc": "8"}, {"skill": "Sneak", "difficulty": "Hard", "who": "Ada"},
            {"skill": "Sway", "dc": "10", "with": "Wits"}, {"skill": "Tinker", "dc": "6"},
            {"skill": "Scrap", "dc": "12", "who": "Juno"}] == [t.attrs for t in tags]


@pytest.mark.benchmark(group="parse-4kb-5-tags")
def test_parse_front_with_an_unreadable_tag(benchmark: Any) -> None:
    """The slow path: one body the grammar cannot read, so every body is read again on its own."""
    text = four_kb_reply().replace('dc = "6"', "dc = = 6")
    segments = benchmark(parse, text)
    assert [0, 0, 0, 1, 0] == [len(s.problems) for s in segments if isinstance(s, Tag)]
