"""How a TaskOutput call is shown: a look at a background command."""

from __future__ import annotations

from claude_harness.protocol.tool import ToolPresentation

PRESENTATION = ToolPresentation(kind="execute")
