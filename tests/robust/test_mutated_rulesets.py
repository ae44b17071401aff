"""A bad ruleset is refused with every problem and its JSON path; a ruleset that loads plays
without a resolver bug (SPEC §8), whatever is broken in it.

Every real ruleset (the bundled ones, and the peer's examples when ``tests/peer.py`` finds them)
is changed at random by ``ruleset_mutations``: a key or list entry deleted, a value of another
type, an empty or awkward string (quotes, brackets, a line break, a lone surrogate), a list entry
duplicated (two rows with one id), an id renamed (what named it dangles), two siblings swapped, a
number at a range's edge. Then, through the public API:

1. ``load_ruleset`` loads it or raises ``RulesetError``, never anything else;
2. a refusal lists at least one problem, each at a JSON path that is a place in the changed file
   (or a key missing from an object that is there), and one of them is where the change struck,
   above or below it, or at something that names what the change took away;
3. a ruleset that loads plays (``ruleset_play.play``): a game on the memory store, the
   transcripts' replies and a reply per tag family, a rest and a kit, the GM's view, the peek and
   the odds, with no exception and no ``error`` record (a caught resolver crash).

``gm-middleware validate`` is run on a few changed files too. Examples are drawn per ruleset,
derandomized so CI is stable; ``GM_HUNT_EXAMPLES`` (default 16) sets how many changes of one
place are drawn per ruleset (half as many of several at once, an eighth piled up), for a longer
hunt.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from middleware.cli import app
from middleware.errors import Problem, RulesetError
from middleware.rules.load import load_ruleset
from middleware.rules.registry import bundled_ids
from middleware.rules.ruleset import Ruleset
from tests.robust.ruleset_mutations import (
    Doc,
    Mutation,
    Where,
    apply,
    json_path,
    mentions,
    mutation,
    names_a_place,
    node_at,
    parse_path,
    places,
)
from tests.robust.ruleset_play import play
from tests.rulesets import FILES, raw_json

NAMES = (*bundled_ids(), *FILES)
EXAMPLES = int(os.environ.get("GM_HUNT_EXAMPLES", "16"))
"""Examples of one change per ruleset; half as many of several at once, an eighth piled up."""
HUNT = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]
"""Several changes are not shrunk (it took minutes): the failure names every change made."""
PILED, TRIES = 4, 8
"""A piled-up example keeps at most this many changes, out of at most this many tried."""
runner = CliRunner()


@cache
def _original(name: str) -> str:
    return json.dumps(raw_json(name))  # skipped here when a peer file is absent


def original(name: str) -> Doc:
    """A fresh parsed copy of the ruleset ``name``."""
    return json.loads(_original(name))


@cache
def donors() -> tuple[tuple[Where, Doc], ...]:
    """The places of the bundled rulesets, which a graft puts into the others (always there, so
    the examples drawn do not depend on the peer's files)."""
    return tuple(found for name in bundled_ids() for found in places(original(name)))


@cache
def mutations(name: str) -> st.SearchStrategy[Mutation]:
    return mutation(original(name), donors())


def loaded(doc: Doc) -> Ruleset | list[Problem]:
    """The ruleset, or the problems that refused it; any other exception is the bug hunted."""
    try:
        return load_ruleset(doc)
    except RulesetError as exc:
        return list(exc.problems)


def unplaced(doc: Doc, problems: list[Problem]) -> list[str]:
    """The problems whose path is not a place in ``doc`` (nor a key missing from one)."""
    return [str(p) for p in problems
            if (where := parse_path(p.path)) is None or not names_a_place(doc, where)]


def blames(doc: Doc, change: Mutation, problem: Problem) -> bool:
    """Whether ``problem`` is where ``change`` struck: at it, above or below it, at a sibling or
    a cousin (a rule between two keys blames either; ``atLeast`` of the tier below), at
    something that names what the change took away (a key or a value naming it), or at a key
    whose problem says it reads the key changed ("the ruleset's explode has no min")."""
    where = parse_path(problem.path) or ()
    common = next((i for i, (a, b) in enumerate(zip(where, change.where, strict=False)) if a != b),
                  min(len(where), len(change.where)))
    if common >= len(change.where) - 2 or common == len(where):
        return True
    key = next((s for s in reversed(change.at) if isinstance(s, str)), "$")
    if re.search(rf"(?<![\w$]){re.escape(key)}(?!\w)", problem.message):
        return True
    steps = [s for s in where if isinstance(s, str)]
    deepest = next(i for i in range(len(where), -1, -1) if _present(doc, where[:i]))
    return mentions([steps, node_at(doc, where[:max(deepest - 1, 0)] if deepest > 1
                                     else where[:deepest])], change.names)


def _present(doc: Doc, where: tuple[str | int, ...]) -> bool:
    try:
        node_at(doc, where)
    except (KeyError, IndexError, TypeError):
        return False
    return True


def refused_well(doc: Doc, problems: list[Problem], changes: list[Mutation]) -> None:
    """Property 2: at least one problem, each at a place in the file; after one change, one of
    them blames it."""
    said = "; ".join(map(str, changes))
    assert problems, said
    assert [] == unplaced(doc, problems), said
    if len(changes) == 1:
        assert any(blames(doc, changes[0], p) for p in problems), (said, list(map(str, problems)))


def plays(rules: Ruleset, changes: list[Mutation], seed: int) -> None:
    """Property 3: a game on it raises nothing and records no resolver bug."""
    records = asyncio.run(play(rules, seed))
    assert [] == [f"{r.tag} {r.reason}: {r.feedback} <- {r.source}" for r in records
                  if r.status == "error"], "; ".join(map(str, changes))


def hold(doc: Doc, changes: list[Mutation], seed: int) -> None:
    """Properties 1 to 3 on the changed file ``doc``."""
    found = loaded(doc)
    if isinstance(found, Ruleset):
        plays(found, changes, seed)
    else:
        refused_well(doc, found, changes)


@pytest.mark.parametrize("name", NAMES)
def test_one_change_is_refused_where_it_is_or_plays(name: str) -> None:
    """One change of a real ruleset: refused with paths in the file, one of them where the change
    struck or at what names what it took away; or it loads and a game on it plays cleanly."""
    @HUNT
    @given(change=mutations(name), seed=st.integers(0, 2**32))
    def example(change: Mutation, seed: int) -> None:
        hold(apply(original(name), change), [change], seed)

    example()


@pytest.mark.parametrize("name", NAMES)
def test_several_changes_at_once_are_refused_or_play(name: str) -> None:
    """Two to four changes at once: refused with paths in the file, or a clean game."""
    @settings(HUNT, max_examples=max(EXAMPLES // 2, 1), phases=NO_SHRINK)
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def example(data: st.DataObject, seed: int) -> None:
        doc, changes = original(name), []
        for _ in range(data.draw(st.integers(2, 4))):
            change = data.draw(mutation(doc, donors()))
            doc = apply(doc, change)
            changes.append(change)
        hold(doc, changes, seed)

    example()


@pytest.mark.parametrize("name", NAMES)
def test_changes_that_still_load_pile_up_and_play(name: str) -> None:
    """Changes kept only while the file still loads (so the game is played far from the file as
    shipped): every change refused on the way is held to property 2 as one change of the file
    so far, and the file with every change kept plays cleanly."""
    @settings(HUNT, max_examples=max(EXAMPLES // 8, 1), phases=NO_SHRINK)
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def example(data: st.DataObject, seed: int) -> None:
        doc, kept = original(name), list[Mutation]()
        for _ in range(TRIES):
            change = data.draw(mutation(doc, donors()))
            changed = apply(doc, change)
            found = loaded(changed)
            if isinstance(found, Ruleset):
                doc, kept = changed, [*kept, change]
            else:
                refused_well(changed, found, [change])
            if len(kept) == PILED:
                break
        rules = loaded(doc)
        assert isinstance(rules, Ruleset)
        plays(rules, kept, seed)

    example()


@pytest.mark.parametrize("name", ["lantern-and-ledger", "gravewatch"])
def test_validate_prints_each_problem_of_a_changed_file(name: str, tmp_path: Path) -> None:
    """``gm-middleware validate`` on a changed file: exit 0 saying it is valid, or exit 1 with
    each problem's path on a line of its own, never a traceback."""
    @settings(HUNT, max_examples=min(EXAMPLES, 8))
    @given(change=mutations(name))
    def example(change: Mutation) -> None:
        doc = apply(original(name), change)
        file = tmp_path / "changed.json"
        file.write_text(json.dumps(doc), encoding="utf-8")
        result = runner.invoke(app, ["validate", str(file)])
        found = loaded(doc)
        assert result.exception is None or isinstance(result.exception, SystemExit), str(change)
        if isinstance(found, Ruleset):
            assert (0, True) == (result.exit_code, "valid" in result.stdout), str(change)
        else:
            assert 1 == result.exit_code, str(change)
            assert [p.path for p in found] == [line.split(": ", 1)[0]
                                               for line in result.stdout.splitlines()]

    example()


def test_json_path_round_trips() -> None:
    """The hunt reads the product's paths back: keys, indexes and quoted keys."""
    where = ("sheet", "skills", 3, "a key", "x'y", "id")
    assert where == parse_path(json_path(where))
