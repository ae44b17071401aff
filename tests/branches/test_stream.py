"""Branch blocks while a reply streams (issue 15): a block is held until it closes, only the kept
section is sent, and what was sent is exactly the stored candidate; over the real ``serve`` app
with the ``openai`` client and the fake upstream too."""

from __future__ import annotations

from collections.abc import Iterable

import openai

from middleware.display import for_people
from middleware.engine import Engine
from middleware.proxy import GameConfig, ServeOptions
from middleware.proxy.stream import ReplyStream, priced_at_end
from middleware.resolve.branch import BranchRecord
from middleware.rules.registry import load_bundled
from middleware.sheet.party import read_party
from middleware.stores.memory import MemoryStore
from tests.branches.helpers import demo_game
from tests.proxy.conftest import (
    TIMEOUT,
    FakeModel,
    chat_for,
    history,
    running_proxy,
    streamed_text,
)
from tests.proxy.fake_upstream import Answer, FakeUpstream, served

CLIMB = '[skill_check: skill="Climb" difficulty="Risky"]'
SECTIONS = {"Clean success": "She is up in a breath.",
            "Success at a cost": "She makes it; her satchel tears.",
            "failure": "Her grip slips. [sheet: op=\"damage\" track=\"harm\" kind=\"cut\" amount=\"1\"]"}
REPLY = (f"Wren eyes the wall. {CLIMB}\n"
         + "".join(f"[on {label}] {text}\n" for label, text in SECTIONS.items())
         + "[/branch]\nThe wind howls.")


def _party() -> GameConfig:
    rules = load_bundled("lantern-and-ledger")
    party = tuple(read_party(rules, demo_game("lantern-demo")["party"]))
    return GameConfig(rules, party, seed=11, dice="turn", branches=True)


async def _engine() -> Engine:
    games = _party()
    engine = Engine(MemoryStore())
    await engine.create_game("chat", games.ruleset, games.party, seed=11, branches=True)
    await engine.user("chat", 1, "I climb.")
    return engine


async def _kept(engine: Engine, seed: int, reply: str = REPLY) -> str | None:
    done = (await engine.previewer("chat", 1, seed))(reply)
    return next(r.kept for r in done.records if isinstance(r, BranchRecord))


async def _seeds(engine: Engine) -> dict[str | None, int]:
    """A dice seed for each section the climb can keep (the first found, counting up)."""
    found: dict[str | None, int] = {}
    for seed in range(400):
        found.setdefault(await _kept(engine, seed), seed)
        if len(found) == len(SECTIONS):
            break
    assert set(SECTIONS) == set(found)
    return found


async def _streamed(engine: Engine, seed: int, pieces: Iterable[str]) -> tuple[list[str], str]:
    preview = await engine.previewer("chat", 1, seed)
    stream = ReplyStream(preview, priced_at_end(await engine.ruleset("chat")), branches=True)
    sent = [stream.feed(piece) for piece in pieces]
    done = await engine.process("chat", 1, stream.reply, seed=seed)
    sent.append(stream.tail(done))
    return sent, done.text


def _cut(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


async def test_each_section_streams_alone_and_adds_up_to_the_stored_candidate() -> None:
    """For each tier's seed and every chunk size from 1 to 30: the text sent is the stored
    candidate, which holds the kept section and neither of the others."""
    engine = await _engine()
    for label, seed in (await _seeds(engine)).items():
        for size in range(1, 31):
            sent, stored = await _streamed(engine, seed, _cut(REPLY, size))
            assert stored == "".join(sent)
            kept = SECTIONS[label or ""].split(" [")[0]
            assert [kept] == [t.split(" [")[0] for t in SECTIONS.values() if t.split(" [")[0]
                              in stored]


async def test_the_block_is_held_until_it_closes_and_the_prose_before_it_is_not() -> None:
    """The prose and the resolved check before the block go out as they come; nothing of the
    block is sent until its ``[/branch]``; then the kept section goes out with it."""
    engine = await _engine()
    seed = (await _seeds(engine))["failure"]
    head, rest = REPLY.split("[on Clean", 1)
    body, tail = ("[on Clean" + rest).split("[/branch]")
    sent, stored = await _streamed(engine, seed, [head, *_cut(body, 4), "[/branch]", tail])
    assert sent[0].startswith("Wren eyes the wall. [skill_check: ") and sent[0].endswith('"]\n')
    assert all("" == s for s in sent[1:-3])
    assert sent[-3].startswith("Her grip slips. [sheet: ") and sent[-3].endswith('"]')
    assert stored == "".join(sent)


async def test_a_block_left_open_waits_for_the_end_of_the_reply() -> None:
    """No ``[/branch]``: the last section runs to the end, so the block is sent with the tail."""
    engine = await _engine()
    reply = f"Up she goes. {CLIMB} [on success] Made it. [on failure] Fell."
    seed = 0
    sent, stored = await _streamed(engine, seed, _cut(reply, 3))
    assert stored == "".join(sent)
    assert "Up she goes. [skill_check:" in "".join(sent[:-1])
    assert sent[-1] in ("Made it.", "Fell.")


def _client(url: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="sk-client", max_retries=0,
                              timeout=TIMEOUT)


async def test_over_the_proxy_the_client_streams_exactly_the_stored_candidate() -> None:
    """``serve --branches`` with fair dice, the ``openai`` client streaming: chat after chat
    (each its own dice) until every section has been kept once; each time the streamed text is
    the stored candidate and holds only the kept section; one upstream request per turn."""
    upstream = FakeUpstream(always=Answer(REPLY))
    kept: set[str | None] = set()
    async with served(upstream, games=_party()) as proxy, _client(proxy.url) as sdk:
        for n in range(60):
            messages = history(f"I climb the wall, try {n}.")
            stream = await sdk.chat.completions.create(
                model="fake-7b", messages=messages, stream=True)  # type: ignore[arg-type]
            text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
            [stored] = await proxy.engine.candidates(chat_for(messages, "Bearer sk-client"), 1)
            assert stored.text == text
            record = next(r for r in stored.records if isinstance(r, BranchRecord))
            assert [record.kept] == [k for k in SECTIONS if SECTIONS[k].split(" [")[0] in text]
            kept.add(record.kept)
            if len(kept) == len(SECTIONS):
                break
        assert n + 1 == len(upstream.seen)
    assert set(SECTIONS) == kept


async def test_over_the_proxy_cards_stream_as_the_stored_candidate_is_shown() -> None:
    """``--display cards``: the streamed text is the stored candidate as people are shown it."""
    upstream = FakeUpstream(always=Answer(REPLY))
    options = ServeOptions(timeout=TIMEOUT, display="cards")
    async with served(upstream, options, games=_party()) as proxy, _client(proxy.url) as sdk:
        messages = history("I climb the wall.")
        stream = await sdk.chat.completions.create(
            model="fake-7b", messages=messages, stream=True)  # type: ignore[arg-type]
        text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
        [stored] = await proxy.engine.candidates(chat_for(messages, "Bearer sk-client"), 1)
    assert for_people(stored.text, stored.records) == text
    assert text.startswith("Wren eyes the wall. 🎲 ")


async def test_a_streamed_continue_holds_its_block_and_adds_up_to_the_stored_candidate() -> None:
    """A Continue whose addition holds a check and its block: the streamed addition is the stored
    candidate's added part, with one section of the three in it."""
    model = FakeModel(["Wren eyes the wall.", " " + REPLY])
    async with running_proxy(_party(), model) as proxy:
        first = (await proxy.ask(history("I climb."))).json()
        opening = first["choices"][0]["message"]["content"]
        chunks = await proxy.stream([*history("I climb."),
                                     {"role": "assistant", "content": opening}])
        added = "".join(streamed_text(chunks))
        done = chunks[-1]["gm"]
        joined = await proxy.engine.store.get_candidate(done["chat"], 1, done["candidate"])
    assert opening + added == joined.text
    assert 1 == sum(text.split(" [")[0] in added for text in SECTIONS.values())
    assert "[/branch]" not in added and "[on " not in added
