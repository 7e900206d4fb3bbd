"""EnterPlanMode / ExitPlanMode: read-only planning the model opens and the user closes."""

from claude_harness.tools.plan_mode.tools import (
    ENTER_TOOL,
    EXIT_TOOL,
    EnterPlanModeInput,
    ExitPlanModeInput,
)

__all__ = ["ENTER_TOOL", "EXIT_TOOL", "EnterPlanModeInput", "ExitPlanModeInput"]
