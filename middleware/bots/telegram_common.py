"""What both Telegram adapters share (pure): chat and retry keys, speakers, keyboards, notices.

Telegram's ``update_id`` is the retry key: Telegram delivers an update again until the bot has
confirmed it, so a bot that crashed mid-turn is handed the same update and must apply nothing
twice. The chat's game is ``telegram:<chat id>``.
"""

from __future__ import annotations

from typing import Final

from middleware.bots.played import NotNow, Played
from middleware.bots.post import TELEGRAM_LIMIT, split_text, utf16_length
from middleware.bots.seats import Speaker
from middleware.errors import GMError, UpstreamError
from middleware.logs import get_logger

ALERT_LIMIT: Final = 200
"""A callback answer shown as an alert holds at most this many characters."""

LABELS: Final = {"regenerate": "↻ Again", "previous": "◀ Previous", "next": "Next ▶",
                 "dice": "🎲 Dice"}


def chat_key(chat_id: int) -> str:
    """The table's chat id of a Telegram chat."""
    return f"telegram:{chat_id}"


def retry_key(update_id: int) -> str:
    """The retry key of a Telegram update."""
    return f"telegram:{update_id}"


def speaker(user_id: int, first_name: str, last_name: str | None,
            username: str | None) -> Speaker:
    """A Telegram user as the table sees them."""
    name = " ".join(part for part in (first_name, last_name) if part)
    return Speaker(str(user_id), name, username)


def keyboard(played: Played) -> list[list[tuple[str, str]]]:
    """The inline keyboard under a reply, as rows of (label, callback data)."""
    return [[(LABELS[b.action], b.data) for b in played.buttons()]]


def parts(text: str) -> list[str]:
    """A reply as Telegram messages, split between lines at 4096 UTF-16 units."""
    return split_text(text, TELEGRAM_LIMIT, utf16_length)


def fits(text: str) -> bool:
    """Whether ``text`` fits one Telegram message (so a swipe can edit it in place)."""
    return utf16_length(text) <= TELEGRAM_LIMIT


def notice(exc: GMError) -> str:
    """What the chat is told when a turn could not be played (the log gets the details)."""
    if isinstance(exc, NotNow):
        return str(exc)
    get_logger().warning("bot-turn-failed", error=str(exc), kind=type(exc).__name__)
    if isinstance(exc, UpstreamError):
        return "⚠ The Game Master is silent: the model server failed. Send your message again."
    return f"⚠ The Game Master could not take that: {exc}"
