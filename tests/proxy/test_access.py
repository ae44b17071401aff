"""Who may touch a game (SPEC §7, §8): chats and retry keys belong to the client's identity, the
proxy's token or, without one, the client's own ``Authorization``; two clients share a game only
when they share a credential. Real HTTP on 127.0.0.1, the ``openai`` SDK as the client."""

from __future__ import annotations

from typing import Any

import openai
import pytest

from middleware.proxy import ServeOptions
from middleware.proxy.access import OPEN, Access, TokensFileError, parse_tokens, shown
from tests.proxy.conftest import CHECK, TIMEOUT, history
from tests.proxy.fake_upstream import Answer, FakeUpstream, Served, served

OPENING = history("I pry the grate.", system="You are the Game Master of the Ashen Vale.")
"""A public character card's opening: anyone may send the same one."""

TOKENS = "# players of the Thursday table\nada-token-0123456789 Ada\nbram-token-0123456789 Bram\n" \
         "ada-phone-0123456789 Ada\nguest-token-0123456789\n"


def options(**more: Any) -> ServeOptions:
    return ServeOptions(tokens=tuple(parse_tokens(TOKENS)), timeout=TIMEOUT, **more)


def sdk(proxy: Served, key: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0,
                              timeout=TIMEOUT)


async def ask(proxy: Served, key: str, **extra: Any) -> dict[str, Any]:
    """One turn sent with the SDK; the answer's JSON (``gm`` included)."""
    async with sdk(proxy, key) as client:
        answer = await client.chat.completions.create(
            model="m", messages=OPENING, **extra)  # type: ignore[arg-type]
    return answer.model_dump()


def stored_as(key: str, name: str, tokens: str | None = TOKENS) -> str:
    """The id the proxy stores the chat ``name`` of the client sending ``key`` under."""
    identity = Access(parse_tokens(tokens) if tokens else ()).identify(f"Bearer {key}")
    assert identity is not None
    return identity.chat(name)


async def turns(proxy: Served, chat: str) -> int:
    return await proxy.engine.store.last_turn(chat)


async def test_two_players_sending_the_same_opening_get_two_games() -> None:
    """Ada and Bram send the same opening (and the same ``X-GM-Chat``): each plays turn 1 of a
    game of their own; each sees the chat under the name it gave."""
    upstream = FakeUpstream([Answer(CHECK)] * 4)
    async with served(upstream, options()) as proxy:
        ada = await ask(proxy, "ada-token-0123456789")
        bram = await ask(proxy, "bram-token-0123456789")
        named = [await ask(proxy, key, extra_headers={"X-GM-Chat": "table-1"})
                 for key in ("ada-token-0123456789", "bram-token-0123456789")]
        stored = {stored_as(key, name) for key in ("ada-token-0123456789", "bram-token-0123456789")
                  for name in (ada["gm"]["chat"], "table-1")}
        played = [await turns(proxy, chat) for chat in stored]
    assert [(1, 0)] * 4 == [(a["gm"]["turn"], a["gm"]["candidate"]) for a in (ada, bram, *named)]
    assert (ada["gm"]["chat"], "table-1", "table-1") == (bram["gm"]["chat"], *(a["gm"]["chat"]
                                                                               for a in named))
    assert [1, 1, 1, 1] == played


async def test_tokens_of_one_player_and_one_token_share_the_game() -> None:
    """Ada's laptop and phone (two tokens, one name in the file) play one game: the phone's
    request is a regenerate of the laptop's turn; a token without a name is a player of its
    own, shared by whoever holds it."""
    upstream = FakeUpstream([Answer(CHECK)] * 4)
    async with served(upstream, options()) as proxy:
        laptop = await ask(proxy, "ada-token-0123456789")
        phone = await ask(proxy, "ada-phone-0123456789")
        guests = [await ask(proxy, "guest-token-0123456789") for _ in range(2)]
    assert laptop["gm"]["chat"] == phone["gm"]["chat"]
    assert [0, 1] == [laptop["gm"]["candidate"], phone["gm"]["candidate"]]
    assert [0, 1] == [g["gm"]["candidate"] for g in guests]


async def test_a_retry_key_replays_only_its_own_players_answer() -> None:
    """SPEC §3 retries, scoped: Ada's ``Idempotency-Key: 1`` answered, Bram sending the same
    opening with the same key gets no replay of Ada's reply (the model is asked for his), and
    Ada's own retry is the stored answer (the model is not asked)."""
    upstream = FakeUpstream([Answer(f"Ada's. {CHECK}"), Answer(f"Bram's. {CHECK}")])
    key = {"Idempotency-Key": "1"}
    async with served(upstream, options()) as proxy:
        first = await ask(proxy, "ada-token-0123456789", extra_headers=key)
        other = await ask(proxy, "bram-token-0123456789", extra_headers=key)
        again = await ask(proxy, "ada-token-0123456789", extra_headers=key)
    texts = [a["choices"][0]["message"]["content"] for a in (first, other, again)]
    assert [False, False, True] == [a["gm"]["replayed"] for a in (first, other, again)]
    assert (True, True, texts[0]) == (texts[0].startswith("Ada's"), texts[1].startswith("Bram's"),
                                      texts[2])
    assert 2 == len(upstream.seen)


async def test_a_history_sent_back_by_another_player_does_not_find_the_first_ones_game() -> None:
    """Bram sends Ada's whole history (her reply with its dice included): it does not continue
    her game; it is a game of his own, and hers still has one turn."""
    upstream = FakeUpstream([Answer(CHECK), Answer("On."), Answer("On.")])
    async with served(upstream, options()) as proxy:
        ada = await ask(proxy, "ada-token-0123456789")
        reply = ada["choices"][0]["message"]["content"]
        later = [*OPENING, {"role": "assistant", "content": reply},
                 {"role": "user", "content": "And then?"}]
        async with sdk(proxy, "bram-token-0123456789") as client:
            bram = (await client.chat.completions.create(
                model="m", messages=later)).model_dump()  # type: ignore[arg-type]
        played = [await turns(proxy, stored_as(key, ada["gm"]["chat"]))
                  for key in ("ada-token-0123456789", "bram-token-0123456789")]
    assert (2, ada["gm"]["chat"]) == (bram["gm"]["turn"], bram["gm"]["chat"])
    assert [1, 2] == played


async def test_a_missing_or_wrong_token_is_an_openai_shaped_401() -> None:
    """No token, a wrong one, or a right one without ``Bearer``: 401 with the OpenAI error
    body, which the SDK raises as ``AuthenticationError``; the model is never asked."""
    upstream = FakeUpstream()
    async with served(upstream, options()) as proxy, proxy.client() as http:
        bare = await http.post("/v1/chat/completions", json={"model": "m", "messages": OPENING})
        scheme = await http.get("/v1/models", headers={"Authorization": "ada-token-0123456789"})
        with pytest.raises(openai.AuthenticationError) as raised:
            await ask(proxy, "not-a-token")
    assert [401, 401, 401] == [bare.status_code, scheme.status_code, raised.value.status_code]
    error = bare.json()["error"]
    assert ("authentication_error", "invalid_api_key") == (error["type"], error["code"])
    assert {"message", "type", "code"} <= set(error)
    assert [] == upstream.seen


async def test_with_the_operators_key_no_client_credential_goes_upstream() -> None:
    """``--api-key``: the upstream gets the operator's key only; neither the proxy's token nor
    a client's other headers' credentials are passed on."""
    upstream = FakeUpstream([Answer("Fine.")])
    async with served(upstream, options(), api_key="sk-operator-key") as proxy:
        await ask(proxy, "ada-token-0123456789")
    assert "Bearer sk-operator-key" == upstream.headers[0]["authorization"]


async def test_an_open_proxy_scopes_chats_by_the_clients_own_authorization() -> None:
    """No token of the proxy's own: clients with different keys (passed upstream, as today)
    play different games from one opening; one without a key plays in the open namespace,
    where a chat id written in the proxy's scoped form is refused (400)."""
    upstream = FakeUpstream([Answer(CHECK)] * 3)
    async with served(upstream) as proxy, proxy.client() as http:
        one = await ask(proxy, "sk-alice")
        two = await ask(proxy, "sk-bob")
        bare = (await http.post("/v1/chat/completions",
                                json={"model": "m", "messages": OPENING})).json()
        scoped = stored_as("sk-alice", one["gm"]["chat"], tokens=None)
        forged = await http.post("/v1/chat/completions", headers={"X-GM-Chat": scoped},
                                 json={"model": "m", "messages": OPENING})
    assert [0, 0, 0] == [a["gm"]["candidate"] for a in (one, two, bare)]
    assert (scoped != shown(scoped), shown(scoped)) == (True, bare["gm"]["chat"])
    assert ["Bearer sk-alice", "Bearer sk-bob"] == [h["authorization"]
                                                    for h in upstream.headers[:2]]
    assert 400 == forged.status_code
    assert "invalid_request_error" == forged.json()["error"]["type"]


async def test_the_prompt_peek_shows_only_the_clients_own_chats() -> None:
    """``GET /v1/gm/chats/{chat}/prompt`` finds Ada's chat for Ada, and is a 404 for Bram."""
    upstream = FakeUpstream([Answer(CHECK)])
    async with served(upstream, options()) as proxy, proxy.client() as http:
        await ask(proxy, "ada-token-0123456789", extra_headers={"X-GM-Chat": "table-1"})
        seen = [await http.get("/v1/gm/chats/table-1/prompt",
                               headers={"Authorization": f"Bearer {key}"})
                for key in ("ada-token-0123456789", "bram-token-0123456789")]
    assert [200, 404] == [r.status_code for r in seen]
    assert (2, "table-1") == (seen[0].json()["turn"], seen[0].json()["chat"])


def test_the_tokens_file_is_one_token_a_line_with_an_optional_player_name() -> None:
    """Comments and blank lines are skipped; the rest of a line is the player's name."""
    assert [("a" * 20, "Ada Quill"), ("b" * 20, None)] == parse_tokens(
        f"# comment\n\n  {'a' * 20}   Ada   Quill \n{'b' * 20}\n")


@pytest.mark.parametrize(("text", "says"), [("tok A\ntok B\n", "line 2"),
                                            ("# only a comment\n", "no token")])
def test_a_tokens_file_with_a_token_twice_or_none_is_refused(text: str, says: str) -> None:
    with pytest.raises(TokensFileError, match=says):
        parse_tokens(text)


def test_a_credential_is_never_stored_raw() -> None:
    """The scope of a chat is a digest: the token's text appears in no chat id."""
    access = Access([("ada-token-0123456789", None)])
    identity = access.identify("Bearer ada-token-0123456789")
    assert identity is not None
    assert "ada-token" not in identity.chat("table-1")
    assert identity == Access().identify("Bearer ada-token-0123456789")


@pytest.mark.parametrize("header", [None, "", "Bearer", "Bearer   "])
def test_no_credential_or_an_empty_bearer_is_the_open_namespace(header: str | None) -> None:
    """A chat UI with no key configured sends nothing or an empty ``Bearer``: no credential."""
    assert OPEN == Access().identify(header)


def test_another_scheme_is_a_credential_of_its_own() -> None:
    assert Access().identify("Basic YWRhOnB3") not in (OPEN, Access().identify("Basic Ym9i"))
