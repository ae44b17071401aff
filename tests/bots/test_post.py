"""What a bot posts: long replies split between lines at the platform's limit, button data."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from middleware.bots import Button, read_button, split_text
from middleware.bots.post import DISCORD_LIMIT, TELEGRAM_LIMIT, utf16_length


def test_a_long_reply_is_cut_between_lines() -> None:
    """Lines are packed into messages up to the limit; no line is cut in two."""
    lines = [f"Line {n}: " + "word " * 30 for n in range(200)]
    parts = split_text("\n".join(lines), DISCORD_LIMIT)
    assert all(len(p) <= DISCORD_LIMIT for p in parts) and len(parts) > 1
    assert lines == [line for part in parts for line in part.split("\n")]


def test_a_line_longer_than_the_limit_is_cut_at_a_space() -> None:
    """A single wall of prose is cut at its last space before the limit."""
    wall = " ".join(["lantern"] * 1000)
    parts = split_text(wall, DISCORD_LIMIT)
    assert all(len(p) <= DISCORD_LIMIT and not p.endswith(" ") for p in parts)
    assert wall.split() == " ".join(parts).split()
    assert all(p.split(" ")[-1] == "lantern" for p in parts)


def test_telegram_counts_utf16_units() -> None:
    """An emoji outside the BMP counts two towards Telegram's 4096."""
    text = "🎲" * 3000
    parts = split_text(text, TELEGRAM_LIMIT, utf16_length)
    assert [2048, 952] == [len(p) for p in parts]


@given(st.text(alphabet=st.sampled_from("ab \n🎲"), max_size=400), st.integers(4, 60))
def test_split_keeps_every_word(text: str, limit: int) -> None:
    """Whatever the text, every part fits and the words come back in order."""
    parts = split_text(text, limit, utf16_length)
    assert all(utf16_length(p) <= limit for p in parts)
    assert "".join(text.split()) == "".join("".join(parts).split()).removeprefix("…") or (
        not text.strip())


def test_button_data_round_trips() -> None:
    """Button data is short enough for Telegram (64 bytes) and reads back as itself."""
    button = Button("previous", 12, 4321, 17)
    assert len(button.data.encode()) <= 64
    assert button == read_button(button.data)
    assert None is read_button("gm:x:1:2:3")
    assert None is read_button("other:r:1:2:3")
    assert None is read_button(None)
