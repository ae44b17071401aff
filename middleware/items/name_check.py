"""An item name names something only when it carries a letter or a digit (SPEC §1b).

Names are compared without case, accents or punctuation, so a name of punctuation alone (``?``,
``—``, ``...``, ``;``) compares equal to every other such name and to the empty one: it used to
pick the first stack of a bag. Such a name is refused ``unknown-item`` wherever an item is looked
up by name.
"""

from __future__ import annotations


def names_something(name: str | None) -> bool:
    """Whether ``name`` has a letter or a digit in any script (``str.isalnum``)."""
    return name is not None and any(char.isalnum() for char in name)
