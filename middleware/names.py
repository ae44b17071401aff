"""How the game compares names: one normaliser for characters, skills, items, sellers and places.

``who=``, ``skill=``, ``item=``, ``seller=``, ``table=``, ``size=`` and every label they are matched
against go through ``normalize_name`` (SPEC §1b, SHEET-CHK-02, ITM-BAG-04): no case, no accents,
no punctuation, and an apostrophe joins the letters around it (``Widow's ring`` = ``widows ring``,
``O'Brien`` = ``obrien``), so a name the model writes with or without one finds the same thing.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_APOSTROPHES = str.maketrans("", "", "'\u2019\u02bc`")


@lru_cache(maxsize=8192)
def normalize_name(name: str) -> str:
    """NFKD, combining marks and apostrophes dropped, lowercase, other non-alphanumeric runs to
    one space (SHEET-CHK-02)."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_APOSTROPHES))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    out: list[str] = []
    gap = False
    for char in plain:
        if char.isalnum():
            if gap and out:
                out.append(" ")
            out.append(char)
            gap = False
        else:
            gap = True
    return "".join(out)
