"""Typed records: one per tag, what the engine decided and why (SPEC §6).

``model_dump()`` is the JSON form. ``tag_attrs()`` gives the attributes of the resolved tag in the
order the peer's record format uses; ``rewrite.py`` turns them into text. Values written into a
record never contain ``"``, ``[``, ``]`` or line breaks (``clean_value``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["resolved", "refused", "ignored", "error"]

_UNSAFE = re.compile(r'["\[\]\r\n\u2028\u2029]+')


def clean_value(value: object) -> str:
    """A record value with ``"``, ``[``, ``]`` and line breaks replaced by a space (SPEC §6)."""
    text = str(value)
    # Most values are already safe; the scan is cheaper than a substitution.
    if _UNSAFE.search(text) is None:
        return text.strip()
    return _UNSAFE.sub(" ", text).strip()


def clean_values(values: Iterable[object]) -> list[str]:
    """``clean_value`` of each value."""
    return [clean_value(value) for value in values]


def written_clean(body: str, values: int) -> bool:
    """Whether ``body``, ``values`` pairs ``key="value"`` joined by spaces, is already what writing
    every value through ``clean_value`` gives (SPEC §6), so a tag can be written in one pass.

    It is when its only quotes are the two around each value, it holds no bracket, every character
    is printable (line breaks, tabs and every whitespace but the space are not) and no value starts
    or ends with a space (``=" `` or `` "``). Each is one scan in C, cheaper than cleaning each value.
    """
    return (body.count('"') == 2 * values and "[" not in body and "]" not in body
            and body.isprintable() and '=" ' not in body and ' "' not in body)


def signed(number: int) -> str:
    """``4`` -> ``"4"``, ``-1`` -> ``"-1"``: the peer's plain signed integer."""
    return str(number)


def plus_signed(number: int) -> str:
    """``2`` -> ``"+2"``: the form of ``bonus`` and ``adjust``."""
    return f"{number:+d}"


VERIFY_TRUSTED = False
"""Set by the test suite: every ``Record.trusted`` record is also validated and must be equal."""


class Record(BaseModel):
    """What every tag yields: its family, status, refusal code, roller and the line for the GM."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    _defaults: ClassVar[dict[str, object]]
    _factories: ClassVar[tuple[tuple[str, Any], ...]]

    tag: str
    status: Status
    reason: str | None = None
    who: str | None = None
    feedback: str | None = None
    source: str = Field(default="", description="the tag exactly as the model wrote it")

    @classmethod
    def trusted(cls, **fields: object) -> Self:
        """A record from values the engine worked out itself, by field name, not validated.

        A resolver's record is built on every tag of every reply, and pydantic's validation of a
        fifty-field model costs more than the dice it records; ``model_construct`` walks every
        field in Python and costs more still. The values come from our own typed code, and the
        test suite (``VERIFY_TRUSTED``) validates every one of them and compares.
        """
        record = object.__new__(cls)
        values = {**(cls.__dict__.get("_defaults") or cls._learn_defaults()), **fields}
        for name, factory in cls._factories:
            if name not in fields:
                values[name] = factory()
        object.__setattr__(record, "__dict__", values)
        object.__setattr__(record, "__pydantic_fields_set__", set(fields))
        object.__setattr__(record, "__pydantic_extra__", None)
        object.__setattr__(record, "__pydantic_private__", None)
        if VERIFY_TRUSTED:
            checked = cls(**fields)
            if checked != record or list(checked.__dict__) != list(values):
                raise AssertionError(f"{cls.__name__}.trusted({fields}) is not {checked!r}")
        return record

    @classmethod
    def template(cls, **fields: object) -> dict[str, object]:
        """Every field's value in field order, the defaults with ``fields`` over them: what a
        kind works out once for many records (``trusted_values`` takes it with each record's own
        values over it)."""
        return {**(cls.__dict__.get("_defaults") or cls._learn_defaults()), **fields}

    @classmethod
    def trusted_values(cls, values: dict[str, object], given: frozenset[str]) -> Self:
        """``trusted(**{name: values[name] for name in given})``, from ``values``, a ``template``
        with the record's own values over it, taken as the record's fields: no keyword
        arguments are gathered and no defaults merged on each record. A field with a default
        factory not in ``given`` gets a new value, as with ``trusted``."""
        for name, factory in cls._factories:
            if name not in given:
                values[name] = factory()
        record = object.__new__(cls)
        object.__setattr__(record, "__dict__", values)
        object.__setattr__(record, "__pydantic_fields_set__", set(given))
        object.__setattr__(record, "__pydantic_extra__", None)
        object.__setattr__(record, "__pydantic_private__", None)
        if VERIFY_TRUSTED:
            fields = {name: values[name] for name in given}
            checked = cls(**fields)
            if checked != record or list(checked.__dict__) != list(values):
                raise AssertionError(f"{cls.__name__}.trusted_values({fields}) is not {checked!r}")
        return record

    @classmethod
    def _learn_defaults(cls) -> dict[str, object]:
        """Every field's default, in field order, kept on the class; a default factory is called
        per record instead (``_factories``)."""
        cls._factories = tuple((name, field.default_factory)
                               for name, field in cls.model_fields.items()
                               if field.default_factory is not None)
        cls._defaults = {name: field.get_default(call_default_factory=False)
                         for name, field in cls.model_fields.items()}
        return cls._defaults

    def tag_attrs(self) -> list[tuple[str, str]]:
        """Attributes of the resolved tag, in order; empty means 'leave the tag as written'."""
        return []

    def tag_groups(self) -> list[list[tuple[str, str]]]:
        """The resolved tags written in place of this one, each as its attributes (usually one;
        an inventory tag that moved goods into several bags writes one per bag)."""
        return [self.tag_attrs()]

    def written_as(self) -> str | None:
        """The tag name the resolved tags are written under; None keeps the tag's own (a loot
        drop is answered as the inventory adds it made, SPEC §6)."""
        return None


class IgnoredRecord(Record):
    """A tag that is not usable (malformed, or an unknown family): left as text."""

    status: Status = "ignored"


class ErrorRecord(Record):
    """A resolver failed on this tag: the tag stays as written, the rest of the reply goes on."""

    status: Status = "error"


def model_json(model: BaseModel, *, exclude_none: bool = False) -> str:
    """``model.model_dump_json(exclude_none=...)``, the same text, asked of pydantic's serializer
    directly: the method passes fifteen options through Python on every call, and the engine
    writes a record per tag and a state per reply."""
    return model.__pydantic_serializer__.to_json(model, exclude_none=exclude_none).decode()
