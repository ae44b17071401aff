"""python-telegram-bot 21+ handlers that play the table (the ``[ptb]`` or ``[telegram]`` extra).

Add them to your ``Application``, in a handler group of their own so your handlers in other
groups still see every update::

    application = Application.builder().token(token).build()
    add_table_handlers(application, table)          # group 40 unless you pass group=
    application.run_polling()

Text messages (not commands) are turns; an edited message re-plays the latest turn; ``/undo``
takes the latest turn back; the inline buttons under a reply regenerate, swipe and show the
dice card. The retry key is the update's ``update_id``.
"""

from __future__ import annotations

from typing import Any, Final

from middleware.bots.extras import require

require("telegram", "ptb", "python-telegram-bot")

from telegram import (  # noqa: E402
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    Update,
)
from telegram.ext import (  # noqa: E402
    Application,
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from middleware.bots import telegram_common as tg  # noqa: E402
from middleware.bots.played import NotNow, Played  # noqa: E402
from middleware.bots.table import Table  # noqa: E402
from middleware.errors import GMError  # noqa: E402

__all__ = ["GROUP", "add_table_handlers", "table_handlers"]

GROUP: Final = 40
"""The handler group the table's handlers go in unless another is given."""

Context = ContextTypes.DEFAULT_TYPE


def table_handlers(table: Table) -> list[BaseHandler[Update, Context, None]]:
    """The handlers, for an application that places them itself."""
    handlers = _Handlers(table)
    text = filters.TEXT & ~filters.COMMAND
    return [CommandHandler("undo", handlers.undo, filters=filters.UpdateType.MESSAGE),
            MessageHandler(filters.UpdateType.MESSAGE & text, handlers.message),
            MessageHandler(filters.UpdateType.EDITED_MESSAGE & text, handlers.edited),
            CallbackQueryHandler(handlers.button, pattern=r"^gm:")]


def add_table_handlers(application: Application[Any, Any, Any, Any, Any, Any], table: Table, *,
                       group: int = GROUP) -> None:
    """Add the table's handlers to ``application`` in handler group ``group``."""
    application.add_handlers(table_handlers(table), group=group)


class _Handlers:
    def __init__(self, table: Table) -> None:
        self.table = table

    async def message(self, update: Update, context: Context) -> None:
        message, user = update.message, update.effective_user
        if message is None or message.text is None or user is None:
            return
        who = tg.speaker(user.id, user.first_name, user.last_name, user.username)
        try:
            played = await self.table.play(tg.chat_key(message.chat_id), who, message.text,
                                           key=tg.retry_key(update.update_id),
                                           message=str(message.message_id))
        except GMError as exc:
            await message.reply_text(tg.notice(exc))
            return
        await _post(message, played)

    async def edited(self, update: Update, context: Context) -> None:
        message = update.edited_message
        if message is None or message.text is None:
            return
        try:
            played = await self.table.edit(tg.chat_key(message.chat_id), str(message.message_id),
                                           message.text, key=tg.retry_key(update.update_id))
        except GMError as exc:
            await message.reply_text(tg.notice(exc))
            return
        if played is not None:
            await _post(message, played)

    async def undo(self, update: Update, context: Context) -> None:
        message = update.message
        if message is None:
            return
        try:
            turn = await self.table.undo(tg.chat_key(message.chat_id))
        except GMError as exc:
            await message.reply_text(tg.notice(exc))
            return
        await message.reply_text(f"↶ Undone: the game is back after turn {turn}.")

    async def button(self, update: Update, context: Context) -> None:
        query = update.callback_query
        shown = query.message if query is not None else None
        if query is None or not isinstance(shown, Message):
            return
        try:
            pressed = await self.table.press(tg.chat_key(shown.chat_id), query.data,
                                             key=tg.retry_key(update.update_id))
        except NotNow as exc:
            await query.answer(str(exc))
            return
        except GMError as exc:
            await query.answer(tg.notice(exc)[: tg.ALERT_LIMIT], show_alert=True)
            return
        card = pressed.played.card
        if pressed.kind == "card" and len(card) <= tg.ALERT_LIMIT:
            await query.answer(card, show_alert=True)
            return
        await query.answer()
        if pressed.kind == "card":
            await shown.reply_text(card)
        elif pressed.kind == "edit" and tg.fits(pressed.played.text):
            await shown.edit_text(pressed.played.text, reply_markup=_markup(pressed.played))
        else:
            await _post(shown, pressed.played)


async def _post(to: Message, played: Played) -> None:
    """The reply as one message or several, the first quoting ``to``; the keyboard on the last."""
    texts = tg.parts(played.text)
    for n, text in enumerate(texts):
        markup = _markup(played) if n == len(texts) - 1 else None
        quoted = ReplyParameters(message_id=to.message_id) if n == 0 else None
        await to.get_bot().send_message(to.chat_id, text, reply_markup=markup,
                                         reply_parameters=quoted)


def _markup(played: Played) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=data)
                                  for label, data in row] for row in tg.keyboard(played)])
