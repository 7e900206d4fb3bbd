"""The conversation as Markdown, for `/export` and for leaving it in the scrollback (--inline)."""

from __future__ import annotations

import json
from typing import Any

from claude_harness.previews import content_text


def conversation_markdown(messages: list[dict[str, Any]], *, tail: int | None = None) -> str:
    chosen = messages[-tail:] if tail else messages
    out: list[str] = []
    for message in chosen:
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
    """Print the conversation to stdout with Rich, so `--inline` leaves it in the scrollback."""
    # Rich's Markdown renderer is only needed when an --inline session ends.
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.text import Text

    console = Console()
    for message in messages[-tail:]:
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        for block in blocks:
            kind = block.get("type")
            if kind == "text" and str(block.get("text", "")).strip():
                if message.get("role") == "user":
                    console.print(Text("› " + block["text"], style="bold"))
                else:
                    console.print(Markdown(block["text"]))
            elif kind == "tool_use":
                args = json.dumps(block.get("input") or {}, ensure_ascii=False)
                console.print(Text(f"● {block.get('name')}({args[:100]})", style="dim"))
        console.print()
