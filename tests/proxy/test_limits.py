"""A proxy nobody can hold down (SPEC §8): slow clients are cut off, bodies are bounded before
they are read whole, a reply is kept to a bounded size, and ``serve`` will not spend the
operator's key on anyone who reaches it. Real sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import openai
import pytest
from typer.testing import CliRunner

from middleware.cli import app
from middleware.cli.serve import INSECURE, UNREADABLE
from middleware.proxy import ServeOptions
from middleware.proxy.options import MAX_BODY
from middleware.text import MAX_CANDIDATE_CHARS
from tests.proxy.conftest import CHECK, TIMEOUT, chat_for, free_socket, history, serving
from tests.proxy.fake_upstream import Answer, FakeUpstream, served
from tests.rulesets import bundled_path

BOUND = 5.0
"""How long a test waits for the server to act before it fails (a bound, not a measurement)."""

runner = CliRunner()


async def connect(url: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = url.removeprefix("http://").split(":")
    return await asyncio.open_connection(host, int(port))


async def closed_while_trickling(writer: asyncio.StreamWriter, reader: asyncio.StreamReader,
                                 drip: bytes) -> bytes:
    """Send ``drip`` a byte every 0.05 s until the server answers or ends the connection; what
    it sent. The drip stops at the first byte back: a byte sent after the server closed makes
    its kernel reset the connection, and the answer still unread may be lost with it."""
    async def trickle() -> None:
        for byte in drip * 1000:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(0.05)

    dripping = asyncio.create_task(trickle())
    got = bytearray()
    try:
        async with asyncio.timeout(BOUND):
            while chunk := await reader.read(65536):
                got += chunk
                dripping.cancel()
    except ConnectionResetError:
        pass  # closed with a drip unread: what came before is the answer
    finally:
        dripping.cancel()
        writer.close()
    return bytes(got)


async def test_a_client_sending_its_headers_a_byte_at_a_time_is_cut_off() -> None:
    """Slowloris: a request head trickled byte by byte (each byte in time for uvicorn's own
    keep-alive timer) is closed once ``read_timeout`` has passed; a request sent whole on the
    same server is answered."""
    upstream = FakeUpstream([Answer("Fine.")])
    async with served(upstream, ServeOptions(read_timeout=0.5, timeout=TIMEOUT)) as proxy:
        reader, writer = await connect(proxy.url)
        writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n")
        got = await closed_while_trickling(writer, reader, b"X-Slow: yes\r\n")
        async with proxy.client() as http:
            fine = await http.post("/v1/chat/completions",
                                   json={"model": "m", "messages": history("Hi.")})
    assert (b"", 200) == (got, fine.status_code)


async def test_an_idle_connection_that_never_sends_a_request_is_closed() -> None:
    """A socket opened and left silent is closed by the read deadline (uvicorn sets no timer
    before the first request)."""
    async with served(FakeUpstream(), ServeOptions(read_timeout=0.5, timeout=TIMEOUT)) as proxy:
        reader, writer = await connect(proxy.url)
        got = await asyncio.wait_for(reader.read(), BOUND)
        writer.close()
    assert b"" == got


async def read_answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bytes:
    """What the server sends until it closes the connection (bounded by ``BOUND``)."""
    try:
        async with asyncio.timeout(BOUND):
            return await reader.read()
    except ConnectionResetError:
        return b""
    finally:
        writer.close()


async def test_a_request_head_over_64_kib_is_a_400_and_closed() -> None:
    """A request line and headers past 64 KiB, sent at once, are refused with a 400 and the
    connection closed; the model is never asked."""
    upstream = FakeUpstream([Answer("Fine.")])
    async with served(upstream) as proxy:
        reader, writer = await connect(proxy.url)
        headers = b"".join(b"X-Pad-%d: %s\r\n" % (n, b"p" * 1000) for n in range(70))
        writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n" + headers
                     + b"Content-Length: 2\r\n\r\n{}")
        got = await read_answer(reader, writer)
    assert (b"HTTP/1.1 400", []) == (got[:12], upstream.seen)


async def test_a_request_head_that_goes_on_past_64_kib_is_refused_before_it_ends() -> None:
    """One header sent a kilobyte at a time and never ended: the 400 comes while the head is
    still coming (before 80 KiB of it were sent), so no more than about 64 KiB of it is held."""
    async with served(FakeUpstream()) as proxy:
        reader, writer = await connect(proxy.url)
        writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Long: ")
        sent = 0

        async def pour() -> None:
            nonlocal sent
            for _ in range(80):
                writer.write(b"y" * 1024)
                await writer.drain()
                sent += 1
                await asyncio.sleep(0.005)

        pouring = asyncio.create_task(pour())
        try:
            async with asyncio.timeout(BOUND):
                got = await reader.read(12)  # the answer's first bytes: stop pouring
        finally:
            pouring.cancel()
            writer.close()
    assert (b"HTTP/1.1 400", True) == (got, 64 <= sent < 80)


async def test_a_body_sent_with_its_head_in_one_write_is_no_long_head() -> None:
    """A 300 KB request (a long history) written at once with its head: only the head counts
    toward the 64 KiB bound, and the request is answered."""
    upstream = FakeUpstream([Answer("Fine.")])
    messages = history("Hi.", system="You are the GM. " + "Lore. " * 50_000)
    body = json.dumps({"model": "m", "messages": messages}).encode()
    async with served(upstream) as proxy:
        reader, writer = await connect(proxy.url)
        writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                     % (len(body), body))
        got = await read_answer(reader, writer)
    assert (b"HTTP/1.1 200", 1) == (got[:12], len(upstream.seen))


async def test_a_body_trickled_past_the_body_timeout_is_a_408_and_closed() -> None:
    """Headers in time, then a body a byte every 0.05 s: past ``body_timeout`` the answer is
    an OpenAI-shaped 408 and the connection is closed; the model is never asked."""
    upstream = FakeUpstream()
    options = ServeOptions(body_timeout=0.5, timeout=TIMEOUT)
    async with served(upstream, options) as proxy:
        reader, writer = await connect(proxy.url)
        writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
        got = await closed_while_trickling(writer, reader, b" ")
    head, _, body = got.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408")
    assert "request_timeout" == json.loads(body)["error"]["code"]
    assert [] == upstream.seen


async def answer(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    """One HTTP answer's head and body (by its ``Content-Length``), within the bound."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), BOUND)
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    return head, await asyncio.wait_for(reader.readexactly(length), BOUND)


async def test_a_chunked_body_over_the_limit_is_a_413_before_it_ends() -> None:
    """A body with no ``Content-Length`` is refused the moment it passes ``--max-body``: the
    413 comes while the client has not finished sending; a client that then drips the rest of
    the refused body is closed by the read deadline."""
    upstream = FakeUpstream()
    options = ServeOptions(max_body=4096, read_timeout=0.5, timeout=TIMEOUT)
    async with served(upstream, options) as proxy:
        reader, writer = await connect(proxy.url)
        writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in range(5):
            writer.write(b"400\r\n" + b" " * 1024 + b"\r\n")  # 5 KiB, no last chunk
        await writer.drain()
        head, body = await answer(reader)
        rest = await closed_while_trickling(writer, reader, b"1\r\n \r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert "invalid_request_error" == json.loads(body)["error"]["type"]
    assert b"" == rest


async def test_the_sdk_gets_a_413_for_a_body_over_the_limit() -> None:
    """The OpenAI SDK sends its whole body before it reads: for a 12 MB body over the 8 MiB
    default it gets the 413 (not a broken connection) with the proxy's OpenAI-shaped message;
    the body was never read into memory (answered on its ``Content-Length``)."""
    async with served(FakeUpstream(), ServeOptions(timeout=TIMEOUT)) as proxy, \
            openai.AsyncOpenAI(base_url=f"{proxy.url}/v1", api_key="k", max_retries=0) as sdk:
        with pytest.raises(openai.APIStatusError) as raised:
            await sdk.chat.completions.create(
                model="m", messages=history("x" * 12_000_000))  # type: ignore[arg-type]
    assert 413 == raised.value.status_code
    assert f"longer than {MAX_BODY} bytes" in raised.value.message


@pytest.mark.parametrize("stream", [False, True])
async def test_a_reply_over_the_limit_is_kept_cut_and_says_so(stream: bool) -> None:
    """A model writing 150,000 characters (a check near the start, one past the limit): the
    candidate keeps the first 100,000 as written, the check resolved, the one past the limit
    never read, a last record ``reply-cut``; streamed, the client saw exactly the stored text."""
    long = f"{CHECK} " + "word " * 30_000 + CHECK
    messages = history("Tell me everything.")
    async with served(FakeUpstream([Answer(long)])) as proxy, proxy.client() as http:
        body = {"model": "m", "messages": messages, "stream": stream}
        async with http.stream("POST", "/v1/chat/completions", json=body) as response:
            raw = (await response.aread()).decode()
        stored = await proxy.engine.store.get_candidate(chat_for(messages), 1, 0)
    if stream:
        events = [json.loads(line[len("data: "):]) for line in raw.split("\n")
                  if line.startswith("data: {")]
        text = "".join(e["choices"][0]["delta"].get("content") or "" for e in events)
        reasons = [r["reason"] for r in events[-1]["gm_records"]]
    else:
        answer = json.loads(raw)
        text = answer["choices"][0]["message"]["content"]
        reasons = [r["reason"] for r in answer["gm_records"]]
    assert (MAX_CANDIDATE_CHARS, stored.text) == (len(stored.reply), text)
    assert stored.reply == long[:MAX_CANDIDATE_CHARS]
    assert [None, "reply-cut"] == reasons
    assert 1 == stored.text.count('result="')


async def test_a_player_message_longer_than_a_game_keeps_is_a_400() -> None:
    """A player message over the candidate limit is refused (it would be stored as the turn's
    text); the model is never asked."""
    upstream = FakeUpstream()
    async with served(upstream) as proxy, proxy.client() as http:
        refused = await http.post("/v1/chat/completions", json={
            "model": "m", "messages": history("x" * (MAX_CANDIDATE_CHARS + 1))})
    assert 400 == refused.status_code
    assert "messages[1] is longer than" in refused.json()["error"]["message"]
    assert [] == upstream.seen


async def test_a_reply_shown_longer_than_the_limit_comes_back_and_plays_on() -> None:
    """A reply cut at the limit whose check came before the cut is shown longer than 100,000
    characters (the resolved tag is longer than the model's): sent back, as a Continue or with
    the next turn, it is the stored candidate and plays on (before: a 400, "messages[2] is longer
    than 100000 characters", for a reply the proxy wrote itself, and the chat was stuck). Edited
    (its check gone), so that it would be stored as written, it is still refused, and nothing is
    stored."""
    long = f"{CHECK} " + "word " * 19_980  # room for " More." after it
    upstream = FakeUpstream([Answer(long), Answer(" More."), Answer("Next.")])
    first = history("Tell me everything.")
    async with served(upstream) as proxy, proxy.client() as http:
        shown = (await http.post("/v1/chat/completions", json={"model": "m", "messages": first})
                 ).json()["choices"][0]["message"]["content"]
        sent_back = [*first, {"role": "assistant", "content": shown}]
        more = await http.post("/v1/chat/completions", json={"model": "m", "messages": sent_back})
        on = await http.post("/v1/chat/completions", json={
            "model": "m", "messages": history("Tell me everything.", shown, "Go on.")})
        edited = await http.post("/v1/chat/completions", json={
            "model": "m", "messages": history("Tell me everything.", "x" * len(shown), "Go on.")})
        stored = await proxy.engine.candidates(chat_for(first), 1)
    assert len(shown) > MAX_CANDIDATE_CHARS
    assert [200, 200, 400] == [r.status_code for r in (more, on, edited)]
    assert (" More.", "2", "Next.") == (more.json()["choices"][0]["message"]["content"],
                                        on.headers["x-gm-turn"],
                                        on.json()["choices"][0]["message"]["content"])
    assert "x-gm-edited" not in on.headers
    assert edited.json()["error"]["message"].startswith("an edited reply is longer than")
    assert [shown, shown + " More."] == [c.text for c in stored]



async def test_a_long_reply_on_a_branched_history_is_kept_whole_and_plays_on() -> None:
    """A history that changes an older player message is played on a branch, and the replies it
    kept after that turn are read again there. One of them, shown longer than 100,000 characters
    (a reply cut at the limit, its check before the cut), is stored on the branch as shown,
    not cut: sent back with the next turn, it is found, and the chat plays on (before: stored
    cut, then refused with a 400 as an edited reply too long to keep, and the chat was stuck)."""
    long = f"{CHECK} " + "word " * 19_990
    upstream = FakeUpstream([Answer("Two roads."), Answer("A gate."), Answer(long),
                             Answer("Four."), Answer("Five.")])
    async with served(upstream) as proxy, proxy.client() as http:
        async def ask(*turns: str) -> str:
            answer = await http.post("/v1/chat/completions",
                                     json={"model": "m", "messages": history(*turns)})
            assert 200 == answer.status_code, answer.text
            return str(answer.json()["choices"][0]["message"]["content"])

        one = await ask("Go.")
        two = await ask("Go.", one, "North.")
        shown = await ask("Go.", one, "North.", two, "Open it.")
        four = await ask("Go.", one, "South.", two, "Open it.", shown, "Again.")
        five = await ask("Go.", one, "South.", two, "Open it.", shown, "Again.", four, "On.")
        chats = [chat_for(history("Go."))]
        branch = f"{chats[0]}~branch-1"
        kept = [c.text for c in await proxy.engine.candidates(branch, 3)]
    assert len(shown) > MAX_CANDIDATE_CHARS
    assert ("Four.", "Five.") == (four, five)
    assert [shown] == kept


def serve_args(*more: str) -> list[str]:
    return ["serve", "--ruleset", "lantern-and-ledger", "--upstream", "http://127.0.0.1:9",
            "--store", "memory://", *more]


def test_serve_with_the_operators_key_and_no_token_refuses_to_start() -> None:
    """``--api-key`` alone would spend the operator's key on whoever reaches the port: exit 4
    with what to give instead."""
    result = runner.invoke(app, serve_args("--api-key", "sk-operator"))
    assert INSECURE == result.exit_code == 4
    assert "--auth-token" in result.output and "--insecure-no-auth" in result.output


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "example.org"])
def test_insecure_no_auth_is_refused_off_loopback(host: str) -> None:
    result = runner.invoke(app, serve_args("--api-key", "sk-operator", "--insecure-no-auth",
                                           "--host", host))
    assert INSECURE == result.exit_code
    assert "loopback" in result.output


def test_an_unreadable_tokens_file_is_exit_3_and_a_bad_one_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "tokens.txt"
    bad.write_text("same-token-0123456789 Ada\nsame-token-0123456789 Bram\n")
    missing = runner.invoke(app, serve_args("--tokens-file", str(tmp_path / "none.txt")))
    refused = runner.invoke(app, serve_args("--tokens-file", str(bad)))
    assert (UNREADABLE, 2) == (missing.exit_code, refused.exit_code)
    assert "line 2" in refused.output


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process handling")
async def test_insecure_no_auth_on_loopback_serves_on_the_operators_key() -> None:
    """``serve --api-key K --insecure-no-auth`` on 127.0.0.1 starts and answers a client with
    no token, the upstream getting K."""
    upstream = FakeUpstream([Answer("Fine.")])
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    async with serving(upstream.app()) as upstream_url:
        process = await asyncio.create_subprocess_exec(
            str(Path(sys.executable).parent / "gm-middleware"), "serve",
            "--ruleset", str(bundled_path("hearth-and-haul")), "--upstream", upstream_url + "/v1",
            "--store", "memory://", "--port", str(port), "--api-key", "sk-operator",
            "--insecure-no-auth", stderr=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL, env={**os.environ})
        try:
            assert process.stderr is not None
            while b"Uvicorn running" not in await asyncio.wait_for(process.stderr.readline(),
                                                                   TIMEOUT):
                pass
            async with openai.AsyncOpenAI(base_url=f"http://127.0.0.1:{port}/v1",
                                          api_key="client-key", max_retries=0) as sdk:
                answer = await sdk.chat.completions.create(
                    model="m", messages=history("Hi."))  # type: ignore[arg-type]
        finally:
            process.terminate()
            await process.wait()
    assert "Fine." == answer.choices[0].message.content
    assert "Bearer sk-operator" == upstream.headers[0]["authorization"]
