"""On -c / -r: show where the conversation left off, so the scrollback has context.

Only the last few messages are replayed (prompts, answer text, one header line per tool call);
tool results and system reminders are left out.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from claude_harness.frontends.plain import previews
from claude_harness.frontends.plain.render import EventRenderer
from claude_harness.frontends.plain.stream import PlainMarkdown, emit
from claude_harness.frontends.shared.event_text import REDACTED_THINKING, thought_label
from claude_harness.text.terminal_safety import strip_unsafe

REPLAY_MESSAGES = 10


def replay_history(messages: list[dict[str, Any]], out: EventRenderer,
                   limit: int = REPLAY_MESSAGES) -> None:
    if not messages:
        return
    shown = messages[-limit:]
    if len(messages) > len(shown):
        out.line(f"… {len(messages) - len(shown)} earlier message(s)", "ch.dim")
    for message in shown:
        if message.get("isMeta"):
            continue  # the harness's own instruction (continue where you stopped), not a prompt
        blocks = message.get("content")
        if isinstance(blocks, str):
            blocks = [{"type": "text", "text": blocks}]
        for block in blocks or []:
            _replay_block(message.get("role", ""), block, out)
    out.line("── resumed ──", "ch.dim")


def _replay_block(role: str, block: dict[str, Any], out: EventRenderer) -> None:
    kind = block.get("type")
    text = str(block.get("text", ""))
    if kind == "text" and text.strip() and not text.lstrip().startswith("<system-reminder>"):
        text = strip_unsafe(text)
        if role == "user":
            out.console.print(Text(f"> {text}", style="ch.user"), soft_wrap=True)
        else:
            emit(out.console, PlainMarkdown(text))
    elif kind == "tool_use":
        out.console.print(previews.tool_header(str(block.get("name", "")),
                                               dict(block.get("input") or {}), "",
                                               out.glyphs.bullet))
    elif kind == "thinking":
        out.line(thought_label(None), "ch.dim")
        if out.verbose:
            for line in str(block.get("thinking", "")).strip().splitlines():
                out.line(f"  {line}", "ch.dim")
    elif kind == "redacted_thinking":
        out.line(REDACTED_THINKING, "ch.dim")
