"""A server of the latency benchmark with the moments of each request it answers written down, for
its ``GM_LATENCY_TIMED`` runs: when the request's first bytes were read, when the response head
was written, when its first body bytes were. The client times the same requests on the same clock
(``time.monotonic``, the system's monotonic clock in every process), so the two together tell
where a stream's time goes: in the server, or between its write and the client's read.

Run as ``python -m tests.benchmarks.timed_server OUT COMMAND...``: COMMAND is ``serve`` and
``gm-middleware serve``'s arguments, or a module run as ``python -m`` would (the pass-through).
One JSON line per answered request is appended to OUT. uvicorn's httptools protocol is timed
where it reads and writes; nothing else changes. Never part of the package.
"""

from __future__ import annotations

import json
import runpy
import sys
import time
from typing import Any, TextIO

from uvicorn.protocols.http import httptools_impl

_read = httptools_impl.HttpToolsProtocol.data_received
_sent = httptools_impl.RequestResponseCycle.send
_complete = httptools_impl.HttpToolsProtocol.on_response_complete


def timed(out: TextIO) -> None:
    """uvicorn's httptools protocol, each answered request's moments written to ``out``."""
    now: dict[str, Any] = {}  # one request at a time: the benchmark sends them in turn

    def data_received(self: Any, data: bytes) -> None:
        now.setdefault("arrived", time.monotonic())
        _read(self, data)

    async def send(self: Any, message: Any) -> None:
        if message["type"] == "http.response.start":
            now.setdefault("head", time.monotonic())
            now["path"] = self.scope["path"]
        elif message.get("body"):
            now.setdefault("first_body", time.monotonic())
        await _sent(self, message)

    def on_response_complete(self: Any) -> None:
        _complete(self)
        out.write(json.dumps(now) + "\n")
        now.clear()

    httptools_impl.HttpToolsProtocol.data_received = data_received  # type: ignore[method-assign]
    httptools_impl.RequestResponseCycle.send = send  # type: ignore[method-assign]
    httptools_impl.HttpToolsProtocol.on_response_complete = (  # type: ignore[method-assign]
        on_response_complete)


def main() -> None:
    out_path, command = sys.argv[1], sys.argv[2:]
    with open(out_path, "a", buffering=1) as out:  # a line each: the server dies by SIGTERM
        timed(out)
        if command[0] == "serve":
            from middleware.cli import main as gm_middleware

            sys.argv = ["gm-middleware", *command]
            gm_middleware()
        else:
            sys.argv = command
            runpy.run_module(command[0], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
