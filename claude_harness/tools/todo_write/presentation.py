"""How a TodoWrite call is shown: the checklist itself."""

from __future__ import annotations

from claude_harness.protocol.tool import ToolPresentation

PRESENTATION = ToolPresentation(kind="think", label=lambda inp: "Update the plan",
                                result_view="checklist")
