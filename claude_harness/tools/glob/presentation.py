"""How a Glob call is shown: the pattern it finds."""

from __future__ import annotations

from claude_harness.protocol.tool import ToolPresentation

PRESENTATION = ToolPresentation(kind="search",
                                label=lambda inp: f"Find {inp.get('pattern', '')!s}")
