"""Starting gear through the faces: ``Engine.take_gear``, the transcript ``gear`` line and the
``gm-middleware gear`` command (ITM-GEAR-01..03, -09; SPEC §4, §7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from structlog.testing import capture_logs
from typer.testing import CliRunner

from middleware.cli import app
from middleware.engine import Engine
from middleware.errors import GameError, TranscriptError
from middleware.rules.registry import load_bundled
from middleware.state import Build, Character, GameState, Sheet
from middleware.stores.memory import MemoryStore
from middleware.transcript import prepare, replay

RULES = load_bundled("hearth-and-haul")
PARTY = [{"name": "Bram", "player": True,
          "sheet": {"v": 1, "build": {"abilities": {"brawn": 1, "nerve": 2}, "fields": {"warden": 1}}}},
         {"name": "Tilly", "sheet": {"v": 1, "build": {"abilities": {"brawn": 3},
                                                        "fields": {"carter": 2}}}}]
runner = CliRunner()


def bram() -> Character:
    return Character(name="Bram", player=True, sheet=Sheet(v=1, build=Build(
        abilities={"brawn": 1, "nerve": 2}, fields={"warden": 1})))


async def test_engine_takes_a_kit_between_turns_and_the_next_turn_starts_with_it() -> None:
    """ITM-GEAR-01/02: gear is taken on request only, as an event after the latest turn."""
    engine = Engine(MemoryStore())
    await engine.create_game("c", RULES, [bram()])
    await engine.user("c", 1, "We set out.")
    await engine.process("c", 1, "The road is long.")

    done = await engine.take_gear("c", None, "warden", picks=["Two tonics"])
    state = await engine.state("c")

    assert "taken" == done.status
    assert ["pack/ash-spear", "pack/ward-bell", "pack/tonic"] == [s.item for s in state.party[0].bag]


async def test_engine_stores_nothing_for_a_refused_kit_and_nothing_before_turn_one() -> None:
    """ITM-GEAR-09: a too-heavy kit changes nothing; before the first turn S(0) is the party as
    given, so the API says to take the kit on that party instead."""
    engine = Engine(MemoryStore())
    await engine.create_game("c", RULES, [bram()])
    with pytest.raises(GameError, match="take_kit"):
        await engine.take_gear("c", None, "warden")
    await engine.user("c", 1, "We set out.")

    done = await engine.take_gear("c", None, "smithy")

    assert ("refused", "too-heavy", ()) == (done.status, done.reason,
                                            (await engine.state("c")).party[0].bag)


async def test_a_transcript_gear_line_takes_the_kit_for_the_next_turn(tmp_path: Path) -> None:
    """SPEC §4: ``{"type": "gear", "who", "kit", "picks"}`` between turns; the next candidate's
    state summary shows the kit in the bag."""
    lines = [{"type": "game", "id": "g", "ruleset": "hearth-and-haul", "party": PARTY},
             {"type": "user", "text": "We set out."}, {"type": "gm", "text": "The road."},
             {"type": "gear", "who": "Tilly", "kit": "Traveller's bundle", "picks": ["Bitter tonic"]},
             {"type": "user", "text": "On we go."}, {"type": "gm", "text": "Rain."}]
    prepared = prepare([json.dumps(line) for line in lines])
    steps = [s async for s in replay(prepared, Engine(MemoryStore()))]

    assert steps[-1].summary is not None
    assert {"pennies": 20, "Walking stick": 1, "Bitter tonic": 1} == \
        steps[-1].summary["party"]["Tilly"]["bag"]


async def test_a_refused_gear_line_stops_the_replay_with_its_line_and_reason() -> None:
    """SPEC §4: an event that cannot apply is an error naming the line."""
    lines = [{"type": "game", "id": "g", "ruleset": "hearth-and-haul", "party": PARTY},
             {"type": "user", "text": "We set out."}, {"type": "gm", "text": "The road."},
             {"type": "gear", "who": "Bram", "kit": "smithy"}]
    prepared = prepare([json.dumps(line) for line in lines])

    with pytest.raises(TranscriptError, match=r"line 4.*too-heavy"):
        _ = [s async for s in replay(prepared, Engine(MemoryStore()))]


def test_cli_lists_the_kits_that_fit_each_character(tmp_path: Path) -> None:
    """ITM-GEAR-03, SPEC §7: ``gear RULESET --party`` lists every kit per character, fitting
    ones first; ``--json`` is one object."""
    party = tmp_path / "party.json"
    party.write_text(json.dumps(PARTY))
    result = runner.invoke(app, ["gear", "hearth-and-haul", "--party", str(party), "--json"])

    assert 0 == result.exit_code, result.output
    listed = json.loads(result.stdout)["party"]
    assert ("warden", "carter") == (listed["Bram"][0]["id"], listed["Tilly"][0]["id"])
    assert [True, None, None, None, False] == [o["fits"] for o in listed["Bram"]]


def test_cli_take_shows_the_bag_after_or_the_refusal(tmp_path: Path) -> None:
    """ITM-GEAR-02/09: ``--take`` prints the bag after; a too-heavy kit exits 1 with its weight
    against what the carrier can still lift."""
    party = tmp_path / "party.json"
    party.write_text(json.dumps(PARTY))
    taken = runner.invoke(app, ["gear", "hearth-and-haul", "--party", str(party), "--who", "Bram",
                                "--take", "warden", "--pick", "Two tonics"])
    refused = runner.invoke(app, ["gear", "hearth-and-haul", "--party", str(party),
                                  "--take", "smithy"])

    assert 0 == taken.exit_code, taken.output
    assert "Bram's bag:\n  1 Ash spear (equipped)\n  1 Ward bell\n  2 Bitter tonic\n" in taken.stdout
    assert 1 == refused.exit_code
    assert "Smith's load weighs 30 lb; Bram can still lift 11 lb." in refused.output


def test_cli_names_an_unknown_character(tmp_path: Path) -> None:
    """A ``--who`` nobody answers to exits 2 with a message, not a traceback."""
    party = tmp_path / "party.json"
    party.write_text(json.dumps(PARTY))
    result = runner.invoke(app, ["gear", "hearth-and-haul", "--party", str(party), "--who", "Zed"])

    assert (2, True) == (result.exit_code, "Zed" in result.output)


async def test_a_swipe_back_under_a_kit_taken_leaves_the_kit_out_of_that_path() -> None:
    """ITM-GEAR-02, SPEC §3: Bram takes Spare rope (two coils, 4 lb) after turn 1's second reply,
    which leaves him room; the first reply filled his bag with rope. Swiping back to it is
    allowed and the chat goes on: the kit does not fit there, so on that path it is left out
    (logged, ``event-left-out``), and turn 2 plays; swiping forward again brings it back
    (before: every read of the chat's state raised the stored gear event's refusal)."""
    engine = Engine(MemoryStore())
    await engine.create_game("c", RULES, [bram()])
    full = await engine.process("c", 1, "Rope everywhere. "
                                + '[inventory: action="add" item="Coil of rope"]' * 6)
    await engine.process("c", 1, "The road is long.")
    taken = await engine.state("c", 1)
    assert "taken" == (await engine.take_gear("c", None, "spare-rope")).status
    with capture_logs() as logged:
        await engine.select("c", 1, 0)
        swiped = await engine.state("c", 1)
    assert ropes(swiped) == ropes(full.state)
    assert "event-left-out" in [e["event"] for e in logged]
    await engine.select("c", 1, 1)
    assert ropes(await engine.state("c", 1)) == ropes(taken) + 2
    await engine.select("c", 1, 0)
    played = await engine.process("c", 2, "On they go.")
    assert ropes(played.state) == ropes(full.state)


def ropes(state: GameState) -> int:
    """How many coils of rope Bram carries."""
    return sum(s.count for s in state.party[0].bag if s.item == "pack/rope")
