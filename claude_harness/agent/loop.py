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
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Literal

from claude_harness.agent.compact import compact_messages
from claude_harness.agent.messages import (
    normalize_for_api,
    tool_result_block,
    tool_uses,
    user_text,
    with_cache_breakpoint,
)
from claude_harness.agent.stream import StreamAccumulator
from claude_harness.api.client import ApiClient
from claude_harness.api.errors import ApiError
from claude_harness.api.pricing import cost_usd
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
    Notice,
    PermissionRequest,
    TurnEnd,
    Usage,
    UserMessage,
)
from claude_harness.tools.budget import enforce_aggregate_budget
from claude_harness.tools.executor import StreamingToolExecutor
from claude_harness.tools.pipeline import ToolOutcome


@dataclass
class QueryParams:
    model: str
    system: list[dict[str, Any]]
    tool_schemas: list[dict[str, Any]]
    max_tokens: int = 16_384
    max_turns: int | None = None
    thinking: dict[str, Any] | None = None
    compact_threshold: int | None = None  # context tokens past which the history is compacted
    context_tokens: int = 0  # context size of the previous request, when known


class _Aborted(Exception):
    pass


def build_request(params: QueryParams, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The request body. Key order and contents are stable turn to turn (prompt cache)."""
    request: dict[str, Any] = {
        "model": params.model,
        "max_tokens": params.max_tokens,
        "system": params.system,
        "messages": with_cache_breakpoint(normalize_for_api(messages)),
    }
    if params.tool_schemas:
        request["tools"] = params.tool_schemas
    if params.thinking:
        request["thinking"] = params.thinking
    return request


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

    async def run(self) -> AsyncIterator[AgentEvent]:
        while self.end is None:
            self.turn += 1
            async for event in self._maybe_compact():
                yield event
            acc = StreamAccumulator()
            executor: StreamingToolExecutor | None = None
            started = time.monotonic()
            try:
                async for event in _stream_turn(self.params, self.messages, self.ctx, self.api,
                                                self.channel, acc):
                    if isinstance(event, StreamingToolExecutor):
                        executor = event
                    else:
                        yield event
            except _Aborted:
                async for event in _finish_aborted(self.messages, acc, executor, self.channel):
                    yield event
                self.end = TurnEnd("aborted", self.turn)
            except ApiError as exc:
                self.end = TurnEnd("error", self.turn, exc.message)
            else:
                async for event in self._after_stream(acc, executor, started):
                    yield event
        yield self.end

    async def _maybe_compact(self) -> AsyncIterator[AgentEvent]:
        threshold = self.params.compact_threshold
        if threshold and self.context_tokens > threshold:
            async for event in run_compaction(self.messages, self.params, self.ctx, self.api,
                                              "auto", "", self.context_tokens):
                yield event
            self.context_tokens = 0

    def _usage(self, acc: StreamAccumulator, started: float) -> Usage:
        cost = cost_usd(self.params.model, acc.usage)
        self.session_cost += cost
        usage = Usage(
            acc.usage.get("input_tokens", 0),
            acc.usage.get("output_tokens", 0),
            acc.usage.get("cache_creation_input_tokens", 0),
            acc.usage.get("cache_read_input_tokens", 0),
            cost,
            self.session_cost,
            time.monotonic() - started,
        )
        self.context_tokens = usage.context_tokens
        return usage

    async def _after_stream(self, acc: StreamAccumulator, executor: StreamingToolExecutor | None,
                            started: float) -> AsyncIterator[AgentEvent]:
        yield self._usage(acc, started)
        assistant = acc.message()
        if assistant["content"]:
            self.messages.append(assistant)
            yield AssistantMessage(assistant, acc.stop_reason)
        if not tool_uses(assistant):
            async for event in self._end_of_answer(assistant, acc.stop_reason):
                yield event
            return
        self.guard.reset()
        assert executor is not None
        async for event in self._run_tools(acc, executor):
            yield event

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

    async def _run_tools(self, acc: StreamAccumulator,
                         executor: StreamingToolExecutor) -> AsyncIterator[AgentEvent]:
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
        for event in self._context_changes(executor.ctx):
            yield event
        self.ctx = executor.ctx
        yield _results_message(self.messages, outcomes)
        enforce_aggregate_budget(self.messages, self.ctx.content_replacement,
                                 self.ctx.options.session_dir)
        for event in self._new_messages(outcomes):
            yield event
        self._check_limits(outcomes)
        if self.end is not None and self.end.reason == "hook_stopped":
            yield Notice(next(o.stop_reason for o in outcomes if o.stop_reason) or "", "warning")

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
) -> AsyncIterator[AgentEvent]:
    """Summarise and replace `messages` in place (unless a PreCompact hook vetoes it)."""
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
                                        pre_tokens=pre_tokens)
    except ApiError as exc:
        yield Notice(f"Compaction failed: {exc.message}", "error")
        return
    messages[:] = result.messages
    yield Compaction(trigger, pre_tokens, result.summary, list(result.messages))


def _results_message(messages: list[dict[str, Any]], outcomes: list[ToolOutcome]) -> UserMessage:
    content = [tool_result_block(o.tool_use_id, o.content, o.is_error) for o in outcomes]
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
) -> AsyncIterator[Any]:
    """Stream one request (retrying as needed); yields UI events, and the executor once."""
    request = build_request(params, messages)
    attempt = 0
    while True:
        attempt += 1
        executor = StreamingToolExecutor(ctx, channel.emit)
        yield executor
        pump = asyncio.create_task(_pump(api, request, channel))
        try:
            async for event in _consume(channel, acc, executor):
                yield event
            return
        except ApiError as exc:
            if not exc.retryable or attempt > api.settings.max_retries:
                raise
            _discard_attempt(executor, acc)
            delay = api.backoff(attempt, exc.retry_after)
            yield ApiRetry(attempt, api.settings.max_retries, delay, exc.message)
            await _sleep_or_abort(delay, channel)
        finally:
            pump.cancel()


async def _pump(api: ApiClient, request: dict[str, Any], channel: _Channel) -> None:
    try:
        async for raw in api.stream_once(request):
            channel.queue.put_nowait(("sse", raw))
        channel.queue.put_nowait(("sse_end", None))
    except ApiError as exc:
        channel.queue.put_nowait(("sse_error", exc))
    except Exception as exc:  # never leave the consumer waiting on a stream that died
        channel.queue.put_nowait(("sse_error", ApiError(f"{type(exc).__name__}: {exc}")))


async def _consume(
    channel: _Channel, acc: StreamAccumulator, executor: StreamingToolExecutor
) -> AsyncIterator[AgentEvent]:
    while True:
        kind, payload = await channel.get()
        if kind == "event":
            yield payload
        elif kind == "sse":
            deltas, finished_tool = acc.feed(payload)
            for delta in deltas:
                yield delta
            if finished_tool is not None:
                executor.add_tool(finished_tool)
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
    outcome = await ctx.hooks.run(
        "SubagentStop" if ctx.agent_id else "Stop",
        {"stop_hook_active": active, "last_assistant_message": text, "cwd": str(ctx.cwd)},
    )
    events: list[AgentEvent] = [HookRan(outcome.event, outcome)] if outcome.ran else []
    events += [Notice(m) for m in getattr(outcome, "system_messages", [])]
    events += [Notice(m, "warning") for m in getattr(outcome, "errors", [])]
    if outcome.blocked:
        return outcome.block_reason or "A Stop hook asked to continue.", events
    return None, events
