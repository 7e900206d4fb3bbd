"""Plain data the permission chain passes around: modes, rules, decisions, the permission context.

Kept free of heavy imports so tools, the pipeline and the front ends can all share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

PermissionMode = Literal[
    "default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto", "bubble"
]
PERMISSION_MODES: tuple[PermissionMode, ...] = (
    "default",
    "acceptEdits",
    "plan",
    "bypassPermissions",
    "dontAsk",
    "auto",
    "bubble",
)

RuleBehavior = Literal["allow", "deny", "ask"]
RuleSource = Literal[
    "policySettings",
    "cliArg",
    "localSettings",
    "projectSettings",
    "userSettings",
    "flagSettings",
    "session",
]


@dataclass(frozen=True)
class RuleValue:
    """`Tool` or `Tool(content)` parsed: the tool name and the optional content pattern."""

    tool_name: str
    rule_content: str | None = None

    def __str__(self) -> str:
        if self.rule_content is None:
            return self.tool_name
        return f"{self.tool_name}({self.rule_content})"


@dataclass(frozen=True)
class PermissionRule:
    """One rule with its provenance: where it came from and what it does."""

    source: RuleSource
    behavior: RuleBehavior
    value: RuleValue
    root: Path | None = None  # the project root of the settings file, for `/path` rules


@dataclass(frozen=True)
class PermissionDecision:
    """The outcome of a permission check.

    behavior:
      allow        the call may run (with `updated_input` if set)
      deny         refused; `reason` goes back to the model
      ask          a human (or the classifier) must decide; `reason` is shown
      passthrough  a tool's own check has no opinion; the general chain decides
    """

    behavior: Literal["allow", "deny", "ask", "passthrough"]
    reason: str = ""
    updated_input: dict[str, Any] | None = None
    suggestion: str | None = None  # rule text for "Yes, and don't ask again"
    decided_by: str = ""  # "rule", "hook", "mode", "safety", "tool", "user", "classifier", ...
    rule: PermissionRule | None = None
    preview: str | None = None  # e.g. the diff an in-place sed will make

    @classmethod
    def allow(cls, reason: str = "", **kw: Any) -> PermissionDecision:
        return cls("allow", reason, **kw)

    @classmethod
    def deny(cls, reason: str, **kw: Any) -> PermissionDecision:
        return cls("deny", reason, **kw)

    @classmethod
    def ask(cls, reason: str, **kw: Any) -> PermissionDecision:
        return cls("ask", reason, **kw)

    @classmethod
    def passthrough(cls) -> PermissionDecision:
        return cls("passthrough")


@dataclass(frozen=True)
class PermissionContext:
    """What the resolver needs: the mode, every rule with its source, the working directories."""

    mode: PermissionMode = "default"
    rules: tuple[PermissionRule, ...] = ()
    cwd: Path = field(default_factory=Path.cwd)
    additional_dirs: tuple[Path, ...] = ()
    interactive: bool = True  # False in -p: an undecided call is denied, not prompted
    bypass_available: bool = False  # started with bypassPermissions: Shift+Tab may reach it

    def rules_for(self, behavior: RuleBehavior) -> list[PermissionRule]:
        return [r for r in self.rules if r.behavior == behavior]

    @property
    def working_dirs(self) -> tuple[Path, ...]:
        return (self.cwd, *self.additional_dirs)
