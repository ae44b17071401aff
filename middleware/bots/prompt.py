"""What the model is sent for a bot's turn (pure): the GM's view and the conversation.

A ``PromptBuilder`` makes the GM's view of a game, ``View(rules, state)``: a rules block that stays
the same every turn and a state block that follows the game. The table takes one injected (the
signature of ``middleware.gm_view.build_view``); ``plain_view`` is its own small default: a
system prompt naming the tags and the ruleset's skills, the party and the place.

``messages`` lays a turn out for an OpenAI-compatible model: the rules as the first system message,
then every earlier turn (the player's line, the kept candidate as the assistant's reply, resolved
tags and all), then the state block as a system message and the player's newest line. The rules
and the history before the newest turn are a stable prefix, so a server's prompt cache keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from middleware.bots.conversation import Line
from middleware.items.loot import loot_instructions
from middleware.items.money import money_instructions, purse_lines
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

    def __call__(self, ruleset: Ruleset, state: GameState, records: Sequence[Record],
                 options: Mapping[str, Any]) -> GMView: ...


@dataclass(frozen=True, slots=True)
class View:
    """A GM's view as ``plain_view`` builds it."""

    rules: str
    state: str


TAGS = """You are the Game Master of a tabletop game played in a group chat. Narrate, and where the
rules must decide, write a tag; the engine throws every die and answers the tag with its result:
[skill_check: skill="…" dc="N" who="…"] a check by a party member
[inventory: action="add|remove|give|buy|sell|pay|earn|use|equip" item="…" count="N" who="…"]
[place: name="…" size="…"] the scene moves to a place
[loot: table="…" who="…"] something found
Never write a result yourself: stop after the tag's scene-setting and let the dice speak."""


def plain_view(ruleset: Ruleset, state: GameState, records: Sequence[Record],
               options: Mapping[str, Any]) -> View:
    """The table's own small GM's view: the tags, the ruleset's skills and saves, the party."""
    sheet = ruleset.sheet
    parts = [TAGS, f"Ruleset: {ruleset.name}."]
    if sheet.skills:
        parts.append("Skills: " + ", ".join(s.label for s in sheet.skills) + ".")
    if sheet.saves:
        parts.append("Saves: " + ", ".join(s.label for s in sheet.saves) + ".")
    parts += [text for text in (money_instructions(ruleset), loot_instructions(ruleset)) if text]
    return View(rules="\n\n".join(parts), state=state_block(ruleset, state, records))


def state_block(ruleset: Ruleset, state: GameState, records: Sequence[Record]) -> str:
    """The party (the player first), the place in force, purses, and what the last reply did."""
    player = state.player_index
    lines = ["GAME STATE"]
    if state.party:
        names = [m.name + (" (speaking now)" if i == player else "")
                 for i, m in enumerate(state.party)]
        lines.append("Party: " + ", ".join(names) + ".")
    if state.place is not None:
        lines.append(f"Place: {state.place.name}, market day {state.place.day}.")
    lines += [f"Purse of {name}: {purse}." for name, purse in purse_lines(ruleset, state)]
    lines += [f"Last reply: {r.feedback}" for r in records if r.feedback]
    return "\n".join(lines)


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
