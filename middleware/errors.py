"""Every exception gm-middleware raises on purpose.

Game outcomes (a refused purchase, a failed check) are records, never exceptions. Exceptions are for
bad configuration, bad saved data and bugs::

    GMError
    ├── RulesetError        a ruleset file is refused at import (every problem, with its JSON path)
    │   └── UnreadableRuleset   ... because it could not be read at all (also an ``Unreadable``)
    ├── TranscriptError     a transcript line is malformed (line number, JSON path)
    │   ├── ExpectationError    a replayed candidate did not match the line's ``expect``
    │   └── UnreadableTranscript  a line could not be read at all (also an ``Unreadable``)
    ├── GameError           an API call names a game, turn or candidate that does not exist
    ├── DiceError           a scripted face is outside its die
    ├── StoreError          the store could not read or write (the foreign error is chained)
    │   └── StaleStart          a candidate's turn-start state changed since it was read
    ├── RequestError        a proxy request is malformed (answered 400)
    │   └── RequestTooLarge     its body is over the proxy's limit (answered 413)
    └── UpstreamError       the upstream model server failed, refused or was unreachable
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a file: where (a JSON path such as ``$.resolution.dice.count``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class GMError(Exception):
    """The root of every exception raised on purpose."""


class RulesetError(GMError):
    """A ruleset was refused at import; ``problems`` lists every problem with its JSON path."""

    def __init__(self, problems: list[Problem], source: str = "ruleset") -> None:
        self.problems = problems
        self.source = source
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"{source} refused: {len(problems)} problem(s)\n{lines}")


class TranscriptError(GMError):
    """A transcript line could not be read; names the line (1-based) and, when known, the JSON path."""

    def __init__(self, message: str, line: int | None = None, path: str | None = None) -> None:
        self.line = line
        self.path = path
        where = f"line {line}" if line is not None else "transcript"
        if path:
            where += f" at {path}"
        super().__init__(f"{where}: {message}")


class Unreadable(GMError):
    """Input that could not be read at all: missing, not UTF-8, not JSON, or JSON past the bounds
    of ``middleware.json_input`` (nesting, ``NaN``, numbers of hundreds of digits). The CLI exits
    3 on it, apart from refused contents (1, 2)."""


class UnreadableRuleset(RulesetError, Unreadable):
    """A ruleset that could not be read at all (one problem at ``$`` says why)."""


class UnreadableTranscript(TranscriptError, Unreadable):
    """A transcript line that could not be read at all (the line number says which)."""


class ExpectationError(TranscriptError):
    """A replayed candidate did not match its line's ``expect``; ``diff`` is readable text."""

    def __init__(self, diff: str, line: int) -> None:
        self.diff = diff
        super().__init__(f"expectation failed\n{diff}", line=line)


class GameError(GMError):
    """An API call named a game, turn or candidate that does not exist."""


class DiceError(GMError):
    """A scripted face is outside the die it was thrown for."""


class StoreError(GMError):
    """A store could not read or write; the underlying error is chained with ``from``."""


class StaleStart(StoreError):
    """A candidate was not stored: the state its turn starts from changed since it was read (a
    writer elsewhere selected, added an event). The engine reads the state again and retries."""


class RequestError(GMError):
    """A request to the proxy is malformed: not JSON, no messages, no player message (SPEC §7)."""


class RequestTooLarge(RequestError):
    """A request body is longer than the proxy accepts (SPEC §8)."""


class UpstreamError(GMError):
    """The upstream model server could not be reached or answered with an error (SPEC §7).

    ``status`` is the upstream's HTTP status when it answered, else None; ``retry_after`` its
    ``Retry-After`` header; ``timed_out`` says it did not answer in time; ``code`` is the error
    code it gave (a short identifier, never its message). The foreign error (an aiohttp error, bad
    JSON) is chained with ``from``.
    """

    def __init__(self, message: str, status: int | None = None, *, retry_after: str | None = None,
                 timed_out: bool = False, code: str | None = None) -> None:
        self.status = status
        self.retry_after = retry_after
        self.timed_out = timed_out
        self.code = code
        super().__init__(message)
