"""What the Bash tool asks of the sandbox for one command: run it where, wrapped how, and what
to tell the model afterwards."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness.sandbox.current import active
from claude_harness.sandbox.decision import SandboxDecision

if TYPE_CHECKING:
    from claude_harness.sandbox.runtime import SandboxRuntime

NOT_CONFIGURED = SandboxDecision(False, "the sandbox is off")


@dataclass
class BashSandboxing:
    decision: SandboxDecision
    argv_prefix: list[str] = field(default_factory=list)
    runtime: SandboxRuntime | None = None
    writable: list[str] = field(default_factory=list)
    refusals_before: int = 0

    def notes(self, exit_code: int | None, stdout: str, stderr: str) -> list[str]:
        """Notes for the result: why a command the sandbox was meant for ran outside it, or
        that a sandboxed failure may come from the sandbox."""
        runtime = self.runtime
        if runtime is None or not runtime.enabled:
            return []
        if not self.decision.sandboxed:
            return [f"This command ran outside the sandbox: {self.decision.reason}."]
        from claude_harness.sandbox.violations import sandbox_failure_note

        output = stderr + stdout[-2000:]
        if runtime.proxy_refusals > self.refusals_before:
            output += "\nBlocked by the claude-harness sandbox"
        note = sandbox_failure_note(
            exit_code, output, writable=self.writable,
            allowed_domains=runtime.settings.allowed_domains,
            allow_unsandboxed=runtime.settings.allow_unsandboxed_commands,
        )
        return [note] if note else []


def prepare_bash(command: str, disable_sandbox: bool, permission: Any, cwd: Path
                 ) -> BashSandboxing:
    """The decision for `command` and, when sandboxed, the bwrap wrapper to run it in."""
    runtime = active()
    if runtime is None:
        return BashSandboxing(NOT_CONFIGURED)
    decision = runtime.decide(command, disable_sandbox=disable_sandbox)
    if not decision.sandboxed:
        return BashSandboxing(decision, runtime=runtime)
    refusals = runtime.proxy_refusals
    prefix, plan = runtime.wrap(permission, cwd)
    return BashSandboxing(decision, prefix, runtime, [str(p) for p in plan.writable], refusals)
