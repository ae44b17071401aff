"""Bot faces: a game master's table for chat platforms, and thin adapters onto it.

``Table`` is framework-neutral (it holds the conversation in the engine's store, asks the model,
resolves and stores the reply). The adapters mount it the way each framework's users expect; each
imports its framework only when it is imported itself (an optional extra, ``extras.require``):

- ``middleware.bots.aiogram_router.table_router``: an aiogram 3 ``Router``;
- ``middleware.bots.ptb_handlers.add_table_handlers``: python-telegram-bot handlers in a group;
- ``middleware.bots.discord_cog.TableCog``: a discord.py 2 ``Cog``.
"""

from middleware.bots.played import Display, NotNow, Played, Pressed, as_resolved
from middleware.bots.post import Button, dice_card, read_button, split_text
from middleware.bots.prompt import GMView, PromptBuilder
from middleware.bots.seats import Speaker
from middleware.bots.table import Table, TableConfig

__all__ = [
    "Button",
    "Display",
    "GMView",
    "NotNow",
    "Played",
    "Pressed",
    "PromptBuilder",
    "Speaker",
    "Table",
    "TableConfig",
    "as_resolved",
    "dice_card",
    "read_button",
    "split_text",
]
