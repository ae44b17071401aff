"""Who may touch a game: the identity a request plays as, and the chat names it owns.

A request's identity comes from its ``Authorization`` header:

- With tokens of its own (``--auth-token``, ``--tokens-file``), the proxy admits only a bearer
  token it holds; each token plays as its player (a named line of the tokens file: every token
  of that name shares the player's games) or as itself. Any other header is refused (401).
- Without tokens of its own, any request is admitted and plays as its own ``Authorization``
  (hashed the same way as a token, so a client's games stay its own when the operator later
  issues it that token); a request without one (or with an empty ``Bearer``) plays in the open
  namespace.

A chat a client names (``X-GM-Chat``, the ``user`` field, the hash of its opening) is stored as
``@<24 hex digits>/<name>``, the hex a SHA-256 digest of the identity, never the credential
itself; the open namespace stores names as they are, and a name written in the scoped form is
refused there, so no client can name its way into another's game. Clients are shown their own
names (``shown``): the scope is the proxy's business.

Tokens are looked up by their SHA-256 digest, so no comparison runs over the token's bytes.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from middleware.errors import RequestError

SCOPE: Final = re.compile(r"@[0-9a-f]{24}/")
"""The start of a scoped chat id: ``@``, 24 hex digits of the identity's digest, ``/``."""

MAX_NAME: Final = 100
"""The longest player name a tokens file may give."""


@dataclass(frozen=True, slots=True)
class Identity:
    """Whose games a request plays: ``scope`` is the prefix of their chat ids ("" for open)."""

    scope: str = ""

    def chat(self, name: str) -> str:
        """The stored id of the chat this identity calls ``name``."""
        if SCOPE.match(name):
            raise RequestError("a chat name may not start with '@', 24 hex digits and '/' "
                               "(the form of the proxy's own chat ids)")
        return self.scope + name

    def owns(self, chat: str) -> bool:
        """Whether the stored chat ``chat`` is one of this identity's."""
        return chat.startswith(self.scope) if self.scope else SCOPE.match(chat) is None


OPEN: Final = Identity()
"""The identity of a request with no credential, on a proxy with no tokens of its own."""


def owner(chat: str) -> Identity:
    """The identity a stored chat belongs to."""
    found = SCOPE.match(chat)
    return Identity(found.group()) if found else OPEN


def shown(chat: str) -> str:
    """A stored chat id as its owner named it (the scope taken off)."""
    found = SCOPE.match(chat)
    return chat[found.end():] if found else chat


def of_token(token: str) -> Identity:
    """The identity of a bearer token (or of a client's whole ``Authorization`` value)."""
    return _scoped("token", token)


def of_player(name: str) -> Identity:
    """The identity of a named player of the tokens file."""
    return _scoped("player", name)


def _scoped(kind: str, secret: str) -> Identity:
    digest = hashlib.sha256(f"{kind}\0{secret}".encode()).hexdigest()
    return Identity(f"@{digest[:24]}/")


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def _not_bearer(header: str | None) -> str | None:
    """A credential of another scheme (``Basic ...``), whole; None for none or an empty bearer."""
    value = (header or "").strip()
    return value if value and value.partition(" ")[0].lower() != "bearer" else None


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class Access:
    """The proxy's own tokens (none: every request is admitted as its own credential)."""

    def __init__(self, tokens: Iterable[tuple[str, str | None]] = ()) -> None:
        """``tokens``: (token, player name or None) pairs."""
        self._players: dict[bytes, Identity] = {}
        for token, player in tokens:
            self._players[_digest(token)] = of_player(player) if player else of_token(token)

    @property
    def closed(self) -> bool:
        """Whether the proxy asks for a token of its own."""
        return bool(self._players)

    def identify(self, header: str | None) -> Identity | None:
        """Whose games a request with this ``Authorization`` plays; None: refused (401)."""
        token = bearer(header)
        if self.closed:
            return self._players.get(_digest(token)) if token else None
        given = token or _not_bearer(header)
        return of_token(given) if given else OPEN


class TokensFileError(ValueError):
    """A tokens file line that is not ``TOKEN [PLAYER NAME]`` (its line number in the text)."""


def read_tokens(path: Path) -> list[tuple[str, str | None]]:
    """The tokens of a tokens file: one ``TOKEN [PLAYER NAME]`` a line, ``#`` comments and
    blank lines skipped. ``OSError`` or ``UnicodeDecodeError`` when it cannot be read."""
    return parse_tokens(path.read_text(encoding="utf-8"))


def parse_tokens(text: str) -> list[tuple[str, str | None]]:
    """``read_tokens`` of the file's text; ``TokensFileError`` names the first bad line."""
    found: list[tuple[str, str | None]] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        token, *rest = line.split(None, 1)
        name = " ".join(rest[0].split()) if rest else ""
        if token in seen:
            raise TokensFileError(f"line {number}: this token is already on an earlier line")
        if len(name) > MAX_NAME or not name.isprintable():
            raise TokensFileError(f"line {number}: a player name is 1 to {MAX_NAME} "
                                  "printable characters")
        seen.add(token)
        found.append((token, name or None))
    if not found:
        raise TokensFileError("the file holds no token")
    return found
