"""check_permissions_and_call_tool(): the one path every tool call takes, built-in or MCP.

The fourteen steps of the seeds are named stages run in order over a `ToolCall` record. A stage
either lets the call go on (returns None) or ends it with an outcome (a tool_result for the
model). Reading `STAGES` top to bottom is reading the pipeline.

 1 lookup              6 input backfill           11 result budgeting
 2 abort check         7 PreToolUse hooks         12 PostToolUse hooks
 3 schema validation   8 permission resolution    13 new messages
 4 semantic validation 9 permission denied        14 error classification
 5 speculative classifier start       10 execute (call())

An undecided call (step 8) goes through `settle_ask`: the auto-mode classifier, the
PermissionRequest hook, the headless deny, then `ask_user`, which hands a PermissionRequest to
the session's prompter (`ctx.prompter`) and waits for the AnswerPermission op with its
request_id. Nothing here keeps shared state: denials are reported as DenialRecorded events and
"don't ask again" rules are saved by the session when the answer arrives.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ValidationError

from claude_harness.permissions.classifier import classify
from claude_harness.permissions.resolver import resolve_permission
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.edit_choice import offers_session_edits
from claude_harness.protocol.events import (
    AgentEvent,
    DenialRecorded,
    HookRan,
    Notice,
    PermissionRequest,
    ToolProgress,
)
from claude_harness.protocol.messages import INTERRUPTED_MESSAGE
from claude_harness.protocol.permission_data import PermissionDecision
from claude_harness.protocol.progress import as_progress
from claude_harness.protocol.tool import ContextModifier, Tool, ToolContent, ToolError, ToolResult
from claude_harness.tools.budget import persist_large_result
from claude_harness.tools.errors import classify_tool_error, log_tool_error
from claude_harness.tools.registry import find_base_tool
from claude_harness.tools.tool_search import loaded_by_call

Emit = Callable[[AgentEvent], None]
# What a call made inside a tool's own call reports to the person (the Skill tool running a
# skill's !`cmd` through this pipeline): its prompt, a denial, a hook's report, a notice. A
# tool hands them to `progress`; they go out as they are, not as the tool's progress.
NESTED_CALL_EVENTS = (PermissionRequest, DenialRecorded, HookRan, Notice)


@dataclass
class ToolOutcome:
    """What one tool call gives back to the loop."""

    tool_use_id: str
    name: str
    content: ToolContent
    is_error: bool = False
    data: Any = None
    new_messages: list[dict[str, Any]] = field(default_factory=list)
    context_modifier: ContextModifier | None = None
    stop_reason: str | None = None  # a hook asked to stop the loop
    error_class: str | None = None
    trace: list[str] = field(default_factory=list)  # the stages this call went through
    ends_turn: bool = False  # the call was the turn's final answer (ToolResult.ends_turn)
    extra_content: list[dict[str, Any]] = field(default_factory=list)  # after the results


@dataclass
class ToolCall:
    """The state a call accumulates as it moves through the stages."""

    tool_use_id: str
    name: str
    raw_input: dict[str, Any]
    ctx: ToolUseContext
    emit: Emit
    invalid_json: str | None = None  # the model sent input that is not a JSON object
    tool: Tool | None = None
    parsed: BaseModel | None = None
    hook_input: dict[str, Any] = field(default_factory=dict)
    hook_decision: PermissionDecision | None = None
    decision: PermissionDecision | None = None
    classifier: asyncio.Task[Any] | None = None
    result: ToolResult | None = None
    error: BaseException | None = None
    content: ToolContent = ""  # the tool_result content, set by result budgeting (11)
    is_error: bool = False
    new_messages: list[dict[str, Any]] = field(default_factory=list)
    context_modifier: ContextModifier | None = None
    error_class: str | None = None
    extra_context: list[str] = field(default_factory=list)
    stop_reason: str | None = None
    trace: list[str] = field(default_factory=list)


def error_text(message: str) -> str:
    return f"<tool_use_error>{message}</tool_use_error>"


def fail(call: ToolCall, message: str, *, wrap: bool = True) -> ToolOutcome:
    return ToolOutcome(
        call.tool_use_id,
        call.name,
        error_text(message) if wrap else message,
        is_error=True,
        stop_reason=call.stop_reason,
    )


# ── 1-4: validation ────────────────────────────────────────────────────────────────────────────


async def lookup(call: ToolCall) -> ToolOutcome | None:
    tool = call.ctx.find_tool(call.name)
    if tool is None:
        base = find_base_tool(call.name)  # old transcripts: Task -> Agent
        if base is not None and call.ctx.find_tool(base.name) is not None:
            tool = base
    if tool is None:
        return fail(call, f"No such tool available: {call.name}")
    call.tool = tool
    return None


async def abort_check(call: ToolCall) -> ToolOutcome | None:
    if call.ctx.abort.aborted:
        return fail(call, INTERRUPTED_MESSAGE, wrap=False)
    return None


def format_validation_error(tool: Tool, exc: ValidationError) -> str:
    problems = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ())) or "input"
        if err.get("type") == "missing":
            problems.append(f"The required parameter `{where}` is missing")
        elif err.get("type") == "extra_forbidden":
            problems.append(f"An unexpected parameter `{where}` was provided")
        else:
            problems.append(f"The parameter `{where}` is invalid: {err.get('msg')}")
    return f"{tool.name} failed due to the following issue(s):\n" + "\n".join(problems)


async def schema_validation(call: ToolCall) -> ToolOutcome | None:
    assert call.tool is not None
    if call.invalid_json is not None:
        raw = call.invalid_json[:300]
        return fail(call, f"The tool input was not valid JSON ({raw!r}). Send a JSON object.")
    if (call.tool.should_defer and not call.tool.loads_when_called
            and call.tool.name not in call.ctx.options.loaded_deferred):
        return fail(call, f"{call.tool.name} is a deferred tool whose definition is not loaded "
                    f'yet. Call ToolSearch with query "select:{call.tool.name}" first, then '
                    "call it again.")
    private = sorted(k for k in call.raw_input if k.startswith("_"))
    if private:  # internal fields (e.g. an approved sed edit) are only ever set by the harness
        return fail(call, f"{call.tool.name} failed: unexpected parameter(s) "
                    + ", ".join(f"`{k}`" for k in private))
    try:
        call.parsed = call.tool.input_model.model_validate(call.raw_input)
    except ValidationError as exc:
        return fail(call, format_validation_error(call.tool, exc))
    return None


async def semantic_validation(call: ToolCall) -> ToolOutcome | None:
    assert call.tool is not None and call.parsed is not None
    try:
        verdict = await call.tool.validate_input(call.parsed, call.ctx)
    except ToolError as exc:
        return fail(call, exc.message)
    if not verdict.ok:
        return fail(call, verdict.message)
    return None


# ── 5-6: preparation ───────────────────────────────────────────────────────────────────────────


async def speculative_classifier(call: ToolCall) -> ToolOutcome | None:
    """In auto mode, start the classifier now so its verdict is ready when the chain needs it."""
    assert call.tool is not None and call.parsed is not None
    if call.ctx.permission.mode != "auto" or not call.tool.to_classifier_input(call.parsed):
        return None
    call.classifier = asyncio.create_task(classify(call.tool, call.parsed, call.ctx))
    return None


async def input_backfill(call: ToolCall) -> ToolOutcome | None:
    """Derived fields (absolute paths) for hooks and permissions; the original stays as sent."""
    assert call.tool is not None and call.parsed is not None
    original = call.parsed.model_dump(mode="json", exclude_unset=True, by_alias=True)
    call.hook_input = {**original, **call.tool.backfill_input(call.parsed, call.ctx)}
    return None


# ── 7-9: permission ────────────────────────────────────────────────────────────────────────────


def _hook_payload(call: ToolCall, **extra: Any) -> dict[str, Any]:
    return {"tool_name": call.name, "tool_input": call.hook_input,
            "tool_use_id": call.tool_use_id, "cwd": str(call.ctx.cwd), **extra}


def _report_hook_messages(call: ToolCall, outcome: Any) -> None:
    if outcome.ran:
        call.emit(HookRan(outcome.event, outcome, call.name))
    for text in getattr(outcome, "system_messages", []):
        call.emit(Notice(text, "info"))
    for text in getattr(outcome, "errors", []):
        call.emit(Notice(text, "warning"))


async def pre_tool_use_hooks(call: ToolCall) -> ToolOutcome | None:
    hooks = call.ctx.hooks
    if hooks is None:
        return None
    assert call.tool is not None
    outcome = await hooks.run("PreToolUse", _hook_payload(call), matcher_value=call.name)
    _report_hook_messages(call, outcome)
    call.extra_context.extend(getattr(outcome, "additional_context", []))
    if getattr(outcome, "stop", False):
        call.stop_reason = outcome.stop_reason or "A PreToolUse hook stopped the session."
    if outcome.updated_input is not None:
        try:
            call.parsed = call.tool.input_model.model_validate(outcome.updated_input)
        except ValidationError as exc:
            return fail(call, "A PreToolUse hook rewrote the input into an invalid one: "
                        + format_validation_error(call.tool, exc))
        await input_backfill(call)
    if outcome.blocked:
        return fail(call, f"Blocked by PreToolUse hook: {outcome.block_reason}".strip())
    call.hook_decision = outcome.permission_decision
    return None


async def permission_resolution(call: ToolCall) -> ToolOutcome | None:
    assert call.tool is not None and call.parsed is not None
    ctx = replace(call.ctx, permission=call.ctx.effective_permission())
    decision = await resolve_permission(call.tool, call.parsed, ctx, hook_decision=call.hook_decision)
    if decision.behavior == "ask":
        decision = await settle_ask(call, decision)
    call.decision = decision
    if decision.behavior == "allow" and decision.updated_input is not None:
        call.parsed = call.tool.input_model.model_validate(
            {**call.parsed.model_dump(exclude_none=True, by_alias=True), **decision.updated_input}
        )
    return None


AskStep = Callable[[ToolCall, PermissionDecision], Awaitable[PermissionDecision | None]]


async def settle_ask(call: ToolCall, decision: PermissionDecision) -> PermissionDecision:
    """An undecided call: the first of these that decides wins; the user is asked last."""
    steps: tuple[AskStep, ...] = (classifier_verdict, permission_request_hook, headless_deny)
    for step in steps:
        verdict = await step(call, decision)
        if verdict is not None:
            return verdict
    notify_permission_prompt(call)
    return await ask_user(call, decision)


async def classifier_verdict(call: ToolCall,
                             decision: PermissionDecision) -> PermissionDecision | None:
    """Auto mode: the speculative classifier's allow or deny, when it reached one."""
    if call.classifier is None:
        return None
    verdict = await call.classifier
    if not (isinstance(verdict, PermissionDecision) and verdict.behavior in ("allow", "deny")):
        return None
    what = "allowed" if verdict.behavior == "allow" else "blocked"
    call.emit(Notice(f"Auto mode {what} {call.name}: {verdict.reason}",
                     "info" if verdict.behavior == "allow" else "warning"))
    return verdict


async def permission_request_hook(call: ToolCall,
                                  decision: PermissionDecision) -> PermissionDecision | None:
    """A PermissionRequest hook may answer the prompt in the user's place."""
    hooks = call.ctx.hooks
    if hooks is None:
        return None
    outcome = await hooks.run("PermissionRequest", _hook_payload(call), matcher_value=call.name)
    _report_hook_messages(call, outcome)
    verdict = outcome.permission_decision
    if verdict is not None and verdict.behavior == "deny":
        return verdict
    if verdict is not None and verdict.behavior == "allow":
        approval = PermissionDecision.allow(
            verdict.reason or "approved by a PermissionRequest hook", decided_by="hook")
        return await recheck_allow(call, approval, outcome.updated_input,
                                   "A PermissionRequest hook")
    return None


async def recheck_allow(call: ToolCall, approval: PermissionDecision,
                        updated_input: dict[str, Any] | None, who: str) -> PermissionDecision:
    """An allow that answered the prompt (a PermissionRequest hook's, or a program's answer on
    the SDK pipe), maybe with a rewritten input: the input is validated again and the whole
    chain re-checked with that verdict, so deny rules and safety checks still hold."""
    assert call.tool is not None and call.parsed is not None
    if updated_input is not None:
        try:
            call.parsed = call.tool.input_model.model_validate(updated_input)
        except ValidationError as exc:
            return PermissionDecision.deny(f"{who} rewrote the input into an invalid one: "
                                           + format_validation_error(call.tool, exc))
        await input_backfill(call)
    ctx = replace(call.ctx, permission=call.ctx.effective_permission())
    again = await resolve_permission(call.tool, call.parsed, ctx, hook_decision=approval)
    if again.behavior == "deny":
        return again
    # It answered the prompt the user would have seen: that is its approval.
    return replace(approval, updated_input=again.updated_input)


async def headless_deny(call: ToolCall, decision: PermissionDecision) -> PermissionDecision | None:
    """Nobody to ask (-p, a background sub-agent): an undecided call is denied."""
    if call.ctx.permission.interactive and call.ctx.prompter is not None:
        return None
    return PermissionDecision.deny(
        f"Permission to use {call.name} was not granted ({decision.reason or 'needs approval'}"
        "; running non-interactively).",
        decided_by="headless",
    )


_notifications: set[asyncio.Task[Any]] = set()  # fire-and-forget, but referenced until done


def notify_permission_prompt(call: ToolCall) -> None:
    """Notification hooks learn that a prompt is waiting; nobody waits for them."""
    if call.ctx.hooks is None:
        return
    task = asyncio.ensure_future(call.ctx.hooks.run(
        "Notification", {"message": f"Claude needs your permission to use {call.name}",
                         "notification_type": "permission_prompt"},
        matcher_value="permission_prompt"))
    _notifications.add(task)
    task.add_done_callback(_notifications.discard)


async def ask_user(call: ToolCall, decision: PermissionDecision) -> PermissionDecision:
    """Ask through the session: a PermissionRequest event out, the AnswerPermission op with the
    same request_id back (`session/services/prompter.py` matches them). "Always" allows this call; the session saves
    the suggested rule when that answer arrives."""
    assert call.ctx.prompter is not None
    request = PermissionRequest(
        request_id=uuid.uuid4().hex,
        tool_use_id=call.tool_use_id,
        tool_name=call.name,
        input=call.hook_input,
        reason=decision.reason,
        suggestion=decision.suggestion,
        preview=decision.preview,
        agent_id=call.ctx.agent_id,
    )
    pending = call.ctx.prompter.expect(request, call.ctx.abort)
    call.emit(request)  # in line with this call's other events; a sub-agent's too
    answer = await pending
    if answer.choice == "no":
        feedback = f" The user said: {answer.feedback}" if answer.feedback else ""
        return PermissionDecision.deny(
            f"The user declined this {call.name} call, so nothing was run or changed. Do not retry "
            f"it as is; ask the user or take another approach.{feedback}",
            decided_by="user",
        )
    if answer.choice == "always" and offers_session_edits(request):
        call.context_modifier = accept_edits  # the session's mode once this batch is done
    approval = PermissionDecision.allow("approved by user", decided_by="user",
                                        updated_input=decision.updated_input)
    if answer.updated_input is not None:  # a program's answer may rewrite the call
        return await recheck_allow(call, replace(approval, updated_input=None),
                                   answer.updated_input, "The permission answer")
    return approval


def accept_edits(ctx: ToolUseContext) -> ToolUseContext:
    """The session-wide choice for file edits: acceptEdits, as Shift+Tab would set it."""
    return replace(ctx, permission=replace(ctx.permission, mode="acceptEdits"))


async def permission_denied(call: ToolCall) -> ToolOutcome | None:
    decision = call.decision
    if decision is None or decision.behavior == "allow":
        return None
    call.emit(DenialRecorded(call.name, call.tool_use_id, call.raw_input, call.ctx.agent_id,
                             decision.reason, decision.decided_by))
    if call.ctx.hooks is not None:
        outcome = await call.ctx.hooks.run(
            "PermissionDenied", _hook_payload(call, reason=decision.reason),
            matcher_value=call.name)
        _report_hook_messages(call, outcome)
    return fail(call, decision.reason or f"Permission to use {call.name} was denied.")


# ── 10-14: execution ───────────────────────────────────────────────────────────────────────────


async def execute(call: ToolCall) -> ToolOutcome | None:
    assert call.tool is not None and call.parsed is not None
    name, tool_use_id, emit = call.name, call.tool_use_id, call.emit

    def progress(data: Any) -> None:
        if isinstance(data, NESTED_CALL_EVENTS):  # a call the tool made (a skill's !`cmd`)
            emit(data)
        else:
            emit(ToolProgress(tool_use_id, name, as_progress(data)))

    try:
        call.result = await call.tool.call(call.parsed, call.ctx, progress)
    except asyncio.CancelledError:
        raise
    except ToolError as exc:
        call.error = exc
    except Exception as exc:  # a tool bug must not kill the session: the model sees it
        call.error = exc
    return None


def _rendered(call: ToolCall) -> tuple[ToolContent, bool]:
    assert call.tool is not None
    if call.error is not None:
        if isinstance(call.error, ToolError):
            return error_text(call.error.message), True
        return error_text(f"{type(call.error).__name__}: {call.error}"), True
    assert call.result is not None
    return call.tool.render_result(call.result.data), call.result.is_error


async def result_budgeting(call: ToolCall) -> ToolOutcome | None:
    """The result as the model will read it; a large one is persisted and previewed."""
    assert call.tool is not None
    call.content, call.is_error = _rendered(call)
    if isinstance(call.content, str):
        call.content = persist_large_result(call.content, call.tool.max_result_size_chars,
                                            call.ctx.options.session_dir)
    return None


async def post_tool_use_hooks(call: ToolCall) -> ToolOutcome | None:
    hooks = call.ctx.hooks
    if hooks is not None:
        event = "PostToolUseFailure" if call.is_error else "PostToolUse"
        extra = ({"error": call.content} if call.is_error
                 else {"tool_response": _hook_response(call, call.content)})
        outcome = await hooks.run(event, _hook_payload(call, **extra), matcher_value=call.name)
        _report_hook_messages(call, outcome)
        call.extra_context.extend(getattr(outcome, "additional_context", []))
        if outcome.blocked and outcome.block_reason:
            call.extra_context.append(f"PostToolUse hook feedback: {outcome.block_reason}")
        if getattr(outcome, "stop", False):
            call.stop_reason = outcome.stop_reason or "A PostToolUse hook stopped the session."
    if call.extra_context and isinstance(call.content, str):
        call.content = call.content + "\n\n" + "\n".join(call.extra_context)
    return None


def _hook_response(call: ToolCall, content: ToolContent) -> Any:
    data = call.result.data if call.result is not None else None
    try:
        json.dumps(data)
        return data if data is not None else content
    except (TypeError, ValueError):
        return content if isinstance(content, str) else "(non-text result)"


async def new_messages(call: ToolCall) -> ToolOutcome | None:
    """Messages the tool adds to the conversation (a sub-agent's transcript) and its context
    modifier ride along with the result."""
    if call.result is not None:
        call.new_messages = list(call.result.new_messages)
        call.context_modifier = call.result.context_modifier or call.context_modifier
        if call.tool is not None and call.tool.should_defer and not call.is_error:
            call.context_modifier = loaded_by_call(call.tool.name, call.ctx,
                                                   call.context_modifier)
    return None


async def error_classification(call: ToolCall) -> ToolOutcome | None:
    """A telemetry-safe class for a failure (never its raw message), logged with --debug."""
    if call.error is not None:
        call.error_class = classify_tool_error(call.error)
        log_tool_error(call.ctx.debug_log, call.name, call.error_class)
    return None


def _outcome(call: ToolCall) -> ToolOutcome:
    return ToolOutcome(
        call.tool_use_id, call.name, call.content, is_error=call.is_error,
        data=call.result.data if call.result is not None else None,
        new_messages=call.new_messages, context_modifier=call.context_modifier,
        stop_reason=call.stop_reason, error_class=call.error_class,
        ends_turn=call.result is not None and call.result.ends_turn and not call.is_error,
        extra_content=list(call.result.extra_content) if call.result is not None else [])


Stage = Callable[[ToolCall], Awaitable[ToolOutcome | None]]

STAGES: tuple[tuple[str, Stage], ...] = (
    ("lookup", lookup),
    ("abort_check", abort_check),
    ("schema_validation", schema_validation),
    ("semantic_validation", semantic_validation),
    ("speculative_classifier", speculative_classifier),
    ("input_backfill", input_backfill),
    ("pre_tool_use_hooks", pre_tool_use_hooks),
    ("permission_resolution", permission_resolution),
    ("permission_denied", permission_denied),
    ("execute", execute),
    ("result_budgeting", result_budgeting),
    ("post_tool_use_hooks", post_tool_use_hooks),
    ("new_messages", new_messages),
    ("error_classification", error_classification),
)


async def check_permissions_and_call_tool(
    tool_use: dict[str, Any], ctx: ToolUseContext, emit: Emit
) -> ToolOutcome:
    """Run one tool_use block through every stage and return its outcome (never raises,
    except for cancellation)."""
    call = ToolCall(tool_use["id"], tool_use["name"], tool_use.get("input") or {}, ctx, emit,
                    invalid_json=tool_use.get("_invalid_json"))
    for stage_name, stage in STAGES:
        call.trace.append(stage_name)
        ended = await stage(call)
        if ended is not None:
            ended.stop_reason = ended.stop_reason or call.stop_reason
            ended.trace = call.trace
            if call.classifier is not None:
                call.classifier.cancel()
            return ended
    outcome = _outcome(call)
    outcome.trace = call.trace
    return outcome
