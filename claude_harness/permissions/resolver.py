"""The permission chain for one tool call. Never returns passthrough.

Order (research 1.3, DESIGN 3):
  hook deny (final)
  -> deny rules
  -> Bash: a command the sandbox refuses (sandbox.failIfUnavailable, or outside the sandbox
     when sandbox.allowUnsandboxedCommands is false) is denied
  -> plan mode refuses file edits
  -> ask rules            (prompt even in bypassPermissions/auto; hook allow cannot lift them)
  -> safety checks        (protected paths, critical rm, unreadable commands)
  -> Bash: dangerouslyDisableSandbox asks, whatever would allow it
  -> the tool's own deny
  -> hook allow / ask
  -> the tool's own allow / ask
  -> allow rules / read-only inside the working dirs / mode
  -> undecided: ask (the pipeline prompts, or denies in headless mode); a Bash command that
     will run sandboxed is allowed instead under sandbox.autoAllowBashIfSandboxed
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from claude_harness.permissions.modes import prompt_or_deny, undecided
from claude_harness.permissions.paths import inside_any
from claude_harness.permissions.rules import (
    EDIT_TOOLS,
    READ_TOOLS,
    describe_rule,
    names_host_exactly,
    param_rule_matches,
    rule_matches,
    rule_suggestion,
    tool_matches,
)
from claude_harness.permissions.safety import internal_url_reason, protected_reason
from claude_harness.protocol.permission_data import PermissionContext, PermissionDecision
from claude_harness.sandbox.current import active as active_sandbox

if TYPE_CHECKING:
    from claude_harness.permissions.bash.decision import BashVerdict
    from claude_harness.protocol.context import ToolUseContext
    from claude_harness.protocol.tool import Tool
    from claude_harness.sandbox.decision import SandboxDecision

_PATH_KEYS = ("file_path", "notebook_path", "path")


def _subject(tool: Tool, inp: Any, ctx: ToolUseContext) -> str | None:
    """What rules match: the tool's own subject, with a backfilled absolute path if it has one."""
    subject = tool.permission_subject(inp)
    try:
        backfill = tool.backfill_input(inp, ctx) or {}
    except Exception:  # a backfill bug must not open a hole: fall back to the raw subject
        backfill = {}
    if tool.name in EDIT_TOOLS | READ_TOOLS:
        for key in _PATH_KEYS:
            if isinstance(backfill.get(key), str):
                return backfill[key]
    return subject


def _first_rule(perm: PermissionContext, behavior: str, tool_name: str, subject: str | None):
    for rule in perm.rules_for(behavior):  # type: ignore[arg-type]
        if rule_matches(rule, tool_name, subject, perm.cwd):
            return rule
    return None


def _allows_exact_host(perm: PermissionContext, url: str) -> bool:
    """An allow rule naming exactly this host (rules.names_host_exactly)."""
    return names_host_exactly(perm.rules_for("allow"), url)


def is_read_denied(path: str, perm: PermissionContext) -> bool:
    """For search tools that walk a tree: skip files a deny Read rule covers."""
    return any(
        rule.value.rule_content is not None and rule_matches(rule, "Read", path, perm.cwd)
        for rule in perm.rules_for("deny")
    )


def _param_rule_decision(
    perm: PermissionContext, behavior: str, tool_name: str, inp: Any
) -> PermissionDecision | None:
    """deny/ask rules on a secondary input field: `Bash(run_in_background:true)`."""
    for rule in perm.rules_for(behavior):  # type: ignore[arg-type]
        if tool_matches(rule.value.tool_name, tool_name) and param_rule_matches(
            rule.value.rule_content, inp
        ):
            return _from_rule(rule, behavior, f"this {tool_name} call")
    return None


def _from_rule(rule, behavior: str, what: str) -> PermissionDecision:
    verb = "denies" if behavior == "deny" else "requires approval for"
    reason = f"{describe_rule(rule)} {verb} {what}"
    if behavior == "deny":
        return PermissionDecision.deny(reason, decided_by="rule", rule=rule)
    return PermissionDecision.ask(reason, decided_by="rule", rule=rule)


def _is_inside(subject: str | None, perm: PermissionContext) -> bool:
    if subject is None:
        return True
    from claude_harness.permissions.paths import both_forms

    named, target = both_forms(subject, perm.cwd)
    return inside_any(named, perm.working_dirs) and inside_any(target, perm.working_dirs)


async def resolve_permission(
    tool: Tool,
    inp: Any,
    ctx: ToolUseContext,
    *,
    hook_decision: PermissionDecision | None = None,
) -> PermissionDecision:
    """Decide one call: allow, deny or ask (with a readable reason and a rule suggestion)."""
    perm = ctx.permission
    mode = perm.mode
    if hook_decision is not None and hook_decision.behavior == "deny":
        return PermissionDecision.deny(
            hook_decision.reason or "a PreToolUse hook denied this call", decided_by="hook"
        )
    if hook_decision is not None and hook_decision.updated_input:
        return await _resolve_rewritten(tool, inp, ctx, hook_decision)
    subject = _subject(tool, inp, ctx)
    if tool.name == "Bash":
        return await _resolve_bash(tool, inp, ctx, subject or "", hook_decision)
    return await _resolve_generic(tool, inp, ctx, subject, hook_decision, mode)


async def _resolve_rewritten(
    tool: Tool, inp: Any, ctx: ToolUseContext, hook: PermissionDecision
) -> PermissionDecision:
    """A hook rewrote the input: the whole chain judges the NEW input (a rewrite into a denied
    command must stay denied), and an allow carries the rewrite along."""
    from pydantic import ValidationError

    try:
        merged = {**inp.model_dump(exclude_none=True, by_alias=True), **(hook.updated_input or {})}
        rewritten = tool.input_model.model_validate(merged)
    except (ValidationError, AttributeError, TypeError) as exc:
        return PermissionDecision.deny(
            f"a hook rewrote the {tool.name} input into something invalid ({exc})",
            decided_by="hook")
    decision = await resolve_permission(
        tool, rewritten, ctx, hook_decision=replace(hook, updated_input=None))
    if decision.behavior == "deny" or decision.updated_input is not None:
        return decision
    return replace(decision, updated_input=hook.updated_input)


async def _tool_then_hook(tool: Tool, inp: Any, ctx: ToolUseContext,
                          hook: PermissionDecision | None) -> PermissionDecision | None:
    """The chain's middle steps: the tool's own objection (a deny is final), then a hook's
    verdict, then the tool's own allow/ask. None: still undecided."""
    own = await _tool_check(tool, inp, ctx)
    if own.behavior == "deny":
        return own
    hooked = _hook_answer(hook, ctx.permission)
    if hooked is not None:
        return hooked
    if own.behavior in {"allow", "ask"}:
        return _tool_answer(own, ctx.permission)
    return None


async def _tool_check(tool: Tool, inp: Any, ctx: ToolUseContext) -> PermissionDecision:
    decision = await tool.check_permissions(inp, ctx)
    if decision.behavior != "passthrough" and not decision.decided_by:
        decision = replace(decision, decided_by="tool")
    return decision


def _tool_answer(decision: PermissionDecision, perm: PermissionContext) -> PermissionDecision:
    """The tool's own allow/ask, adjusted to the mode (bypass runs it, dontAsk refuses it)."""
    if decision.behavior == "ask":
        if perm.mode == "bypassPermissions":
            return PermissionDecision.allow("bypassPermissions mode", decided_by="mode",
                                            updated_input=decision.updated_input)
        return prompt_or_deny(decision, perm.mode)
    return decision


def _hook_answer(hook: PermissionDecision | None, perm: PermissionContext) -> PermissionDecision | None:
    if hook is None or hook.behavior == "passthrough":
        return None
    if hook.behavior == "allow":
        return PermissionDecision.allow(hook.reason or "allowed by a hook", decided_by="hook",
                                        updated_input=hook.updated_input)
    return prompt_or_deny(
        PermissionDecision.ask(hook.reason or "a hook asks for approval", decided_by="hook"),
        perm.mode,
    )


async def _resolve_bash(
    tool: Tool, inp: Any, ctx: ToolUseContext, command: str, hook: PermissionDecision | None
) -> PermissionDecision:
    """The Bash chain, plus a previewed `sed -i` when the call may go ahead."""
    # deferred: the checker pulls in bashlex, which nothing on the way to the first paint needs
    from claude_harness.permissions.bash.decision import bash_verdict

    verdict = bash_verdict(command, ctx.permission, shell_cwd=ctx.cwd)
    decision = await _bash_chain(tool, inp, ctx, verdict, hook, _sandbox_decision(inp, command))
    if decision.behavior in {"allow", "ask"} and decision.updated_input is None and (
        "sed" in command and decision.decided_by != "sandbox"  # sed runs in the sandbox itself
    ):
        from claude_harness.permissions.sed_sim import simulate_sed

        sim = await asyncio.to_thread(simulate_sed, verdict.analysis, ctx.permission)
        if sim is not None:
            decision = replace(decision, updated_input=sim.updated_input, preview=sim.diff)
    return decision


def _sandbox_decision(inp: Any, command: str) -> SandboxDecision | None:
    """Where the command would run when a sandbox runtime is configured (None: there is none).
    The Bash tool asks the same runtime again when it runs the command; the session never
    toggles the sandbox while a turn runs, so both answers agree."""
    runtime = active_sandbox()
    if runtime is None:
        return None
    return runtime.decide(command,
                          disable_sandbox=bool(getattr(inp, "dangerouslyDisableSandbox", False)))


async def _bash_chain(
    tool: Tool, inp: Any, ctx: ToolUseContext, verdict: BashVerdict,
    hook: PermissionDecision | None, sandbox: SandboxDecision | None = None,
) -> PermissionDecision:
    """The one Bash decision chain (bash/decision.py explains the stages and the threat model);
    `sandbox` says where the command would run (sandbox/decision.py)."""
    perm = ctx.permission
    if verdict.deny:
        return verdict.deny
    if sandbox is not None and sandbox.refusal:
        return PermissionDecision.deny(sandbox.refusal, decided_by="sandbox")
    param = _param_rule_decision(perm, "deny", tool.name, inp) or _param_rule_decision(
        perm, "ask", tool.name, inp)
    if param is not None:
        return prompt_or_deny(param, perm.mode)
    if perm.mode == "plan" and not verdict.allowed:
        return undecided(verdict.undecided, "plan", suggestion=None, is_write=True)
    if verdict.ask:
        return prompt_or_deny(verdict.ask, perm.mode)
    if verdict.safety:
        return prompt_or_deny(verdict.safety, perm.mode)
    if sandbox is not None and sandbox.must_ask:  # whatever allows the command otherwise
        return prompt_or_deny(PermissionDecision.ask(
            "the command asks to run outside the sandbox (dangerouslyDisableSandbox)",
            decided_by="sandbox"), perm.mode)
    settled = await _tool_then_hook(tool, inp, ctx, hook)
    if settled is not None:
        return settled
    if verdict.allowed:
        return verdict.allowed
    return undecided_bash(verdict.undecided, perm, verdict.suggestion, sandbox)


def undecided_bash(reason: str, perm: PermissionContext, suggestion: str | None,
                   sandbox: SandboxDecision | None = None) -> PermissionDecision:
    """A Bash call nothing decided: no deny, ask or safety stage objected, no rule or
    read-only classification allowed it. The mode answers (ask, deny in dontAsk/plan, allow in
    bypassPermissions).

    The sandbox seam: with `sandbox.autoAllowBashIfSandboxed`, this is the one place
    where "ask" becomes "allow, run sandboxed". Deny rules, explicit ask rules and safety
    checks have all returned before this point, so they keep prompting or refusing.
    """
    if sandbox is not None and sandbox.sandboxed and sandbox.auto_allow and perm.mode != "plan":
        return PermissionDecision.allow(
            "runs in the sandbox (sandbox.autoAllowBashIfSandboxed)", decided_by="sandbox")
    return undecided(reason, perm.mode, suggestion=suggestion, is_write=True)


async def _resolve_generic(
    tool: Tool,
    inp: Any,
    ctx: ToolUseContext,
    subject: str | None,
    hook: PermissionDecision | None,
    mode: str,
) -> PermissionDecision:
    perm = ctx.permission
    name = tool.name
    what = f"{name} on {subject}" if subject else name
    rule = _first_rule(perm, "deny", name, subject)
    if rule is not None:
        return _from_rule(rule, "deny", what)
    param = _param_rule_decision(perm, "deny", name, inp)
    if param is not None:
        return param
    is_edit = name in EDIT_TOOLS
    if mode == "plan" and is_edit:
        return PermissionDecision.deny(
            f"{name} would change {subject or 'a file'}; plan mode is read-only until the plan "
            "is approved",
            decided_by="mode",
        )
    rule = _first_rule(perm, "ask", name, subject)
    if rule is not None:
        return prompt_or_deny(_from_rule(rule, "ask", what), perm.mode)
    param = _param_rule_decision(perm, "ask", name, inp)
    if param is not None:
        return prompt_or_deny(param, perm.mode)
    # A Grep or Glob over a tree that holds protected files runs: the tools leave out every
    # file a Read deny/ask rule covers (tools/grep/protect.py), so nothing needs asking here.
    if name == "WebFetch" and subject:
        reason = internal_url_reason(subject)
        if reason and not _allows_exact_host(perm, subject):
            return prompt_or_deny(
                PermissionDecision.ask(f"WebFetch {reason}", decided_by="safety",
                                       suggestion=rule_suggestion(name, subject, cwd=perm.cwd)),
                perm.mode)
    if is_edit and subject:
        reason = protected_reason(subject, perm.cwd, perm.working_dirs)
        if reason:
            return prompt_or_deny(
                PermissionDecision.ask(f"{name} {reason}", decided_by="safety"), perm.mode
            )
    settled = await _tool_then_hook(tool, inp, ctx, hook)
    if settled is not None:
        return settled
    rule = _first_rule(perm, "allow", name, subject)
    if rule is not None:
        return PermissionDecision.allow(f"{describe_rule(rule)} allows this", decided_by="rule",
                                        rule=rule)
    inside = _is_inside(subject, perm) if (is_edit or name in READ_TOOLS) else True
    if tool.is_read_only(inp) and inside and not _needs_consent_anyway(name):
        return PermissionDecision.allow("read-only", decided_by="read-only")
    if is_edit and inside and mode == "acceptEdits":
        return PermissionDecision.allow("acceptEdits mode", decided_by="mode")
    reason = _undecided_reason(tool, subject, inside)
    is_write = is_edit or (name.startswith("mcp__") and not tool.is_read_only(inp))
    return undecided(reason, perm.mode,  # type: ignore[arg-type]
                     suggestion=rule_suggestion(name, subject, cwd=perm.cwd), is_write=is_write)


def _needs_consent_anyway(tool_name: str) -> bool:
    """Read-only is not harmless for these: a fetch sends the URL (and what is in it) out, and
    an MCP server's readOnlyHint is the server's claim, not the user's consent."""
    return tool_name in {"WebFetch", "WebSearch"} or tool_name.startswith("mcp__")


def _undecided_reason(tool: Tool, subject: str | None, inside: bool) -> str:
    if subject and not inside:
        return f"{tool.name} on {subject} is outside the working directories"
    if tool.name in EDIT_TOOLS:
        return f"{tool.name} would change {subject}"
    if subject:
        return f"{tool.name} on {subject} needs approval"
    return f"{tool.name} needs approval"


def tool_denied_entirely(tool_name: str, perm: PermissionContext) -> bool:
    """A bare deny rule (`Bash`, `mcp__srv`, `mcp__srv__x`, `mcp__*`) removes the tool."""
    for rule in perm.rules_for("deny"):
        if rule.value.rule_content is None and tool_matches(rule.value.tool_name, tool_name):
            # family rules (`Edit` covers Write) remove the whole family too
            return True
    return False
