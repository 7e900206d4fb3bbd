"""The seven permission modes: what each does with a call nothing else decided.

Why a module of its own: modes are the last word only for *undecided* calls; deny rules, ask
rules and safety checks run before them in every mode. Keeping the per-mode policy here (and
nowhere else) makes the mode x rule-kind matrix easy to read and to test.

default      ask
acceptEdits  file edits (and mkdir/touch/rm/rmdir/mv/cp/sed) inside the working dirs run
plan         read-only; writes are denied
bypassPermissions  everything runs, except deny rules, ask rules and safety checks
dontAsk      never prompt: what would ask is denied
auto         a classifier decides undecided calls (the resolver marks them decided_by="undecided")
bubble       like default; the pipeline routes the prompt to the parent agent
"""

from __future__ import annotations

import re

from claude_harness.protocol.permission_data import (
    PermissionDecision,
    PermissionMode,
    PermissionRule,
)

CYCLE: tuple[PermissionMode, ...] = ("default", "acceptEdits", "plan")
MODE_ALIASES = {"manual": "default"}


_BROAD_HEADS = {"python", "python3", "node", "bun", "deno", "ruby", "perl", "php", "bash", "sh",
                "zsh", "npx", "bunx", "pnpx", "uvx", "eval", "exec", "sudo", "env", "xargs"}
_RUNNERS = {("npm", "run"), ("pnpm", "run"), ("yarn", "run"), ("bun", "run"), ("uv", "run"),
            ("poetry", "run"), ("npm", "exec"), ("pnpm", "exec"), ("pnpm", "dlx"), ("yarn", "dlx")}


def is_broad_bash_allow(rule: PermissionRule) -> bool:
    """An allow rule that lets the model run arbitrary code (`Bash`, `Bash(*)`, `Bash(python*)`,
    `Bash(npm run *)`): auto mode drops these, so the classifier still sees such calls."""
    if rule.behavior != "allow" or rule.value.tool_name != "Bash":
        return False
    content = (rule.value.rule_content or "*").strip()
    if content.endswith(":*"):
        content = content[:-2] + " *"
    words = content.replace("*", " * ").split()
    if not words or words[0] == "*":
        return True
    head = re.sub(r"[\d.]+$", "", words[0])
    if head in _BROAD_HEADS and (len(words) == 1 or words[1] == "*"):
        return True
    return len(words) >= 2 and (words[0], words[1]) in _RUNNERS and (
        len(words) == 2 or words[2] == "*")


def next_mode(mode: PermissionMode, bypass_available: bool) -> PermissionMode:
    """Shift+Tab: default -> acceptEdits -> plan -> (bypassPermissions) -> default."""
    order: list[PermissionMode] = list(CYCLE)
    if bypass_available:
        order.append("bypassPermissions")
    if mode not in order:
        return "default"
    return order[(order.index(mode) + 1) % len(order)]


def parse_mode(text: str) -> PermissionMode:
    """Validate a mode name from settings or the CLI (raises ValueError with the choices)."""
    from claude_harness.protocol.permission_data import PERMISSION_MODES

    value = MODE_ALIASES.get(text, text)
    if value not in PERMISSION_MODES:
        raise ValueError(
            f"unknown permission mode {text!r}; expected one of {', '.join(PERMISSION_MODES)}"
        )
    return value  # type: ignore[return-value]


def prompt_or_deny(decision: PermissionDecision, mode: PermissionMode) -> PermissionDecision:
    """An `ask` in dontAsk mode becomes a deny (nobody is asked)."""
    if decision.behavior == "ask" and mode == "dontAsk":
        return PermissionDecision.deny(
            f"{decision.reason} (dontAsk mode: calls that need approval are denied)",
            decided_by=decision.decided_by or "mode",
            rule=decision.rule,
            suggestion=decision.suggestion,
        )
    return decision


def undecided(
    reason: str, mode: PermissionMode, *, suggestion: str | None, is_write: bool
) -> PermissionDecision:
    """The mode's answer for a call no rule, check or read-only classification decided."""
    if mode == "bypassPermissions":
        return PermissionDecision.allow("bypassPermissions mode", decided_by="mode")
    if mode == "plan" and is_write:
        return PermissionDecision.deny(
            f"{reason}; plan mode is read-only until the plan is approved", decided_by="mode"
        )
    if mode == "dontAsk":
        return PermissionDecision.deny(
            f"{reason} (dontAsk mode: calls that need approval are denied)", decided_by="mode",
            suggestion=suggestion,
        )
    return PermissionDecision.ask(reason, suggestion=suggestion, decided_by="undecided")
