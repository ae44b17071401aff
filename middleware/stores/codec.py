"""JSON to and from the text every store keeps (SPEC §2: rows read back equal rows written).

Both stores keep JSON as text, so the memory store and SQLite give back the same values (tuples
come back as lists, for example) and no caller can alias stored data. The encoder is built once:
``json.dumps`` with options builds a new encoder on every call.
"""

from __future__ import annotations

import json
from typing import Any

from middleware.errors import StoreError

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_DECODER = json.JSONDecoder()


def encode_json(value: Any, what: str) -> str:
    """``value`` as compact JSON text; ``StoreError`` naming ``what`` if it is not JSON."""
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError, RecursionError) as exc:
        raise StoreError(f"cannot store {what}: {exc}") from exc


def decode_json(text: str) -> Any:
    """The JSON value of text written by ``encode_json``."""
    return _DECODER.decode(text)
