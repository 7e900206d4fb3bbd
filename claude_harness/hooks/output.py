"""Turn one hook's exit code and output into a verdict, following the documented contract.

  exit 0   stdout is JSON when it starts with `{`; otherwise plain text (context for
           UserPromptSubmit and SessionStart, transcript only elsewhere)
  exit 2   blocking error; stderr is the reason (what "blocking" means depends on the event)
  other    non-blocking error shown to the user; the action proceeds
  no exit  timeout / abort / spawn failure: no decision, a visible error

Each malformed JSON field becomes a visible error naming the hook and the field; the rest of the
answer still counts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from claude_harness.hooks.events import (
    CWD_CHANGED,
    ELICITATION,
    ELICITATION_RESULT,
    EVENT_SPECS,
    FILE_CHANGED,
    PERMISSION_REQUEST,
    PRE_MODEL_SWITCH,
    PRE_SKILL_SHELL_COMMAND,
    PRE_TOOL_USE,
    SESSION_START,
)

MAX_TEXT = 10_000  # chars kept of any hook-provided string (output, reason, context)

Decision = Literal["allow", "deny", "ask"]


@dataclass
class Verdict:
    """What one hook asked for."""

    decision: Decision | None = None
    decision_reason: str = ""
    updated_input: dict[str, Any] | None = None
    block: bool = False
    block_reason: str = ""
    additional_context: list[str] = field(default_factory=list)
    system_message: str | None = None
    stop: bool = False
    stop_reason: str = ""
    errors: list[str] = field(default_factory=list)
    elicitation: dict[str, Any] | None = None  # {"action", "content"} from an Elicitation hook
    watch_paths: list[str] = field(default_factory=list)  # SessionStart/CwdChanged/FileChanged


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """Bound a hook-provided string, saying so when something was cut."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n... [truncated: {len(text) - limit} more characters]"


def interpret(event: str, label: str, exit_code: int, stdout: str, stderr: str) -> Verdict:
    """The verdict for a hook that ran to completion. `label` names the hook in messages."""
    spec = EVENT_SPECS[event]
    verdict = Verdict()
    if exit_code == 2:
        reason = clip(stderr.strip()) or f"blocked by hook {label} (exit 2, no reason on stderr)"
        if spec.exit2 == "deny":
            verdict.decision, verdict.decision_reason = "deny", reason
            verdict.block, verdict.block_reason = True, reason
        elif spec.exit2 in ("block", "feedback"):
            verdict.block, verdict.block_reason = True, reason
        else:
            verdict.errors.append(f"{event} hook {label} exited 2 (cannot block {event}): {reason}")
        return verdict
    if exit_code != 0:
        detail = clip(stderr.strip()) or "(no stderr)"
        hint = " (command not found)" if exit_code == 127 else ""
        verdict.errors.append(
            f"{event} hook {label} failed with exit code {exit_code}{hint}; "
            f"the action proceeds: {detail}"
        )
        return verdict
    text = stdout.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            verdict.errors.append(
                f"{event} hook {label} printed invalid JSON ({exc.msg}); output ignored"
            )
            return verdict
        if isinstance(data, dict):
            _apply_json(event, label, data, verdict)
            return verdict
        verdict.errors.append(f"{event} hook {label} printed JSON that is not an object; ignored")
        return verdict
    if text and spec.plain_stdout_is_context:
        verdict.additional_context.append(clip(text))
    return verdict


def _err(verdict: Verdict, event: str, label: str, key: str, problem: str) -> None:
    verdict.errors.append(f"{event} hook {label}: {key}: {problem}; ignored")


def _apply_json(event: str, label: str, data: dict[str, Any], verdict: Verdict) -> None:
    _apply_common(event, label, data, verdict)
    _apply_decision(event, label, data, verdict)
    specific = data.get("hookSpecificOutput")
    if specific is None:
        return
    if not isinstance(specific, dict):
        _err(verdict, event, label, "hookSpecificOutput", "must be an object")
        return
    named = specific.get("hookEventName")
    if named is not None and named != event:
        _err(
            verdict,
            event,
            label,
            "hookSpecificOutput",
            f"hookEventName is {named!r}, not {event!r}",
        )
        return
    _apply_specific(event, label, specific, verdict)


def _apply_common(event: str, label: str, data: dict[str, Any], verdict: Verdict) -> None:
    cont = data.get("continue", True)
    if cont is False:
        verdict.stop = True
        reason = data.get("stopReason", "")
        verdict.stop_reason = clip(reason) if isinstance(reason, str) else ""
    elif cont is not True:
        _err(verdict, event, label, "continue", "must be true or false")
    message = data.get("systemMessage")
    if isinstance(message, str) and message:
        verdict.system_message = clip(message)
    elif message is not None and not isinstance(message, str):
        _err(verdict, event, label, "systemMessage", "must be a string")


def _apply_decision(event: str, label: str, data: dict[str, Any], verdict: Verdict) -> None:
    """Top-level `decision` + `reason` (for PreToolUse the legacy approve|block form)."""
    decision = data.get("decision")
    if decision is None:
        return
    spec = EVENT_SPECS[event]
    reason = data.get("reason", "")
    reason = clip(reason) if isinstance(reason, str) else ""
    if event == PRE_TOOL_USE and decision in ("approve", "block"):
        verdict.decision = "allow" if decision == "approve" else "deny"
        verdict.decision_reason = reason
        if decision == "block":
            verdict.block, verdict.block_reason = True, reason or f"blocked by hook {label}"
    elif spec.decision_block and decision == "block":
        verdict.block, verdict.block_reason = True, reason or f"blocked by hook {label}"
    elif decision != "approve":  # "approve" elsewhere means "no objection"
        _err(verdict, event, label, "decision", f"{decision!r} is not valid for {event}")


# Events whose hooks may name more files for FileChanged to watch (Claude Code's watchPaths).
WATCH_PATH_EVENTS = frozenset({SESSION_START, CWD_CHANGED, FILE_CHANGED})


def _apply_specific(event: str, label: str, specific: dict[str, Any], verdict: Verdict) -> None:
    context = specific.get("additionalContext")
    if isinstance(context, str) and context:
        verdict.additional_context.append(clip(context))
    elif context is not None and not isinstance(context, str):
        _err(verdict, event, label, "additionalContext", "must be a string")
    if event in (PRE_TOOL_USE, PRE_SKILL_SHELL_COMMAND, PRE_MODEL_SWITCH):
        # PreSkillShellCommand and PreModelSwitch answer as PreToolUse does (Claude Code:
        # "JSON permissionDecision allow/deny/ask as for PreToolUse").
        _apply_pre_tool_use(event, label, specific, verdict)
    elif event == PERMISSION_REQUEST:
        _apply_permission_request(event, label, specific, verdict)
    elif event in (ELICITATION, ELICITATION_RESULT):
        _apply_elicitation(event, label, specific, verdict)
    if event in WATCH_PATH_EVENTS and "watchPaths" in specific:
        paths = specific["watchPaths"]
        if isinstance(paths, list) and all(isinstance(p, str) for p in paths):
            verdict.watch_paths.extend(paths)
        else:
            _err(verdict, event, label, "watchPaths", "must be a list of paths")


def _apply_elicitation(event: str, label: str, specific: dict[str, Any], verdict: Verdict) -> None:
    """`action` (accept | decline | cancel) and, for accept, `content` (an object)."""
    action = specific.get("action")
    if action is None:
        return
    if action not in ("accept", "decline", "cancel"):
        _err(verdict, event, label, "action", f"{action!r} is not accept, decline or cancel")
        return
    content = specific.get("content")
    if content is not None and not isinstance(content, dict):
        _err(verdict, event, label, "content", "must be an object")
        return
    verdict.elicitation = {"action": action, "content": content}


def _apply_pre_tool_use(event: str, label: str, specific: dict[str, Any], verdict: Verdict) -> None:
    decision = specific.get("permissionDecision")
    if decision is not None:
        if decision in ("allow", "deny", "ask"):
            verdict.decision = decision
            reason = specific.get("permissionDecisionReason", "")
            verdict.decision_reason = clip(reason) if isinstance(reason, str) else ""
            if decision == "deny":
                verdict.block = True
                verdict.block_reason = verdict.decision_reason or f"denied by hook {label}"
        else:
            _err(
                verdict,
                event,
                label,
                "permissionDecision",
                f"{decision!r} is not allow, deny or ask",
            )
    _take_updated_input(event, label, specific.get("updatedInput"), verdict)


def _apply_permission_request(
    event: str, label: str, specific: dict[str, Any], verdict: Verdict
) -> None:
    """PermissionRequest answers with `decision: {behavior, updatedInput, message, interrupt}`."""
    decision = specific.get("decision")
    if decision is None:
        return
    if not isinstance(decision, dict) or decision.get("behavior") not in ("allow", "deny"):
        _err(verdict, event, label, "decision", "must be an object with behavior allow or deny")
        return
    message = decision.get("message", "")
    verdict.decision = decision["behavior"]
    verdict.decision_reason = clip(message) if isinstance(message, str) else ""
    if verdict.decision == "deny":
        verdict.block = True
        verdict.block_reason = verdict.decision_reason or f"denied by hook {label}"
        if decision.get("interrupt") is True:
            verdict.stop, verdict.stop_reason = True, verdict.block_reason
    _take_updated_input(event, label, decision.get("updatedInput"), verdict)


def _take_updated_input(event: str, label: str, value: Any, verdict: Verdict) -> None:
    if value is None:
        return
    if isinstance(value, dict):
        verdict.updated_input = value
    else:
        _err(verdict, event, label, "updatedInput", "must be an object")
