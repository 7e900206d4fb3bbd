"""How a Write call is shown: the file it replaces, diffed against the disk when it exists."""

from __future__ import annotations

from typing import Any

from claude_harness.protocol.tool import ToolPresentation
from claude_harness.tools.presentation_common import file_text_now, path_label


def approval_lines(inp: dict[str, Any]) -> list[str]:
    """The path, then every line to be written (a new file, or the disk unreadable)."""
    body = str(inp.get("content", "")).splitlines()
    return [str(inp.get("file_path", "")), *(f"+ {line}" for line in body)]


def file_change(inp: dict[str, Any]) -> tuple[str, str] | None:
    old = file_text_now(inp)
    return None if old is None else (old, str(inp.get("content", "")))


def result_summary(inp: dict[str, Any], text: str) -> str:
    count = len(str(inp.get("content", "")).splitlines())
    return f"Wrote {count} line(s) to {inp.get('file_path', '')}"


PRESENTATION = ToolPresentation(
    title="Create or overwrite file", kind="edit", label=lambda inp: path_label("Write", inp),
    approval_lines=approval_lines, file_change=file_change, result_view="content",
    result_summary=result_summary)
