"""Tool mode (``serve --tools``, issue 15 part 2): the model calls the Engine's functions, the
proxy runs each call through the same resolvers and turn-scoped state as the tag it stands for,
feeds the result back as a ``tool`` message and lets the model narrate; the client sees only the
narration with the resolved tags where the calls were. The ``openai`` client against a real
``serve`` app over HTTP, in front of a fake upstream that speaks the OpenAI tool-call protocol.

Dice: Hearth and Haul with fair dice (``dice="turn"``), so every candidate of a turn throws the same
faces; the exact texts below are those faces (2, 5 on the first check of this chat's turn 1).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

import openai
from structlog.testing import capture_logs

from middleware import state_summary
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.proxy import GameConfig, ServeOptions
from middleware.proxy.tools import MAX_CALLS, MAX_ROUNDS
from middleware.records import Record
from middleware.rules.registry import load_bundled
from middleware.sheet.party import read_party
from middleware.state import GameState
from middleware.text import MAX_CANDIDATE_CHARS
from tests.branches.helpers import demo_game
from tests.gm_view.helpers import BRASS_PARTY, brass, party
from tests.proxy.conftest import TIMEOUT, chat_for, hearth, history, whole_resolves
from tests.proxy.fake_upstream import (
    Answer,
    FakeUpstream,
    calling,
    narrating,
    served,
    tool_call,
    tool_results,
)

TOOLS = ServeOptions(timeout=TIMEOUT, tools=True)
PLAYER = "I pry the grate."
MESSAGES = history(PLAYER)
CHAT = chat_for(MESSAGES, "Bearer sk-client")
CHECK_CALL = tool_call("skill_check", '{"skill": "Haul", "dc": 8}')
CHECK = ('[skill_check: skill="Haul" dc="8" rolls="5|4" used="9" modifier="3" total="12" '
         'result="success" mode="normal" resolution="sum" dice="2d6" chance="0.8333"]')
BEFORE = "Ada sets her shoulder to the grate."
STORED = f"{BEFORE} {CHECK} The grate gives: success."
WEATHER = {"type": "function", "function": {
    "name": "weather", "description": "The weather at a place.",
    "parameters": {"type": "object", "properties": {"place": {"type": "string"}}}}}


def client(url: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="sk-client", max_retries=0,
                              timeout=TIMEOUT)


def check_then_narrate() -> list[Answer]:
    """The model calls a Haul check after a line of prose, then narrates the result it gets."""
    return [calling(CHECK_CALL, text=BEFORE), narrating("The grate gives: {result}.")]


def bag(state: GameState) -> dict[str, int]:
    """Ada's bag as the ``--json`` summary reads it (label: count)."""
    summary: dict[str, int] = state_summary(hearth().ruleset, state)["party"]["Ada"]["bag"]
    return summary


def names(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools") or ()]


async def test_a_check_called_as_a_tool_is_resolved_fed_back_and_narrated() -> None:
    """Not streaming: two upstream requests; the second carries the call and a ``tool`` message
    with the resolved check (the Engine's dice); the client gets one answer, the narration with
    the resolved tag where the call was, no tool call, ``finish_reason: stop``; that text is the
    stored candidate."""
    upstream = FakeUpstream(check_then_narrate())
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        answer = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
        stored = await proxy.engine.candidates(CHAT, 1)
    first, second = upstream.seen
    assert ["skill_check", "inventory", "place", "loot", "sheet", "dice"] == names(first)
    assert {"role": "assistant", "content": BEFORE, "tool_calls": [
        {"id": "call_0", "type": "function", "function": CHECK_CALL["function"]}]} \
        == second["messages"][-2]
    assert [{"role": "tool", "tool_call_id": "call_0",
             "content": {"resolved": CHECK, "status": "resolved", "feedback": "Haul: success."}}] \
        == tool_results(second)
    choice = answer.choices[0]
    assert (STORED, None, "stop") == (choice.message.content, choice.message.tool_calls,
                                      choice.finish_reason)
    assert [STORED] == [c.text for c in stored]
    assert 2 * 18 == (answer.usage and answer.usage.total_tokens)  # both requests counted


async def test_a_streamed_tool_turn_sends_exactly_the_stored_candidate() -> None:
    """Streaming: the prose, then the resolved check as soon as it ran, then the narration; no
    delta carries the Engine's tool call; the text adds up to the stored candidate; the usage
    chunk (``include_usage``) counts both requests."""
    upstream = FakeUpstream(check_then_narrate())
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        stream = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES,  # type: ignore[arg-type]
                                                   stream=True,
                                                   stream_options={"include_usage": True})
        chunks = [chunk async for chunk in stream]
        stored = await proxy.engine.candidates(CHAT, 1)
    assert 2 * 18 == (chunks[-1].usage and chunks[-1].usage.total_tokens)
    chunks = chunks[:-1]
    deltas = [c.choices[0].delta for c in chunks if c.choices]
    assert STORED == "".join(d.content or "" for d in deltas)
    assert f" {CHECK}" in [d.content for d in deltas]  # the resolved tag, whole, in one delta
    assert all(d.tool_calls is None for d in deltas)
    assert "stop" == chunks[-1].choices[0].finish_reason
    assert [STORED] == [c.text for c in stored]
    assert [True, True] == [body["stream"] for body in upstream.seen]


async def test_the_stored_candidate_and_state_are_the_tag_path() -> None:
    """A check, then two inventory calls in one round: the second sees what the first added (now
    3), and the stored text, records and state are exactly what the same reply written with tags
    stores with the same seed (the same dice)."""
    first = tool_call("inventory", '{"action": "add", "item": "Road rations", "count": 2}')
    again = tool_call("inventory", '{"action": "add", "item": "Road rations", "count": 1}', 1)
    upstream = FakeUpstream([calling(CHECK_CALL, text=BEFORE),
                             calling(first, again, text="Ada packs food."),
                             Answer("She is ready.")])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
        done = (await proxy.engine.candidates(CHAT, 1))[0]
        await proxy.engine.create_game("tags", hearth().ruleset, hearth().party, dice="turn")
        tags = await proxy.engine.process(
            "tags", 1, f'{BEFORE} [skill_check: skill="Haul" dc="8"] Ada packs food. '
                       '[inventory: action="add" item="Road rations" count="2"] '
                       '[inventory: action="add" item="Road rations" count="1"] She is ready.',
            seed=done.seed)
    results = [r["content"] for r in tool_results(upstream.seen[2])]
    assert ['now="2"', 'now="3"'] == [r["resolved"].split(" ")[-1].rstrip("]")
                                     for r in results[1:]]
    assert done.text.startswith(f'{BEFORE} {CHECK} Ada packs food. [inventory: action="add"')
    assert (tags.text, tags.records, tags.state) == (done.text, done.records, done.state)
    assert {"Road rations": 3} == bag(done.state)


async def test_the_models_own_numbers_are_never_believed() -> None:
    """A call that carries rolls, a total and a result of its own: those arguments are dropped
    (the function lists none of them) and the Engine throws."""
    cheat = tool_call("skill_check", '{"skill": "Haul", "dc": 8, "rolls": "6|6", "total": 15, '
                                     '"result": "critical_success"}')
    upstream = FakeUpstream([calling(cheat, text=BEFORE), narrating("The grate gives: {result}.")])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        answer = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
    assert STORED == answer.choices[0].message.content
    assert CHECK == tool_results(upstream.seen[1])[0]["content"]["resolved"]


async def test_arguments_that_are_not_json_are_refused_like_an_empty_tag() -> None:
    """A call whose arguments are no JSON object resolves as the tag with no attributes would:
    a record, a ``tool`` message saying so, the turn goes on and is stored (never a 500)."""
    broken = tool_call("skill_check", '{"skill": "Scr')
    upstream = FakeUpstream([calling(broken), Answer("Nothing happens.")])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        answer = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
    result = tool_results(upstream.seen[1])[0]["content"]
    records = (answer.model_extra or {})["gm_records"]
    assert ("skill_check", result["status"]) == (records[0]["tag"], records[0]["status"])
    assert result["status"] in ("refused", "ignored")
    assert answer.choices[0].message.content.endswith("Nothing happens.")  # type: ignore[union-attr]


async def test_a_loop_that_never_ends_is_cut_at_the_bound_with_a_record() -> None:
    """A model that calls a check on every request: the proxy asks at most ``MAX_ROUNDS``
    times, the last with ``tool_choice: "none"``; the checks of the earlier rounds are stored, the
    last round's call is not run, and a ``tools`` record says why."""
    upstream = FakeUpstream(always=calling(CHECK_CALL))
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        with capture_logs() as logged:
            answer = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
        stored = (await proxy.engine.candidates(CHAT, 1))[0]
    assert [["too-many-rounds"]] == [e["reasons"] for e in logged
                                     if e["event"] == "proxy-tool-loop-cut"]
    assert MAX_ROUNDS == len(upstream.seen)
    assert ["none"] == [b["tool_choice"] for b in upstream.seen if "tool_choice" in b]
    assert "none" == upstream.seen[-1]["tool_choice"]
    records = stored.records
    assert ["skill_check"] * (MAX_ROUNDS - 1) + ["tools"] == [r.tag for r in records]
    assert ("refused", "too-many-rounds") == (records[-1].status, records[-1].reason)
    assert "after 8 requests" in (records[-1].feedback or "")
    assert (stored.text, "stop") == (answer.choices[0].message.content,
                                     answer.choices[0].finish_reason)
    assert [r.model_dump(mode="json") for r in records] == (answer.model_extra or {})["gm_records"]


async def test_a_streamed_loop_is_cut_at_the_bound_too() -> None:
    """The same bound when streaming; the record comes with the finish reason."""
    upstream = FakeUpstream(always=calling(CHECK_CALL))
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        stream = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES,  # type: ignore[arg-type]
                                                   stream=True)
        chunks = [chunk async for chunk in stream]
        stored = (await proxy.engine.candidates(CHAT, 1))[0]
    last = chunks[-1]
    assert MAX_ROUNDS == len(upstream.seen)
    assert stored.text == "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert "too-many-rounds" == (last.model_extra or {})["gm_records"][-1]["reason"]


async def streamed_through(sdk: Any) -> None:
    """The tool turn of ``MESSAGES`` streamed through the proxy ``sdk`` talks to, read to its end."""
    stream = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES, stream=True)
    [chunk async for chunk in stream]


async def test_a_streamed_tool_turn_is_stored_from_the_streams_reading() -> None:
    """Streaming, every call's tag and the narration went through the stream, each tag resolved
    once as it closed: the store writes that reading (with the loop's cut record after it) and
    resolves nothing again; it is the tag path's candidate, byte for byte."""
    upstream = FakeUpstream(check_then_narrate())
    cut_short = FakeUpstream(always=calling(CHECK_CALL))
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        with whole_resolves() as resolved_again:
            await streamed_through(sdk)
        [stored] = await proxy.engine.candidates(CHAT, 1)
    async with served(cut_short, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        with whole_resolves() as cut_resolved_again:
            await streamed_through(sdk)
        [cut] = await proxy.engine.candidates(CHAT, 1)
        reply = (await proxy.engine.store.get_candidate(CHAT, 1, cut.candidate)).reply
        await proxy.engine.create_game("tags", hearth().ruleset, hearth().party, dice="turn")
        tags = await proxy.engine.process("tags", 1, reply, seed=cut.seed, notes=cut.records[-1:])
    assert ([], [], STORED) == (resolved_again, cut_resolved_again, stored.text)
    assert ["skill_check"] * (MAX_ROUNDS - 1) + ["tools"] == [r.tag for r in cut.records]
    assert (tags.text, tags.records, tags.state) == (cut.text, cut.records, cut.state)


@contextmanager
def resolved_whole() -> Iterator[list[str]]:
    """Every reply resolved whole while the block runs: by a call answered from the preview, by
    the store, by a Continue's store (the pipeline's and the engine's name for it)."""
    seen: list[str] = []

    def counted(reply: str, *args: Any, **kwargs: Any) -> ResolvedReply:
        seen.append(reply)
        return resolve_reply(reply, *args, **kwargs)

    with patch("middleware.pipeline.resolve_reply", counted), \
            patch("middleware.engine.resolve_reply", counted):
        yield seen


async def test_a_tool_turn_not_streamed_and_its_continue_resolve_no_reply_whole() -> None:
    """Not streaming too, the reply is read as it grows, each tag once: each call is answered
    from that reading and the store writes it, for a turn as for a Continue of it; nothing is
    resolved whole again (before, every call resolved the whole reply so far). The answers are
    the tag path's: 2 rations, then 3."""
    add = tool_call("inventory", '{"action": "add", "item": "Road rations", "count": 2}')
    more = tool_call("inventory", '{"action": "add", "item": "Road rations", "count": 1}')
    upstream = FakeUpstream([calling(CHECK_CALL, text=BEFORE), calling(add, text="Ada packs."),
                             Answer("Done."), calling(more, text=" And one more."),
                             Answer("Packed.")])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        with resolved_whole() as turn_resolved:
            first = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
        cont = [*MESSAGES, {"role": "assistant", "content": first.choices[0].message.content}]
        with resolved_whole() as continue_resolved:
            await sdk.chat.completions.create(model="fake-7b", messages=cont)  # type: ignore[arg-type]
    assert ([], []) == (turn_resolved, continue_resolved)
    assert first.choices[0].message.content.startswith(f"{BEFORE} {CHECK} Ada packs.")  # type: ignore[union-attr]
    assert ['now="2"', 'now="3"'] == [tool_results(upstream.seen[i])[-1]["content"]["resolved"]
                                      .split(" ")[-1].rstrip("]") for i in (2, 4)]


async def test_a_client_tool_passes_through_untouched() -> None:
    """The client declared a function: it is sent upstream beside the Engine's, and when the model
    calls it the client gets the call as the upstream sent it, ``finish_reason: tool_calls``."""
    call = tool_call("weather", '{"place": "Millbrook"}', id="call_w")
    upstream = FakeUpstream([calling(call, text="Let me look outside.")])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        answer = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES,  # type: ignore[arg-type]
                                                   tools=[WEATHER])  # type: ignore[list-item]
    choice = answer.choices[0]
    assert ["weather", "skill_check", "inventory", "place", "loot", "sheet", "dice"] \
        == names(upstream.seen[0])
    assert 1 == len(upstream.seen)
    assert [("call_w", call["function"])] == [(c.id, c.function.model_dump())
                                              for c in choice.message.tool_calls or []]
    assert ("Let me look outside.", "tool_calls") == (choice.message.content, choice.finish_reason)


async def test_a_streamed_client_tool_is_passed_on_and_the_engines_call_is_not() -> None:
    """Streaming, the model calls the Engine's check (index 0) and the client's function (index
    1) at once: the check is run and sent as its resolved tag, the client's call is passed on as
    it came, renumbered from 0, and the answer ends with ``tool_calls``."""
    weather = tool_call("weather", '{"place": "Millbrook"}', 1, id="call_w")
    upstream = FakeUpstream([calling(CHECK_CALL, weather, text=BEFORE)])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        stream = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES,  # type: ignore[arg-type]
                                                   tools=[WEATHER], stream=True)  # type: ignore[list-item]
        chunks = [chunk async for chunk in stream]
        stored = (await proxy.engine.candidates(CHAT, 1))[0]
    deltas = [c.choices[0].delta for c in chunks if c.choices]
    passed = [t for d in deltas for t in d.tool_calls or []]
    assert {0} == {t.index for t in passed}
    assert ["weather"] == [t.function.name for t in passed if t.function and t.function.name]
    assert '{"place": "Millbrook"}' == "".join(t.function.arguments or "" for t in passed
                                               if t.function)
    assert f"{BEFORE} {CHECK}" == stored.text == "".join(d.content or "" for d in deltas)
    assert "tool_calls" == chunks[-1].choices[0].finish_reason


async def test_a_retry_key_replays_the_stored_turn_without_asking_the_model() -> None:
    """The same request again with the same ``Idempotency-Key``: the stored candidate comes back,
    the upstream is not asked, no dice are thrown, nothing new is stored; streamed too."""
    upstream = FakeUpstream(check_then_narrate())
    key = {"Idempotency-Key": "turn-1-try"}
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        first = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES,  # type: ignore[arg-type]
                                                  extra_headers=key)
        again = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES,  # type: ignore[arg-type]
                                                  extra_headers=key)
        stream = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES,  # type: ignore[arg-type]
                                                   extra_headers=key, stream=True)
        streamed = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
        stored = await proxy.engine.candidates(CHAT, 1)
    assert 2 == len(upstream.seen)
    assert [STORED] * 3 == [first.choices[0].message.content, again.choices[0].message.content,
                            streamed]
    assert [True] == [(again.model_extra or {})["gm"]["replayed"]]
    assert 1 == len(stored)


async def test_a_regenerate_is_one_new_candidate_from_the_turns_start() -> None:
    """The same history again without a key: the whole loop runs again as candidate 1, resolved
    from S(0): an item the first loop added is not there twice."""
    add = tool_call("inventory", '{"action": "add", "item": "Road rations", "count": 2}')
    upstream = FakeUpstream([calling(add), Answer("Packed."), calling(add), Answer("Packed.")])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        for _ in range(2):
            await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
        stored = await proxy.engine.candidates(CHAT, 1)
    assert [0, 1] == [c.candidate for c in stored]
    assert [{"Road rations": 2}] * 2 == [bag(c.state) for c in stored]
    assert 'now="2"' in tool_results(upstream.seen[3])[0]["content"]["resolved"]


async def test_an_upstream_failing_mid_loop_stores_nothing() -> None:
    """The second request fails: the client gets the upstream's error (502), nothing is stored,
    the first round's check included (a turn is stored whole or not at all)."""
    upstream = FakeUpstream([calling(CHECK_CALL), Answer(status=500)])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        try:
            await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
        except openai.APIStatusError as exc:
            status = exc.status_code
        stored = await proxy.engine.candidates(CHAT, 1)
    assert (502, []) == (status, stored)


async def test_tag_mode_offers_no_functions() -> None:
    """Without ``--tools`` the request goes upstream with the client's tools only."""
    upstream = FakeUpstream([Answer("Fine.")])
    async with served(upstream, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
    assert "tools" not in upstream.seen[0]


def test_records_of_a_cut_loop_read_back() -> None:
    """The ``tools`` record is a plain record: it reads back from the store as it was written."""
    note = Record(tag="tools", status="refused", reason="too-many-rounds", feedback="x")
    assert note == Record.model_validate(json.loads(note.model_dump_json()))


async def test_a_stream_whose_upstream_fails_mid_loop_ends_with_an_error_and_stores_nothing() -> None:
    """Streaming, the second request fails: the stream ends with an error event after what was
    sent, and no candidate is stored."""
    upstream = FakeUpstream([calling(CHECK_CALL), Answer(status=500)])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, \
            proxy.client() as http:
        body = {"model": "fake-7b", "messages": MESSAGES, "stream": True}
        async with http.stream("POST", "/v1/chat/completions", json=body) as response:
            lines = [line async for line in response.aiter_lines() if line.startswith("data:")]
        stored = await proxy.engine.candidates(CHAT, 1)
    assert "error" in json.loads(lines[-1][len("data:"):])
    assert [] == stored


async def test_calls_past_the_turns_limit_are_answered_refused_and_not_run() -> None:
    """A round of more calls than ``MAX_CALLS``: the first ``MAX_CALLS`` are run, the rest are
    answered ``too-many-calls`` and leave no tag; one ``tools`` record says so."""
    rolls = [tool_call("dice", '{"roll": "1d6"}', i, id=f"d{i}") for i in range(MAX_CALLS + 2)]
    upstream = FakeUpstream([calling(*rolls), Answer("Done.")])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
        stored = (await proxy.engine.candidates(CHAT, 1))[0]
    results = [r["content"]["status"] for r in tool_results(upstream.seen[1])]
    assert ["resolved"] * MAX_CALLS + ["refused"] * 2 == results
    assert ["dice"] * MAX_CALLS + ["tools"] == [r.tag for r in stored.records]
    assert "too-many-calls" == stored.records[-1].reason


async def test_a_streamed_market_turn_holds_the_buy_and_sends_the_stored_candidate() -> None:
    """Brass Fair has a market, so a buy waits for the end of the reply when streaming (it is
    priced at the place in force at the end): the place and the buy called in turn, the buy's
    answer the stored record's price, and the streamed text exactly the stored candidate."""
    place = tool_call("place", '{"name": "Brassford", "size": "fair"}')
    buy = tool_call("inventory", '{"action": "buy", "item": "Honey cake", "count": 1}')
    upstream = FakeUpstream([calling(place, text="They reach the fair."),
                             calling(buy, text="Ada wants a cake."), Answer("It is sweet.")])
    games = GameConfig(brass(), party(brass(), BRASS_PARTY), seed=4, dice="turn")
    async with served(upstream, TOOLS, games=games) as proxy, client(proxy.url) as sdk:
        stream = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES,  # type: ignore[arg-type]
                                                   stream=True)
        text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
        stored = (await proxy.engine.candidates(CHAT, 1))[0]
    bought = tool_results(upstream.seen[2])[-1]["content"]
    assert stored.text == text
    assert bought["resolved"] in stored.text and 'price="2 coppers"' in bought["resolved"]
    assert ["place", "inventory"] == [r.tag for r in stored.records]


async def test_a_continue_in_tool_mode_runs_the_loop_on_the_kept_candidate() -> None:
    """The client sends the kept reply last and asks for more: the model may call the Engine
    again; the call resolves against the state after the existing part (2 rations, now 3), the
    answer carries only the addition, and the stored candidate is the joined text."""
    add = tool_call("inventory", '{"action": "add", "item": "Road rations", "count": 2}')
    more = tool_call("inventory", '{"action": "add", "item": "Road rations", "count": 1}')
    upstream = FakeUpstream([calling(add, text="Ada packs food."), Answer("Done."),
                             calling(more, text=" And one more."), Answer("Packed.")])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        first = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
        kept = first.choices[0].message.content or ""
        cont = [*MESSAGES, {"role": "assistant", "content": kept}]
        added = await sdk.chat.completions.create(model="fake-7b", messages=cont)  # type: ignore[arg-type]
        gm = (added.model_extra or {})["gm"]
        joined = (await proxy.engine.candidates(CHAT, 1))[gm["candidate"]]
    addition = added.choices[0].message.content or ""
    assert addition.startswith(' And one more. [inventory: action="add" item="Road rations"')
    assert 'now="3"' in tool_results(upstream.seen[3])[0]["content"]["resolved"]
    assert (kept + addition, {"Road rations": 3}) == (joined.text, bag(joined.state))


async def test_a_streamed_tool_turn_in_a_game_with_branch_blocks_sends_the_section_kept() -> None:
    """``serve --tools --branches``: the model calls a check, then narrates a block per outcome;
    the client is sent the section the check chose, exactly the stored candidate, and never the
    markers or the other section (the stream reads blocks as the store does)."""
    line = demo_game("branch-demo")
    rules = load_bundled(line["ruleset"])
    games = GameConfig(rules, tuple(read_party(rules, line["party"])), seed=7, branches=True)
    haggle = tool_call("skill_check", '{"skill": "Haggle", "dc": 8, "who": "Tobiah Crane"}')
    upstream = FakeUpstream([
        calling(haggle, text="Tobiah leans on the counter."),
        Answer("\n[on success] Through for a groat.\n[on failure] Three groats, and a look.")])
    async with served(upstream, TOOLS, games=games) as proxy, client(proxy.url) as sdk:
        stream = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES,  # type: ignore[arg-type]
                                                   stream=True)
        text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
        [stored] = await proxy.engine.candidates(CHAT, 1)
    assert stored.text == text
    assert "[on " not in text and ("groat." in text) != ("look." in text)


async def test_a_streamed_tool_continue_sends_only_what_the_candidate_has_room_for() -> None:
    """A Continue in tool mode of a candidate 40 characters short of the limit, streamed: the
    model writes more than that; the client is sent the addition as stored (cut at the limit,
    a ``reply-cut`` record), not the text past it."""
    long = "Ada walks on. " * ((MAX_CANDIDATE_CHARS - 40) // 14)
    upstream = FakeUpstream([Answer(long), Answer(" The road bends east. " * 10)])
    async with served(upstream, TOOLS, games=hearth("turn")) as proxy, client(proxy.url) as sdk:
        first = await sdk.chat.completions.create(model="fake-7b", messages=MESSAGES)  # type: ignore[arg-type]
        kept = first.choices[0].message.content or ""
        cont = [*MESSAGES, {"role": "assistant", "content": kept}]
        stream = await sdk.chat.completions.create(model="fake-7b", messages=cont,  # type: ignore[arg-type]
                                                   stream=True)
        chunks = [c async for c in stream]
        gm = (chunks[-1].model_extra or {})["gm"]
        joined = (await proxy.engine.candidates(CHAT, 1))[gm["candidate"]]
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert (MAX_CANDIDATE_CHARS, kept + text) == (len(joined.text), joined.text)
    assert "reply-cut" == joined.records[-1].reason
