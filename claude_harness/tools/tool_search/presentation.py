"""How a ToolSearch call is shown: a search among the deferred tools."""

from __future__ import annotations

from claude_harness.protocol.tool import ToolPresentation

PRESENTATION = ToolPresentation(kind="search")
