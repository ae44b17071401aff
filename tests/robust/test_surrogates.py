"""Lone surrogates never break a chat (issue 16 #3): replaced by U+FFFD, and the record says so.

``json.loads('"\\ud800"')`` is a valid JSON escape of half a UTF-16 pair; a reply or a request
carrying one used to raise a serialisation error on every store, or a 500 through the proxy.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import Response

from middleware.engine import Engine
from middleware.stores import Store
from middleware.text import clean_text
from tests.proxy.conftest import CHECK, FakeModel, hearth, history, running_proxy, streamed_text
from tests.robust.test_long_chats import start_game


async def test_a_reply_with_lone_surrogates_is_stored_and_says_so(store: Store) -> None:
    """A check whose skill and prose carry lone surrogates resolves on every store; the text
    keeps U+FFFD where they were and a last record (tag ``text``) tells how many were replaced."""
    engine = await start_game(store)
    reply = json.loads('"She climbs \\ud800. [skill_check: skill=\\"Haul\\ud83d\\" dc=\\"8\\"]"')
    done = await engine.process("chat", 1, reply, dice=[3, 4])
    assert "She climbs \ufffd. [skill_check: skill=\"Haul\ufffd\"" in done.text
    note = done.records[-1]
    assert ("text", "surrogates-replaced") == (note.tag, note.reason)
    assert note.feedback is not None and note.feedback.startswith("2 lone surrogates")
    again = (await Engine(store).candidates("chat", 1))[0]
    assert (done.text, done.records) == (again.text, again.records)


def test_a_pair_written_as_two_escapes_is_the_character_it_spells() -> None:
    """``"\\ud83d\\ude00"`` split into two code points is joined into 😀, nothing replaced."""
    assert ("😀 ok", 0) == clean_text("\ud83d\ude00 ok")


class EscapingModel(FakeModel):
    """A model server writing its JSON with ASCII escapes, as many do: a lone surrogate in the
    reply goes out as ``\\ud800``."""

    async def _answer(self, request: Request) -> Response:
        self.seen.append(json.loads(await request.body()))
        reply = self.replies.pop(0)
        return Response(json.dumps({"id": "fake-1", "object": "chat.completion", "model": "fake",
                                    "choices": [{"index": 0, "finish_reason": "stop", "message":
                                                 {"role": "assistant", "content": reply}}]}),
                        media_type="application/json")


async def test_a_request_with_lone_surrogates_is_answered() -> None:
    """Through the proxy: the player's message and the model's reply carry lone surrogates; the
    answer is a 200 with the check resolved and U+FFFD in the text, not a 500."""
    model = EscapingModel(replies=[f"She climbs \ud800. {CHECK}"])
    async with running_proxy(hearth(), model) as proxy:
        body = json.dumps({"model": "gm", "messages": history("I climb \ud800 up.")})
        response = await proxy.client.post("/v1/chat/completions", content=body.encode(),
                                           headers={"Content-Type": "application/json"})
    assert 200 == response.status_code, response.text
    answer = response.json()
    assert "She climbs \ufffd. [skill_check:" in answer["choices"][0]["message"]["content"]
    assert "I climb \ufffd up." == model.seen[0]["messages"][-1]["content"]
    assert "resolved" == answer["gm_records"][0]["status"]


async def test_a_streamed_reply_with_lone_surrogates_ends_with_done() -> None:
    """Streamed (the fake model escapes ``\\ud800`` in its SSE chunks): every chunk comes through,
    the stream ends with ``[DONE]``, and the streamed text is the stored candidate's, U+FFFD in
    place of the surrogate (the stream used to be cut with no error event)."""
    model = FakeModel(replies=[f"She climbs \ud800 high. {CHECK} Done."])
    async with running_proxy(hearth(), model) as proxy:
        chunks = await proxy.stream(history("I climb."))
        stored = (await proxy.engine.candidates(chunks[-1]["gm"]["chat"], 1))[0]
    text = "".join(streamed_text(chunks))
    assert "She climbs \ufffd high." in text
    assert stored.text == text
