"""What the model is sent for a bot's turn (pure): the GM's view and the conversation.

A ``PromptBuilder`` makes the GM's view of a game: a rules block that stays the same every turn
and a state block that follows the game. The table uses ``middleware.gm_view.build_view``, the
same view the proxy sends; another builder of that signature may be injected.

``messages`` lays a turn out for an OpenAI-compatible model: the rules as the first system message,
then every earlier turn (the player's line, the kept candidate as the assistant's reply, resolved
tags and all), then the state block as a system message and the player's newest line. The rules
and the history before the newest turn are a stable prefix, so a server's prompt cache keeps them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from middleware.bots.conversation import Line
from middleware.gm_view import ViewOptions
from middleware.records import Record
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState


class GMView(Protocol):
    """The GM's view: ``rules`` (the same every turn) and ``state`` (this turn's game)."""

    @property
    def rules(self) -> str: ...

    @property
    def state(self) -> str: ...


class PromptBuilder(Protocol):
    """Builds the GM's view from the ruleset, the turn-start state and the last kept records."""

    def __call__(self, ruleset: Ruleset, state: GameState, records: Iterable[Record] = (),
                 options: ViewOptions | None = None, *, seed: int = 0) -> GMView: ...


def player_line(line: Line) -> str:
    """A player's turn as the model reads it: who plays whom, then what they wrote."""
    if line.who and line.name:
        return f"{line.name} (as {line.who}): {line.text}"
    if line.who or line.name:
        return f"{line.who or line.name}: {line.text}"
    return line.text


def messages(view: GMView, history: Sequence[Line], newest: Line) -> list[dict[str, str]]:
    """The chat messages of a turn: rules, the earlier turns, the state block, the newest line."""
    sent = [{"role": "system", "content": view.rules}]
    for line in history:
        sent.append({"role": "user", "content": player_line(line)})
        if line.reply is not None:
            sent.append({"role": "assistant", "content": line.reply})
    sent.append({"role": "system", "content": view.state})
    sent.append({"role": "user", "content": player_line(newest)})
    return sent
