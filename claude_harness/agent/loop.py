"""query(): the `while True` agent loop, as an async generator of typed events.

One iteration = one request: stream the answer, hand each finished tool_use block to the
executor at once, append the assistant message, wait for the tools, append ALL their results in
ONE user message, and go again, until the model ends its turn, the turn limit is reached, a hook
stops it, or the user aborts. Everything the front ends show comes out of this generator.

The loop keeps no outside state: what a turn changes beyond the history (the mode, set by
EnterPlanMode or an approved plan; deferred tools loaded by ToolSearch; calls denied) comes out
as events (ModeChanged, DeferredToolsLoaded, DenialRecorded) for the session to apply.

Abort at any point leaves a history the API accepts: every tool_use that made it into the
history gets a tool_result (a synthesized "interrupted" one where needed), and a partial answer
keeps only its completed blocks.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from claude_harness.agent import stop_reasons
from claude_harness.agent.api_history import ApiHistory, ApiMessages, with_cache_breakpoint
from claude_harness.agent.compact import compact_messages
from claude_harness.agent.hook_points import (
    after_batch,
    post_compact,
    session_start_after_compact,
    stop_failure,
)
from claude_harness.agent.messages import (
    last_prompt_text,
    tool_result_block,
    tool_uses,
    user_text,
)
from claude_harness.agent.stream import StreamAccumulator
from claude_harness.api.client import ApiClient
from claude_harness.api.errors import ApiError
from claude_harness.api.models import spec_for, unknown_model_notice
from claude_harness.api.pricing import cost_usd
from claude_harness.api.request_body import dump_json
from claude_harness.api.request_params import (
    RequestSettings,
    model_params,
    settings_from_sources,
    wants_ultrathink,
)
from claude_harness.api.token_estimate import estimate_tokens
from claude_harness.hooks.stop_guard import StopHookGuard
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.events import (
    AgentEvent,
    ApiRetry,
    AssistantMessage,
    Compaction,
    DeferredToolsLoaded,
    HookRan,
    ModeChanged,
    ModelFallback,
    Notice,
    PermissionRequest,
    SideUsage,
    StreamEvent,
    ToolResultEvent,
    TurnEnd,
    Usage,
    UserMessage,
)
from claude_harness.tools.budget import enforce_aggregate_budget
from claude_harness.tools.executor import StreamingToolExecutor
from claude_harness.tools.pipeline import ToolOutcome


def _settings_from_env() -> RequestSettings:
    return settings_from_sources()[0]


@dataclass
class QueryParams:
    model: str
    system: list[dict[str, Any]]
    tool_schemas: list[dict[str, Any]]
    max_tokens: int | None = None  # None: the model table's default (CLAUDE_CODE_MAX_OUTPUT_TOKENS)
    max_turns: int | None = None
    thinking: dict[str, Any] | None = None  # overrides the model's thinking when given
    compact_threshold: int | None = None  # context tokens past which the history is compacted
    context_tokens: int = 0  # context size of the previous request, when known
    settings: RequestSettings = field(default_factory=_settings_from_env)
    stream_events: bool = False  # yield the API's raw stream events (StreamEvent) too
    budget_usd: float | None = None  # what this query may still spend (--max-budget-usd)
    fallback_model: str | None = None  # taken when the model stays overloaded
    # the history in API form, kept from turn to turn (the session keeps one across prompts)
    api_history: ApiHistory = field(default_factory=ApiHistory)
    # A `role: system` message sent right after the first user message (the skill and agent
    # listings, as Claude Code sends them): never stored in the history, so compaction and
    # /clear keep it, and at a fixed place, so the cached prefix never moves.
    context_message: dict[str, Any] | None = None
    # After each tool batch that the turn goes on from: (blocks to add after the results, in
    # the same user message: prompts the user sent meanwhile; `role: system` messages to add
    # after it: background tasks that ended). The session provides it; None: nothing to add.
    between_batches: Callable[[], tuple[list[dict[str, Any]], list[dict[str, Any]]]] | None = None


FALLBACK_AFTER_OVERLOADS = 3  # overloaded answers in a row before the fallback model is taken


class _Aborted(Exception):
    pass


def build_request(params: QueryParams, messages: list[dict[str, Any]], *,
                  ultrathink: bool = False) -> dict[str, Any]:
    """The request body for `messages` (prepared from scratch)."""
    return prepare_request(params, messages, ApiHistory(), ultrathink=ultrathink)[0]


def prepare_request(params: QueryParams, messages: list[dict[str, Any]], history: ApiHistory,
                    *, ultrathink: bool = False) -> tuple[dict[str, Any], list[bytes]]:
    """The request body, and each of its messages as JSON (`history` keeps what earlier turns
    already prepared). Key order and contents are stable turn to turn (prompt cache); the per-model
    fields (max_tokens, thinking, effort, context management) come from the table."""
    settings = params.settings
    if params.max_tokens is not None:
        settings = replace(settings, max_output_tokens=params.max_tokens)
    per_model = model_params(params.model, settings, ultrathink=ultrathink)
    prepared = with_context_message(history.prepare(messages), params.context_message)
    request: dict[str, Any] = {
        "model": params.model,
        "max_tokens": per_model.pop("max_tokens"),
        "system": params.system,
        "messages": prepared.messages,
    }
    if params.tool_schemas:
        request["tools"] = params.tool_schemas
    if params.thinking:
        per_model["thinking"] = params.thinking
    request.update(per_model)
    return request, prepared.encoded


def with_context_message(prepared: ApiMessages, message: dict[str, Any] | None) -> ApiMessages:
    """`prepared` with `message` (the listings) right after the first user message; when it is
    the last message it carries the cache breakpoint."""
    if message is None or not prepared.messages:
        return prepared
    first, *rest = prepared.messages
    if not rest:  # the breakpoint moves from the first message to the listing
        first = {**first, "content": [{k: v for k, v in b.items() if k != "cache_control"}
                                      for b in first["content"]]}
        messages = [first, *with_cache_breakpoint([message])]
        return ApiMessages(messages, [dump_json(m) for m in messages])
    return ApiMessages([first, message, *rest],
                       [prepared.encoded[0], dump_json(message), *prepared.encoded[1:]])


class _Channel:
    """One queue the stream, the tools and the abort signal all write into."""

    def __init__(self, ctx: ToolUseContext) -> None:
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._unlisten = ctx.abort.add_listener(lambda: self.queue.put_nowait(("abort", None)))
        if ctx.abort.aborted:
            self.queue.put_nowait(("abort", None))

    def emit(self, event: AgentEvent) -> None:
        self.queue.put_nowait(("event", event))

    async def get(self) -> tuple[str, Any]:
        item = await self.queue.get()
        if item[0] == "abort":
            raise _Aborted
        return item

    def close(self) -> None:
        self._unlisten()


async def query(
    messages: list[dict[str, Any]],
    params: QueryParams,
    ctx: ToolUseContext,
    api: ApiClient,
) -> AsyncIterator[AgentEvent]:
    """Run the loop over `messages` (appended in place) until the turn ends."""
    loop = _Loop(messages, params, ctx, api)
    try:
        async for event in loop.run():
            yield event
    finally:
        loop.channel.close()


class _Loop:
    """The state of one query; each step yields events and may set `end` to stop the loop."""

    def __init__(self, messages: list[dict[str, Any]], params: QueryParams, ctx: ToolUseContext,
                 api: ApiClient) -> None:
        self.messages, self.params, self.ctx, self.api = messages, params, ctx, api
        self.channel = _Channel(ctx)
        self.guard = StopHookGuard()
        self.turn = 0
        self.session_cost = 0.0
        self.context_tokens = params.context_tokens
        self.end: TurnEnd | None = None
        self.stops = stop_reasons.StopReasonState()
        self.ultrathink = wants_ultrathink(last_prompt_text(messages))
        # messages[:counted] are in context_tokens (the last request's prompt and answer)
        self.counted = max(len(messages) - 1, 0) if params.context_tokens else 0

    async def run(self) -> AsyncIterator[AgentEvent]:
        notice = _unknown_model_notice(self.params.model)
        if notice is not None and self.ctx.agent_id is None:
            yield Notice(notice, "warning")
        if self._over_budget():  # spent before this query began
            self.end = TurnEnd("max_budget", 0)
        while self.end is None:
            self.turn += 1
            async for event in self._maybe_compact():
                yield event
            acc = StreamAccumulator()
            executor: StreamingToolExecutor | None = None
            started = time.monotonic()
            try:
                async for event in _stream_turn(self.params, self.messages, self.ctx, self.api,
                                                self.channel, acc, ultrathink=self.ultrathink):
                    if isinstance(event, StreamingToolExecutor):
                        executor = event
                    else:
                        yield event
            except _Aborted:
                async for event in _finish_aborted(self.messages, acc, executor, self.channel):
                    yield event
                self.end = TurnEnd("aborted", self.turn)
            except ApiError as exc:
                if exc.context_overflow:
                    async for event in self._compact_and_retry(exc.message, exc.context_limit):
                        yield event
                else:
                    for event in await stop_failure(self.ctx, exc, self.messages):
                        yield event
                    self.end = TurnEnd("error", self.turn, exc.message)
            else:
                async for event in self._after_stream(acc, executor, started):
                    yield event
            for event in self._side_usage():
                yield event
        yield self.end

    async def _maybe_compact(self) -> AsyncIterator[AgentEvent]:
        """Compact before sending when the last request, or the one about to go, is past the
        threshold (the estimate catches a history that grew by a large tool result)."""
        threshold = self.params.compact_threshold
        if not threshold:
            return
        size = self.context_tokens
        if not size:  # nothing measured yet (a resumed session, just compacted): estimate it all
            size = estimate_tokens(prepare_request(self.params, self.messages,
                                                  self.params.api_history)[0])
        elif size <= threshold:  # measured, plus what was added since
            size += estimate_tokens(self.messages[self.counted:])
        if size > threshold:
            async for event in run_compaction(self.messages, self.params, self.ctx, self.api,
                                              "auto", "", size):
                yield event
            self.context_tokens = 0

    async def _compact_and_retry(self, reason: str,
                                 limit: int | None = None) -> AsyncIterator[AgentEvent]:
        """The prompt did not fit: compact once and send again; a second time is an error.
        `limit` is the window the API's error named: the summary request is built to fit it."""
        if self.stops.reactive_compaction_done:
            self.end = TurnEnd("error", self.turn, f"{stop_reasons.CONTEXT_GIVE_UP} ({reason})")
            return
        self.stops.reactive_compaction_done = True
        self.turn -= 1  # the retried request is the same turn
        compacted = False
        async for event in run_compaction(self.messages, self.params, self.ctx, self.api,
                                          "auto", "", self.context_tokens, context_window=limit):
            compacted = compacted or isinstance(event, Compaction)
            yield event
        self.context_tokens = 0
        if not compacted:
            self.end = TurnEnd("error", self.turn, stop_reasons.CONTEXT_GIVE_UP)
    def _over_budget(self) -> bool:
        budget = self.params.budget_usd
        return budget is not None and self.session_cost >= budget

    def _usage(self, acc: StreamAccumulator, started: float) -> Usage:
        model = acc.model or self.params.model
        cost = cost_usd(model, acc.usage)
        self.session_cost += cost
        usage = Usage(
            acc.usage.get("input_tokens", 0),
            acc.usage.get("output_tokens", 0),
            acc.usage.get("cache_creation_input_tokens", 0),
            acc.usage.get("cache_read_input_tokens", 0),
            cost,
            self.session_cost,
            time.monotonic() - started,
            model,
        )
        self.context_tokens = usage.context_tokens
        if self.ctx.agent_id is not None:  # a sub-agent's turns count in the session's totals
            self.api.record_side_usage("subagent", self.params.model, acc.usage)
        return usage

    def _side_usage(self) -> list[AgentEvent]:
        """The ledger of side requests, as events (the outermost loop reports them)."""
        if self.ctx.agent_id is not None:
            return []
        return side_usage_events(self.api)

    async def _after_stream(self, acc: StreamAccumulator, executor: StreamingToolExecutor | None,
                            started: float) -> AsyncIterator[AgentEvent]:
        yield self._usage(acc, started)
        stop = acc.stop_reason
        assistant = acc.message()
        if stop in ("refusal", stop_reasons.CONTEXT_EXCEEDED):
            assistant = stop_reasons.strip_unfinished_tools(assistant)
            if executor is not None:
                _discard_attempt(executor, StreamAccumulator())
        if assistant["content"]:
            self.messages.append(assistant)
            yield AssistantMessage(assistant, stop, acc.message_id, acc.model, dict(acc.usage))
        self.counted = len(self.messages)
        self.stops.reset_after_progress(stop)
        if stop == "refusal":
            yield stop_reasons.refusal_notice()
            self.end = TurnEnd("refusal", self.turn, stop_reasons.REFUSAL_NOTICE)
            return
        if stop == stop_reasons.CONTEXT_EXCEEDED:
            async for event in self._compact_and_retry("stop_reason: " + stop):
                yield event
            return
        if not tool_uses(assistant):
            async for event in self._answer_without_tools(assistant, stop):
                yield event
            return
        if self._over_budget():  # spent: the calls this answer asked for never run
            async for event in _finish_aborted(self.messages, acc, executor, self.channel,
                                               assistant_added=True):
                yield event
            self.end = TurnEnd("max_budget", self.turn)
            return
        self.guard.reset()
        assert executor is not None
        async for event in self._run_tools(acc, executor,
                                           stop_reasons.cut_tool_use(assistant, stop)):
            yield event
        if stop == "max_tokens" and self.end is None:
            async for event in self._count_cut_answer(continue_with_message=False):
                yield event

    async def _answer_without_tools(self, assistant: dict[str, Any],
                                    stop: str | None) -> AsyncIterator[AgentEvent]:
        """pause_turn resends, max_tokens continues, anything else ends the answer."""
        if stop == "pause_turn":
            self.stops.pauses += 1
            if self.stops.pauses > stop_reasons.MAX_PAUSE_RESUMES:
                self.end = TurnEnd("error", self.turn, stop_reasons.pause_limit_message())
            return  # the history now ends with the paused content: the next request resumes it
        if stop == "max_tokens":
            async for event in self._count_cut_answer(continue_with_message=True):
                yield event
            return
        async for event in self._end_of_answer(assistant, stop):
            yield event

    async def _count_cut_answer(self, *, continue_with_message: bool) -> AsyncIterator[AgentEvent]:
        """One more answer cut by max_tokens: ask to continue, or give up after the cap."""
        self.stops.continuations += 1
        if self.stops.continuations > stop_reasons.MAX_CONTINUATIONS:
            notice = stop_reasons.max_tokens_notice(stop_reasons.MAX_CONTINUATIONS)
            yield notice
            self.end = TurnEnd("max_tokens", self.turn, notice.text)
            return
        if continue_with_message:
            message = stop_reasons.continuation_message()
            self.messages.append(message)
            yield UserMessage(message)

    async def _end_of_answer(self, assistant: dict[str, Any],
                             stop_reason: str | None) -> AsyncIterator[AgentEvent]:
        """No tool calls: the turn ends, unless a Stop hook sends the model back to work."""
        blocked, hook_events = await _stop_hooks(self.ctx, self.guard.stop_hook_active, assistant)
        for event in hook_events:
            yield event
        if blocked is not None:
            if self.guard.register_block():
                self.messages.append(user_text(f"Stop hook feedback:\n{blocked}"))
                yield UserMessage(self.messages[-1])
                return
            yield Notice(self.guard.cap_message(), "warning")
        self.end = TurnEnd(stop_reason or "end_turn", self.turn)

    async def _run_tools(self, acc: StreamAccumulator, executor: StreamingToolExecutor,
                         cut: dict[str, Any] | None = None) -> AsyncIterator[AgentEvent]:
        withheld = _withhold_cut_tool(executor, cut)
        if withheld is not None:
            yield ToolResultEvent(withheld.tool_use_id, withheld.name, withheld.content, True,
                                  cut.get("input") or {} if cut else {})
        executor.finish_stream()
        try:
            async for event in _drain_tools(executor, self.channel):
                yield event
        except _Aborted:
            async for event in _finish_aborted(self.messages, acc, executor, self.channel,
                                               assistant_added=True):
                yield event
            self.end = TurnEnd("aborted", self.turn)
            return
        outcomes = await executor.wait_all()
        if withheld is not None:
            outcomes.append(withheld)
        for event in self._context_changes(executor.ctx):
            yield event
        self.ctx = executor.ctx
        self._check_limits(outcomes)
        inputs = {t.id: t.block.get("input") or {} for t in executor.tools}
        extra, hook_events = await after_batch(self.ctx, outcomes, inputs)
        for event in hook_events:
            yield event
        steering, notes = self._between_batches()
        yield _results_message(self.messages, outcomes, [*extra, *steering])
        enforce_aggregate_budget(self.messages, self.ctx.content_replacement,
                                 self.ctx.options.session_dir)
        for event in self._new_messages(outcomes):
            yield event
        for note in notes:
            self.messages.append(note)
            yield UserMessage(note)
        if self.end is not None and self.end.reason == "hook_stopped":
            yield Notice(next(o.stop_reason for o in outcomes if o.stop_reason) or "", "warning")

    def _between_batches(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """What the session adds after this batch, when the turn goes on (see QueryParams)."""
        hook = self.params.between_batches
        if hook is None or self.end is not None or self.ctx.agent_id is not None:
            return [], []
        return hook()

    def _context_changes(self, after: ToolUseContext) -> list[AgentEvent]:
        """What the batch's context modifiers changed that outlives the turn, as events."""
        events: list[AgentEvent] = []
        if after.permission.mode != self.ctx.permission.mode:
            events.append(ModeChanged(after.permission.mode))
        if after.options.loaded_deferred != self.ctx.options.loaded_deferred:
            events.append(DeferredToolsLoaded(after.options.loaded_deferred))
        return events

    def _new_messages(self, outcomes: list[ToolOutcome]) -> list[AgentEvent]:
        """Messages tools added (a sub-agent's transcript, marked with its Agent call)."""
        events: list[AgentEvent] = []
        for outcome in outcomes:
            for extra in outcome.new_messages:
                if extra.get("isSidechain"):
                    extra = {**extra, "parentToolUseId": outcome.tool_use_id}
                self.messages.append(extra)
                events.append(UserMessage(extra) if extra.get("role") == "user"
                              else AssistantMessage(extra))
        return events

    def _check_limits(self, outcomes: list[ToolOutcome]) -> None:
        if any(o.stop_reason for o in outcomes):
            self.end = TurnEnd("hook_stopped", self.turn)
        elif any(o.ends_turn for o in outcomes):  # the final answer came as a tool call
            self.end = TurnEnd("structured_output", self.turn)
        elif self.params.max_turns is not None and self.turn >= self.params.max_turns:
            self.end = TurnEnd("max_turns", self.turn)
        elif self.ctx.abort.aborted:
            self.end = TurnEnd("aborted", self.turn)


async def run_compaction(
    messages: list[dict[str, Any]],
    params: QueryParams,
    ctx: ToolUseContext,
    api: ApiClient,
    trigger: Literal["auto", "manual"],
    instructions: str,
    pre_tokens: int,
    *,
    context_window: int | None = None,
) -> AsyncIterator[AgentEvent]:
    """Summarise and replace `messages` in place (unless a PreCompact hook vetoes it); the
    summary request fits the model's window, or `context_window` when smaller."""
    if ctx.hooks is not None:
        outcome = await ctx.hooks.run("PreCompact", {"trigger": trigger,
                                                     "custom_instructions": instructions,
                                                     "cwd": str(ctx.cwd)})
        if outcome.ran:
            yield HookRan(outcome.event, outcome)
        if outcome.blocked:
            yield Notice(f"Compaction skipped by a PreCompact hook: {outcome.block_reason}",
                         "warning")
            return
    base = build_request(params, [])
    try:
        result = await compact_messages(api, base, messages, instructions=instructions,
                                        pre_tokens=pre_tokens,
                                        context_window=min(spec_for(params.model).context_window,
                                                           context_window or 1 << 62))
    except ApiError as exc:
        for event in side_usage_events(api) if ctx.agent_id is None else []:
            yield event
        yield Notice(f"Compaction failed: {exc.message}", "error")
        return
    for event in side_usage_events(api) if ctx.agent_id is None else []:
        yield event
    compacted, started = await session_start_after_compact(ctx, list(result.messages))
    messages[:] = compacted
    yield Compaction(trigger, pre_tokens, result.summary, list(compacted))
    for event in started:
        yield event
    for event in await post_compact(ctx, trigger, result.summary):
        yield event


def side_usage_events(api: ApiClient) -> list[AgentEvent]:
    """Drain the side-request ledger into SideUsage events (cost priced per model)."""
    return [SideUsage(purpose, model, usage.get("input_tokens", 0), usage.get("output_tokens", 0),
                      usage.get("cache_creation_input_tokens", 0),
                      usage.get("cache_read_input_tokens", 0), cost_usd(model, usage))
            for purpose, model, usage in api.drain_side_usage()]


_noticed_models: set[str] = set()


def _unknown_model_notice(model: str) -> str | None:
    """The one-line notice for a model the table does not know, once per process."""
    if spec_for(model).known or model in _noticed_models:
        return None
    _noticed_models.add(model)
    return unknown_model_notice(model)


def _withhold_cut_tool(executor: StreamingToolExecutor,
                       cut: dict[str, Any] | None) -> ToolOutcome | None:
    """Take the tool_use the output limit cut out of the executor (it has not started: its
    input never parsed) and return the result that explains why it did not run."""
    if cut is None:
        return None
    tracked = next((t for t in executor.tools if t.id == cut["id"]), None)
    if tracked is None or tracked.task is not None:
        return None
    executor.tools.remove(tracked)
    return stop_reasons.cut_tool_outcome(cut)


def _results_message(messages: list[dict[str, Any]], outcomes: list[ToolOutcome],
                     extra: list[dict[str, Any]] | None = None) -> UserMessage:
    """One user message: every result in block order, then what the tools and the batch's
    hooks add after them (a skill's instructions, rules for the files touched)."""
    content = [tool_result_block(o.tool_use_id, o.content, o.is_error) for o in outcomes]
    content += [block for o in outcomes for block in o.extra_content]
    content += extra or []
    message = {"role": "user", "content": content}
    messages.append(message)
    return UserMessage(message)


async def _stream_turn(
    params: QueryParams,
    messages: list[dict[str, Any]],
    ctx: ToolUseContext,
    api: ApiClient,
    channel: _Channel,
    acc: StreamAccumulator,
    *,
    ultrathink: bool = False,
) -> AsyncIterator[Any]:
    """Stream one request (retrying as needed); yields UI events, and the executor once."""
    request, encoded_messages = prepare_request(params, messages, params.api_history,
                                                ultrathink=ultrathink)
    attempt = overloads = 0
    while True:
        attempt += 1
        # Under a budget, calls wait for the whole answer: its cost decides whether they run.
        executor = StreamingToolExecutor(ctx, channel.emit, hold=params.budget_usd is not None)
        yield executor
        pump = asyncio.create_task(_pump(api, request, encoded_messages, channel))
        try:
            async for event in _consume(channel, acc, executor, params.stream_events):
                yield event
            return
        except ApiError as exc:
            overloads = overloads + 1 if _overloaded(exc) else 0
            _discard_attempt(executor, acc)
            if params.fallback_model and overloads >= FALLBACK_AFTER_OVERLOADS \
                    and request["model"] != params.fallback_model:
                yield ModelFallback(request["model"], params.fallback_model)
                params.model = params.fallback_model  # the request as that model takes it
                request, encoded_messages = prepare_request(params, messages, params.api_history,
                                                            ultrathink=ultrathink)
                attempt = overloads = 0
                continue
            if not exc.retryable or attempt > api.settings.max_retries:
                raise
            delay = api.backoff(attempt, exc.retry_after)
            yield ApiRetry(attempt, api.settings.max_retries, delay, exc.message, exc.status)
            await _sleep_or_abort(delay, channel)
        finally:
            pump.cancel()


def _overloaded(exc: ApiError) -> bool:
    return exc.status == 529 or "overloaded" in exc.message


async def _pump(api: ApiClient, request: dict[str, Any], encoded_messages: list[bytes],
                channel: _Channel) -> None:
    try:
        async for raw in api.stream_once(request, encoded_messages):
            channel.queue.put_nowait(("sse", raw))
        channel.queue.put_nowait(("sse_end", None))
    except ApiError as exc:
        channel.queue.put_nowait(("sse_error", exc))
    except Exception as exc:  # never leave the consumer waiting on a stream that died
        channel.queue.put_nowait(("sse_error", ApiError(f"{type(exc).__name__}: {exc}")))


async def _consume(
    channel: _Channel, acc: StreamAccumulator, executor: StreamingToolExecutor,
    stream_events: bool = False,
) -> AsyncIterator[AgentEvent]:
    while True:
        kind, payload = await channel.get()
        if kind == "event":
            yield payload
        elif kind == "sse":
            if stream_events:
                yield StreamEvent(payload.to_dict(mode="json", exclude_unset=True))
            try:
                deltas, finished_tool = acc.feed(payload)
            except (AttributeError, KeyError, TypeError, ValueError) as exc:
                raise ApiError(f"Malformed event in the API stream ({type(exc).__name__}: "
                               f"{exc})", retryable=True) from exc
            for delta in deltas:
                yield delta
            if finished_tool is not None:
                executor.add_tool(finished_tool)
            if acc.ready_tools:  # whole in message_start
                for tool in acc.take_ready_tools():
                    executor.add_tool(tool)
        elif kind == "sse_end":
            return
        elif kind == "sse_error":
            raise payload


def _discard_attempt(executor: StreamingToolExecutor, acc: StreamAccumulator) -> None:
    """A retried stream's partial answer is dropped; safe tools it started are stopped."""
    for tracked in executor.tools:
        if tracked.task is not None and not tracked.task.done():
            tracked.task.cancel()
    acc.reset()


async def _sleep_or_abort(delay: float, channel: _Channel) -> None:
    """Back off, but let an abort (or a stray event) through at once."""
    deadline = asyncio.get_running_loop().time() + delay
    while True:
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            return
        try:
            kind, _payload = await asyncio.wait_for(channel.get(), timeout=remaining)
        except TimeoutError:
            return
        if kind in ("sse", "sse_end", "sse_error"):
            continue  # left over from the cancelled attempt


async def _drain_tools(
    executor: StreamingToolExecutor, channel: _Channel
) -> AsyncIterator[AgentEvent]:
    """Yield tool events until every call has an outcome; permission prompts pass through."""
    while not executor.all_done:
        kind, payload = await channel.get()
        if kind == "event":
            yield payload
    # events emitted by the last completion are still queued
    while not channel.queue.empty():
        kind, payload = channel.queue.get_nowait()
        if kind == "event":
            yield payload
        elif kind == "abort":
            raise _Aborted


async def _finish_aborted(
    messages: list[dict[str, Any]],
    acc: StreamAccumulator,
    executor: StreamingToolExecutor | None,
    channel: _Channel,
    *,
    assistant_added: bool = False,
) -> AsyncIterator[AgentEvent]:
    """Leave a valid history: completed blocks kept, every kept tool_use answered."""
    if not assistant_added:
        assistant = acc.message()
        if assistant["content"]:
            messages.append(assistant)
            yield AssistantMessage(assistant, "aborted")
    if executor is None or not executor.tools:
        return
    kept = {u["id"] for u in tool_uses(messages[-1])} if messages else set()
    executor.tools = [t for t in executor.tools if t.id in kept]
    outcomes = await executor.interrupt()
    while not channel.queue.empty():
        kind, payload = channel.queue.get_nowait()
        if kind == "event" and not isinstance(payload, PermissionRequest):
            yield payload
    if outcomes:
        yield _results_message(messages, outcomes)


async def _stop_hooks(
    ctx: ToolUseContext, active: bool, assistant: dict[str, Any]
) -> tuple[str | None, list[AgentEvent]]:
    """Run Stop hooks: (the reason when one blocks, so the model must keep going; events)."""
    if ctx.hooks is None:
        return None, []
    text = "".join(b.get("text", "") for b in assistant.get("content", []) if b.get("type") == "text")
    payload: dict[str, Any] = {"stop_hook_active": active, "last_assistant_message": text,
                               "cwd": str(ctx.cwd)}
    if ctx.agent_id:
        payload.update(agent_id=ctx.agent_id, agent_type=ctx.agent_type or "general-purpose",
                       agent_transcript_path=ctx.transcript_path)
    outcome = await ctx.hooks.run("SubagentStop" if ctx.agent_id else "Stop", payload)
    events: list[AgentEvent] = [HookRan(outcome.event, outcome)] if outcome.ran else []
    events += [Notice(m) for m in getattr(outcome, "system_messages", [])]
    events += [Notice(m, "warning") for m in getattr(outcome, "errors", [])]
    if outcome.blocked:
        return outcome.block_reason or "A Stop hook asked to continue.", events
    return None, events
