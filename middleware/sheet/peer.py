"""Characters exported from the peer, read as tolerantly as the peer reads them (SPEC §10).

Transcripts are validated strictly (``party.read_party``, SHEET-TRN-05). State exported from the peer
(a game's character cards and its live state, SHEET-BUILD-04, SHEET-STORE-03) goes through here
instead (SHEET-TRN-05, last paragraph): nothing is refused. What cannot be read is replaced by its
default and reported as a warning, returned beside the character and logged with structlog:

- SHEET-BUILD-02: an envelope that does not parse is no sheet (the blank build);
- SHEET-BUILD-03: values of the wrong type or not finite read their defaults; unknown ids, unknown
  tiers, stale enum values and out-of-range numbers are kept as stored and read as the peer reads
  them (ignored, the first tier, the default, as they are);
- SHEET-STORE-04/05: a live blob outside the bounds starts blank; otherwise each entry on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from middleware.logs import get_logger
from middleware.names import normalize_name
from middleware.rules.ruleset import Ruleset
from middleware.sheet.peer_build import Notes, Stored, read_sheet, serialized_size
from middleware.sheet.peer_live import MAX_LIVE_BYTES, read_bag, read_live
from middleware.state import Character

MAX_NAME = 100
MAX_PARTY = 64
"""SHEET-STORE-04: a game's live state holds at most 64 characters' entries."""


@dataclass(frozen=True, slots=True)
class PeerCharacter:
    """A character read from the peer's shapes, and what could not be read as stored."""

    character: Character
    warnings: tuple[str, ...]


def read_peer_character(ruleset: Ruleset, name: str, *, sheet: object = None,
                        live: object = None, bag: object = (), player: bool = False) \
        -> PeerCharacter:
    """SHEET-BUILD-02/03, SHEET-STORE-04/05: one character from the peer's stored shapes.

    ``sheet`` is the stored envelope ``{v, build}`` (a card's ``rulesetSheet``), ``live`` the
    character's sparse live state, ``bag`` stacks in the transcript's shape (SHEET-TRN-04). Only a
    name with no letter or digit raises ``ValueError``: there is no one to read.
    """
    if not isinstance(name, str) or not normalize_name(name):
        raise ValueError(f"a character needs a name with a letter or digit; got {name!r}")
    said: list[str] = []
    notes = Notes("$", said)
    if len(name) > MAX_NAME:
        notes.at("name").warn(f"longer than {MAX_NAME} characters; cut")
        name = name[:MAX_NAME]
    character = Character(name=name, player=player is True,
                          sheet=read_sheet(sheet, notes.at("sheet")),
                          live=read_live(live, notes.at("live")),
                          bag=read_bag(bag, notes.at("bag")))
    return PeerCharacter(character, _logged(name, said))


def read_peer_party(ruleset: Ruleset, cards: Sequence[object], game_state: object = None,
                    ) -> tuple[tuple[Character, ...], tuple[str, ...]]:
    """SHEET-TRN-02/03, SHEET-BUILD-04, SHEET-STORE-03: the party from the peer's game cards.

    A card is ``{name, rulesetSheet}`` or ``{name, rulesetSheets: {<ruleset id>: …}}`` (the library
    shapes ``data.extensions`` and ``personaStats`` too), optionally ``player`` and ``bag``.
    ``game_state`` maps each normalized name to that character's live state. A card without a
    usable name, or sharing a normalized name with an earlier card, is dropped (the player's card
    wins a shared name, as the peer's persona does).
    """
    said: list[str] = []
    notes = Notes("$", said)
    chosen = _chosen_cards(cards, notes)
    lives = _lives(game_state, {key for key, _ in chosen}, notes.at("game_state"))
    party: list[Character] = []
    warnings = list(_logged("party", said))
    for key, card in chosen:
        player = card.get("player") is True and not any(m.player for m in party)
        if card.get("player") is True and not player:
            warnings.extend(_logged("party", [f"{key}: a second player card; read as a member"]))
        read = read_peer_character(ruleset, _name(card) or key, sheet=_card_sheet(card, ruleset),
                                   live=lives.get(key), bag=card.get("bag", ()), player=player)
        party.append(read.character)
        warnings.extend(read.warnings)
    return tuple(party), tuple(warnings)


def _chosen_cards(cards: object, notes: Notes) -> list[tuple[str, Stored]]:
    """Cards with a usable name, one per normalized name (the player's wins), at most 64."""
    if not isinstance(cards, Sequence) or isinstance(cards, str):
        notes.warn("the cards are not a list; no party")
        return []
    by_key: dict[str, tuple[int, Stored]] = {}
    for i, card in enumerate(cards):
        name = _name(card) if isinstance(card, dict) else None
        if name is None:
            notes.at(i).warn("a card without a name; dropped")
            continue
        key = normalize_name(name)
        if key in by_key and not (card.get("player") is True and
                                  by_key[key][1].get("player") is not True):
            notes.at(i).warn(f"same name as card {by_key[key][0]}; dropped")
            continue
        if key in by_key:
            notes.at(by_key[key][0]).warn(f"same name as the player's card {i}; dropped")
        by_key[key] = (i, card)
    ordered = sorted(by_key.items(), key=lambda kv: kv[1][0])
    if len(ordered) > MAX_PARTY:
        notes.warn(f"{len(ordered)} characters (at most {MAX_PARTY}); the rest dropped")
    return [(key, card) for key, (_, card) in ordered[:MAX_PARTY]]


def _name(card: Stored) -> str | None:
    data = card.get("data")
    name = card.get("name", data.get("name") if isinstance(data, dict) else None)
    return name if isinstance(name, str) and normalize_name(name) else None


def _card_sheet(card: Stored, ruleset: Ruleset) -> object:
    """SHEET-BUILD-04: the game copy, else the card's sheet for this ruleset's id."""
    if "rulesetSheet" in card:
        return card["rulesetSheet"]
    extensions = _object(_object(card.get("data")).get("extensions"))
    for holder in (card.get("rulesetSheets"), extensions.get("rulesetSheets"),
                   _object(card.get("personaStats")).get("rulesetSheets")):
        if isinstance(holder, dict):
            return _for_ruleset(holder, ruleset.id)
    return None


def _object(value: object) -> Stored:
    return value if isinstance(value, dict) else {}


def _for_ruleset(sheets: Stored, ruleset_id: str | None) -> object:
    """The sheet pinned to ``ruleset_id``: the exact key, else ``<owner>/<id>`` (``local/...``)."""
    if ruleset_id in sheets:
        return sheets[ruleset_id]
    return next((sheet for key, sheet in sheets.items()
                 if isinstance(key, str) and key.rpartition("/")[2] == ruleset_id), None)


def _lives(game_state: object, keys: set[str], notes: Notes) -> dict[str, object]:
    """SHEET-STORE-03/04: live states by normalized name; a state outside the bounds is refused."""
    if game_state is None:
        return {}
    if not isinstance(game_state, dict):
        return _all_blank("not an object", notes)
    fault = _game_fault(game_state)
    if fault:
        return _all_blank(fault, notes)
    out: dict[str, object] = {}
    for key, live in game_state.items():
        found = normalize_name(key) if isinstance(key, str) else ""
        if found not in keys or found in out:
            notes.at(str(key)).warn("no party member (or a second entry) by this name; dropped")
            continue
        out[found] = live
    return out


def _all_blank(fault: str, notes: Notes) -> dict[str, object]:
    notes.warn(f"{fault}; every character starts from the blank live state")
    return {}


def _game_fault(game_state: Stored) -> str | None:
    if len(game_state) > MAX_PARTY:
        return f"{len(game_state)} characters (at most {MAX_PARTY})"
    size = serialized_size(game_state)
    return f"{size} bytes serialized (at most {MAX_LIVE_BYTES})" if size > MAX_LIVE_BYTES else None


def _logged(who: str, said: list[str]) -> tuple[str, ...]:
    """Each warning as one structlog event, and the warnings prefixed with whose they are."""
    log = get_logger()
    for warning in said:
        log.warning("peer_state_tolerated", who=who, warning=warning)
    return tuple(f"{who}: {warning}" for warning in said)
