"""The pieces both blocks are made of: named parts, prompt-safe text, caps and the budget.

A block is a list of ``Part`` (a heading and its lines). Every part is held to its cap and the block
to its budget by cutting whole lines from the end, deterministically, with a marker line that says
how much was left out, so the model knows the list goes on and a person reading the prompt sees
where. Text we put in from a game (character and place names) goes through ``safe`` first: one
line, no control characters, no ``[``/``]`` (they would read as a tag) and no ``{{``/``}}`` (they
would read as a template macro in a chat UI), as SHEET-FILE-04 asks of every label.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

_UNSAFE = re.compile(r"[\x00-\x1f\x7f]+")
_BRACES = re.compile(r"\{\{|\}\}")


def safe(text: str) -> str:
    """``text`` as one prompt-safe line: controls to spaces, ``[ ]`` to ``( )``, no ``{{ }}``."""
    one = _UNSAFE.sub(" ", text).replace("[", "(").replace("]", ")")
    return " ".join(_BRACES.sub("", one).split())


@dataclass(frozen=True, slots=True)
class Part:
    """One named part of a block: ``name`` picks its cap, ``lines`` are its text."""

    name: str
    heading: str
    lines: tuple[str, ...]

    def text(self) -> str:
        return "\n".join((self.heading, *self.lines)) if self.heading else "\n".join(self.lines)


@dataclass(frozen=True, slots=True)
class ViewOptions:
    """Caps for the GM's view, in characters.

    ``part_cap`` holds every part (``caps`` overrides it by part name, e.g. ``{"bags": 8000}``);
    ``budget`` holds both blocks together. The rules block is cut to the budget first, from the
    ruleset alone, so it stays byte-identical from turn to turn; the state block has what is left.
    ``tools``: the game is played in tool mode (``serve --tools``), so the rules block teaches
    function calls and no tags (``rules_tools``).
    """

    part_cap: int = 6000
    budget: int = 32000
    caps: Mapping[str, int] = field(default_factory=dict)
    tools: bool = False

    def cap_for(self, name: str) -> int:
        return self.caps.get(name, self.part_cap)


def cut_lines(lines: tuple[str, ...], cap: int, what: str) -> tuple[str, ...]:
    """``lines`` whose joined length (with newlines) is at most ``cap``: whole lines from the end
    are dropped and a marker line says how many, e.g. ``… (cut: 12 more lines of bags)``."""
    if _size(lines) <= cap:
        return lines
    best: tuple[str, ...] | None = None
    used = -1  # the joined length of the first ``kept`` lines (-1: none, no newline yet)
    for kept in range(len(lines)):
        marker = f"… (cut: {len(lines) - kept} more lines of {what})"
        if used + 1 + len(marker) <= cap:
            best = (*lines[:kept], marker)
        used += len(lines[kept]) + 1
        if used > cap:
            break
    if best is not None:
        return best
    marker = f"… (cut: {len(lines)} lines of {what})"
    return (marker[:cap],) if cap > 0 else ()


def capped(parts: Iterable[Part], options: ViewOptions) -> list[Part]:
    """Every part held to its own cap (heading included)."""
    out: list[Part] = []
    for part in parts:
        room = options.cap_for(part.name) - (len(part.heading) + 1 if part.heading else 0)
        out.append(Part(part.name, part.heading, cut_lines(part.lines, max(room, 0), part.name)))
    return out


def joined(parts: Iterable[Part], budget: int, title: str) -> str:
    """The block: ``title`` and the parts separated by blank lines, within ``budget``. Past the
    budget, parts are cut from the last one back (the first parts are the most needed)."""
    listed = [p for p in parts if p.lines]
    text = _render(title, listed)
    while len(text) > budget and listed:
        excess = len(text) - budget
        last = listed[-1]
        room = _size(last.lines) - excess
        if room < 40:
            listed.pop()
            listed.append(Part(last.name, "", (f"… (cut: {last.name} left out for length)",)))
            text = _render(title, listed)
            if len(text) > budget:
                listed.pop()
                text = _render(title, listed)
            continue
        listed[-1] = Part(last.name, last.heading, cut_lines(last.lines, room, last.name))
        text = _render(title, listed)
    return text if len(text) <= budget else text[:budget]


def _render(title: str, parts: list[Part]) -> str:
    return "\n\n".join([title, *(p.text() for p in parts)])


def _size(lines: Iterable[str]) -> int:
    listed = list(lines)
    return sum(len(line) for line in listed) + max(len(listed) - 1, 0)
