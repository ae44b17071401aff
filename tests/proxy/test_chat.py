"""What a request says about the game (SPEC §7 proxy): chat, turn, the kept candidate. Pure."""

from __future__ import annotations

import json

import pytest

from middleware.errors import RequestError
from middleware.proxy.chat import (
    Message,
    chat_id,
    kept_candidate,
    kept_reply,
    read_request,
    turn_of,
)


def request(messages: list[dict[str, object]], **extra: object) -> bytes:
    return json.dumps({"model": "m", "messages": messages, **extra}).encode()


def test_the_turn_is_the_number_of_player_messages() -> None:
    """Turn n is asked by a history with n player messages, whatever else it holds."""
    ask = read_request(request([{"role": "system", "content": "GM"},
                                {"role": "user", "content": "a"},
                                {"role": "assistant", "content": "b"},
                                {"role": "user", "content": "c"}]))
    assert (2, False, "m") == (turn_of(ask.messages), ask.stream, ask.model)


def test_content_parts_are_read_as_their_text() -> None:
    """OpenAI content parts: the text parts joined, images skipped."""
    ask = read_request(request([{"role": "user", "content": [
        {"type": "text", "text": "I look "}, {"type": "image_url", "image_url": {"url": "x"}},
        {"type": "text", "text": "around."}]}]))
    assert (Message("user", "I look around."),) == ask.messages


def test_the_chat_header_wins_else_the_start_of_the_conversation_names_the_chat() -> None:
    """``X-GM-Chat`` when given; else the same first system and user messages give the same
    chat id, however long the chat grows, and a different start gives another."""
    start = [Message("system", "GM"), Message("user", "Hi")]
    later = [*start, Message("assistant", "Hello"), Message("user", "On.")]
    other = [Message("system", "GM"), Message("user", "Hey")]
    assert "table-1" == chat_id({"x-gm-chat": " table-1 "}, start)
    assert chat_id({}, start) == chat_id({}, later)
    assert chat_id({}, start) != chat_id({}, other)


@pytest.mark.parametrize("bad", ["", "x" * 201, "a\nb"])
def test_an_unusable_chat_header_is_refused(bad: str) -> None:
    """A chat id must be 1 to 200 printable characters."""
    with pytest.raises(RequestError):
        chat_id({"x-gm-chat": bad}, [Message("user", "Hi")])


def test_the_kept_reply_is_the_last_assistant_message_of_the_turn_before() -> None:
    """The client's last assistant message between its last two player messages is the reply it
    kept; the first turn has none."""
    messages = [Message("user", "a"), Message("assistant", "old"), Message("assistant", "kept"),
                Message("user", "b")]
    assert ("kept", None, None) == (kept_reply(messages), kept_reply(messages[:1]),
                                    kept_reply([Message("user", "a"), Message("user", "b")]))


def test_the_kept_candidate_is_matched_by_text_trimmed() -> None:
    """Clients may trim the text; a match on the trimmed text finds the candidate, the newest
    of equal ones; no match is None."""
    candidates = [(0, "A reply. "), (1, "Another."), (2, "A reply.")]
    assert (2, 1, None) == (kept_candidate("A reply.", candidates),
                            kept_candidate("  Another.\n", candidates),
                            kept_candidate("Edited.", candidates))


@pytest.mark.parametrize("body", [
    b"\xff", b"{", b"null", b'{"messages": "hi"}',
    b'{"messages": [{"role": "user", "content": 5}]}',
    b'{"messages": [{"role": "assistant", "content": "x"}]}',
])
def test_a_malformed_request_is_refused_with_a_reason(body: bytes) -> None:
    """Not JSON, not an object, messages not a list, content not text, no player message."""
    with pytest.raises(RequestError):
        read_request(body)
