"""The ``skill_check`` record and the ask it answers (SPEC §6, CHK-REC).

``Ask`` is what the Game Master wrote, read once and never believed about results (SPEC §3: a
model-written ``rolls=``/``total=``/``result=`` is dropped). ``CheckRecord`` is what the engine
decided; ``tag_attrs()`` renders it in exactly the peer's attribute order so chat UIs that draw the
peer's dice cards keep working.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from operator import itemgetter
from types import MappingProxyType
from typing import Literal, NamedTuple

from pydantic import Field

from middleware.records import Record, plus_signed, signed

Mode = Literal["normal", "advantage", "disadvantage"]
Critical = Literal["success", "failure"]

HEAD = ("skill", "dc", "rolls", "used", "modifier", "total", "result", "mode", "resolution", "dice")
"""SPEC §6: the fixed head of a resolved check tag."""

EXTRAS = (
    "threshold", "pool", "who", "with", "bonus", "spend", "auto", "use", "rerolled", "penalty",
    "difficulty", "explode", "double", "complication", "adjust", "reroll", "reason", "effects",
    "from", "automatic", "outcome", "unmodified", "exact", "highest", "zeroDice", "dark",
    "darkHighest", "darkOutcome", "against", "symbols", "thrown", "symbolDetails", "setback",
    "upgradeOwn", "chance",
)
"""SPEC §6: the extras, in order, each written only when it applies."""

_FIELD = {"with": "with_", "from": "from_", "zeroDice": "zero_dice", "darkHighest": "dark_highest",
          "darkOutcome": "dark_outcome", "symbolDetails": "symbol_details",
          "upgradeOwn": "upgrade_own"}
_PLUS = frozenset({"bonus", "adjust"})
_EXTRA_VALUES = itemgetter(*(_FIELD.get(name, name) for name in EXTRAS))
"""A record's extras' values, in ``EXTRAS`` order, read from its fields in one call."""

NO_ATTRS: Mapping[str, str] = MappingProxyType({})
"""The attributes of an ``Ask`` made with none: one shared mapping no one can change."""


class Ask(NamedTuple):
    """What the GM wrote on one ``[skill_check:]``, read tolerantly (SPEC §1b, CHK-COMMON).

    ``dc`` is the written number (None when absent or unreadable), ``difficulty`` a rung label,
    ``leans`` every ``advantage``/``disadvantage`` the GM asked for (``mode=`` and bare words).
    Anything else the tag carries is ignored here. A named tuple, not a frozen dataclass: one is
    built per check (change one with ``_replace``).
    """

    skill: str
    who: str | None = None
    dc: int | None = None
    difficulty: str | None = None
    with_: str | None = None
    leans: tuple[str, ...] = ()
    save_hint: bool = False
    attrs: Mapping[str, str] = NO_ATTRS
    """Every attribute the tag declared (lowercased keys): each kind reads its own from here."""
    source: str = ""
    """The tag exactly as the GM wrote it (the record's ``source``)."""


class CheckRecord(Record):
    """One resolved (or refused) skill check: every field the rewritten tag shows (CHK-REC)."""

    tag: str = "skill_check"
    skill: str = ""
    rolls: list[int] = Field(default_factory=list)
    used: int | None = None
    modifier: int = 0
    total: int | None = None
    dc: int | None = None
    success: bool | None = None
    outcome: str | None = None
    critical: Critical | None = None
    mode: Mode = "normal"
    resolution: Literal["sum", "successes"] = "sum"
    dice: str = ""
    tier: str | None = Field(default=None, description="the tier id the check landed in")
    tier_text: str | None = None
    # SPEC §6 extras; None means "does not apply" and is never rendered.
    threshold: int | None = None
    pool: int | None = None
    with_: str | None = None
    bonus: int | None = None
    spend: str | None = None
    auto: int | None = None
    use: str | None = None
    rerolled: int | None = None
    penalty: int | None = None
    difficulty: str | None = None
    explode: int | None = None
    double: int | None = None
    complication: bool | None = None
    adjust: int | None = None
    reroll: str | None = None
    effects: str | None = None
    from_: str | None = None
    automatic: bool | None = None
    unmodified: int | None = None
    exact: int | None = None
    highest: int | None = None
    zero_dice: bool | None = None
    dark: int | None = None
    dark_highest: bool | None = None
    dark_outcome: str | None = None
    against: str | None = None
    symbols: str | None = None
    thrown: str | None = None
    symbol_details: str | None = None
    setback: int | None = None
    upgrade_own: int | None = None
    chance: float | None = None

    @property
    def result(self) -> str | None:
        """SPEC §6 ``result``: success, failure, critical_success or critical_failure."""
        if self.success is None:
            return None
        word = "success" if self.success else "failure"
        return f"critical_{word}" if self.critical else word

    def tag_attrs(self) -> list[tuple[str, str]]:
        """The resolved tag's attributes in SPEC §6 order; a refusal is the ask plus its reason."""
        # Every field is read from ``__dict__``: a pydantic model's ``__getattr__`` hook makes
        # each attribute read cost several times a dict read, and a check writes a dozen.
        fields = self.__dict__
        if fields["status"] != "resolved":
            return self._ask_attrs() if fields["status"] == "refused" else []
        return [
            ("skill", fields["skill"]), ("dc", _text(fields["dc"])),
            ("rolls", "|".join(map(str, fields["rolls"]))), ("used", _text(fields["used"])),
            ("modifier", signed(fields["modifier"])), ("total", _text(fields["total"])),
            ("result", self.result or ""), ("mode", fields["mode"]),
            ("resolution", fields["resolution"]), ("dice", fields["dice"]),
            *self._extras(),
        ]

    def _ask_attrs(self) -> list[tuple[str, str]]:
        attrs = [("skill", self.skill)]
        if self.dc is not None:
            attrs.append(("dc", str(self.dc)))
        return attrs + self._extras()

    def _extras(self) -> list[tuple[str, str]]:
        # Every extra is a plain field, their values read in one call: a dict look-up per extra
        # cost more than writing the handful a check sets.
        values = _EXTRA_VALUES(self.__dict__)
        return [(name, _extra_text(name, value))
                for name, value in zip(EXTRAS, values, strict=True) if value is not None]


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


def _extra_text(name: str, value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if name == "chance" and isinstance(value, float):
        # -0.0 is a key equal to 0.0 and written otherwise: a chance is never below 0, but a
        # cached text must be the one its own value gives
        return _tag_chance(value) if value > 0 else format_chance(value)
    if isinstance(value, int):
        return plus_signed(value) if name in _PLUS else signed(value)
    return str(value)


@lru_cache(maxsize=1024)
def _tag_chance(chance: float) -> str:
    """``format_chance`` on a tag, once per chance: a check's chance is worked out once per
    (sheet, dc, mode) and written on every record of it, three formats each time."""
    return format_chance(chance)


def format_chance(chance: float, spec: str = ".4f") -> str:
    """The exact probability written with ``spec`` (four decimals on the tag, ``.1%`` on a
    card), never rounded to a false 0 or 1: below the least step it can write, ``<`` that step
    (``<0.0001``, ``<0.1%``); above the most short of 1, ``>`` that (``>0.9999``, ``>99.9%``)."""
    text = format(chance, spec)
    step = 10.0 ** -int(spec[1:-1]) / (100 if spec.endswith("%") else 1)
    if text == format(0.0, spec) and chance > 0:
        return "<" + format(step, spec)
    if text == format(1.0, spec) and chance < 1:
        return ">" + format(1 - step, spec)
    return text
