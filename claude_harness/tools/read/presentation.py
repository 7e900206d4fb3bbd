"""How a Read call is shown: the file (and the lines asked for); its result as a line count."""

from __future__ import annotations

from typing import Any

from claude_harness.protocol.tool import ToolPresentation
from claude_harness.tools.presentation_common import path_label


def line_range(inp: dict[str, Any]) -> str:
    offset, limit = inp.get("offset"), inp.get("limit")
    if not isinstance(offset, int):
        return ""
    return f" (from line {offset})" if not isinstance(limit, int) else \
        f" (lines {offset}-{offset + limit - 1})"


PRESENTATION = ToolPresentation(
    kind="read", label=lambda inp: path_label("Read", inp) + line_range(inp),
    result_view="summary", result_summary=lambda inp, text: f"Read {len(text.splitlines())} lines")
