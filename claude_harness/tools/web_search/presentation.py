"""How a WebSearch call is shown: the query."""

from __future__ import annotations

from claude_harness.protocol.tool import ToolPresentation

PRESENTATION = ToolPresentation(
    kind="fetch", label=lambda inp: f"Search the web: {inp.get('query', '')!s}")
