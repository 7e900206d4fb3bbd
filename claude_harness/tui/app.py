"""The interactive app: the conversation, the prompt, the footer, and the keys that drive them.

Like every front end it only submits ops to its session and renders the session's events
(`_on_event`): a SessionView folded from them feeds the footer, /status and /export; the app
never reads the session's attributes. First paint imports Textual, these widgets and the
protocol only. The session (tools, pydantic, the loop) is built in a thread worker after mount
and the anthropic SDK is warmed in another thread, so the user can type at once; prompts sent
before the session is ready wait in the app and go out together when it is.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from claude_harness.commands.registry import command_names, describe_commands
from claude_harness.config.paths import data_dir
from claude_harness.config.trust import is_trusted, trust_folder
from claude_harness.history import PromptHistory
from claude_harness.protocol.events import (
    Busy,
    HistoryReplaced,
    ModeChanged,
    ModelChanged,
    PermissionRequest,
    PermissionSettled,
    PromptsReturned,
    QueueChanged,
    Report,
    SessionClosed,
    SessionStarted,
    ShellRan,
    TodosChanged,
    TotalsChanged,
)
from claude_harness.protocol.ops import (
    AnswerPermission,
    CycleMode,
    Interrupt,
    Op,
    ShellCommand,
    Shutdown,
    UserPrompt,
)
from claude_harness.protocol.view import SessionView
from claude_harness.tui import commands
from claude_harness.tui.completion import complete
from claude_harness.tui.permission_queue import PermissionQueue
from claude_harness.tui.themes import DEFAULT_THEME, load_themes, settings_theme
from claude_harness.tui.widgets.activity import ActivityLine
from claude_harness.tui.widgets.conversation import Conversation
from claude_harness.tui.widgets.notice import NoticeView
from claude_harness.tui.widgets.prompt_input import PromptInput
from claude_harness.tui.widgets.status_bar import StatusBar
from claude_harness.tui.widgets.todo_panel import TodoPanel
from claude_harness.tui.widgets.user_prompt import UserPromptView

if TYPE_CHECKING:
    from claude_harness.tui.router import TurnRenderer
    from claude_harness.tui.widgets.permission_prompt import PermissionPrompt

SessionFactory = Callable[[], Any]  # a Session, or (Session, warnings) as build_session returns
EXIT_WINDOW = 2.0  # seconds between two Ctrl+C on an empty prompt

WELCOME = ("✻ claude-harness · /help for commands and keys · Shift+Tab switches permission mode "
           "· Esc interrupts · !cmd runs a shell command · @ completes files")
NO_KEY_NOTICE = (
    "No API key found. Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in your environment, "
    "or point ANTHROPIC_BASE_URL at a compatible server, then restart. You can still browse "
    "/help, /status and /theme."
)


class HarnessApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "claude-harness"
    ENABLE_COMMAND_PALETTE = False

    BINDINGS = [
        Binding("shift+tab", "cycle_mode", "Mode", show=False, priority=True),
        Binding("escape", "interrupt", "Interrupt", show=False),
        Binding("ctrl+c", "ctrl_c", "Interrupt/Exit", show=False, priority=True),
        Binding("ctrl+d", "exit", "Exit", show=False, priority=True),
        Binding("ctrl+o", "toggle_details", "Details", show=False, priority=True),
        Binding("ctrl+t", "toggle_todos", "Todos", show=False, priority=True),
    ]

    def __init__(self, *, cwd: Path | None = None, session_factory: SessionFactory | None = None,
                 theme: str | None = None, preload_sdk: bool = True,
                 pick_session: bool = False, ask_trust: bool = False) -> None:
        super().__init__()
        self.ask_trust = ask_trust  # first start in an untrusted folder: ask before building
        self.pick_session = pick_session  # `--resume` without an id: open the picker
        self.cwd = (cwd or Path.cwd()).resolve()
        self.session_factory = session_factory
        self.session: Any = None  # only ever used through submit() and events()
        self.session_error: str | None = None
        self.view = SessionView()  # what the session told us: the footer, /status, /export
        self.requested_theme = theme or settings_theme(self.cwd) or DEFAULT_THEME
        self.preload = preload_sdk
        self.history = PromptHistory.for_project(self.cwd)
        self.early: list[str] = []  # prompts typed before the session was ready
        self.renderer: TurnRenderer | None = None
        self.details = False
        self._last_ctrl_c = 0.0
        self._queued_views: list[UserPromptView] = []
        self._prompt = PromptInput(self.history, id="prompt")

    # ── layout ──────────────────────────────────────────────────────────────────────────────

    def compose(self) -> ComposeResult:
        yield Conversation(id="conversation")
        with Vertical(id="input-area"):
            yield TodoPanel()
            yield ActivityLine()
            yield Static(id="completion-hint", markup=False)
            yield self._prompt
            yield StatusBar()

    @property
    def conversation(self) -> Conversation:
        return self.query_one(Conversation)

    @property
    def prompt(self) -> PromptInput:
        return self._prompt

    @property
    def status(self) -> StatusBar:
        return self.query_one(StatusBar)

    @property
    def activity(self) -> ActivityLine:
        return self.query_one(ActivityLine)

    def on_mount(self) -> None:
        themes, errors = load_themes()
        for theme in themes:
            self.register_theme(theme)
        self.apply_theme(self.requested_theme, errors)
        self.status.set_state(cwd=self.cwd, note="starting…")
        self.conversation.mount(NoticeView(WELCOME, boxed=True))
        self.permissions = PermissionQueue(self.query_one("#input-area"), self.prompt,
                                           self.answer_permission)
        self.prompt.focus()
        self.call_after_refresh(self._start_background)

    def _start_background(self) -> None:
        if self.preload:
            self._preload_sdk()
        if self.ask_trust:
            from claude_harness.tui.widgets.trust_prompt import TrustPrompt  # first run only

            prompt = TrustPrompt(self.cwd)
            self.query_one("#input-area").mount(prompt, before=self.prompt)
            self.prompt.display = False
            prompt.focus()
            return
        self._build_session()

    def on_trust_prompt_answered(self, message: Any) -> None:
        self.query_one("#trust-prompt").remove()
        if not message.trusted:
            self.exit()
            return
        trust_folder(data_dir(), self.cwd)
        self.ask_trust = False
        self.prompt.display = True
        self.prompt.focus()
        self._build_session()

    def apply_theme(self, name: str, errors: list[str] | None = None) -> bool:
        for error in errors or []:
            self.notify(f"Theme file skipped: {error}", severity="warning")
        if name not in self.available_themes:
            self.notify(f"Unknown theme {name!r}; using {DEFAULT_THEME}.", severity="warning")
            name = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
            self.theme = name
            return False
        self.theme = name
        return True

    # ── session start-up ────────────────────────────────────────────────────────────────────

    @work(thread=True, group="preload", exit_on_error=False)
    def _preload_sdk(self) -> None:
        from claude_harness.bootstrap import preload_sdk  # after the first paint, off the UI thread

        preload_sdk()

    @work(thread=True, group="boot", exit_on_error=False)
    def _build_session(self) -> None:
        warnings: list[str] = []
        try:
            built = self.session_factory() if self.session_factory else None
            if isinstance(built, tuple):
                built, warnings = built[0], list(built[1])
            error = None if built is not None else "no session factory"
        except Exception as exc:  # shown to the user; the app stays usable for /help etc.
            built, error = None, f"{type(exc).__name__}: {exc}"
        self.call_from_thread(self._session_ready, built, error, warnings)

    async def _session_ready(self, session: Any, error: str | None,
                             warnings: list[str] | None = None) -> None:
        # The renderer pulls in the Markdown widgets: after the first paint, not before it.
        from claude_harness.tui.router import TurnRenderer

        self.renderer = TurnRenderer(self.conversation)
        self.session, self.session_error = session, error
        self.status.set_state(note="")
        if session is None:
            await self.post_notice(f"The agent could not start: {error}", "error", boxed=True)
            return
        for warning in warnings or []:
            await self.post_notice(warning, "warning")
        self.run_worker(self._pump(), group="events", exit_on_error=False)

    async def _pump(self) -> None:
        """Every session event, in order, to the view, the chrome and the conversation."""
        async for event in self.session.events():
            try:
                await self._on_event(event)
            except Exception as exc:  # a rendering bug must not stop the stream
                await self.post_notice(f"Error: {type(exc).__name__}: {exc}", "error")

    async def _on_event(self, event: Any) -> None:
        self.view.apply(event)
        assert self.renderer is not None
        match event:
            case SessionStarted():
                await self._started(event)
            case Busy(running=running, label=label):
                self._busy(running, label)
            case QueueChanged(pending=pending):
                self.activity.set_queued(len(pending))
                if not pending:
                    self._unqueue_views()
            case PromptsReturned(texts=texts):
                self._return_prompts(texts)
            case PermissionRequest():
                self.permissions.add(event)
            case PermissionSettled(request_id=request_id):
                self.permissions.settled(request_id)
            case HistoryReplaced():
                await self._history_replaced(event)
            case ShellRan(display=display, failed=failed):
                await self.conversation.add(NoticeView(display, "error" if failed else "info"))
            case Report(lines=lines):
                await self.post_notice("\n".join(lines), boxed=len(lines) > 1)
            case ModelChanged(model=model):
                self.refresh_status()
                await self.post_notice(f"Model set to {model}.")
            case ModeChanged() | TotalsChanged():
                self.refresh_status()
            case TodosChanged(todos=todos):
                self.query_one(TodoPanel).set_todos(list(todos))
            case SessionClosed():
                return
            case _:
                await self.renderer.handle(event)

    async def _started(self, started: SessionStarted) -> None:
        self.refresh_status()
        if started.mcp_pending_approval:
            names = ", ".join(started.mcp_pending_approval)
            await self.post_notice(f"This project's .mcp.json offers MCP servers that need your "
                                   f"approval: {names}. Use /mcp approve <name>.", "warning")
        if not started.has_credentials:
            await self.post_notice(NO_KEY_NOTICE, "warning", boxed=True)
        if started.history:
            from claude_harness.tui.router import history_widgets  # loaded with the renderer

            await self.conversation.add_many(history_widgets(list(started.history[-60:])))
            await self.post_notice(
                f"Continuing the conversation ({len(started.history)} messages).")
        elif self.pick_session:
            await commands.run_command(self, "/resume")
        if self.early:
            text, self.early = "\n\n".join(self.early), []
            self._unqueue_views()
            self.submit(UserPrompt(text))

    async def _history_replaced(self, event: HistoryReplaced) -> None:
        self.permissions.clear()
        await self.conversation.clear()
        if event.reason == "clear":
            await self.post_notice("Conversation cleared: the model starts from a fresh context.")
            return
        from claude_harness.tui.router import history_widgets  # loaded with the renderer

        await self.conversation.add_many(history_widgets(list(event.messages[-60:])))
        await self.post_notice(f"Resumed {event.session_id} ({len(event.messages)} messages).")

    def _busy(self, running: bool, label: str) -> None:
        self.prompt.set_class(running, "-busy")
        if running:
            self.activity.start(label or "Working")
            return
        self.activity.stop()
        self.permissions.clear()
        if self.renderer is not None:
            self.run_worker(self.renderer.close_blocks(), group="render", exit_on_error=False)
        self.refresh_status()

    @property
    def busy(self) -> bool:
        return self.view.busy

    @property
    def queued(self) -> list[str]:
        """Prompts waiting to go out: typed before start-up, or queued in the session."""
        return [*self.early, *self.view.queued]

    @property
    def ready(self) -> bool:
        return self.session is not None and self.view.ready

    @property
    def has_session(self) -> bool:
        return self.session is not None

    def submit(self, op: Op) -> None:
        self.session.submit(op)

    def refresh_status(self) -> None:
        if not self.view.ready:
            return
        view, totals = self.view, self.view.totals
        self.status.set_state(mode=view.mode, model=view.model,
                              context_percent=totals.context_percent,
                              cache_percent=totals.cache_read_percent,
                              cost=totals.cost_usd)

    async def post_notice(self, text: str, level: str = "info", *, boxed: bool = False) -> None:
        await self.conversation.add(NoticeView(text, level, boxed=boxed))

    # ── sending prompts ─────────────────────────────────────────────────────────────────────

    async def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        text = message.text
        self._hide_completion()
        if await commands.run_command(self, text):
            return
        if text.startswith("!"):
            await self.run_shell(text[1:].strip())
            return
        await self.send_prompt(text)

    async def send_prompt(self, text: str) -> None:
        """To the session now; shown dimmed while it waits (a turn runs, or the session is
        still starting)."""
        if self.renderer is not None and self.session is None and self.session_error:
            await self.post_notice(f"The agent is not available: {self.session_error}", "error")
            return
        waiting = self.busy or not self.ready
        view = UserPromptView(text, classes="-queued" if waiting else "")
        await self.conversation.add(view)
        if waiting:
            self._queued_views.append(view)
        if not self.ready:
            self.early.append(text)
            self.activity.set_queued(len(self.early))
            return
        self.submit(UserPrompt(text))

    def _unqueue_views(self) -> None:
        for view in self._queued_views:
            view.remove_class("-queued")
        self._queued_views = []

    def _return_prompts(self, texts: tuple[str, ...]) -> None:
        """An interrupt means "stop and listen": queued prompts come back to the input to be
        edited or resent, instead of going out on their own."""
        pending = "\n\n".join(texts)
        current = self.prompt.text
        self.prompt.set_text(f"{pending}\n{current}" if current else pending)
        for view in self._queued_views:
            view.remove()
        self._queued_views = []

    async def run_shell(self, command: str) -> None:
        """`!cmd`: the session runs it in its cwd; the output goes into the next prompt."""
        if not command:
            return
        if not self.ready:
            await self.post_notice("!cmd needs the agent, which is still starting.", "warning")
            return
        await self.conversation.add(UserPromptView(command, marker="!", classes="-shell"))
        self.submit(ShellCommand(command))

    # ── permission prompts ──────────────────────────────────────────────────────────────────

    @property
    def prompt_widget(self) -> PermissionPrompt | None:
        return self.permissions.current

    @property
    def permission_queue(self) -> deque[PermissionRequest]:
        return self.permissions.waiting

    def answer_permission(self, request: PermissionRequest, choice: str, feedback: str) -> None:
        self.submit(AnswerPermission(request.request_id, choice, feedback))  # type: ignore[arg-type]

    def on_permission_prompt_answered(self, message: PermissionPrompt.Answered) -> None:
        self.permissions.answer(message.request, message.answer)

    # ── keys ────────────────────────────────────────────────────────────────────────────────

    def action_cycle_mode(self) -> None:
        if not self.ready:
            self.notify("Still starting; try again in a moment.")
            return
        self.submit(CycleMode())

    def action_interrupt(self) -> None:
        if self.busy and self.session is not None:
            self.submit(Interrupt())
            self.prompt.display = True
            self.prompt.focus()
        else:
            self._hide_completion()

    def action_ctrl_c(self) -> None:
        if self.busy:
            self.action_interrupt()
            return
        if self.prompt.text:
            self.prompt.clear()
            return
        now = time.monotonic()
        if now - self._last_ctrl_c <= EXIT_WINDOW:
            self.exit()
            return
        self._last_ctrl_c = now
        self.notify("Press Ctrl+C again to exit", timeout=EXIT_WINDOW)

    def action_exit(self) -> None:
        self.exit()

    def action_toggle_details(self) -> None:
        self.details = not self.details
        if self.renderer is not None:
            self.renderer.set_expanded(self.details)

    def action_toggle_todos(self) -> None:
        self.toggle_todos()

    def toggle_todos(self) -> None:
        self.query_one(TodoPanel).toggle()

    # ── completion (`/command`, `@path`) ────────────────────────────────────────────────────

    def on_prompt_input_completion(self, message: PromptInput.Completion) -> None:
        result = complete(message.text, message.column, self.cwd, self.command_names())
        if result is None:
            self._hide_completion()
            return
        start, replacement, options = result
        row = self.prompt.cursor_location[0]
        self.prompt.replace(replacement, (row, start), (row, message.column))
        hint = self.query_one("#completion-hint", Static)
        if len(options) > 1:
            hint.update("  ".join(options[:40]))
            hint.add_class("-open")
        else:
            self._hide_completion()

    def on_text_area_changed(self, message: Any) -> None:
        """Typing `/` at the start lists the matching commands live (Tab completes)."""
        if message.text_area is not self.prompt:
            return
        text = self.prompt.text
        hint = self.query_one("#completion-hint", Static)
        if text.startswith("/") and " " not in text and "\n" not in text:
            lines = [f"{name:<13} {text}" for name, text in describe_commands(self.cwd, text[1:])]
            if lines:
                hint.update("\n".join(lines[:14]))
                hint.add_class("-open")
                return
        if hint.has_class("-open") and not text.startswith("@", text.rfind(" ") + 1):
            hint.remove_class("-open")

    def _hide_completion(self) -> None:
        self.query_one("#completion-hint", Static).remove_class("-open")

    def command_names(self) -> list[str]:
        return command_names(self.cwd)

    # ── teardown ────────────────────────────────────────────────────────────────────────────

    async def on_unmount(self) -> None:
        if self.session is None:
            return
        self.submit(Shutdown("prompt_input_exit"))
        try:
            await asyncio.wait_for(self.session.wait_closed(), timeout=2)
        except Exception:  # closing is best effort at exit
            pass


def run_app(opts: Any) -> int:
    """Entry point for the interactive CLI: `opts` is the parsed RunOptions."""
    cwd = Path(getattr(opts, "cwd", None) or Path.cwd())
    inline = bool(getattr(opts, "inline", False))

    def factory() -> Any:
        from claude_harness.bootstrap import build_session  # in the boot worker, after paint

        return build_session(opts)

    app = HarnessApp(cwd=cwd, session_factory=factory, theme=getattr(opts, "theme", None),
                     pick_session=getattr(opts, "resume", None) == "",
                     ask_trust=not is_trusted(data_dir(), cwd.resolve()))
    app.run(inline=inline)
    if inline and app.view.messages:
        from claude_harness.tui.export import print_transcript  # only when leaving --inline

        print_transcript(app.view.messages)
    return 0
