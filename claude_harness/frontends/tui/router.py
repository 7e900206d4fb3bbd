"""Maps a turn's events to widgets in the conversation (one `match`, no UI logic in the
session), and rebuilds widgets from stored history for /resume and benchmarks. The app handles
the session-state events (busy, mode, totals, permission prompts) itself.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widget import Widget

from claude_harness.frontends.shared import previews
from claude_harness.frontends.shared.terminal_text import SafeStream
from claude_harness.frontends.tui.widgets.assistant_text import AssistantTextView, FrozenText
from claude_harness.frontends.tui.widgets.conversation import Conversation
from claude_harness.frontends.tui.widgets.notice import NoticeView
from claude_harness.frontends.tui.widgets.server_tool import ServerToolView
from claude_harness.frontends.tui.widgets.thinking import RedactedThinkingView, ThinkingView
from claude_harness.frontends.tui.widgets.tool_call import ToolCallView
from claude_harness.frontends.tui.widgets.user_prompt import UserPromptView
from claude_harness.protocol.events import (
    AgentEvent,
    ApiRetry,
    AssistantMessage,
    Compaction,
    HookRan,
    Notice,
    ServerToolUse,
    StopNotice,
    TextDelta,
    ThinkingDelta,
    ThinkingDone,
    ToolProgress,
    ToolResultEvent,
    ToolStart,
    TurnEnd,
)
from claude_harness.text.terminal_safety import strip_unsafe


async def _diff_into(view: ToolCallView, texts: tuple[str, str]) -> None:
    view.set_diff(await asyncio.to_thread(previews.change_diff, texts))


class TurnRenderer:
    """Renders one conversation's events; keeps the open text/thinking block and the tool views."""

    def __init__(self, conversation: Conversation) -> None:
        self.conversation = conversation
        self.tools: dict[str, ToolCallView] = {}
        self._text: AssistantTextView | None = None
        self._thinking: ThinkingView | None = None
        self._clean = SafeStream()  # the open text block's escape sequences, removed whole
        self.expanded = False

    async def handle(self, event: AgentEvent) -> None:
        match event:
            case TextDelta(text=text):
                if self._text is None:
                    await self._close_thinking()
                    self._text = AssistantTextView()
                    await self.conversation.add(self._text)
                await self._text.append_delta(self._clean.feed(text))
            case ThinkingDelta(text=text):
                if self._thinking is None:
                    self._thinking = ThinkingView()
                    self._thinking.collapsed = not self.expanded
                    await self.conversation.add(self._thinking)
                self._thinking.append_delta(text)
            case ThinkingDone():
                await self._thinking_done(event)
            case StopNotice(text=text, level=level):
                await self.close_blocks()
                await self.notice(text, level)
            case ServerToolUse():
                await self.close_blocks()
                view = ServerToolView(event)
                view.set_expanded(self.expanded)
                await self.conversation.add(view)
            case AssistantMessage():
                await self.close_blocks()
            case ToolStart(tool_use_id=tid, name=name, input=inp, key_argument=key):
                await self.close_blocks()
                await self._tool_view(tid, name, inp, key)
            case ToolProgress(tool_use_id=tid, name=name, data=data):
                (await self._tool_view(tid, name, {})).add_progress(data)
            case ToolResultEvent(tool_use_id=tid, name=name, content=content, is_error=err):
                view = await self._tool_view(tid, name, event.input)
                view.finish(content, err)
            case ApiRetry(attempt=attempt, max_retries=most, delay=delay, error=error):
                await self.notice(f"{error} · retrying in {delay:.0f}s (attempt {attempt}/{most})",
                                  "warning")
            case Notice(text=text, level=level):
                await self.notice(text, level)
            case HookRan():
                await self._hook_notice(event)
            case Compaction(trigger=trigger, pre_tokens=tokens):
                await self.close_blocks()
                how = "automatically" if trigger == "auto" else "on request"
                await self.notice(f"Conversation compacted {how}: {tokens:,} tokens summarised; "
                                  "the model continues from the summary.")
            case TurnEnd():
                await self.end_turn(event)

    async def _tool_view(self, tid: str, name: str, inp: dict[str, Any],
                         key: str = "") -> ToolCallView:
        view = self.tools.get(tid)
        if view is None:
            texts = previews.file_change_texts(name, inp) if inp else None  # before it runs
            view = ToolCallView(tid, name, inp, key)
            view.set_class(self.expanded, "-expanded")
            self.tools[tid] = view
            await self.conversation.add(view)
            if texts is not None:  # the diff itself is built in a thread, never on the loop
                view.run_worker(_diff_into(view, texts), group="diff")
        elif inp and not view.tool_input:
            view.tool_input = inp
        return view

    async def _thinking_done(self, event: ThinkingDone) -> None:
        """The block ended: its view says how long it took; a redacted block (no deltas) and
        an omitted one (no text streamed) get their one line now."""
        if event.redacted:
            await self._close_thinking()
            await self.conversation.add(RedactedThinkingView())
            return
        if self._thinking is None:
            view = ThinkingView(event.text, streaming=False)
            view.collapsed = not self.expanded
            await self.conversation.add(view)
            view.finish()
            return
        thinking, self._thinking = self._thinking, None
        thinking.finish(event.text)

    async def _close_thinking(self) -> None:
        if self._thinking is not None:
            self._thinking.finish()
            self._thinking = None

    async def close_blocks(self) -> None:
        await self._close_thinking()
        if self._text is not None:
            text, self._text = self._text, None
            rest = self._clean.flush()
            if rest:
                await text.append_delta(rest)
            await text.finish()

    async def notice(self, text: str, level: str = "info") -> None:
        await self.conversation.add(NoticeView(text, level))

    async def _hook_notice(self, event: HookRan) -> None:
        """Every hook run gets a compact line: always shown when it blocked or failed, else
        only in the detailed transcript (Ctrl+O), with the hooks' output."""
        lines = [event.summary()]
        for result in getattr(event.outcome, "results", []):
            for label, text in (("stdout", result.stdout), ("stderr", result.stderr)):
                if text.strip():
                    lines.append(f"  {result.command} {label}: {text.strip()[:500]}")
        noteworthy = _hook_worth_showing(event)
        view = NoticeView("\n".join(lines), "warning" if noteworthy else "info",
                          detail=not noteworthy)
        view.set_class(self.expanded, "-expanded")
        await self.conversation.add(view)

    async def end_turn(self, event: TurnEnd) -> None:
        await self.close_blocks()
        for view in self.tools.values():
            if view.running:
                view.finish("Interrupted", True)
        self.tools = {tid: v for tid, v in self.tools.items() if v.is_mounted}
        if event.reason == "aborted":
            await self.notice("Interrupted · tell the model what to do instead", "warning")
        elif event.reason == "error":
            await self.notice(f"Error: {event.error or 'the turn failed'}", "error")
        elif event.reason == "max_turns":
            await self.notice(f"Stopped after the maximum of {event.num_turns} turns.", "warning")

    def set_expanded(self, expanded: bool) -> None:
        """Ctrl+O: the detailed transcript (full tool results and inputs, thinking shown)."""
        self.expanded = expanded
        for view in self.conversation.query(ToolCallView):
            view.set_expanded(expanded)
        for thinking in self.conversation.query(ThinkingView):
            thinking.collapsed = not expanded
        for server_tool in self.conversation.query(ServerToolView):
            server_tool.set_expanded(expanded)
        for detail in self.conversation.query(".-detail"):
            detail.set_class(expanded, "-expanded")


def _hook_worth_showing(event: HookRan) -> bool:
    """Quiet hooks stay quiet; a block, a failure or a timeout is shown."""
    outcome = event.outcome
    if getattr(outcome, "blocked", False):
        return True
    return any(r.timed_out or r.exit_code not in (0, None)
               for r in getattr(outcome, "results", []))


def history_widgets(messages: list[dict[str, Any]]) -> list[Widget]:
    """Widgets for stored messages (resume, benchmarks): prompts, answers, finished tool calls."""
    widgets: list[Widget] = []
    pending: dict[str, ToolCallView] = {}
    for message in messages:
        if message.get("isSidechain") or message.get("isMeta") or message.get("role") == "system":
            continue  # a sub-agent's transcript (its Agent call sums it up), a harness
            # instruction (continue...), a note to the model
        content = message.get("content")
        blocks: list[dict[str, Any]] = ([{"type": "text", "text": content}]
                                        if isinstance(content, str) else content or [])
        for block in blocks:
            kind = block.get("type")
            if kind == "text" and str(block.get("text", "")).strip():
                text = strip_unsafe(str(block["text"]))
                if message.get("role") == "user":
                    widgets.append(UserPromptView(text))
                else:
                    widgets.append(FrozenText(text))
            elif kind == "thinking":
                widgets.append(ThinkingView.from_history(str(block.get("thinking", ""))))
            elif kind == "redacted_thinking":
                widgets.append(RedactedThinkingView())
            elif kind == "tool_use":
                view = ToolCallView(block.get("id", ""), block.get("name", "?"),
                                    block.get("input") or {})
                view.finished = view.started
                pending[view.tool_use_id] = view
                widgets.append(view)
            elif kind == "tool_result" and (view := pending.pop(block["tool_use_id"], None)
                                            if "tool_use_id" in block else None):
                view.finish(block.get("content") or "", bool(block.get("is_error")))
    for view in pending.values():
        view.finish("(no result)", True)
    return widgets
