"""How the plan-mode tools are shown: leaving plan mode approves the plan, in Markdown."""

from __future__ import annotations

from claude_harness.protocol.tool import ToolPresentation

EXIT_PRESENTATION = ToolPresentation(
    title="The plan is ready. Leave plan mode and start implementing it?", kind="switch_mode",
    label=lambda inp: "Ready to code?", plan_markdown=True)
ENTER_PRESENTATION = ToolPresentation(kind="switch_mode", label=lambda inp: "Enter plan mode")
