"""Requests that are not turns: a chat UI's own background tasks (titles, tags, follow-ups).

Open WebUI asks the model for a chat's title, tags, follow-up questions, search queries, an emoji
and autocompletion with requests of their own. They carry its task marker in ``metadata.task``
when the body has it, and always its task prompt: a last message that begins ``### Task:`` and
quotes the chat inside ``<chat_history>``. Such a request is passed straight through: no game, no
injection, nothing stored.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Final

from middleware.proxy.chat import ChatRequest
from middleware.proxy.upstream import Read

TASKS: Final = frozenset({"title_generation", "tags_generation", "follow_up_generation",
                          "query_generation", "emoji_generation", "autocomplete_generation",
                          "image_prompt_generation", "moa_response_generation"})


def is_background_task(ask: ChatRequest) -> bool:
    """Whether the request is a chat UI's background task rather than a turn of the game."""
    metadata = ask.body.get("metadata")
    task = metadata.get("task") if isinstance(metadata, dict) else None
    if isinstance(task, str) and (task in TASKS or task.endswith("_generation")):
        return True
    last = ask.messages[-1].text.lstrip() if ask.messages else ""
    return last.startswith("### Task:") and "<chat_history>" in last


async def passed_on(reads: AsyncGenerator[Read, None]) -> AsyncIterator[str]:
    """The upstream's stream as server-sent events, unchanged, then ``[DONE]``."""
    try:
        async for read in reads:
            yield "".join(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n" for chunk in read)
    finally:
        await reads.aclose()
    yield "data: [DONE]\n\n"
