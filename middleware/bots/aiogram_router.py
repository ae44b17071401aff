"""An aiogram 3 ``Router`` that plays the table in every chat it hears.

The ``[aiogram]`` (or ``[telegram]``) extra brings aiogram.

Include it in your dispatcher next to your own routers::

    dp = Dispatcher()
    dp.include_router(table_router(table))
    await dp.start_polling(bot)

Text messages (not commands) are turns; an edited message re-plays the latest turn; ``/undo``
takes the latest turn back; the inline buttons under a reply regenerate, swipe and show the
dice card. The retry key is the update's ``update_id``.
"""

from __future__ import annotations

from middleware.bots.extras import require

require("aiogram", "aiogram", "aiogram")

from aiogram import Bot, F, Router  # noqa: E402
from aiogram.filters import Command  # noqa: E402
from aiogram.types import (  # noqa: E402
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    Update,
)

from middleware.bots import telegram_common as tg  # noqa: E402
from middleware.bots.played import NotNow, Played  # noqa: E402
from middleware.bots.table import Table  # noqa: E402
from middleware.errors import GMError  # noqa: E402

__all__ = ["table_router"]


def table_router(table: Table, *, name: str = "gm-table") -> Router:
    """A router whose handlers play ``table``: include it in a ``Dispatcher``."""
    handlers = _Handlers(table)
    router = Router(name=name)
    router.message.register(handlers.undo, Command("undo"))
    router.message.register(handlers.message, F.text, ~F.text.startswith("/"))
    router.edited_message.register(handlers.edited, F.text, ~F.text.startswith("/"))
    router.callback_query.register(handlers.button, F.data.startswith("gm:"))
    return router


class _Handlers:
    def __init__(self, table: Table) -> None:
        self.table = table

    async def message(self, message: Message, bot: Bot, event_update: Update) -> None:
        if message.from_user is None or message.text is None:
            return
        user = message.from_user
        who = tg.speaker(user.id, user.first_name, user.last_name, user.username)
        try:
            played = await self.table.play(tg.chat_key(message.chat.id), who, message.text,
                                           key=tg.retry_key(event_update.update_id),
                                           message=str(message.message_id))
        except GMError as exc:
            await message.reply(tg.notice(exc))
            return
        await _post(bot, message.chat.id, played, message.message_id)

    async def edited(self, message: Message, bot: Bot, event_update: Update) -> None:
        if message.text is None:
            return
        try:
            played = await self.table.edit(tg.chat_key(message.chat.id), str(message.message_id),
                                           message.text, key=tg.retry_key(event_update.update_id))
        except GMError as exc:
            await message.reply(tg.notice(exc))
            return
        if played is not None:
            await _post(bot, message.chat.id, played, message.message_id)

    async def undo(self, message: Message) -> None:
        try:
            turn = await self.table.undo(tg.chat_key(message.chat.id))
        except GMError as exc:
            await message.reply(tg.notice(exc))
            return
        await message.reply(f"↶ Undone: the game is back after turn {turn}.")

    async def button(self, callback: CallbackQuery, bot: Bot, event_update: Update) -> None:
        shown = callback.message
        if shown is None:
            await callback.answer()
            return
        try:
            pressed = await self.table.press(tg.chat_key(shown.chat.id), callback.data,
                                             key=tg.retry_key(event_update.update_id))
        except NotNow as exc:
            await callback.answer(str(exc))
            return
        except GMError as exc:
            await callback.answer(tg.notice(exc)[: tg.ALERT_LIMIT], show_alert=True)
            return
        if pressed.kind == "card" and len(pressed.played.card) <= tg.ALERT_LIMIT:
            await callback.answer(pressed.played.card, show_alert=True)
            return
        await callback.answer()
        if pressed.kind == "card":
            await bot.send_message(shown.chat.id, pressed.played.card,
                                   reply_parameters=ReplyParameters(message_id=shown.message_id))
        elif pressed.kind == "edit" and tg.fits(pressed.played.text):
            await bot.edit_message_text(pressed.played.text, chat_id=shown.chat.id,
                                        message_id=shown.message_id,
                                        reply_markup=_markup(pressed.played))
        else:
            await _post(bot, shown.chat.id, pressed.played, shown.message_id)


async def _post(bot: Bot, chat_id: int, played: Played, reply_to: int) -> None:
    """The reply as one message or several; the keyboard on the last."""
    texts = tg.parts(played.text)
    for n, text in enumerate(texts):
        markup = _markup(played) if n == len(texts) - 1 else None
        quoted = ReplyParameters(message_id=reply_to) if n == 0 else None
        await bot.send_message(chat_id, text, reply_markup=markup, reply_parameters=quoted)


def _markup(played: Played) -> InlineKeyboardMarkup:
    rows = [[InlineKeyboardButton(text=label, callback_data=data) for label, data in row]
            for row in tg.keyboard(played)]
    return InlineKeyboardMarkup(inline_keyboard=rows)
