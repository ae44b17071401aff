"""Human output for ``gm-middleware replay``: the chat, each rewritten reply, a card per tag."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from middleware.records import Record
from middleware.resolve.checks import format_chance
from middleware.transcript.replay import Step

_STATUS_STYLE = {"resolved": "green", "refused": "yellow", "ignored": "dim", "error": "red"}
_HIDDEN = {"tag", "status", "source", "feedback"}


def render_step(console: Console, step: Step) -> None:
    """Print one replayed line the way a reader follows the chat."""
    if step.kind == "user":
        console.print(Text(f"\n── turn {step.turn} ──", style="bold"))
        console.print(Text("Player: ", style="bold cyan") + Text(step.text))
    elif step.kind == "gm" and step.processed is not None:
        done = step.processed
        head = f"GM (candidate {done.candidate}{', retry: stored result' if done.replayed else ''})"
        console.print(Text(head + ": ", style="bold magenta") + Text(done.text))
        for record in done.records:
            console.print(card(record))
    else:
        console.print(Text(f"· {step.kind} {step.text}", style="dim"))


def card(record: Record) -> Panel:
    """A readable card for one record: its headline, then what was thrown and why."""
    table = Table.grid(padding=(0, 2))
    rows = _check_rows(record) if record.tag == "skill_check" and record.tag_attrs() \
        else _fields(record)
    for key, value in rows:
        table.add_row(Text(key, style="dim"), Text(value))
    if record.feedback:
        table.add_row(Text("GM told", style="dim"), Text(record.feedback, style="italic"))
    style = _STATUS_STYLE.get(record.status, "white")
    return Panel(table, title=Text(headline(record), style=f"bold {style}"),
                 title_align="left", border_style=style, expand=False)


def headline(record: Record) -> str:
    """``skill_check · Ward · success`` and the like."""
    data = record.model_dump()
    what = (data.get("skill") or data.get("item") or data.get("name") or data.get("table")
            or data.get("op") or data.get("roll") or "")
    if data.get("who"):
        what = f"{what} ({data['who']})"
    verdict = data.get("outcome") or data.get("result") or record.reason or record.status
    if data.get("success") is not None and not data.get("outcome"):
        verdict = "success" if data["success"] else "failure"
    return " · ".join(str(p) for p in (record.tag, what, verdict) if p)


_HEAD = {"skill", "dc", "rolls", "used", "modifier", "total", "result", "mode", "resolution",
         "dice", "who", "outcome", "chance"}


def _check_rows(record: Record) -> list[tuple[str, str]]:
    """A check in two lines: the throw and its arithmetic, then the extras the record shows."""
    attrs = dict(record.tag_attrs())
    throw = f"{attrs.get('dice', '')}: {attrs.get('rolls', '').replace('|', ' ')}"
    if attrs.get("resolution") == "sum":
        throw += f" = {attrs.get('used')}, modifier {attrs.get('modifier')}"
    throw += f" → {attrs.get('total')} against {attrs.get('dc')}"
    rows = [("roll", throw)]
    if attrs.get("mode", "normal") != "normal":
        rows.append(("mode", attrs["mode"]))
    extras = [f"{k}={v}" for k, v in attrs.items() if k not in _HEAD]
    if extras:
        rows.append(("also", "  ".join(extras)))
    chance = getattr(record, "chance", None)
    if isinstance(chance, float):
        rows.append(("chance", f"{format_chance(chance, '.1%')} to succeed"))
    return rows


def _fields(record: Record) -> list[tuple[str, str]]:
    return [(key, _show(value)) for key, value in record.model_dump().items()
            if key not in _HIDDEN and value not in (None, [], {}, "")]


def _show(value: object) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)
