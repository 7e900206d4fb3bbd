"""The interactive app: the conversation, the prompt, the footer, and the keys that drive them.

Like every front end it only submits ops to its session and renders the session's events
(`_on_event`): a SessionView folded from them feeds the footer, /status and /export; the app
never reads the session's attributes. First paint imports Textual, these widgets and the
protocol only. The session (tools, pydantic, the loop) is built in a thread worker after mount
and the HTTP client is loaded in another thread, so the user can type at once; prompts sent
before the session is ready wait in the app and go out together when it is.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from claude_harness.config.paths import data_dir
from claude_harness.config.theme_setting import settings_theme
from claude_harness.config.trust import is_trusted, trust_folder
from claude_harness.frontends.shared.prompt_history import PromptHistory
from claude_harness.frontends.shared.prompt_stash import PromptStash
from claude_harness.frontends.tui.input_modes import InputModes
from claude_harness.frontends.tui.permission_queue import PermissionQueue
from claude_harness.frontends.tui.terminal_filter import TerminalSafeFilter
from claude_harness.frontends.tui.themes import DEFAULT_THEME, load_themes
from claude_harness.frontends.tui.widgets.activity import ActivityLine
from claude_harness.frontends.tui.widgets.conversation import Conversation
from claude_harness.frontends.tui.widgets.notice import NoticeView
from claude_harness.frontends.tui.widgets.prompt_input import PromptInput
from claude_harness.frontends.tui.widgets.status_bar import StatusBar
from claude_harness.frontends.tui.widgets.status_line import StatusLineView
from claude_harness.frontends.tui.widgets.todo_panel import TodoPanel
from claude_harness.frontends.tui.widgets.user_prompt import UserPromptView

if TYPE_CHECKING:
    from textual.filter import LineFilter

    from claude_harness.frontends.tui.link import SessionLink
    from claude_harness.frontends.tui.picker_dock import PickerDock
    from claude_harness.frontends.tui.router import TurnRenderer
    from claude_harness.frontends.tui.widgets.permission_prompt import PermissionPrompt
    from claude_harness.protocol.events import PermissionRequest
    from claude_harness.protocol.ops import Op
    from claude_harness.protocol.view import SessionView

SessionFactory = Callable[[], Any]  # a Session, or (Session, warnings) as build_session returns
EXIT_WINDOW = 2.0  # seconds between two Ctrl+C on an empty prompt

WELCOME = ("✻ claude-harness · /help for commands and keys · Shift+Tab switches permission mode "
           "· Esc interrupts · !cmd runs a shell command · @ completes files")

class HarnessApp(InputModes, App[None]):
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
        Binding("ctrl+b", "background_commands", "Background", show=False, priority=True),
        Binding("alt+p", "pick_model", "Model", show=False, priority=True),
        Binding("ctrl+r", "search_history", "History search", show=False, priority=True),
        Binding("ctrl+g", "edit_prompt", "Edit in $EDITOR", show=False, priority=True),
        Binding("ctrl+v", "paste_image", "Paste image", show=False, priority=True),
        Binding("alt+t", "toggle_thinking", "Thinking", show=False, priority=True),
        Binding("ctrl+s", "stash", "Stash", show=False, priority=True),
    ]

    def __init__(self, *, cwd: Path | None = None, session_factory: SessionFactory | None = None,
                 theme: str | None = None, preload_transport: bool = True,
                 pick_session: bool = False, ask_trust: bool = False,
                 first_prompt: str | None = None) -> None:
        super().__init__()
        self.first_prompt = first_prompt  # `claude-harness "prompt"`: sent as if typed
        self.ask_trust = ask_trust  # first start in an untrusted folder: ask before building
        self.pick_session = pick_session  # `--resume` without an id: open the picker
        self.cwd = (cwd or Path.cwd()).resolve()
        self.session_factory = session_factory
        self.link: SessionLink | None = None  # the session's ops and events, once it is built
        self._signals: Any = None  # ShutdownSignals, installed after the first paint
        # run_app's own process only (never a test's): end it if teardown hangs
        self.exit_watchdog = False
        self._teardown_watchdog: threading.Timer | None = None
        self.session_error: str | None = None
        self.requested_theme = theme or settings_theme(self.cwd) or DEFAULT_THEME
        self.preload = preload_transport
        self.history = PromptHistory.for_project(self.cwd)
        self.early: list[str] = []  # prompts typed before the session was ready
        self._starting = True
        self.details = False
        self._last_ctrl_c = 0.0
        self._queued_views: list[UserPromptView] = []
        self._prompt = PromptInput(self.history, id="prompt")
        self._at_popup: Any = None  # frontends/tui/at_popup.py, on the first `@`
        self._shortcuts_shown = False  # the `?` panel is what the hint shows
        self._safe_filter = TerminalSafeFilter()
        self.stash = PromptStash(on_replaced=self.history.add)  # Ctrl+S
        self.keymap: Any = None  # frontends/tui/keymap.AppKeymap when keybindings.json binds anything

    def get_line_filters(self) -> list[LineFilter]:
        """Textual's filters, then ours: no displayed text can act on the terminal."""
        return [*super().get_line_filters(), self._safe_filter]

    # ── layout ──────────────────────────────────────────────────────────────────────────────

    def compose(self) -> ComposeResult:
        yield Conversation(id="conversation")
        with Vertical(id="input-area"):
            yield TodoPanel()
            yield (activity := ActivityLine())
            yield activity.tip_line
            yield Static(id="completion-hint", markup=False)
            yield self._prompt
            yield StatusBar()
            yield StatusLineView()

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
        self.apply_editor_mode()
        from claude_harness.config.spinner_tips import spinner_tips  # spinnerTipsEnabled

        self.activity.tips = spinner_tips(self.cwd)
        self.call_after_refresh(self._start_background)
        if self.first_prompt and self.first_prompt.strip():
            # as if typed and sent: slash commands run, a prompt waits for the session
            self.history.add(self.first_prompt)
            self.prompt.post_message(PromptInput.Submitted(self.first_prompt))

    def _start_background(self) -> None:
        self._install_shutdown_signals()
        self.load_keymap()
        if self.preload:
            self._preload_transport()
        if self.ask_trust:
            from claude_harness.frontends.tui.widgets.trust_prompt import (
                TrustPrompt,  # first run only
            )

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

    def _install_shutdown_signals(self) -> None:
        """SIGTERM, SIGHUP (the terminal closed), SIGINT: every command is killed at once, the
        turn stops (the transcript says so), the terminal is restored, the exit code is
        143/129/130."""
        from claude_harness.frontends.shared.shutdown import (
            ShutdownSignals,  # after the first paint
        )

        self._signals = ShutdownSignals(self._on_shutdown_signal)
        self._signals.install(asyncio.get_running_loop())

    def _on_shutdown_signal(self, sig: Any) -> None:
        from claude_harness.frontends.shared.shutdown import exit_code_for, stop_reason

        if self.link is not None:
            self.link.interrupt(stop_reason(sig))
        self.exit(return_code=exit_code_for(sig))

    # ── session start-up ────────────────────────────────────────────────────────────────────

    @work(thread=True, group="preload", exit_on_error=False)
    def _preload_transport(self) -> None:
        from claude_harness.session.bootstrap import (
            preload_transport,  # after the first paint, off the UI thread
        )

        preload_transport()

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
        # The link brings the protocol and the renderer's widgets: after the first paint.
        from claude_harness.frontends.tui.link import SessionLink

        self._starting = False
        self.status.set_state(note="")
        if session is None:
            self.session_error = error
            await self.post_notice(f"The agent could not start: {error}", "error", boxed=True)
            return
        self.link = SessionLink(self, session)
        for warning in warnings or []:
            await self.post_notice(warning, "warning")
        self.run_worker(self.link.pump(), group="events", exit_on_error=False)

    @property
    def view(self) -> SessionView | None:
        """What the session told us (the footer, /status, /export), once it is running."""
        return self.link.view if self.link is not None else None

    @property
    def renderer(self) -> TurnRenderer | None:
        return self.link.renderer if self.link is not None else None

    @property
    def busy(self) -> bool:
        return self.link is not None and self.link.view.busy

    @property
    def queued(self) -> list[str]:
        """Prompts waiting to go out: typed before start-up, or queued in the session."""
        return [*self.early, *(self.link.view.queued if self.link is not None else ())]

    @property
    def ready(self) -> bool:
        return self.link is not None and self.link.view.ready

    @property
    def has_session(self) -> bool:
        return self.link is not None

    def submit(self, op: Op) -> None:
        assert self.link is not None
        self.link.submit(op)

    def refresh_status(self) -> None:
        if self.link is not None:
            self.link.refresh_status()

    async def post_notice(self, text: str, level: str = "info", *, boxed: bool = False) -> None:
        await self.conversation.add(NoticeView(text, level, boxed=boxed))

    # ── sending prompts ─────────────────────────────────────────────────────────────────────

    async def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        text = message.text
        self._hide_completion()
        self.restore_stash()
        await self.reload_keymap_if_changed()
        if text.startswith("/"):
            # The command table is loaded on the first `/`, not before the first paint.
            from claude_harness.frontends.tui import commands

            if await commands.run_command(self, text):
                return
        if text.startswith("!"):
            await self.run_shell(text[1:].strip())
            return
        if text.startswith("#") and self.dock is not None and text[1:].strip():
            await self.dock.ask_memory_scope(text[1:].strip())
            return
        await self.send_prompt(text)

    async def send_prompt(self, text: str) -> None:
        """To the session now; shown dimmed while it waits (a turn runs, or the session is
        still starting)."""
        if not self._starting and self.link is None:
            await self.post_notice(f"The agent is not available: {self.session_error}", "error")
            return
        waiting = self.busy or not self.ready
        view = UserPromptView(text, classes="-queued" if waiting else "")
        await self.conversation.add(view)
        if waiting:
            self._queued_views.append(view)
        if self.link is None or not self.ready:
            self.early.append(text)
            self.activity.set_queued(len(self.early))
            return
        self.link.prompt(text)

    def unqueue_views(self) -> None:
        for view in self._queued_views:
            view.remove_class("-queued")
        self._queued_views = []

    def return_prompts(self, texts: tuple[str, ...]) -> None:
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
        if self.link is None or not self.ready:
            await self.post_notice("!cmd needs the agent, which is still starting.", "warning")
            return
        await self.conversation.add(UserPromptView(command, marker="!", classes="-shell"))
        self.link.shell(command)

    # ── permission prompts ──────────────────────────────────────────────────────────────────

    @property
    def prompt_widget(self) -> PermissionPrompt | None:
        return self.permissions.current

    @property
    def permission_queue(self) -> deque[PermissionRequest]:
        return self.permissions.waiting

    def answer_permission(self, request: PermissionRequest, choice: str, feedback: str) -> None:
        if self.link is not None:
            self.link.answer(request, choice, feedback)

    def on_permission_prompt_answered(self, message: PermissionPrompt.Answered) -> None:
        self.permissions.answer(message.request, message.answer)

    async def show_question(self, form: Widget) -> None:
        """An MCP server's form takes the input's place, as a permission prompt does."""
        self.prompt.display = False
        await self.query_one("#input-area").mount(form, before=self.prompt)
        self.bell()

    async def hide_question(self, form: Widget) -> None:
        await form.remove()
        if not self.query(".elicitation-form") and self.permissions.current is None:
            self.prompt.display = True
            self.prompt.focus()

    # ── keys ────────────────────────────────────────────────────────────────────────────────

    def action_cycle_mode(self) -> None:
        if self.link is None or not self.ready:
            self.notify("Still starting; try again in a moment.")
            return
        self.link.cycle_mode()

    def action_interrupt(self) -> None:
        if self.busy and self.link is not None:
            self.link.interrupt()
            self.prompt.display = True
            self.prompt.focus()
        elif self.dock is None or not self.dock.escape_pressed():
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
        if self.query(".elicitation-form"):
            raise SkipAction()  # Ctrl+D in a server's form declines it (the form's own key)
        self.exit()

    def action_toggle_details(self) -> None:
        self.details = not self.details
        if self.renderer is not None:
            self.renderer.set_expanded(self.details)

    def action_toggle_todos(self) -> None:
        self.toggle_todos()

    def action_toggle_thinking(self) -> None:
        """Alt+T: thinking off (or back on) for the following requests."""
        if self.link is None or not self.ready:
            self.notify("Still starting; try again in a moment.")
            return
        self.link.toggle_thinking()

    def toggle_todos(self) -> None:
        self.query_one(TodoPanel).toggle()

    # ── the pickers and shortcut keys: Ctrl+B, Alt+P, Ctrl+R, Ctrl+G, Ctrl+V (frontends/tui/picker_dock.py) ──────────

    @property
    def dock(self) -> PickerDock | None:
        """Where pickers and questions show, once the session is ready."""
        return self.link.dock if self.link is not None else None

    def action_background_commands(self) -> None:
        if self.dock is not None:
            self.dock.background_commands()

    def action_pick_model(self) -> None:
        if self.dock is not None:
            self.dock.open_models()

    async def action_search_history(self) -> None:
        if self.dock is not None:
            await self.dock.search_history()

    async def action_edit_prompt(self) -> None:
        from claude_harness.frontends.tui.external_editor import edit_in_editor  # on Ctrl+G only

        edited = await edit_in_editor(self, self.prompt.text)
        if edited is not None:
            self.prompt.set_text(edited)
        self.prompt.focus()

    async def action_paste_image(self) -> None:
        from claude_harness.frontends.tui.external_editor import (
            paste_clipboard_image,  # on Ctrl+V only
        )

        if not await paste_clipboard_image(self):
            self.prompt.action_paste()  # no image on the clipboard: the usual paste

    # ── completion (`/command`, `@path`) ────────────────────────────────────────────────────

    def on_prompt_input_completion(self, message: PromptInput.Completion) -> None:
        if self.at_popup.accept():  # the `@` popup's first row
            return
        from claude_harness.frontends.tui.completion import complete  # on the first Tab

        # The line as it is now, not as Tab saw it: keys typed after Tab may already be in.
        row, column = self.prompt.cursor_location
        line = self.prompt.document.get_line(row)
        result = complete(line, column, self.cwd, self.command_names())
        if result is None:
            self._hide_completion()
            return
        start, replacement, options = result
        self.prompt.replace(replacement, (row, start), (row, column))
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
            # The command table is loaded on the first `/`, not before the first paint.
            from claude_harness.commands.registry import describe_commands

            rows = describe_commands(self.cwd, text[1:]) + self._mcp_prompt_rows(text[1:])
            lines = [f"{name:<13} {text}" for name, text in rows]
            if lines:
                hint.update("\n".join(lines[:14]))
                hint.add_class("-open")
                return
        if self.at_popup.update():  # `@word`: the file popup, searched in a worker
            self.prompt.accept_popup = self.at_popup.accept
            self.prompt.move_popup = self.at_popup.move
            return
        self.prompt.accept_popup = self.prompt.move_popup = None
        if hint.has_class("-open") and not text.startswith("@", text.rfind(" ") + 1):
            self._hide_completion()

    def on_prompt_input_shortcuts_toggled(self, _message: PromptInput.ShortcutsToggled) -> None:
        from claude_harness.frontends.shared.shortcuts import shortcuts_text  # on the first `?`

        hint = self.query_one("#completion-hint", Static)
        if hint.has_class("-open") and self._shortcuts_shown:
            self._hide_completion()
            return
        hint.update(shortcuts_text())
        hint.add_class("-open")
        self._shortcuts_shown = True

    @property
    def at_popup(self) -> Any:
        """The `@` file popup, made on the first `@` (no file listing before it)."""
        if self._at_popup is None:
            from claude_harness.frontends.tui.at_popup import AtPopup

            self._at_popup = AtPopup(self)
        return self._at_popup

    def _hide_completion(self) -> None:
        self._shortcuts_shown = False
        self.query_one("#completion-hint", Static).remove_class("-open")

    def command_names(self) -> list[str]:
        from claude_harness.commands.registry import command_names  # loaded with completion

        prompts = self.view.mcp_prompts if self.view is not None else ()
        return command_names(self.cwd) + [p.name for p in prompts]

    def _mcp_prompt_rows(self, prefix: str) -> list[tuple[str, str]]:
        """The MCP servers' prompts as `/mcp__server__prompt` rows of the command list."""
        from claude_harness.commands.mcp_prompts import prompt_rows  # loaded with the `/` list

        return prompt_rows(self.view.mcp_prompts, prefix) if self.view is not None else []

    # ── teardown ────────────────────────────────────────────────────────────────────────────

    async def on_unmount(self) -> None:
        if self.exit_watchdog:
            self._teardown_watchdog = _exit_if_teardown_hangs(lambda: self.return_code)
        if self._signals is not None:
            self._signals.uninstall()
        if self.link is None:
            return
        self.link.shutdown()
        try:
            await asyncio.wait_for(self.link.session.wait_closed(), timeout=2)
        except Exception:  # closing is best effort at exit
            pass


TEARDOWN_GRACE_SECONDS = 5.0


def _exit_if_teardown_hangs(code: Callable[[], int | None]) -> threading.Timer:
    """The app is leaving: should its teardown not finish in TEARDOWN_GRACE_SECONDS, end the
    process anyway. A terminal that went away (its window closed) kills Textual's writer
    thread on the first failed write; its queue then fills and the driver's close waits on it
    forever, with the event loop blocked, so only another thread can end the process. The
    caller cancels the timer once the app has returned."""
    timer = threading.Timer(TEARDOWN_GRACE_SECONDS, lambda: os._exit(code() or 0))
    timer.daemon = True
    timer.start()
    return timer


def run_app(opts: Any) -> int:
    """Entry point for the interactive CLI: `opts` is the parsed RunOptions."""
    cwd = Path(getattr(opts, "cwd", None) or Path.cwd())
    inline = bool(getattr(opts, "inline", False))

    def factory() -> Any:
        from claude_harness.session.bootstrap import (
            build_session,  # in the boot worker, after paint
        )

        return build_session(opts)

    app = HarnessApp(cwd=cwd, session_factory=factory, theme=getattr(opts, "theme", None),
                     pick_session=getattr(opts, "resume", None) == "",
                     ask_trust=not (getattr(opts, "trust_workspace", False)
                                    or is_trusted(data_dir(), cwd.resolve())),
                     first_prompt=getattr(opts, "prompt", None))
    app.exit_watchdog = True  # this process is the app's: it may end it if teardown hangs
    app.run(inline=inline)
    if app._teardown_watchdog is not None:
        app._teardown_watchdog.cancel()
    if inline and app.view is not None and app.view.messages:
        from claude_harness.frontends.tui.export import (
            print_transcript,  # only when leaving --inline
        )

        print_transcript(app.view.messages)
    return app.return_code or 0
