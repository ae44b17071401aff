"""Servers run as processes of their own for the proxy's benchmarks: a free port, waiting for a
server to answer, and the CPU time and memory a process has used (Linux ``/proc``)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from tests.proxy.conftest import free_socket


def free_port() -> int:
    sock = free_socket()
    port: int = sock.getsockname()[1]
    sock.close()
    return port


async def started(url: str) -> None:
    """Wait until the server at ``url`` answers."""
    async with httpx.AsyncClient(base_url=url, timeout=5.0) as http:
        for _ in range(300):
            try:
                if (await http.get("/v1/models")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise AssertionError(f"the server at {url} did not start")


@asynccontextmanager
async def running(port: int, *command: str, log: Path) -> AsyncIterator[asyncio.subprocess.Process]:
    """``command`` run as a process that serves on 127.0.0.1:``port``, until the block ends; its
    output goes to ``log``. A command starting with ``-m`` is this interpreter's module."""
    program = (sys.executable, *command) if command[0] == "-m" else command
    with open(log, "wb") as out:
        process = await asyncio.create_subprocess_exec(*program, stdout=out, stderr=out)
    try:
        await started(f"http://127.0.0.1:{port}")
        yield process
    finally:
        process.terminate()
        await process.wait()


def gm_middleware() -> str:
    """The ``gm-middleware`` command of this interpreter's environment."""
    return str(Path(sys.executable).parent / "gm-middleware")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_time(run: Callable[[], object]) -> float:
    """The CPU time (user and system) this process spends on ``run()``, in seconds: what a
    benchmark timing work in turn keeps the best of."""
    started = time.process_time()
    run()
    return time.process_time() - started


def resident_mb(pid: int) -> float:
    """The resident set size of process ``pid`` now, in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines()
                    if line.startswith("VmRSS:"))) / 1000
