"""Issue 2 performance: one 4 KB reply with 5 tags through the whole pipeline on the in-memory
store, against a bare "regex find + Lark LALR parse of each tag body" baseline in the same run.
Goal: pipeline ≤ 3× the baseline."""

from __future__ import annotations

import asyncio
import itertools
import re
from typing import Any

import pytest
from lark import Lark

from middleware.engine import Engine
from middleware.rules.load import load_ruleset
from middleware.state import Character, Sheet
from middleware.stores.memory import MemoryStore
from tests.conftest import compat_path

TAGS = [
    '[skill_check: skill="Scrap" dc="8"]',
    '[skill_check: skill="Sneak" difficulty="Hard" who="Ada"]',
    "[skill_check: skill='Sway' dc=10 with=\"Wits\"]",
    '[SKILL_CHECK: skill = "Tinker"  dc = "6"]',
    '[skill_check: skill="Scrap" dc="12" who="Juno"]',
]
PROSE = ("The rain drums on the tin roof of the toll house while the warden counts coins by the "
         "light of a guttering candle. ")


def four_kb_reply() -> str:
    parts: list[str] = []
    for tag in TAGS:
        parts.append(PROSE * 6)
        parts.append(tag)
    text = "".join(parts)
    return text + PROSE * max(0, (4096 - len(text)) // len(PROSE))


BASELINE_GRAMMAR = r"""
start: attr*
attr: KEY "=" VALUE
KEY: /[A-Za-z_]+/
VALUE: /"[^"]*"/ | /'[^']*'/ | /[^\s\]"']+/
%ignore /\s+/
"""
FIND = re.compile(r"\[(skill_check|inventory|place|loot):([^\]]*)\]", re.IGNORECASE)


def baseline(parser: Lark, text: str) -> int:
    return sum(len(parser.parse(m.group(2)).children) for m in FIND.finditer(text))


@pytest.fixture(scope="module")
def loop() -> Any:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


@pytest.mark.benchmark(group="reply-4kb-5-tags")
def test_baseline_regex_and_lalr(benchmark: Any) -> None:
    parser = Lark(BASELINE_GRAMMAR, parser="lalr")
    text = four_kb_reply()
    assert 5 == sum(1 for _ in FIND.finditer(text))
    benchmark(baseline, parser, text)


@pytest.mark.benchmark(group="reply-4kb-5-tags")
def test_whole_pipeline_memory_store(benchmark: Any, loop: Any) -> None:
    engine = Engine(MemoryStore())
    ada = Character(name="Ada", player=True, sheet=Sheet.model_validate(
        {"v": 1, "build": {"abilities": {"brawn": 2}, "skills": {"scrap": "trained"}}}))
    loop.run_until_complete(engine.create_game(
        "bench", load_ruleset(compat_path("ember-roads.json")), [ada, Character(name="Juno")]))
    text = four_kb_reply()
    turns = itertools.count(1)

    def one_reply() -> None:
        loop.run_until_complete(engine.process("bench", next(turns), text))

    benchmark(one_reply)
