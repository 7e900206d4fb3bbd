"""Turn agent events into lines in the scrollback.

The renderer only prints; it never answers permission requests (the REPL does, through the
input side) and never touches the session. One method per event kind keeps each small.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from rich.console import Console
from rich.style import Style
from rich.text import Text
from rich.theme import Theme

from claude_harness.frontends.plain import previews
from claude_harness.frontends.plain.live import LiveArea
from claude_harness.frontends.plain.safe_output import install_safe_output
from claude_harness.frontends.plain.stream import MarkdownStream
from claude_harness.frontends.plain.theme import load_theme
from claude_harness.frontends.shared.event_text import (
    REDACTED_THINKING,
    server_tool_line,
    server_tool_urls,
    thought_label,
)
from claude_harness.protocol.events import (
    ApiRetry,
    Busy,
    ClipboardText,
    Compaction,
    DeferredToolsLoaded,
    DenialRecorded,
    DirectoriesChanged,
    ElicitationRequested,
    ElicitationSettled,
    HistoryReplaced,
    McpAuthUrl,
    McpPromptsChanged,
    ModeChanged,
    ModelChanged,
    Notice,
    OpDone,
    PermissionSettled,
    PromptsReturned,
    QueueChanged,
    Report,
    RequestControlsChanged,
    RulesChanged,
    ServerToolUse,
    SessionClosed,
    SessionEvent,
    SessionStarted,
    ShellRan,
    SideQuestionsPending,
    SideUsage,
    StopNotice,
    TextDelta,
    ThinkingDelta,
    ThinkingDone,
    TodosChanged,
    ToolProgress,
    ToolResultEvent,
    ToolStart,
    TotalsChanged,
    TurnEnd,
    Usage,
    UserMessage,
)
from claude_harness.protocol.labels import MODE_LABELS
from claude_harness.text.terminal_safety import strip_unsafe

# State for the view (history, usage, the queue...), not output: the text keeps streaming.
SILENT = (Usage, UserMessage, Busy, OpDone, QueueChanged, TotalsChanged, RulesChanged,
          SessionStarted, TodosChanged, PermissionSettled, DenialRecorded, DeferredToolsLoaded,
          SessionClosed, PromptsReturned, RequestControlsChanged, McpPromptsChanged,
          DirectoriesChanged, ElicitationRequested, ElicitationSettled, SideUsage,
          SideQuestionsPending)
LEVEL_STYLES = {"info": "ch.dim", "warning": "ch.warning", "error": "ch.error"}


def make_console(theme: Theme | None = None, file: Any = None, *,
                 force_terminal: bool | None = None, width: int | None = None) -> Console:
    """A Console for the REPL: colours only on a real terminal, none with NO_COLOR.

    Rich already drops styles when the file is not a terminal and honours NO_COLOR; TERM=dumb
    also means no colour and no cursor movement.
    """
    file = file or sys.stdout
    dumb = os.environ.get("TERM") == "dumb"
    console = Console(file=file, theme=theme or load_theme(None)[0].rich_theme(),
                      highlight=False, no_color=True if os.environ.get("NO_COLOR") or dumb else None,
                      emoji=False, force_terminal=force_terminal, width=width)
    install_safe_output(console)  # no printed text can act on the terminal
    return console


class Glyphs:
    """Bullets that degrade to ASCII when the output encoding cannot show them."""

    def __init__(self, console: Console) -> None:
        fancy = (console.encoding or "").lower().replace("-", "").startswith("utf")
        self.bullet = "●" if fancy else "*"
        self.branch = "⎿" if fancy else "|"
        self.cross = "✗" if fancy else "x"


class EventRenderer:
    """Prints every event except PermissionRequest (the REPL answers those)."""

    def __init__(self, console: Console, *, verbose: bool = False) -> None:
        """`verbose` (--verbose): thinking text and server tools' URLs are printed too."""
        self.console = console
        self.verbose = verbose
        self.glyphs = Glyphs(console)
        self.area = LiveArea(console)
        self.stream = MarkdownStream(console, self.area)
        self._thinking_since: float | None = None  # a thinking block is streaming
        self._stop_text = ""  # the last StopNotice shown in this turn
        self._inputs: dict[str, dict[str, Any]] = {}
        self._starts: dict[str, ToolStart] = {}  # running calls, to name a result's call
        self._last_header: str | None = None  # the call whose header was printed last

    def begin_turn(self) -> None:
        self.area.set_status(self.working_status())

    def pause(self) -> None:
        """Before a prompt takes the terminal: erase the live area (it comes back on resume)."""
        self.area.stop()

    def resume(self) -> None:
        self.area.resume()

    def end_turn(self) -> None:
        """After a turn: final text settled, live area gone, a blank line before the prompt."""
        self.settle()
        self.area.clear()
        self.console.print()

    def working_status(self, what: str = "Working") -> str:
        star = "✻" if self.glyphs.bullet == "●" else "*"
        return f"{star} {what}…"

    def settle(self) -> None:
        """End any streaming text so what follows starts on its own line."""
        self.stream.finish()

    def render(self, event: SessionEvent) -> None:
        if isinstance(event, TextDelta):
            self.stream.feed(event.text)
            return
        if isinstance(event, ThinkingDelta):
            self._thinking(event)
            return
        if isinstance(event, ToolProgress):
            lines = previews.progress_lines(event.data)
            if lines:
                self.area.set_detail(lines[-1])
            return
        if isinstance(event, SILENT):
            return
        self.settle()
        match event:
            case ThinkingDone():
                self._thinking_done(event)
            case StopNotice(text=text, level=level):
                self.line(text, LEVEL_STYLES.get(level, ""))
                self._stop_text = text  # the turn's end repeats it: said once
            case ServerToolUse():
                self._server_tool(event)
            case McpAuthUrl(server=server, url=url):
                self.line(f"Open this link in your browser to log in to {server}:")
                url = strip_unsafe(url)
                self.console.print(Text(url, style=Style(link=url, underline=True)),
                                   soft_wrap=True)
            case ToolStart():
                self._tool_start(event)
            case ToolResultEvent():
                self._tool_result(event)
            case ApiRetry():
                self.line(f"API error ({event.error}); retrying in {event.delay:.1f}s "
                          f"(attempt {event.attempt}/{event.max_retries})", "ch.warning")
            case Notice():
                self.line(event.text, LEVEL_STYLES.get(event.level, ""))
            case Compaction():
                how = "automatically" if event.trigger == "auto" else "as asked"
                self.line(f"Conversation compacted {how} (was ~{event.pre_tokens} tokens); "
                          "the model continues from a summary.", "ch.dim")
            case TurnEnd():
                self.area.clear()
                self._turn_end(event)
            case ModelChanged(model=model):
                self.line(f"Model set to {model}.", "ch.dim")
            case ModeChanged(mode=mode):
                self.line(f"  {MODE_LABELS.get(mode, mode)} (shift+tab to cycle)", "ch.warning")
            case Report(lines=lines):
                for text in lines:
                    self.line(text)
            case ClipboardText(text=text):
                from claude_harness.session.services.clipboard_text import osc52

                if self.console.is_terminal:  # a pipe gets no escape sequences
                    self.console.file.write(osc52(text))  # raw: the terminal takes the copy
                    self.console.file.flush()
            case ShellRan():
                self._shell(event)
            case HistoryReplaced(reason="clear"):
                self.line("Conversation cleared.", "ch.dim")
            case _:
                pass  # AssistantMessage: the text block is complete, settled above

    # ── per event ───────────────────────────────────────────────────────────────────────────

    def line(self, text: str, style: str = "") -> None:
        """One line; long ones are left to the terminal to wrap (clean copy). The text may
        come from a tool, a hook or a server: its escape sequences are removed."""
        self.console.print(Text(strip_unsafe(text), style=style), soft_wrap=True)

    def _thinking(self, event: ThinkingDelta) -> None:
        """The model thinks: the live status counts the seconds (the text comes at the end,
        in verbose mode)."""
        if self._thinking_since is None:
            self.settle()
            self._thinking_since = time.monotonic()
            self.area.set_status(self.working_status("Thinking"))

    def _thinking_done(self, event: ThinkingDone) -> None:
        """`✻ Thought for 4s` (dim), the text under it with --verbose; one line if redacted."""
        if event.redacted:
            self.line(REDACTED_THINKING, "ch.dim")
            return
        seconds = None
        if self._thinking_since is not None:
            seconds = time.monotonic() - self._thinking_since
            self._thinking_since = None
            self.area.set_status(self.working_status())
        self.line(thought_label(seconds), "ch.dim")
        if self.verbose and event.text.strip():
            for text in event.text.strip().splitlines():
                self.line(f"  {text}", "ch.dim")

    def _server_tool(self, event: ServerToolUse) -> None:
        self.line(f"{self.glyphs.bullet} {server_tool_line(event)}",
                  "ch.warning" if event.error else "ch.dim")
        if self.verbose:
            for i, url in enumerate(server_tool_urls(event)):
                self.line(f"  {self.glyphs.branch if i == 0 else ' '} {url}", "ch.dim")

    def _tool_start(self, event: ToolStart) -> None:
        self._inputs[event.tool_use_id] = event.input
        self._starts[event.tool_use_id] = event
        self._last_header = event.tool_use_id
        self._print_header(event)
        self.area.set_status(self.working_status(f"Running {event.name}"))

    def _print_header(self, event: ToolStart) -> None:
        self.console.print(previews.tool_header(event.name, event.input,
                                                strip_unsafe(event.key_argument),
                                                self.glyphs.bullet))

    def _tool_result(self, event: ToolResultEvent) -> None:
        started = self._inputs.pop(event.tool_use_id, {})
        start = self._starts.pop(event.tool_use_id, None)
        if start is not None and self._last_header != event.tool_use_id:
            # parallel calls: other headers came in between, so say whose result this is
            self._print_header(start)
        self._last_header = None
        inp = event.input or started
        text = previews.result_preview(event.name, inp, event.content, event.is_error,
                                       self.glyphs.branch)
        text.rstrip()
        self.console.print(text)
        self.area.set_status(self.working_status())

    def _shell(self, event: ShellRan) -> None:
        for i, text in enumerate(event.lines):
            lead = f"  {self.glyphs.branch} " if i == 0 else "    "
            self.line(lead + text, "ch.dim" if event.returncode == 0 else "ch.error")

    def _turn_end(self, event: TurnEnd) -> None:
        if event.reason == "aborted":
            self.line(f"{self.glyphs.branch} Interrupted · What should the model do instead?",
                      "ch.warning")
        elif event.reason == "error":
            self.line(f"{self.glyphs.cross} Error: {event.error or 'the turn failed'}", "ch.error")
        elif event.reason == "max_turns":
            self.line(f"Stopped after {event.num_turns} turns (--max-turns).", "ch.warning")
        elif event.error and event.error != self._stop_text:
            self.line(event.error, "ch.warning")
        self._stop_text = ""
