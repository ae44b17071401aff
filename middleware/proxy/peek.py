"""Peek (ITM-FAKE-13's Peek Prompt): exactly what the model will be sent on a chat's next turn.

``peek(engine, chat, config)`` works out the GM's view as the next turn (the chat's last turn + 1,
or the last one while it has no reply) will start: the state after the kept candidates and the
records of the last kept one. The same view is what the proxy injects (``inject.chat_view``), so
``peek_text`` shows, block by block and where each goes, what the next request will carry. In
single-player trust mode the view is the GM's own, the truth about fakes included. The CLI's
``peek`` and the proxy's ``GET /v1/gm/chats/{chat}/prompt`` both read this.
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.engine import Engine
from middleware.gm_view import GMView
from middleware.json_input import JsonObject
from middleware.proxy.inject import InjectConfig, chat_view

RULES_WHERE = "merged into the first system message (after its own text; added when there is none)"
STATE_WHERE = "a system message just before the last player message"
STATE_IN_USER = "inside the last player message, before its text, fenced by <game-state>"


@dataclass(frozen=True, slots=True)
class Peek:
    """The view a chat's next turn will be sent, and where each block goes."""

    chat: str
    turn: int
    view: GMView
    config: InjectConfig

    def as_json(self) -> JsonObject:
        mode = self.config.mode
        return {"chat": self.chat, "turn": self.turn, "inject": mode,
                "rules": self.view.rules if mode != "off" else None,
                "state": self.view.state if mode == "full" else None,
                "where": {"rules": RULES_WHERE if mode != "off" else None,
                          "state": self._state_where() if mode == "full" else None},
                "text": peek_text(self)}

    def _state_where(self) -> str:
        return STATE_IN_USER if self.config.state_in_user else STATE_WHERE


async def peek(engine: Engine, chat: str, config: InjectConfig | None = None) -> Peek:
    """What ``chat``'s next turn will be sent (``GameError`` for a chat with no game): the turn
    after the last, or the last itself when it has no reply (the model failed on it, and the
    chat asking again plays it)."""
    config = config or InjectConfig()
    await engine.game(chat)
    last = await engine.store.last_turn(chat)
    row = await engine.store.get_turn(chat, last) if last else None
    turn = last if row is not None and row.selected is None else last + 1
    return Peek(chat, turn, await chat_view(engine, chat, turn, config), config)


def peek_text(seen: Peek) -> str:
    """The blocks as the model will read them, each under a line saying where it goes."""
    mode = seen.config.mode
    head = f"# chat {seen.chat}, turn {seen.turn}, --inject {mode}"
    if mode == "off":
        return f"{head}\nNothing is added: the request goes to the model as the client sends it."
    parts = [head, f"## rules block: {RULES_WHERE}", seen.view.rules]
    if mode == "full":
        state = seen.view.state
        if seen.config.state_in_user:
            state = f"<game-state>\n{state}\n</game-state>"
        parts += [f"## state block: {seen._state_where()}", state]
    return "\n\n".join(parts)
