"""The interactive app: the conversation, the prompt, the footer, and the keys that drive them.

First paint imports Textual and these widgets only. The engine (tools, pydantic, the loop) is
built in a thread worker after mount and the anthropic SDK is warmed in another thread, so the
user can type at once; prompts sent before the engine is ready are queued.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static
from textual.worker import Worker

from claude_harness.history import PromptHistory
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
    from claude_harness.agent.engine import Engine
    from claude_harness.agent.events import PermissionRequest
    from claude_harness.tui.router import TurnRenderer
    from claude_harness.tui.widgets.permission_prompt import PermissionPrompt

EngineFactory = Callable[[], Any]  # an Engine, or (Engine, warnings) as build_engine returns
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

    def __init__(self, *, cwd: Path | None = None, engine_factory: EngineFactory | None = None,
                 theme: str | None = None, preload_sdk: bool = True,
                 pick_session: bool = False, ask_trust: bool = False) -> None:
        super().__init__()
        self.ask_trust = ask_trust  # first start in an untrusted folder: ask before building
        self.pick_session = pick_session  # `--resume` without an id: open the picker
        self.cwd = (cwd or Path.cwd()).resolve()
        self.engine_factory = engine_factory
        self.engine: Engine | None = None
        self.engine_error: str | None = None
        self.requested_theme = theme or settings_theme(self.cwd) or DEFAULT_THEME
        self.preload = preload_sdk
        self.history = PromptHistory.for_project(self.cwd)
        self.busy = False
        self.queued: list[str] = []
        self.pending_context: list[dict[str, Any]] = []
        self.renderer: TurnRenderer | None = None
        self.details = False
        self._last_ctrl_c = 0.0
        self._queued_views: list[UserPromptView] = []
        self._prompt = PromptInput(self.history, id="prompt")
        self._shell_worker: Worker[None] | None = None

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
        self.permissions = PermissionQueue(self.query_one("#input-area"), self.prompt)
        self.prompt.focus()
        self.call_after_refresh(self._start_background)

    def _start_background(self) -> None:
        if self.preload:
            self._preload_sdk()
        if self.ask_trust:
            from claude_harness.tui.widgets.trust_prompt import TrustPrompt

            prompt = TrustPrompt(self.cwd)
            self.query_one("#input-area").mount(prompt, before=self.prompt)
            self.prompt.display = False
            prompt.focus()
            return
        self._build_engine()

    def on_trust_prompt_answered(self, message: Any) -> None:
        from claude_harness.config.paths import data_dir
        from claude_harness.config.trust import trust_folder

        self.query_one("#trust-prompt").remove()
        if not message.trusted:
            self.exit()
            return
        trust_folder(data_dir(), self.cwd)
        self.ask_trust = False
        self.prompt.display = True
        self.prompt.focus()
        self._build_engine()

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

    # ── engine start-up ─────────────────────────────────────────────────────────────────────

    @work(thread=True, group="preload", exit_on_error=False)
    def _preload_sdk(self) -> None:
        from claude_harness.api.client import preload_sdk

        preload_sdk()

    @work(thread=True, group="boot", exit_on_error=False)
    def _build_engine(self) -> None:
        warnings: list[str] = []
        try:
            built = self.engine_factory() if self.engine_factory else None
            if isinstance(built, tuple):
                built, warnings = built[0], list(built[1])
            engine = built
            error = None if engine is not None else "no engine factory"
        except Exception as exc:  # shown to the user; the app stays usable for /help etc.
            engine, error = None, f"{type(exc).__name__}: {exc}"
        self.call_from_thread(self._engine_ready, engine, error, warnings)

    async def _engine_ready(self, engine: Engine | None, error: str | None,
                            warnings: list[str] | None = None) -> None:
        from claude_harness.tui.router import TurnRenderer

        self.engine, self.engine_error = engine, error
        self.renderer = TurnRenderer(self.conversation, on_permission=self.enqueue_permission,
                                     on_usage=self.refresh_status,
                                     on_todos=self.query_one(TodoPanel).set_todos)
        self.status.set_state(note="")
        if engine is None:
            await self.post_notice(f"The agent could not start: {error}", "error", boxed=True)
            return
        self.refresh_status()
        engine.start_background()  # MCP servers connect while the user types
        for warning in warnings or []:
            await self.post_notice(warning, "warning")
        if engine.mcp is not None and (pending := engine.mcp.pending_approvals()):
            names = ", ".join(c.name for c in pending)
            await self.post_notice(f"This project's .mcp.json offers MCP servers that need your "
                                   f"approval: {names}. Use /mcp approve <name>.", "warning")
        if not engine.api.settings.has_credentials:
            await self.post_notice(NO_KEY_NOTICE, "warning", boxed=True)
        if engine.messages:
            await self._show_history(engine.messages)
        elif self.pick_session:
            from claude_harness.tui.commands import run_command

            await run_command(self, "/resume")
        await self._drain_queue()

    async def _show_history(self, messages: list[dict[str, Any]]) -> None:
        """`--continue` / `--resume ID`: draw the tail of the conversation being continued."""
        from claude_harness.tui.router import history_widgets

        await self.conversation.add_many(history_widgets(messages[-60:]))
        await self.post_notice(f"Continuing the conversation ({len(messages)} messages).")

    @property
    def ready(self) -> bool:
        return self.engine is not None and self.renderer is not None

    def refresh_status(self) -> None:
        engine = self.engine
        if engine is None:
            return
        self.status.set_state(mode=engine.mode, model=engine.model,
                              context_percent=engine.context_percent,
                              cache_percent=engine.cache_read_percent,
                              cost=engine.totals.cost_usd, cwd=engine.shell.cwd)

    async def post_notice(self, text: str, level: str = "info", *, boxed: bool = False) -> None:
        await self.conversation.add(NoticeView(text, level, boxed=boxed))

    # ── sending prompts ─────────────────────────────────────────────────────────────────────

    async def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        text = message.text
        self._hide_completion()
        if text.startswith("/") and not text.startswith("//"):
            from claude_harness.tui.commands import run_command

            await run_command(self, text)
            return
        if text.startswith("!"):
            await self.run_shell(text[1:].strip())
            return
        await self.send_prompt(text)

    async def send_prompt(self, text: str, *, allowed_tools: tuple[str, ...] = ()) -> None:
        """Run now when idle and ready; otherwise queue (shown dimmed) to send next.

        `allowed_tools`: a custom command's extra allow rules for this turn (never queued:
        commands wait for an idle app)."""
        if self.renderer is not None and self.engine is None:
            await self.post_notice(f"The agent is not available: {self.engine_error}", "error")
            return
        if self.busy or not self.ready:
            view = UserPromptView(text, classes="-queued")
            self.queued.append(text)
            self._queued_views.append(view)
            await self.conversation.add(view)
            self.activity.set_queued(len(self.queued))
            return
        await self.conversation.add(UserPromptView(text))
        self._start_turn(text, allowed_tools)

    def _start_turn(self, text: str, allowed_tools: tuple[str, ...] = ()) -> None:
        assert self.engine is not None
        content: list[dict[str, Any]] = [*self.pending_context, {"type": "text", "text": text}]
        self.pending_context = []
        self.run_events(self.engine.submit(content, allowed_tools=allowed_tools))

    def run_events(self, events: AsyncIterator[Any], label: str = "Working") -> None:
        """Render an engine event stream (a turn, a compaction) as the one running job."""
        self.busy = True
        self.prompt.add_class("-busy")
        self.activity.start(label)
        self.run_worker(self._run_turn(events), group="turn", exit_on_error=False)

    async def _run_turn(self, events: AsyncIterator[Any]) -> None:
        assert self.renderer is not None
        try:
            async for event in events:
                await self.renderer.handle(event)
        except Exception as exc:  # a bug or an API failure the loop did not turn into TurnEnd
            await self.renderer.close_blocks()
            await self.post_notice(f"Error: {type(exc).__name__}: {exc}", "error")
        finally:
            self.busy = False
            self.prompt.remove_class("-busy")
            self.activity.stop()
            self.permissions.clear()
            self.refresh_status()
        await self._drain_queue()

    async def _drain_queue(self) -> None:
        if not self.queued or self.busy or not self.ready:
            return
        text = "\n\n".join(self.queued)
        self.queued = []
        for view in self._queued_views:
            view.remove_class("-queued")
        self._queued_views = []
        self.activity.set_queued(0)
        self._start_turn(text)

    async def run_shell(self, command: str) -> None:
        """`!cmd`: run it now in the session's cwd; its output goes into the next prompt.

        It runs in a worker like a turn (the UI stays live, prompts queue, Esc stops it)."""
        if not command:
            return
        if self.busy:
            await self.post_notice("Wait for the current job to finish (or Esc) before !cmd.",
                                   "warning")
            return
        cwd = self.engine.shell.cwd if self.engine is not None else self.cwd
        await self.conversation.add(UserPromptView(command, marker="!", classes="-shell"))
        self.busy = True
        self.prompt.add_class("-busy")
        self.activity.start(f"Running !{command[:40]}")
        self._shell_worker = self.run_worker(self._run_shell(command, cwd), group="shell",
                                             exit_on_error=False)

    async def _run_shell(self, command: str, cwd: Path) -> None:
        from claude_harness.shell_escape import run_shell_escape

        try:
            result = await run_shell_escape(command, cwd)
        except asyncio.CancelledError:
            await self.post_notice(f"Stopped !{command}", "warning")
            raise
        finally:
            self.busy = False
            self._shell_worker = None
            self.prompt.remove_class("-busy")
            self.activity.stop()
        await self.conversation.add(NoticeView(result.display(),
                                               "error" if result.failed else "info"))
        self.pending_context.append({"type": "text", "text": result.context_text()})
        await self._drain_queue()

    # ── permission prompts ──────────────────────────────────────────────────────────────────

    @property
    def prompt_widget(self) -> PermissionPrompt | None:
        return self.permissions.current

    @property
    def permission_queue(self) -> deque[PermissionRequest]:
        return self.permissions.waiting

    def enqueue_permission(self, request: PermissionRequest) -> None:
        self.permissions.add(request)

    def on_permission_prompt_answered(self, message: PermissionPrompt.Answered) -> None:
        self.permissions.answer(message.request, message.answer)

    # ── keys ────────────────────────────────────────────────────────────────────────────────

    def action_cycle_mode(self) -> None:
        if self.engine is None:
            self.notify("Still starting; try again in a moment.")
            return
        self.engine.cycle_mode()
        self.refresh_status()

    def action_interrupt(self) -> None:
        if self._shell_worker is not None:
            self._shell_worker.cancel()
            self._unqueue_into_prompt()
            return
        if self.busy and self.engine is not None:
            self.engine.interrupt()
            self._unqueue_into_prompt()
            self.prompt.display = True
            self.prompt.focus()
        else:
            self._hide_completion()

    def _unqueue_into_prompt(self) -> None:
        """An interrupt means "stop and listen": queued prompts come back to the input to be
        edited or resent, instead of going out on their own."""
        if not self.queued:
            return
        pending = "\n\n".join(self.queued)
        current = self.prompt.text
        self.prompt.set_text(f"{pending}\n{current}" if current else pending)
        self.queued = []
        for view in self._queued_views:
            view.remove()
        self._queued_views = []
        self.activity.set_queued(0)

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
        self.query_one(TodoPanel).toggle()

    # ── completion (`/command`, `@path`) ────────────────────────────────────────────────────

    def on_prompt_input_completion(self, message: PromptInput.Completion) -> None:
        from claude_harness.tui.completion import complete

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
            from claude_harness.tui.commands import describe_commands

            lines = describe_commands(self.cwd, text[1:])
            if lines:
                hint.update("\n".join(lines[:14]))
                hint.add_class("-open")
                return
        if hint.has_class("-open") and not text.startswith("@", text.rfind(" ") + 1):
            hint.remove_class("-open")

    def _hide_completion(self) -> None:
        self.query_one("#completion-hint", Static).remove_class("-open")

    def command_names(self) -> list[str]:
        from claude_harness.tui.commands import command_names

        return command_names(self.cwd)

    # ── teardown ────────────────────────────────────────────────────────────────────────────

    async def on_unmount(self) -> None:
        engine = self.engine
        if engine is None:
            return
        engine.interrupt()
        try:
            await asyncio.wait_for(engine.close(), timeout=2)
        except Exception:  # closing is best effort at exit
            pass


def run_app(opts: Any) -> int:
    """Entry point for the interactive CLI: `opts` is the parsed RunOptions."""
    cwd = Path(getattr(opts, "cwd", None) or Path.cwd())
    inline = bool(getattr(opts, "inline", False))

    def factory() -> Any:
        from claude_harness.bootstrap import build_engine

        return build_engine(opts)

    from claude_harness.config.paths import data_dir
    from claude_harness.config.trust import is_trusted

    app = HarnessApp(cwd=cwd, engine_factory=factory, theme=getattr(opts, "theme", None),
                     pick_session=getattr(opts, "resume", None) == "",
                     ask_trust=not (getattr(opts, "trust_workspace", False)
                                    or is_trusted(data_dir(), cwd.resolve())))
    app.run(inline=inline)
    if inline and app.engine is not None and app.engine.messages:
        from claude_harness.tui.export import print_transcript

        print_transcript(app.engine.messages)
    return 0
