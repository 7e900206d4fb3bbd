"""A sub-agent never has more than its parent: the limits applied to what a definition asks.

An agent's definition (its file's `permissionMode`, rule-form `tools`, tool list) is the
person's own configuration (session/services/agents.py applies a project's only in a trusted folder), so
it may settle questions the parent would have asked the person: under a parent in default
mode, `acceptEdits` or a pre-approved `Bash(git *)` stand for the person's answer. It never
lifts a restriction the parent is under:

  - a parent in plan or dontAsk keeps its child there, whatever the definition says, and the
    definition's pre-approvals are dropped (plan would run a pre-approved command, dontAsk
    would run what it otherwise refuses);
  - bypassPermissions comes only from a parent in it; a definition never grants it, and
    `auto` (a classifier answering instead of the person) comes only from a parent in auto;
  - a narrower mode in the definition (plan, dontAsk, default) always applies;
  - the child's tools are the parent's tools, less the ones a bare deny rule removes (the
    parent's `--disallowedTools`), so a definition's `tools:` list cannot bring one back; the
    child keeps the parent's rules (deny and ask first) and working directories as they are.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from claude_harness.permissions.resolver import tool_denied_entirely
from claude_harness.protocol.permission_data import PermissionContext

if TYPE_CHECKING:
    from claude_harness.agent.subagent import ChildSetup
    from claude_harness.protocol.tool import Tool

KEEP_PARENT = frozenset({"plan", "dontAsk"})  # restrictions a definition never lifts
ONLY_FROM_PARENT = frozenset({"bypassPermissions", "auto"})


def child_mode(parent: str, asked: str | None) -> str:
    """The child's mode: the definition's when it does not lift the parent's limits."""
    if asked is None or asked == parent:
        return parent
    if parent == "bypassPermissions":
        return asked  # every mode is narrower than bypass
    if parent in KEEP_PARENT or asked in ONLY_FROM_PARENT:
        return parent
    return asked


def limit_setup(setup: ChildSetup, parent: PermissionContext,
                agent_type: str) -> tuple[ChildSetup, list[str]]:
    """`setup` cut to what the parent has, and notes on what was not applied."""
    notes: list[str] = []
    mode = child_mode(parent.mode, setup.permission_mode)
    if setup.permission_mode is not None and mode != setup.permission_mode:
        notes.append(f"Agent {agent_type}: permissionMode {setup.permission_mode} is not "
                     f"applied: its parent runs in {parent.mode}, and a sub-agent never has "
                     "more than its parent.")
    rules = setup.allow_rules
    if rules and parent.mode in KEEP_PARENT:
        notes.append(f"Agent {agent_type}: its pre-approved tools are not applied while the "
                     f"parent runs in {parent.mode}.")
        rules = ()
    return replace(setup, permission_mode=mode, allow_rules=rules), notes


def parent_tools(tools: tuple[Tool, ...], parent: PermissionContext) -> tuple[Tool, ...]:
    """The child's tools without any the parent's bare deny rules remove."""
    return tuple(t for t in tools if not tool_denied_entirely(t.name, parent))
