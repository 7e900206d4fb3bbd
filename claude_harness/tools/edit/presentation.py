"""How an Edit call is shown: the replaced passage, in context of the file when it is found."""

from __future__ import annotations

from typing import Any

from claude_harness.protocol.tool import ToolPresentation
from claude_harness.text.bounded_diff import unified_lines
from claude_harness.tools.presentation_common import file_text_now, path_label


def input_diff(inp: dict[str, Any]) -> list[str]:
    """old_string → new_string as diff lines, bounded in time like every preview diff."""
    return unified_lines(str(inp.get("old_string", "")), str(inp.get("new_string", "")),
                         context=1).lines


def approval_lines(inp: dict[str, Any]) -> list[str]:
    return [str(inp.get("file_path", "")), *input_diff(inp)]


def file_change(inp: dict[str, Any]) -> tuple[str, str] | None:
    """The file now and after the edit; None when the passage is not there verbatim (the tool
    may still match it tolerantly)."""
    old, new = str(inp.get("old_string", "")), str(inp.get("new_string", ""))
    text = file_text_now(inp)
    if text is None or not old or old not in text:
        return None
    return text, text.replace(old, new, -1 if inp.get("replace_all") else 1)


def result_summary(inp: dict[str, Any], text: str) -> str:
    diff = unified_lines(str(inp.get("old_string", "")), str(inp.get("new_string", "")),
                         context=2).lines
    added = sum(1 for line in diff if line.startswith("+"))
    removed = sum(1 for line in diff if line.startswith("-"))
    return f"Updated {inp.get('file_path', '')}: {added} line(s) added, {removed} removed"


PRESENTATION = ToolPresentation(
    title="Edit file", kind="edit", label=lambda inp: path_label("Edit", inp),
    approval_lines=approval_lines, file_change=file_change, result_view="diff",
    result_summary=result_summary)
