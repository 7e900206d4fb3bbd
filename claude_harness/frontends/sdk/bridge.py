"""SdkBridge: the Agent SDK's pipe protocol over the session's ops and events.

stdin is read line by line for the whole session (`wire.py`):
  user                      a prompt; it starts a turn, or waits for the running one to end:
                            the prompts that arrived meanwhile go out together as the next
                            turn (joined by newlines, one result), as Claude Code does; a
                            `/command` with session ops runs those ops instead
  control_request           the program asks (initialize, interrupt, set_permission_mode,
                            set_model, mcp_status, get_context_usage, mcp_reconnect, mcp_toggle,
                            rewind_files, stop_task): answered with a control_response
  control_response          the program answers one of ours (`control.py`)
  control_cancel_request    the program gave up on a request: its handler is stopped
  EOF                       the running turn and the waiting prompts finish, then the session
                            ends; the exit code is 1 when the last result was an error
The session's events become Claude Code's lines (`lines.py`); three of them become our own
requests to the program: PermissionRequest -> can_use_tool (`--permission-prompt-tool stdio`),
HookCallbackRequest -> hook_callback, and an `sdk` MCP server's traffic -> mcp_message (the
session's MCP client writes through `ControlChannel.send`). Their answers go back as ops.

The session is built once `initialize` arrived (it may carry the system prompt, the JSON schema
and in-process servers), or at the first other line.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, cast

from claude_harness import __version__
from claude_harness.commands.registry import invoke
from claude_harness.frontends.sdk import handshake
from claude_harness.frontends.sdk.control import ControlChannel, ControlError, error, success
from claude_harness.frontends.sdk.lines import Shaper, new_uuid
from claude_harness.frontends.sdk.messages import (
    ContextUsageResponse,
    InboundControlRequest,
    McpStatusResponse,
    PermissionResult,
    PermissionRuleValue,
    PermissionUpdate,
    RewindFilesResult,
    SDKControlGetContextUsageRequest,
    SDKControlInitializeRequest,
    SDKControlInterruptRequest,
    SDKControlMcpReconnectRequest,
    SDKControlMcpStatusRequest,
    SDKControlMcpToggleRequest,
    SDKControlPermissionRequest,
    SDKControlRewindFilesRequest,
    SDKControlSetModelRequest,
    SDKControlSetPermissionModeRequest,
    SDKControlStopTaskRequest,
    SDKHookCallbackRequest,
    SDKUserMessage,
)
from claude_harness.frontends.sdk.requests import context_usage, mcp_status
from claude_harness.frontends.sdk.wire import LineWriter, StdinLines
from claude_harness.permissions.rules import parse_rule, split_rules
from claude_harness.protocol import ops
from claude_harness.protocol.events import (
    Busy,
    ElicitationRequested,
    HookCallbackRequest,
    ModeChanged,
    ModelChanged,
    Notice,
    OpDone,
    PermissionRequest,
    PermissionSettled,
    Report,
    RewindPlanned,
    Rewound,
    SessionClosed,
    SessionStarted,
    TasksListed,
    TurnEnd,
)
from claude_harness.protocol.permission_data import PERMISSION_MODES
from claude_harness.session.bootstrap import DEFAULT_MODEL, StartupError, build_session
from claude_harness.session.options import RunOptions

if TYPE_CHECKING:
    from claude_harness.session.core import Session

STATE_ENV = "CLAUDE_CODE_SDK_READS_SESSION_STATE"  # the SDK asks for session_state_changed
# ... and the name Claude Code also honours (Zed's ACP adapter sets it: it ends a prompt on idle)
STATE_ENVS = (STATE_ENV, "CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS")
MODES = tuple(m for m in PERMISSION_MODES if m != "bubble")


class RequestFailed(Exception):
    """A control request cannot be done: answered with an error (and a code, sometimes)."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class _Turn:
    """One user line (or slash command) being worked on."""

    op_id: int
    job: bool = False  # the op started a job (a model turn, /compact...)
    end: TurnEnd | None = None


@dataclass
class _Waiter:
    """A control request waiting for the event that shows its op was applied."""

    op_id: int
    wanted: Callable[[Any], bool]
    future: asyncio.Future[Any]
    until_done: bool = True  # False: the op starts a job; wait for the job's event


class SdkBridge:
    def __init__(self, opts: RunOptions, stdin: StdinLines, out: LineWriter,
                 err: IO[str]) -> None:
        self.opts = opts
        self.stdin = stdin
        self.out = out
        self.err = err
        self.control = ControlChannel(out.write)
        self.session: Session | None = None  # built at the first line (see _build)
        self.shaper = Shaper(__version__, partial=opts.include_partial_messages,
                             hook_events=opts.include_hook_events,
                             prompts_answered=opts.permission_prompt_tool == "stdio",
                             budget_usd=opts.max_budget_usd,
                             replay_prompts=opts.replay_user_messages)
        self.state_frames = any(os.environ.get(name) == "1" for name in STATE_ENVS)
        self.prompts: deque[list[ops.Op]] = deque()  # arrived while a turn was under way
        self.next_work: list[ops.Op] | None = None  # decided, waiting for the session to start
        self.turn: _Turn | None = None
        self.eof = False
        self.last_error = False
        self._started = False
        self._initialized = False
        self._handlers: dict[str, asyncio.Task[Any]] = {}  # the program's requests, by id
        self._asking: dict[str, asyncio.Task[Any]] = {}  # can_use_tool, by PermissionRequest id
        self._tasks: set[asyncio.Task[Any]] = set()
        self._waiters: list[_Waiter] = []
        self._idle = asyncio.Event()
        self._closed = False

    @property
    def live(self) -> Session:
        """The session, for what happens once it is built (every line handled after it)."""
        assert self.session is not None, "the session is used before it was built"
        return self.session

    # ── the pipe ───────────────────────────────────────────────────────────────────────────

    async def run(self) -> int:
        """Serve until stdin ends and the last turn is over; the process exit code."""
        self.stdin.start()
        if self.opts.prompt:
            self.next_work = [ops.UserPrompt(self.opts.prompt)]
        pump: asyncio.Task[None] | None = None
        while (line := await self.stdin.next()) is not None:
            if not line.strip():
                continue
            if self.session is None and not await self._build(line):
                return 1
            if pump is None and self.session is not None:
                pump = asyncio.create_task(self._pump(), name="sdk-events")
            self._take(line)
        self.eof = True
        self.control.close("stdin was closed: nobody can answer")
        if self.session is None and not await self._build(""):
            return 1
        if pump is None:
            pump = asyncio.create_task(self._pump(), name="sdk-events")
        self._start_next()
        await self._idle_after_eof()
        self.live.submit(ops.Shutdown())
        await pump
        return 1 if self.last_error else 0

    async def _idle_after_eof(self) -> None:
        while not self._closed and (self.turn is not None or self.prompts or self.next_work
                                    or not self._started):
            self._idle.clear()
            await self._idle.wait()

    def _take(self, raw: str) -> None:
        """One stdin line, handled as it arrives (never waiting for the session)."""
        line = _parse(raw)
        kind = line.get("type") if line is not None else None
        if line is None or not isinstance(kind, str):
            self._note(f"stdin line is not a JSON object: {raw[:80]!r}")
        elif kind == "user":
            self._user(cast(SDKUserMessage, line))
        elif kind == "control_request":
            self._spawn_handler(line)
        elif kind == "control_response":
            response = line.get("response")
            if isinstance(response, dict):
                self.control.answered(response)
        elif kind == "control_cancel_request":
            handler = self._handlers.pop(str(line.get("request_id")), None)
            if handler is not None:
                handler.cancel()
        elif kind not in ("keep_alive", "update_environment_variables"):
            self._note(f"stdin line of type {kind!r} ignored")

    def _note(self, text: str) -> None:
        self.err.write(f"claude-harness: {text}\n")
        self.err.flush()

    # ── the session ────────────────────────────────────────────────────────────────────────

    async def _build(self, first: str) -> bool:
        """Build the session, applying `initialize` first when that is the first line."""
        line = _parse(first) or {}
        request = line.get("request") if line.get("type") == "control_request" else None
        initialize = isinstance(request, dict) and request.get("subtype") == "initialize"
        if initialize:
            request = cast(SDKControlInitializeRequest, request)
            for note in handshake.apply_initialize(request, self.opts):
                self._note(note)
        try:
            self.session, warnings = build_session(self.opts, sdk_channel=self.control)
        except StartupError as exc:
            self._note(f"Error: {exc}")
            if initialize:
                self.out.write(error(str(line.get("request_id")), str(exc)))
            self.out.write({**self.shaper.result_line(None), "subtype": "error_during_execution",
                            "is_error": True, "errors": [str(exc)]})
            return False
        for warning in warnings:
            self._note(f"Warning: {warning}")
        return True

    async def _pump(self) -> None:
        async for event in self.live.events():
            for line in self.shaper.feed(event):
                self.out.write(line)
            self._react(event)
        self._closed = True
        for waiter in self._waiters:  # nothing more will come: a job's answer included
            if not waiter.future.done():
                waiter.future.set_result(None)
        self._waiters.clear()
        self._idle.set()

    def _react(self, event: Any) -> None:
        for waiter in list(self._waiters):
            hit = waiter.wanted(event)
            done = (waiter.until_done and isinstance(event, OpDone)
                    and event.op_id == waiter.op_id)
            if hit or done:
                if not waiter.future.done():
                    waiter.future.set_result(event if hit else None)
                self._waiters.remove(waiter)
        match event:
            case SessionStarted():
                self._started = True
                self._start_next()
            case PermissionRequest() if self.opts.permission_prompt_tool == "stdio":
                self._asking[event.request_id] = self._spawn(self._can_use_tool(event))
            case PermissionSettled(request_id=rid):
                asking = self._asking.pop(rid, None)
                if asking is not None and not asking.done():
                    asking.cancel()  # answered elsewhere (an interrupt): the program is told
            case HookCallbackRequest():
                self._spawn(self._hook_callback(event))
            case ElicitationRequested(request_id=rid):
                # No form on a pipe: an MCP server's question that no hook answered is
                # cancelled at once (as in -p), so its call never waits on nobody.
                self.live.submit(ops.AnswerElicitation(rid, "cancel"))
            case TurnEnd() if self.turn is not None:
                self.turn.end = event
            case Busy(running=True) if self.turn is not None:
                self.turn.job = True
            case Busy(running=False) if self.turn is not None:
                self._turn_over()
            case OpDone(op_id=op_id) if self.turn and self.turn.op_id == op_id \
                    and not self.turn.job:
                self._turn_over()  # the command changed state, started nothing
            case Notice(level=level) if level != "info" or self.opts.verbose:
                self._note(event.text)
            case SessionClosed():
                self.control.close("the session ended")

    # ── turns ──────────────────────────────────────────────────────────────────────────────

    def _user(self, line: SDKUserMessage) -> None:
        message = line.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        work: list[ops.Op]
        if isinstance(content, str):
            work = _prompt_ops(content)
        elif isinstance(content, list):
            work = [ops.UserPrompt(tuple(content))]
        else:
            self._note("a user line without message.content was ignored")
            return
        if self.turn is None and self.next_work is None:
            self.next_work = work  # starts a turn (as soon as the session has started)
        else:
            self.prompts.append(work)
        self._start_next()

    def _start_next(self) -> None:
        if self.turn is not None or not self._started:
            return
        work, self.next_work = self.next_work or _take_queued(self.prompts), None
        if not work:
            self._idle.set()
            return
        self.shaper.begin_turn()
        self._state("running")
        self.out.write(self.shaper.init_line())
        op_id = 0
        for op in work:
            op_id = self.live.submit(op)
        self.turn = _Turn(op_id)

    def _turn_over(self) -> None:
        turn, self.turn = self.turn, None
        assert turn is not None
        result = self.shaper.result_line(turn.end if turn.end or turn.job else
                                         TurnEnd("end_turn", 0))
        self.out.write(result)
        self.last_error = bool(result["is_error"])
        self._state("idle")
        self._start_next()

    def _state(self, state: str) -> None:
        """session_state_changed, for an SDK that asked for it (it closes stdin on idle)."""
        if self.state_frames:
            self.out.write({"type": "system", "subtype": "session_state_changed",
                            "state": state, "sdk_host_only": True, "uuid": new_uuid(),
                            "session_id": self.shaper.session_id})

    # ── the program's control requests ─────────────────────────────────────────────────────

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _spawn_handler(self, line: dict[str, Any]) -> None:
        request_id = str(line.get("request_id"))
        given = line.get("request")
        # the program's JSON, shaped as InboundControlRequest only as far as `subtype` says:
        # each handler reads its fields with `.get` and checks them
        request = cast(InboundControlRequest, given if isinstance(given, dict) else {})
        task = self._spawn(self._answer(request_id, request))
        self._handlers[request_id] = task
        task.add_done_callback(lambda _t: self._handlers.pop(request_id, None))

    async def _answer(self, request_id: str, request: InboundControlRequest) -> None:
        subtype = str(request.get("subtype"))
        handler = self._handlers_by_subtype().get(subtype)
        try:
            if handler is None:
                raise RequestFailed(f"Unsupported control request subtype: {subtype}")
            self.out.write(success(request_id, await handler(request)))
        except RequestFailed as exc:
            self.out.write(error(request_id, str(exc), exc.code))
        except (ControlError, ValueError, TypeError, KeyError) as exc:
            self.out.write(error(request_id, f"{subtype} failed: {exc}"))

    def _handlers_by_subtype(self) -> dict[str, Callable[[Any], Awaitable[Any]]]:
        """Each takes its own request type (messages.py), chosen by the `subtype`."""
        return {
            "initialize": self._initialize, "interrupt": self._interrupt,
            "set_permission_mode": self._set_permission_mode, "set_model": self._set_model,
            "mcp_status": self._mcp_status, "get_context_usage": self._context_usage,
            "mcp_reconnect": self._mcp_reconnect, "mcp_toggle": self._mcp_toggle,
            "rewind_files": self._rewind_files, "stop_task": self._stop_task,
        }

    async def _apply(self, op: ops.Op, wanted: Callable[[Any], bool], *,
                     until_done: bool = True) -> Any:
        """Submit `op`; the first event `wanted` picks before the op is done, or None. With
        `until_done` False (an op that starts a job), the first such event whenever it comes
        (None if the session closes first)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiters.append(_Waiter(self.live.submit(op), wanted, future, until_done))
        return await future

    async def _initialize(self, request: SDKControlInitializeRequest) -> dict[str, Any]:
        if self._initialized:
            raise RequestFailed("Already initialized")
        self._initialized = True
        matchers = handshake.hook_matchers(request)
        if matchers:
            self.live.submit(ops.RegisterHookCallbacks(matchers))
        return handshake.initialize_response(self.opts, hooks_sent=bool(matchers))

    async def _interrupt(self, request: SDKControlInterruptRequest) -> dict[str, Any]:
        if self.turn is not None:
            self.live.submit(ops.Interrupt())
        return {"still_queued": []}

    async def _set_permission_mode(self, request: SDKControlSetPermissionModeRequest
                                   ) -> dict[str, Any]:
        mode = request.get("mode")
        if mode not in MODES:
            raise RequestFailed("Cannot set permission mode: must be one of "
                                + ", ".join(sorted(MODES)), "invalid_mode")
        changed = await self._apply(ops.SetMode(str(mode)), lambda e: isinstance(e, ModeChanged))
        if changed is None:
            raise RequestFailed(f"Cannot set permission mode {mode} in this session")
        return {"mode": changed.mode}

    async def _set_model(self, request: SDKControlSetModelRequest) -> dict[str, Any]:
        model = request.get("model") or DEFAULT_MODEL
        changed = await self._apply(ops.SetModel(str(model), source="sdk"),
                                    lambda e: isinstance(e, ModelChanged))
        if changed is None:
            raise RequestFailed(f"Cannot set model {model}")
        return {"model": changed.model}

    async def _describe(self, topic: str) -> Any:
        report = await self._apply(ops.Describe(topic),
                                   lambda e: isinstance(e, Report) and e.topic == topic)
        return report.data if report is not None else None

    async def _mcp_status(self, request: SDKControlMcpStatusRequest) -> McpStatusResponse:
        return mcp_status(await self._describe("mcp_status") or [])

    async def _context_usage(self, request: SDKControlGetContextUsageRequest
                             ) -> ContextUsageResponse:
        return context_usage(await self._describe("context") or {})

    async def _server(self, request: SDKControlMcpReconnectRequest | SDKControlMcpToggleRequest
                      ) -> dict[str, Any]:
        name = str(request.get("serverName"))
        for server in await self._describe("mcp_status") or []:
            if server["name"] == name:
                return server
        raise RequestFailed(f"Server not found: {name}")

    async def _mcp_reconnect(self, request: SDKControlMcpReconnectRequest) -> dict[str, Any]:
        server = await self._server(request)
        if server["status"] != "connected":
            self.live.submit(ops.McpServer("reconnect", server["name"]))
        return {}

    async def _mcp_toggle(self, request: SDKControlMcpToggleRequest) -> None:
        server = await self._server(request)
        self.live.submit(ops.McpServer("enable" if request.get("enabled") else "disable",
                                          server["name"]))

    async def _rewind_files(self, request: SDKControlRewindFilesRequest) -> Mapping[str, Any]:
        """The files back as they were before the prompt `user_message_id` (its uuid, as
        --replay-user-messages writes it back), or with `dry_run` what that would change:
        Claude Code's RewindFilesResult. The conversation is left as it is."""
        prompt = str(request.get("user_message_id") or "")
        if request.get("dry_run"):
            planned = await self._apply(ops.PlanRewind(prompt),
                                        lambda e: isinstance(e, RewindPlanned))
            if planned is None or planned.plan is None:
                raise RequestFailed("Cannot rewind files: " + (
                    planned.error if planned and planned.error else f"no checkpoint for {prompt}"))
            return dict(planned.plan.to_sdk())
        done = await self._apply(
            ops.Rewind(prompt, restore_code=True, restore_conversation=False),
            lambda e: isinstance(e, Rewound) or (isinstance(e, Notice)
                                                 and e.level in ("error", "warning")),
            until_done=False)
        if not isinstance(done, Rewound):
            raise RequestFailed("Cannot rewind files: " + (done.text if done
                                                            else "the session ended"))
        result: RewindFilesResult = {"canRewind": True,
                                  "filesChanged": [*done.written, *done.deleted],
                                  "insertions": done.insertions, "deletions": done.deletions}
        if done.conflicts:
            result["error"] = ("Changed outside the session since its last edit, left as they "
                               "are: " + ", ".join(done.conflicts))
        return result

    async def _stop_task(self, request: SDKControlStopTaskRequest) -> dict[str, Any]:
        """Stop a background agent or shell by its task id (an unknown id is answered the
        same, as Claude Code answers it; the error goes to stderr)."""
        task_id = str(request.get("task_id") or "")
        done = await self._apply(
            ops.StopTask(task_id),
            lambda e: isinstance(e, TasksListed) or (isinstance(e, Notice)
                                                     and e.level == "error"),
            until_done=False)
        if isinstance(done, Notice):
            self._note(f"stop_task: {done.text}")
        return {}

    # ── our requests to the program ────────────────────────────────────────────────────────

    async def _can_use_tool(self, request: PermissionRequest) -> None:
        """Ask the program (can_use_tool); its answer goes back as the AnswerPermission op."""
        body: SDKControlPermissionRequest = {
            "subtype": "can_use_tool", "tool_name": request.tool_name,
            "display_name": request.tool_name, "input": request.input,
            "description": request.reason, "permission_suggestions": _suggestions(request),
            "tool_use_id": request.tool_use_id}
        if request.agent_id:
            body["agent_id"] = request.agent_id
        self._state("requires_action")
        answer: PermissionResult
        try:
            answer = cast(PermissionResult, await self.control.request(body))
        except ControlError as exc:
            answer = {"behavior": "deny", "message": f"The permission callback failed: {exc}"}
        finally:
            self._state("running")
        if answer.get("behavior") == "allow":
            self._apply_updates(answer.get("updatedPermissions"))
            rewritten = answer.get("updatedInput")
            if not isinstance(rewritten, dict) or rewritten == request.input:
                rewritten = None
            self.live.submit(ops.AnswerPermission(request.request_id, "yes",
                                                  updated_input=rewritten))
            return
        self.live.submit(ops.AnswerPermission(request.request_id, "no",
                                              str(answer.get("message") or "")))
        if answer.get("interrupt"):
            self.live.submit(ops.Interrupt())

    def _apply_updates(self, updates: list[PermissionUpdate] | None) -> None:
        """An allow's `updatedPermissions`: rules and the mode change now; the rest is noted.
        The program's JSON: each update and rule is checked before it is read."""
        for update in updates if isinstance(updates, list) else []:
            kind = update.get("type") if isinstance(update, dict) else None
            if kind == "setMode" and (mode := update.get("mode")) in MODES:
                self.live.submit(ops.SetMode(str(mode)))
            elif kind in ("addRules", "removeRules") and (behavior := update.get("behavior")) in (
                    "allow", "deny", "ask"):
                persist = update.get("destination") == "localSettings"
                for rule in update.get("rules") or []:
                    text = str(rule.get("toolName"))
                    if content := rule.get("ruleContent"):
                        text += f"({content})"
                    self.live.submit(ops.AddRule(behavior, text, persist)
                                     if kind == "addRules" else ops.RemoveRule(text))
            else:
                self._note(f"permission update {kind!r} is accepted but not applied")

    async def _hook_callback(self, request: HookCallbackRequest) -> None:
        body: SDKHookCallbackRequest = {
            "subtype": "hook_callback", "callback_id": request.callback_id,
            "input": request.input, "tool_use_id": request.tool_use_id}
        try:
            output = await self.control.request(body)
        except ControlError as exc:
            self.live.submit(ops.AnswerHookCallback(request.request_id, None, str(exc)))
            return
        self.live.submit(ops.AnswerHookCallback(request.request_id, output))


def _parse(raw: str) -> dict[str, Any] | None:
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _prompt_ops(text: str) -> list[ops.Op]:
    """A user line's ops: a built-in `/command` with session ops runs them; anything else
    (custom commands included, which the session expands) is a prompt."""
    called = invoke(text) if text.startswith("/") else None
    if called is not None and called.ops and not isinstance(called.ops[0], ops.RunCommand):
        return list(called.ops)
    return [ops.UserPrompt(text)]


def _take_queued(queued: deque[list[ops.Op]]) -> list[ops.Op]:
    """The next turn's work from what queued during the last one: a command alone, or every
    prompt up to the next command as one prompt (texts joined by newlines, blocks kept)."""
    if not queued:
        return []
    if not _is_prompt(queued[0]):
        return queued.popleft()
    prompts: list[ops.UserPrompt] = []
    while queued and _is_prompt(queued[0]):
        prompts.append(queued.popleft()[0])  # type: ignore[arg-type]
    if len(prompts) == 1:
        return [prompts[0]]
    if all(isinstance(p.content, str) for p in prompts):
        return [ops.UserPrompt("\n".join(str(p.content) for p in prompts))]
    blocks = [block for p in prompts for block in (
        ({"type": "text", "text": p.content},) if isinstance(p.content, str) else p.content)]
    return [ops.UserPrompt(tuple(blocks))]


def _is_prompt(work: list[ops.Op]) -> bool:
    return len(work) == 1 and isinstance(work[0], ops.UserPrompt)


def _suggestions(request: PermissionRequest) -> list[PermissionUpdate]:
    """The "don't ask again" rule as Claude Code's permission_suggestions."""
    if not request.suggestion:
        return []
    rules: list[PermissionRuleValue] = []
    for text in split_rules(request.suggestion):
        try:
            value = parse_rule(text)
        except ValueError:
            continue
        rule: PermissionRuleValue = {"toolName": value.tool_name}
        if value.rule_content is not None:
            rule["ruleContent"] = value.rule_content
        rules.append(rule)
    if not rules:
        return []
    return [{"type": "addRules", "rules": rules, "behavior": "allow",
             "destination": "localSettings"}]
