"""What running the hooks of one event produced: per-hook records and the combined outcome.

The runner only reports. It never applies a decision: the tool pipeline decides what a hook's
answer means next to the permission rules. In particular (an invariant the pipeline enforces):
- a hook's `allow` never lifts a deny rule; it only skips the prompt an ask/default would show;
- `updated_input` must be validated against the tool's schema again and re-checked against the
  deny rules before the call runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from claude_harness.protocol.permission_data import PermissionDecision


@dataclass
class HookResult:
    """One hook's run, for the transcript and the UI. Output fields are bounded (see MAX_TEXT)."""

    command: str
    source: str  # the settings file (or source name) that configured it
    exit_code: int | None  # None: timed out, cancelled or could not start
    duration_s: float
    stdout: str
    stderr: str
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    timed_out: bool = False
    aborted: bool = False
    error: str | None = None  # a visible non-blocking problem with this hook, if any


@dataclass
class HookOutcome:
    """The combined effect of every hook that ran for one event.

    blocked / block_reason   exit 2 or `decision: "block"`: for PreToolUse and PermissionRequest
                             the call is denied (see permission_decision); for UserPromptSubmit the
                             prompt is dropped (reason shown to the user); for Stop/SubagentStop
                             the model keeps going with the reason; for PreCompact compaction is
                             skipped; for PostToolUse(Failure) the reason is fed to the model.
    permission_decision      PreToolUse / PermissionRequest only: deny > ask > allow over all hooks,
                             decided_by="hook". None when no hook expressed one.
    updated_input            the replacement tool input of the decisive hook (never with deny).
    additional_context       text for the model, in hook order.
    system_messages          text for the user.
    errors                   visible non-blocking hook errors (non-zero exit, timeout, bad JSON...).
    stop / stop_reason       `continue: false`: the loop must stop; the reason is for the user.
    elicitation              Elicitation / ElicitationResult only: the first hook's (in
                             configuration order) `{"action", "content"}` answer, or None.
    """

    event: str
    blocked: bool = False
    block_reason: str = ""
    permission_decision: PermissionDecision | None = None
    updated_input: dict[str, Any] | None = None
    additional_context: list[str] = field(default_factory=list)
    system_messages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stop: bool = False
    stop_reason: str = ""
    results: list[HookResult] = field(default_factory=list)
    elicitation: dict[str, Any] | None = None
    watch_paths: list[str] = field(default_factory=list)  # more files for FileChanged

    @property
    def ran(self) -> bool:
        return bool(self.results)
