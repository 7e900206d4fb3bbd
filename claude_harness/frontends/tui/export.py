"""The conversation as Markdown, for `/export` and for leaving it in the scrollback (--inline)."""

from __future__ import annotations

import json
from typing import Any

from claude_harness.frontends.shared.previews import content_text
from claude_harness.text.terminal_safety import strip_unsafe


def conversation_markdown(messages: list[dict[str, Any]], *, tail: int | None = None) -> str:
    chosen = messages[-tail:] if tail else messages
    out: list[str] = []
    for message in chosen:
        if message.get("isMeta"):
            continue  # the harness's own instruction (continue where you stopped)
        role = message.get("role")
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        for block in blocks:
            kind = block.get("type")
            if kind == "text" and str(block.get("text", "")).strip():
                if role == "user":
                    out.append("> " + block["text"].replace("\n", "\n> "))
                else:
                    out.append(block["text"])
            elif kind == "tool_use":
                args = json.dumps(block.get("input") or {}, ensure_ascii=False)
                out.append(f"**{block.get('name')}** `{args[:300]}`")
            elif kind == "tool_result":
                text = content_text(block.get("content") or "")
                lines = text.splitlines()
                shown = "\n".join(lines[:20]) + (f"\n… +{len(lines) - 20} lines" if len(lines) > 20 else "")
                label = "error" if block.get("is_error") else "result"
                out.append(f"<details><summary>{label}</summary>\n\n```\n{shown}\n```\n</details>")
    return "\n\n".join(out) + "\n"


def print_transcript(messages: list[dict[str, Any]], *, tail: int = 200) -> None:
    """Print the conversation to stdout with Rich, so `--inline` leaves it in the scrollback
    (without escape sequences: the model's text must not act on the terminal)."""
    # Rich's Markdown renderer is only needed when an --inline session ends.
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.text import Text

    console = Console()
    for message in messages[-tail:]:
        if message.get("isMeta"):
            continue
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        for block in blocks:
            kind = block.get("type")
            if kind == "text" and str(block.get("text", "")).strip():
                text = strip_unsafe(str(block["text"]))
                if message.get("role") == "user":
                    console.print(Text("› " + text, style="bold"))
                else:
                    console.print(Markdown(text))
            elif kind == "tool_use":
                args = strip_unsafe(json.dumps(block.get("input") or {}, ensure_ascii=False))
                console.print(Text(f"● {block.get('name')}({args[:100]})", style="dim"))
        console.print()
