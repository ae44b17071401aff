"""A discord.py 2 ``Cog`` that plays the table in the channels it reads (``[discord]`` extra).

Add it to your bot (the bot needs the message content intent)::

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default() | message_content)
    await bot.add_cog(TableCog(bot, table))         # channels={...} to play in some channels only

Each channel (or thread) is one game. Messages that are not commands are turns; an edited message
re-plays the latest turn; ``!undo`` takes the latest turn back; the buttons under a reply
regenerate, swipe (the message is edited in place) and show the dice card (to the presser only).
Retry keys: the message id (an edit: the id and its edit time), the interaction id.
"""

from __future__ import annotations

from collections.abc import Collection

from middleware.bots.extras import require

require("discord", "discord", "discord.py")

import discord  # noqa: E402
from discord.ext import commands  # noqa: E402

from middleware.bots.played import Played  # noqa: E402
from middleware.bots.post import DISCORD_LIMIT, split_text  # noqa: E402
from middleware.bots.seats import Speaker  # noqa: E402
from middleware.bots.table import Table  # noqa: E402
from middleware.bots.telegram_common import LABELS, notice  # noqa: E402
from middleware.errors import GMError  # noqa: E402

__all__ = ["TableCog", "buttons", "chat_key"]


def chat_key(channel_id: int) -> str:
    """The table's chat id of a Discord channel or thread."""
    return f"discord:{channel_id}"


class TableCog(commands.Cog):
    """Plays ``table`` in every channel the bot reads, or only in ``channels`` (ids)."""

    def __init__(self, bot: commands.Bot, table: Table, *,
                 channels: Collection[int] | None = None) -> None:
        self.bot = bot
        self.table = table
        self.channels = None if channels is None else frozenset(channels)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if not self._plays(message) or (await self.bot.get_context(message)).valid:
            return
        author = message.author
        who = Speaker(str(author.id), author.display_name, author.name)
        try:
            played = await self.table.play(chat_key(message.channel.id), who, message.content,
                                           key=f"discord:{message.id}", message=str(message.id))
        except GMError as exc:
            await message.reply(notice(exc), mention_author=False)
            return
        await _post(message, played)

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        message = payload.message
        if not self._plays(message) or message.edited_at is None:
            return
        key = f"discord:{message.id}:{message.edited_at.isoformat()}"
        try:
            played = await self.table.edit(chat_key(payload.channel_id), str(message.id),
                                           message.content, key=key)
        except GMError as exc:
            await message.reply(notice(exc), mention_author=False)
            return
        if played is not None:
            await _post(message, played)

    @commands.command(name="undo")
    async def undo(self, ctx: commands.Context[commands.Bot]) -> None:
        """Take back the Game Master's latest turn in this channel."""
        try:
            turn = await self.table.undo(chat_key(ctx.channel.id))
        except GMError as exc:
            await ctx.reply(notice(exc), mention_author=False)
            return
        await ctx.reply(f"↶ Undone: the game is back after turn {turn}.", mention_author=False)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        custom_id = interaction.data.get("custom_id") if interaction.data else None
        if interaction.type is not discord.InteractionType.component or interaction.channel_id \
                is None or not isinstance(custom_id, str) or not custom_id.startswith("gm:"):
            return
        response = interaction.response
        try:
            pressed = await self.table.press(chat_key(interaction.channel_id), custom_id,
                                             key=f"discord:{interaction.id}")
        except GMError as exc:
            await response.send_message(notice(exc), ephemeral=True)
            return
        played = pressed.played
        if pressed.kind == "card":
            await response.send_message(played.card[:DISCORD_LIMIT], ephemeral=True)
        elif pressed.kind == "edit" and len(played.text) <= DISCORD_LIMIT:
            await response.edit_message(content=played.text, view=buttons(played))
        else:
            await response.defer()
            texts = split_text(played.text, DISCORD_LIMIT)
            for n, text in enumerate(texts):
                if n == len(texts) - 1:
                    await interaction.followup.send(text, view=buttons(played))
                else:
                    await interaction.followup.send(text)

    def _plays(self, message: discord.Message) -> bool:
        return (not message.author.bot and bool(message.content)
                and (self.channels is None or message.channel.id in self.channels))


def buttons(played: Played) -> discord.ui.View:
    """The buttons under a reply. The view is stopped before it is sent: the cog answers every
    press itself (``on_interaction``), so presses work after a restart and nothing is kept per
    message."""
    view = discord.ui.View(timeout=None)
    for button in played.buttons():
        view.add_item(discord.ui.Button(label=LABELS[button.action], custom_id=button.data,
                                        style=discord.ButtonStyle.secondary))
    view.stop()
    return view


async def _post(to: discord.Message, played: Played) -> None:
    """The reply as one message or several, the first replying to ``to``; buttons on the last."""
    texts = split_text(played.text, DISCORD_LIMIT)
    for n, text in enumerate(texts):
        reference = to if n == 0 else None
        if n == len(texts) - 1:
            await to.channel.send(text, reference=reference, view=buttons(played),  # type: ignore[arg-type]
                                  mention_author=False)
        else:
            await to.channel.send(text, reference=reference,  # type: ignore[arg-type]
                                  mention_author=False)

