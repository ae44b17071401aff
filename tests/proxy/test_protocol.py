"""The proxy speaks the OpenAI protocol exactly (SPEC §7 proxy): the official ``openai`` client
against a real ``serve`` app over HTTP, with a fake upstream that speaks the whole protocol."""

from __future__ import annotations

import json

import openai
import pytest

from middleware.proxy import ServeOptions
from middleware.proxy.upstream import endpoint
from tests.proxy.conftest import CHECK, TIMEOUT, chat_for, history
from tests.proxy.fake_upstream import SECRET, USAGE, Answer, FakeUpstream, served, tool_call

CLIENT_KEY = "sk-client"
AUTH = f"Bearer {CLIENT_KEY}"
"""What the SDK client sends: its games are stored under this credential's scope."""

REPLY = f"Ada heaves at the grate. {CHECK} It groans."
CALL = tool_call("roll_table", '{"table": "weather", "count": 2}')


def client(url: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=f"{url}/v1", api_key=CLIENT_KEY, max_retries=0,
                              timeout=TIMEOUT)


async def test_a_plain_answer_keeps_usage_finish_reason_tool_calls_and_reasoning() -> None:
    """Not streaming, the client gets the rewritten text and, as the upstream gave them, the
    usage, the ``finish_reason`` (here ``length``), the tool calls and the reasoning."""
    upstream = FakeUpstream([Answer(REPLY, reasoning="Think: a Haul check.", finish="length",
                                    tool_calls=[CALL])])
    async with served(upstream) as proxy, client(proxy.url) as sdk:
        answer = await sdk.chat.completions.create(
            model="fake-7b", messages=history("I pry the grate."))  # type: ignore[arg-type]
        stored = await proxy.engine.candidates(chat_for(history("I pry the grate."), AUTH), 1)
    choice = answer.choices[0]
    assert stored[0].text == choice.message.content
    assert 'rolls="' in (choice.message.content or "")
    assert ("length", USAGE["total_tokens"]) == (choice.finish_reason, answer.usage and
                                                  answer.usage.total_tokens)
    assert [CALL["function"]] == [c.function.model_dump() for c in choice.message.tool_calls or []]
    assert "Think: a Haul check." == (choice.message.model_extra or {})["reasoning_content"]


async def test_a_stream_passes_on_usage_finish_reason_tool_calls_and_reasoning_in_order() -> None:
    """Streaming with ``include_usage``: the text adds up to the stored candidate; reasoning and
    tool-call deltas arrive in order and untouched (the tool call's arguments hold a ``[``: a
    tool call is not a tag); the upstream's ``finish_reason``; the usage chunk last."""
    call = tool_call("note", '{"text": "[skill_check: skill=\\"Haul\\"]"}')
    upstream = FakeUpstream([Answer(REPLY, reasoning="First the grate, then the check.",
                                    tool_calls=[call], finish="tool_calls")])
    async with served(upstream) as proxy, client(proxy.url) as sdk:
        stream = await sdk.chat.completions.create(
            model="fake-7b", messages=history("I pry the grate."), stream=True,  # type: ignore[arg-type]
            stream_options={"include_usage": True})
        chunks = [chunk async for chunk in stream]
        stored = await proxy.engine.candidates(chat_for(history("I pry the grate."), AUTH), 1)
    deltas = [c.choices[0].delta for c in chunks if c.choices]
    text = "".join(d.content or "" for d in deltas)
    reasoning = "".join((d.model_extra or {}).get("reasoning_content") or "" for d in deltas)
    arguments = "".join(t.function.arguments or "" for d in deltas for t in d.tool_calls or []
                        if t.function)
    assert stored[0].text == text
    assert ("First the grate, then the check.", call["function"]["arguments"]) == (reasoning,
                                                                                  arguments)
    assert "tool_calls" == next(c.choices[0].finish_reason for c in chunks
                                if c.choices and c.choices[0].finish_reason)
    assert ([], USAGE["total_tokens"]) == (chunks[-1].choices, chunks[-1].usage and
                                           chunks[-1].usage.total_tokens)


async def test_the_model_list_is_listed_by_the_client() -> None:
    """``client.models.list()`` gives the upstream's models."""
    async with served(FakeUpstream()) as proxy, client(proxy.url) as sdk:
        models = await sdk.models.list()
    assert ["fake-7b"] == [m.id for m in models.data]


async def test_an_upstream_429_is_a_rate_limit_error_with_retry_after_and_no_upstream_text() -> None:
    """The upstream's 429 stays a 429 with its ``Retry-After``: the SDK raises
    ``RateLimitError``; the upstream's message (which echoed its key) is not passed on."""
    upstream = FakeUpstream([Answer(status=429, headers={"Retry-After": "7"})] * 2)
    async with served(upstream) as proxy, client(proxy.url) as sdk:
        with pytest.raises(openai.RateLimitError) as plain:
            await sdk.chat.completions.create(
                model="fake-7b", messages=history("Hello."))  # type: ignore[arg-type]
        with pytest.raises(openai.RateLimitError) as streamed:
            await sdk.chat.completions.create(
                model="fake-7b", messages=history("Hello."), stream=True)  # type: ignore[arg-type]
    for raised in (plain.value, streamed.value):
        assert ("7", "rate_limit_exceeded") == (raised.response.headers["retry-after"], raised.code)
        assert SECRET not in raised.response.text


async def test_an_upstream_401_stays_a_401_without_the_key_it_echoed() -> None:
    """An upstream that refuses the key: ``AuthenticationError``, and its text (with the key)
    stays out of the answer."""
    async with served(FakeUpstream([Answer(status=401)])) as proxy, client(proxy.url) as sdk:
        with pytest.raises(openai.AuthenticationError) as raised:
            await sdk.chat.completions.create(
                model="fake-7b", messages=history("Hello."))  # type: ignore[arg-type]
    assert SECRET not in raised.value.response.text
    assert "authentication_error" == raised.value.response.json()["error"]["type"]


async def test_an_upstream_that_does_not_answer_in_time_is_a_504() -> None:
    """An upstream slower than ``--upstream-timeout``: 504, an OpenAI-shaped error."""
    import asyncio

    gate = asyncio.Event()  # never set: the upstream never answers
    async with served(FakeUpstream([Answer(REPLY, gate=gate)]),
                      ServeOptions(timeout=0.5)) as proxy, proxy.client() as http:
        response = await http.post("/v1/chat/completions",
                                   json={"model": "m", "messages": history("Hello.")})
        gate.set()
    assert (504, "upstream_error") == (response.status_code, response.json()["error"]["type"])


async def test_n_above_one_is_a_clear_400_and_the_model_is_not_asked() -> None:
    """``n: 2`` is refused (each choice would be a candidate with its own dice)."""
    upstream = FakeUpstream([Answer(REPLY)])
    async with served(upstream) as proxy, client(proxy.url) as sdk:
        with pytest.raises(openai.BadRequestError) as raised:
            await sdk.chat.completions.create(
                model="fake-7b", messages=history("Hello."), n=2)  # type: ignore[arg-type]
    assert "'n' must be 1" in raised.value.message
    assert [] == upstream.seen


@pytest.mark.parametrize(("prefix", "base"), [("/v1beta/openai", "/v1beta/openai"),
                                              ("/v1", ""), ("/v1", "/v1/")])
async def test_the_upstream_is_joined_as_the_sdk_joins_base_url(prefix: str, base: str) -> None:
    """``<base>/chat/completions``, as the SDK does (a ``/v1beta/openai`` base works); a base
    with no path is taken to mean its ``/v1``, as local servers serve it."""
    upstream = FakeUpstream([Answer("Fine.")], prefix=prefix)
    async with served(upstream, base=base) as proxy, client(proxy.url) as sdk:
        answer = await sdk.chat.completions.create(
            model="fake-7b", messages=history("Hello."))  # type: ignore[arg-type]
        models = await sdk.models.list()
    assert ("Fine.", ["fake-7b"]) == (answer.choices[0].message.content, [m.id for m in models.data])


def test_endpoint_joins_like_the_sdk() -> None:
    """The rule, written out: a path is kept and the endpoint added; no path means ``/v1``."""
    assert ["https://g.example/v1beta/openai/chat/completions",
            "http://127.0.0.1:11434/v1/chat/completions",
            "http://h/api/v1/models"] == [
        endpoint("https://g.example/v1beta/openai/", "chat/completions"),
        endpoint("http://127.0.0.1:11434", "chat/completions"),
        endpoint("http://h/api/v1", "models")]


async def test_raw_line_separators_in_streamed_json_do_not_end_the_stream() -> None:
    """U+2028, U+2029 and U+0085 written raw in the upstream's JSON (legal JSON, legal SSE) stay
    in the text; the proxy writes them escaped, so no client's line reader splits on them."""
    text = f"One\u2028two\u2029three\u0085four. {CHECK} End."
    messages = history("Go.")
    async with served(FakeUpstream([Answer(text)])) as proxy, proxy.client() as http:
        body = {"model": "m", "messages": messages, "stream": True}
        async with http.stream("POST", "/v1/chat/completions", json=body) as response:
            raw = (await response.aread()).decode()
        stored = await proxy.engine.candidates(chat_for(messages), 1)
    events = [json.loads(line[len("data: "):]) for line in raw.split("\n")
              if line.startswith("data: {")]
    streamed = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])
    assert (stored[0].text, True) == (streamed, streamed.startswith("One\u2028two\u2029three\u0085"))
    assert not any(c in raw for c in "\u2028\u2029\u0085")
    assert raw.endswith("data: [DONE]\n\n")


async def test_streams_one_after_another_reuse_one_upstream_connection() -> None:
    """Each stream is read to its end after ``[DONE]``, so its connection goes back to the pool:
    five streams in turn reach the upstream over one TCP connection (against a hosted API, one
    TLS handshake rather than one per reply)."""
    upstream = FakeUpstream(always=Answer(REPLY, reasoning="The grate first."))
    async with served(upstream) as proxy, client(proxy.url) as sdk:
        for n in range(5):
            stream = await sdk.chat.completions.create(
                model="fake-7b", messages=history(f"I pry grate {n}."), stream=True)  # type: ignore[arg-type]
            assert "" != "".join([c.choices[0].delta.content or "" async for c in stream
                                  if c.choices])
    assert (5, 1) == (len(upstream.peers), len(set(upstream.peers)))


async def test_a_read_from_the_upstream_is_answered_with_one_event() -> None:
    """An upstream that writes all its chunks at once (the proxy reads them in one go): the
    client gets the opening, one event with the whole reply as stored, the records, ``[DONE]``
    — not one event per chunk the upstream wrote; the ``openai`` client reads it."""
    text = "Ada heaves at the grate and it groans. " * 8
    upstream = FakeUpstream([Answer(text, reasoning="Think.", at_once=True)])
    async with served(upstream) as proxy, client(proxy.url) as sdk:
        stream = await sdk.chat.completions.create(
            model="fake-7b", messages=history("I pry the grate."), stream=True)  # type: ignore[arg-type]
        chunks = [chunk async for chunk in stream]
        stored = await proxy.engine.candidates(chat_for(history("I pry the grate."), AUTH), 1)
    contents = [c.choices[0].delta.content for c in chunks if c.choices[0].delta.content]
    reasoning = [(c.choices[0].delta.model_extra or {}).get("reasoning_content") for c in chunks]
    assert ([stored[0].text], ["Think."]) == (contents, [r for r in reasoning if r])
    assert 3 == len(chunks)  # the opening, the reply, the finish with the records
