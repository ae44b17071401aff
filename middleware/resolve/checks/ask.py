"""What the Game Master asked on a ``[skill_check:]`` tag, and the difficulty it is read against.

``read_ask`` reads the tag (CHK-COMMON-08..12, SPEC §1b; a model's own ``rolls=``/``total=``/
``result=`` are never read, SPEC §3); ``pick_difficulty`` turns ``dc=`` or ``difficulty=`` into the
number every kind reads its dice against (CHK-COMMON-08/09/11).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from middleware.names import normalize_name
from middleware.resolve.checks.record import Ask
from middleware.rules.common import DcRung, Rung
from middleware.rules.resolution import AnyResolution
from middleware.segments import Tag

DC_LIMIT = 1000
"""A dice-sum ``dc=`` is held to ±1000, the range a ladder rung's ``dc`` may take in the file."""

_LEANS = ("advantage", "disadvantage")

_WHOLE = re.compile(r"[-+]?\d+")


class Difficulty(NamedTuple):
    """The number a check is read against, the rung that gave it (if any) and a note for the GM.

    A named tuple, not a frozen dataclass: one is built per check."""

    dc: int
    rung: str | None = None
    note: str | None = None


def read_ask(tag: Tag) -> Ask | None:
    """What the GM asked (CHK-COMMON-08..12, SPEC §1b); None when no skill is named."""
    attrs = tag.attrs
    skill = attrs.get("skill", "").strip()
    if not skill:
        return None
    dc_text = attrs.get("dc")
    dc = _number(dc_text) if dc_text else None
    difficulty = attrs.get("difficulty")
    if dc is None and dc_text and not difficulty:
        difficulty = dc_text  # dc="Hard": the model named a rung in the wrong attribute
    words = {w.lower() for w in tag.words} if tag.words else frozenset()
    mode = attrs.get("mode", "").strip().lower()
    leans = tuple(lean for lean in _LEANS if lean == mode or lean in words) if mode or words else ()
    # The tag's attrs are handed on as they are: a Tag is never changed after parsing. Positional,
    # in field order (skill, who, dc, difficulty, with_, leans, save_hint, attrs, source): by
    # keyword the ask costs twice as much.
    return Ask(skill, _blank_none(attrs.get("who")), dc, _blank_none(difficulty),
               _blank_none(attrs.get("with")), leans, "save" in words, attrs, tag.raw)


def pick_difficulty(ask: Ask, resolution: AnyResolution, fallback: int,
                    ladder: Sequence[Rung] | None = None) -> Difficulty:
    """CHK-COMMON-08/09, CHK-SUM-10: ``dc=`` wins, else the named rung, else our default.

    Without either, the middle rung of the ladder (our choice: the GM asked for an ordinary
    check), else ``fallback``. A ``dc`` is clamped to ±1000 (CHK-COMMON-11). ``ladder`` is the
    game's (``rules.layers.ladder_of``); without it, the resolution's own. Only rungs with a
    ``dc`` count (a dice-pool's rungs count successes instead).
    """
    if ask.dc is not None:
        return _held(ask.dc)
    rungs = tuple(r for r in resolution.difficulty_ladder if isinstance(r, DcRung)) \
        if ladder is None else tuple(r for r in ladder if isinstance(r, DcRung))
    return _from_ladder(ask, rungs, fallback)


def _from_ladder(ask: Ask, ladder: tuple[DcRung, ...], fallback: int) -> Difficulty:
    rung = _rung(ladder, ask.difficulty)
    unknown = f'difficulty "{ask.difficulty}" names no rung; ' if ask.difficulty else ""
    if rung is not None:
        return Difficulty(int(rung.dc), rung.label)
    if ladder:
        middle = ladder[(len(ladder) - 1) // 2]
        note = _sentence(f"{unknown}no difficulty given: used {middle.label} (dc {middle.dc}).")
        return Difficulty(dc=int(middle.dc), rung=middle.label, note=note)
    note = _sentence(f"{unknown}no difficulty given: used dc {fallback}.")
    return Difficulty(dc=fallback, note=note)


def _held(dc: int) -> Difficulty:
    """CHK-COMMON-11: the GM's ``dc``, held to ±1000 (and the GM told when it was)."""
    if -DC_LIMIT <= dc <= DC_LIMIT:
        return Difficulty(dc)
    held = max(-DC_LIMIT, min(DC_LIMIT, dc))
    return Difficulty(held, note=f"dc {dc} clamped to {held}.")


def _rung(ladder: tuple[DcRung, ...], label: str | None) -> DcRung | None:
    """CHK-COMMON-08: the one rung whose label matches; none when no rung or two share it."""
    if not label:
        return None
    wanted = normalize_name(label)
    found = [r for r in ladder if normalize_name(r.label) == wanted]
    return found[0] if len(found) == 1 else None


def _number(text: str) -> int | None:
    """The first whole number in ``text`` (``"15"``, ``"DC 15"``, ``"+3"``), else None."""
    if text.isdecimal():
        return int(text)  # the usual dc="15": the same digits ``\d+`` reads, without the search
    match = _WHOLE.search(text)
    return int(match.group()) if match else None


def _blank_none(text: str | None) -> str | None:
    return text.strip() or None if text is not None else None


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
