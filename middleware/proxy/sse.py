"""Server-sent events read from bytes as they arrive (the WHATWG ``text/event-stream`` format);
pure, no I/O.

``EventReader.feed`` takes what one network read brought and gives the data of every event it
completed, so the proxy can answer each read with one event of its own. Lines end at CR, LF or
CRLF and nowhere else (a raw U+2028 or U+0085 is data); a CR that ends one read waits for the next
in case an LF follows. Only ``data`` fields are kept (joined by LF); comments, ``event``, ``id`` and
``retry`` are read past, and an event without data is no event. An event is bounded:
``EventTooLong`` past ``MAX_EVENT`` bytes.
"""

from __future__ import annotations

import re
from typing import Final

MAX_EVENT: Final = 8 * 1024 * 1024
"""The most bytes an event (or a line still unended) may hold."""

_LINE_END: Final = re.compile(rb"\r\n|\r|\n")


class EventTooLong(ValueError):
    """An event, or a line, longer than ``MAX_EVENT`` bytes."""


class EventReader:
    """One stream's events, read a network read at a time."""

    def __init__(self) -> None:
        self._rest = b""
        self._data: list[bytes] = []
        self._size = 0

    def feed(self, data: bytes) -> list[bytes]:
        """The data of every event ``data`` completes, in order."""
        lines = self._lines(self._rest + data)
        if len(self._rest) > MAX_EVENT:
            raise EventTooLong(f"a line longer than {MAX_EVENT} bytes")
        events: list[bytes] = []
        for line in lines:
            if not line:
                if self._data:
                    events.append(b"\n".join(self._data))
                    self._data, self._size = [], 0
            elif line[:6] == b"data: ":  # the field as servers write it: read once per event
                self._add(line[6:])
            elif line.startswith(b"data"):
                self._field(line)
        return events

    def _lines(self, buffer: bytes) -> list[bytes]:
        """The lines ``buffer`` ends; what follows the last line end is kept for the next read."""
        if b"\r" not in buffer:  # the usual stream, LF alone: split without the pattern
            *lines, self._rest = buffer.split(b"\n")
            return lines
        held = buffer[-1:] == b"\r"  # maybe the first half of a CRLF
        *lines, rest = _LINE_END.split(buffer[:-1] if held else buffer)
        self._rest = rest + b"\r" if held else rest
        return lines

    def _field(self, line: bytes) -> None:
        name, colon, value = line.partition(b":")
        if name != b"data":
            return  # another field whose name starts with "data"
        self._add(value[1:] if colon and value[:1] == b" " else value)

    def _add(self, value: bytes) -> None:
        self._size += len(value) + 1
        if self._size > MAX_EVENT:
            raise EventTooLong(f"an event longer than {MAX_EVENT} bytes")
        self._data.append(value)
