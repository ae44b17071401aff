"""Tool mode (``gm-middleware serve --tools``): the model calls the Engine's functions instead of
writing tags, and the proxy runs each call through the same resolvers and turn-scoped state.

- ``schemas``: the functions offered, from the ruleset (``engine_tools``);
- ``calls``: tool calls read from the upstream, streamed or not, and a call written as its tag;
- ``turn``: one turn's loop state, pure (``ToolTurn``: requests, answers, the bound);
- ``answer``: the loop over the wire, non-streaming (``tool_answer``) and streaming
  (``tool_events``);
- ``extend``: the same loop for a Continue of a kept candidate (``tool_continue``).
"""

from middleware.proxy.tools.answer import tool_answer, tool_events
from middleware.proxy.tools.schemas import ENGINE_TOOLS, engine_tools
from middleware.proxy.tools.turn import MAX_CALLS, MAX_ROUNDS, ToolTurn

__all__ = ["ENGINE_TOOLS", "MAX_CALLS", "MAX_ROUNDS", "ToolTurn", "engine_tools", "tool_answer",
           "tool_events"]
