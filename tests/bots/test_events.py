"""The two between-turn events the bots write: ``said`` keeps a player's message and changes no
state; ``speaker`` makes a party member the player (the default ``who=``) from the next turn."""

from __future__ import annotations

import pytest

from middleware.character.events import apply_event
from middleware.errors import GameError
from middleware.state import GameState
from tests.bots.conftest import lantern, lantern_party


def test_said_changes_nothing_and_speaker_moves_the_player() -> None:
    """A said event leaves the state equal; a speaker event marks only that member the player
    (named without case), keeps the party's order, and refuses a name nobody answers to."""
    ruleset = lantern()
    state = GameState(ruleset=ruleset.id, party=lantern_party(ruleset))
    said = apply_event(ruleset, state, {"type": "said", "text": "I climb.", "by": "1"})
    assert state == said
    moved = apply_event(ruleset, state, {"type": "speaker", "who": "tobiah crane"})
    assert ["Tobiah Crane"] == [m.name for m in moved.party if m.player]
    assert [m.name for m in state.party] == [m.name for m in moved.party]
    with pytest.raises(GameError, match="not exactly one party member"):
        apply_event(ruleset, state, {"type": "speaker", "who": "Nobody"})
