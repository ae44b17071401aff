"""Done when: a real ``gm-middleware serve`` (uvicorn on 127.0.0.1, its own process) in front of a
fake model over HTTP, through a whole game on the bundled ``brass-fair`` and the peer's
Gravewatch: the model's logged requests carry the rules block, byte-identical every turn, and a
state block that follows the game (what was bought shows in the bag next turn, with last turn's
feedback lines), and never a ``promptVisible: false`` stat."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx

from tests.conftest import compat_path
from tests.gm_view.helpers import BRASS_PARTY, WARDEN
from tests.proxy.conftest import FakeModel, free_socket, serving

SYSTEM = "You are the Game Master. Narrate briefly."


@contextmanager
def serve(ruleset: str, party: list[dict[str, Any]], upstream: str,
          tmp: Path) -> Iterator[str]:
    """``gm-middleware serve`` in a process of its own; yields its base URL; stopped after."""
    (tmp / "party.json").write_text(json.dumps(party), encoding="utf-8")
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    command = [str(Path(sys.executable).with_name("gm-middleware")), "serve", "--ruleset",
               ruleset, "--party", str(tmp / "party.json"), "--upstream", upstream,
               "--store", f"sqlite:///{tmp / 'games.db'}", "--port", str(port),
               "--log-level", "warning"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


async def ready(client: httpx.AsyncClient) -> None:
    """Wait until the server answers (its peek route: 404 for a chat with no game); a loaded
    machine may take a while to start a Python process."""
    for _ in range(1200):
        try:
            if (await client.get("/v1/gm/chats/nobody/prompt")).status_code == 404:
                return
        except httpx.TransportError:
            pass
        await anyio.sleep(0.05)
    raise AssertionError("gm-middleware serve did not start")


@asynccontextmanager
async def game(ruleset: str, party: list[dict[str, Any]], model: FakeModel,
               tmp: Path) -> AsyncIterator[httpx.AsyncClient]:
    async with serving(model.app()) as model_url:
        with serve(ruleset, party, model_url, tmp) as url:
            async with httpx.AsyncClient(base_url=url, timeout=20.0) as client:
                await ready(client)
                yield client


async def play(client: httpx.AsyncClient, model: FakeModel, turns: list[tuple[str, str]],
               chat: str) -> list[str]:
    """Play ``turns`` (player text, model reply) as a chat UI does, each request the whole
    history with the kept replies; returns the rewritten replies."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM}]
    kept: list[str] = []
    for player, reply in turns:
        messages.append({"role": "user", "content": player})
        model.replies.append(reply)
        answer = await client.post("/v1/chat/completions", headers={"X-GM-Chat": chat},
                                   json={"model": "gm", "messages": messages})
        assert 200 == answer.status_code, answer.text
        kept.append(answer.json()["choices"][0]["message"]["content"])
        messages.append({"role": "assistant", "content": kept[-1]})
    return kept


def blocks(seen: dict[str, Any]) -> tuple[str, str]:
    """(rules block, state block) of one logged upstream request."""
    messages = seen["messages"]
    rules = messages[0]["content"].removeprefix(SYSTEM + "\n\n")
    state = messages[-2]
    assert ("system", "user") == (state["role"], messages[-1]["role"])
    return rules, state["content"]


BRASS_TURNS = [
    ("We reach the fair.", '[place: name="Brassford" size="fair town"] The stalls are loud.'),
    ("I buy a knife.", 'The smith nods. [inventory: action="buy" item="Belt knife"]'),
    ("I haggle for a cake.", 'She tries. [skill_check: skill="Haggle" difficulty="Risky"] '
                             '[skill_check: skill="Juggling"]'),
    ("We search the ditch.", "Something glints. [loot: road_finds]"),
    ("We rest.", "The night passes."),
]


async def test_a_whole_brass_fair_game_through_serve(tmp_path: Path) -> None:
    """ITM-ENTRY-18, ITM-MONEY-05, ITM-DAY-13, CHK-COMMON-08: the bought knife is in Ada's bag
    line on the next turn, with the purchase's feedback; the rules never change."""
    model = FakeModel()
    async with game("brass-fair", BRASS_PARTY, model, tmp_path) as client:
        kept = await play(client, model, BRASS_TURNS, "fair-game")
        peeked = (await client.get("/v1/gm/chats/fair-game/prompt")).json()
    seen = [blocks(body) for body in model.seen]
    assert 1 == len({rules for rules, _ in seen})
    rules = seen[0][0]
    assert "DIFFICULTY LADDER\nEasy: 5\nRisky: 7\nHard: 9" in rules and "MARKET" in rules
    assert "- 1 × Belt knife [Arm" not in seen[1][1]
    assert "- 1 × Belt knife [Arm, Common; Weight 1]; costs 4 brass rings" in seen[2][1]
    assert "Ada buys 1 Belt knife from the smith" in seen[2][1]
    assert "Purse worth 260 coppers" in seen[2][1]
    assert 'No check is named "Juggling"' in seen[3][1]
    assert "Road finds" in seen[4][1] and "Road finds" not in seen[3][1]
    assert len({state for _, state in seen}) == len(seen)
    assert 'result="ok"' in kept[1]
    assert rules == peeked["rules"] and 6 == peeked["turn"]


GRAVE_TURNS = [
    ("I dig at the barrow.", 'She digs. [skill_check: skill="Dig" difficulty="Awkward" '
                             'spend="resolve:1"]'),
    ("We go to Elder Cross.", '[place: name="Elder Cross" size="village"] A market day.'),
    ("I buy a tonic.", 'The herbwife sells one. [inventory: action="buy" item="Warming tonic"]'),
    ("I drink it.", 'Warmth returns. [inventory: action="use" item="Warming tonic"]'),
    ("We walk on.", "The road is quiet."),
]


async def test_a_whole_gravewatch_game_through_serve(tmp_path: Path) -> None:
    """The peer's ruleset: pools spent and restored in the state block turn by turn, the
    tonic in the bag after it is bought and gone after it is drunk; ITM-BLOCK-06: Gravewatch's
    "Hidden in" stat never reaches the model, though the silver nail that has it is in the bag."""
    model = FakeModel()
    async with game(str(compat_path("gravewatch.json")), WARDEN, model, tmp_path) as client:
        await play(client, model, GRAVE_TURNS, "grave-game")
    seen = [blocks(body) for body in model.seen]
    assert 1 == len({rules for rules, _ in seen})
    assert "Resolve 1 of 4" in seen[0][1] and "Resolve 0 of 4" in seen[1][1]
    assert "Warming tonic [Tonic" in seen[3][1] and "Warming tonic [Tonic" not in seen[2][1]
    assert "Warming tonic [Tonic" not in seen[4][1]
    assert "- 1 × Silver coffin nail [Arm" in seen[0][1]
    for body in model.seen:
        assert "Hidden in" not in json.dumps(body) and "pocket" not in json.dumps(body)
