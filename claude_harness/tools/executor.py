"""The streaming tool executor: tools start while the model is still talking.

Rules (the seeds' orchestration):
- A concurrency-safe call (for its input) starts the moment its tool_use block is complete,
  before message_stop, alongside any other safe calls already running.
- A call that is not concurrency-safe waits until the stream has ended and nothing else runs,
  then runs alone; calls after it wait for it, so order is kept. (It does not start early: a
  stream that breaks and is retried must not leave a half-applied edit behind.)
- Context modifiers of serial calls apply as soon as the call ends, so the next call sees them;
  those of a parallel batch are queued and applied, in block order, when the batch ends.
- Results come back in the order of the tool_use blocks, whatever order they finished in.
- `hold=True` (a spending limit is set): nothing starts before the stream has ended, since the
  answer's cost decides whether its calls run at all.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.events import ToolResultEvent, ToolStart
from claude_harness.protocol.messages import CANCELLED_MESSAGE, INTERRUPTED_MESSAGE
from claude_harness.protocol.tool import ContextModifier, Tool
from claude_harness.tools.pipeline import Emit, ToolOutcome, check_permissions_and_call_tool


@dataclass
class TrackedTool:
    block: dict[str, Any]
    safe: bool
    task: asyncio.Task[ToolOutcome] | None = None
    outcome: ToolOutcome | None = None

    @property
    def id(self) -> str:
        return str(self.block["id"])


@dataclass
class StreamingToolExecutor:
    ctx: ToolUseContext
    emit: Emit
    tools: list[TrackedTool] = field(default_factory=list)
    stream_done: bool = False
    hold: bool = False
    _pending_modifiers: list[tuple[int, ContextModifier]] = field(default_factory=list)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def add_tool(self, block: dict[str, Any]) -> None:
        tool = self.ctx.find_tool(block["name"])
        parsed = _parse(tool, block)
        # An unknown tool fails at lookup at once: nothing to protect, let it run in parallel.
        safe = tool is None or (parsed is not None and _concurrency_safe(tool, parsed))
        tracked = TrackedTool(block, safe)
        self.tools.append(tracked)
        key = _key_argument(tool, parsed)
        self.emit(ToolStart(tracked.id, block["name"], block.get("input") or {}, key))
        self._schedule()

    def finish_stream(self) -> None:
        self.stream_done = True
        self._schedule()

    def _running(self) -> list[TrackedTool]:
        return [t for t in self.tools if t.task is not None and t.outcome is None]

    def _schedule(self) -> None:
        """Start every queued call that the rules allow to start now, in block order."""
        if self.hold and not self.stream_done:
            return
        for tracked in self.tools:
            if tracked.task is not None:
                if tracked.outcome is None and not tracked.safe:
                    return  # a serial call is running: nothing after it may start
                continue
            running = self._running()
            if tracked.safe and all(t.safe for t in running):
                self._start(tracked)
            elif not tracked.safe and self.stream_done and not running:
                self._flush_modifiers()
                self._start(tracked)
                return
            else:
                return  # keep order: later calls wait behind this one

    def _start(self, tracked: TrackedTool) -> None:
        ctx = self.ctx
        tracked.task = asyncio.create_task(check_permissions_and_call_tool(tracked.block, ctx, self.emit))
        tracked.task.add_done_callback(lambda _t, tr=tracked: self._on_done(tr))

    def _on_done(self, tracked: TrackedTool) -> None:
        assert tracked.task is not None
        if tracked.task.cancelled():
            tracked.outcome = ToolOutcome(tracked.id, tracked.block["name"], INTERRUPTED_MESSAGE,
                                          is_error=True)
        elif (exc := tracked.task.exception()) is not None:
            tracked.outcome = ToolOutcome(tracked.id, tracked.block["name"],
                                          f"<tool_use_error>{type(exc).__name__}: {exc}</tool_use_error>",
                                          is_error=True)
        else:
            tracked.outcome = tracked.task.result()
        outcome = tracked.outcome
        if outcome.context_modifier is not None:
            index = self.tools.index(tracked)
            if tracked.safe:
                self._pending_modifiers.append((index, outcome.context_modifier))
            else:
                self.ctx = outcome.context_modifier(self.ctx)
        self.emit(ToolResultEvent(tracked.id, outcome.name, outcome.content, outcome.is_error,
                                  tracked.block.get("input") or {}, outcome.data,
                                  final_answer=outcome.ends_turn))
        self._changed.set()
        self._schedule()

    def _flush_modifiers(self) -> None:
        for _, modifier in sorted(self._pending_modifiers, key=lambda p: p[0]):
            self.ctx = modifier(self.ctx)
        self._pending_modifiers.clear()

    @property
    def all_done(self) -> bool:
        return all(t.outcome is not None for t in self.tools)

    async def wait_all(self) -> list[ToolOutcome]:
        """Wait until every call has an outcome (call after finish_stream())."""
        while not self.all_done:
            self._changed.clear()
            if self.all_done:
                break
            await self._changed.wait()
        self._flush_modifiers()
        return [t.outcome for t in self.tools if t.outcome is not None]

    async def interrupt(self, grace: float = 5.0) -> list[ToolOutcome]:
        """After an abort: let running calls stop themselves (they watch ctx.abort), cancel what
        does not stop in time, and give every call that never started a synthetic result."""
        running = [t.task for t in self.tools if t.task is not None and t.outcome is None]
        if running:
            _done, pending = await asyncio.wait(running, timeout=grace)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=1.0)
        for tracked in self.tools:
            if tracked.outcome is None:
                if tracked.task is not None and not tracked.task.done():
                    tracked.task.cancel()
                tracked.outcome = ToolOutcome(tracked.id, tracked.block["name"],
                                              CANCELLED_MESSAGE if tracked.task is None
                                              else INTERRUPTED_MESSAGE, is_error=True)
                self.emit(ToolResultEvent(tracked.id, tracked.block["name"],
                                          tracked.outcome.content, True,
                                          tracked.block.get("input") or {}))
        return [t.outcome for t in self.tools if t.outcome is not None]


def _parse(tool: Tool | None, block: dict[str, Any]) -> Any:
    """The block's input as the tool's model, or None when it does not validate (the pipeline
    reports that properly; here it only means "not known to be safe")."""
    if tool is None:
        return None
    try:
        return tool.input_model.model_validate(block.get("input") or {})
    except ValidationError:
        return None


def _concurrency_safe(tool: Tool, parsed: Any) -> bool:
    try:
        return bool(tool.is_concurrency_safe(parsed))
    except Exception:  # a tool's hint must never break scheduling: fail closed
        return False


def _key_argument(tool: Tool | None, parsed: Any) -> str:
    if tool is None or parsed is None:
        return ""
    try:
        return tool.key_argument(parsed)
    except Exception:
        return ""
