"""`claude-harness --plain`: the line-mode REPL.

Reads a line, submits it to the session as an op (a prompt, a command, `!cmd`), renders the
session's events into the scrollback until what it started has ended, answers permission
requests through the input side, repeats. Like every front end it keeps a SessionView folded
from the events (the toolbar, /status) and never reads or changes the session itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from prompt_toolkit.formatted_text import ANSI, FormattedText, to_formatted_text
from rich.text import Text

from claude_harness.commands.mcp_prompts import prompt_rows
from claude_harness.commands.registry import invoke
from claude_harness.config.editor_mode import editor_mode
from claude_harness.config.theme_setting import settings_theme
from claude_harness.config.trust import is_trusted, trust_folder
from claude_harness.frontends.plain import previews
from claude_harness.frontends.plain.choice import ChoiceResult, options_for
from claude_harness.frontends.plain.commands import ACTIONS, UNAVAILABLE
from claude_harness.frontends.plain.input import (
    InputSide,
    LineInput,
    PromptInput,
    terminal_capable,
)
from claude_harness.frontends.plain.keybindings_file import edit_keybindings, input_mode_parts
from claude_harness.frontends.plain.panels import ACTIONS as PANEL_ACTIONS
from claude_harness.frontends.plain.panels import PlainPanels
from claude_harness.frontends.plain.pickers import ACTIONS as PICKER_ACTIONS
from claude_harness.frontends.plain.pickers import EVENTS as PICKER_EVENTS
from claude_harness.frontends.plain.pickers import PlainPickers
from claude_harness.frontends.plain.questions import answer_question
from claude_harness.frontends.plain.render import EventRenderer, make_console
from claude_harness.frontends.plain.replay import replay_history
from claude_harness.frontends.plain.resume import pick_session
from claude_harness.frontends.plain.stream import emit
from claude_harness.frontends.plain.theme import PlainTheme, load_theme
from claude_harness.frontends.plain.turnkeys import TurnKeys
from claude_harness.frontends.shared import previews as shared_previews
from claude_harness.frontends.shared.event_text import effort_label
from claude_harness.frontends.shared.file_suggestions import recent_files
from claude_harness.frontends.shared.shutdown import ShutdownSignals, exit_code_for, stop_reason
from claude_harness.protocol.edit_choice import always_label
from claude_harness.protocol.events import (
    EditorModeChanged,
    ElicitationRequested,
    HistoryReplaced,
    ModeChanged,
    PermissionRequest,
    Report,
    SessionClosed,
    SessionStarted,
    SideQuestionsPending,
)
from claude_harness.protocol.labels import MODE_LABELS
from claude_harness.protocol.ops import (
    AnswerElicitation,
    AnswerPermission,
    BackgroundCommands,
    CycleMode,
    Interrupt,
    Op,
    ShellCommand,
    Shutdown,
    UserPrompt,
)
from claude_harness.protocol.panels import PANEL_EVENTS
from claude_harness.protocol.view import OpFollower, SessionView
from claude_harness.session.bootstrap import (
    NO_KEY_HELP,
    StartupError,
    build_session,
    data_dir,
    preload_transport,
)
from claude_harness.session.options import RunOptions


class PlainRepl:
    def __init__(self, session: Any, renderer: EventRenderer, theme: PlainTheme,
                 terminal: bool) -> None:
        self.session = session  # only ever used through submit() and events()
        self.out = renderer
        self.theme = theme
        self.terminal = terminal
        self.view = SessionView()
        self.input: InputSide | None = None
        self.keys = TurnKeys(self._on_escape, self._on_backtab_in_turn,
                             on_background=self._on_ctrl_b, on_send=self._steer)
        self.pickers = PlainPickers(self)  # pickers, questions, /context, the status line
        self.panels = PlainPanels(self)  # /config, /permissions, /hooks as numbered lists
        self._events: Any = None
        self._waiting: tuple[OpFollower, asyncio.Future[None]] | None = None  # the op followed
        self._consumer: asyncio.Task[None] | None = None
        self._sides_settled = asyncio.Event()  # no /btw answer on its way
        self._sides_settled.set()
        self._started: SessionStarted | None = None
        self.exit_code: int | None = None  # set by SIGTERM/SIGHUP: leave the REPL

    # ── setup ───────────────────────────────────────────────────────────────────────────────

    def _make_input(self, cwd: Path) -> InputSide:
        if self.terminal:
            return PromptInput(cwd, cwd, self.theme.prompt_style(), self.toolbar, self.cycle_mode,
                               lambda text: self.out.line(text, "ch.dim"),
                               extra_commands=self._mcp_prompt_commands,
                               recent_files=lambda: recent_files(self.view.messages, cwd),
                               vi_mode=editor_mode(cwd) == "vim",
                               resources=lambda: self.view.mcp_resources)
        return LineInput(history_cwd=cwd)

    def toolbar(self) -> FormattedText:
        v = self.view
        label = MODE_LABELS.get(v.mode, v.mode)
        effort = effort_label(v.controls)
        parts = [
            *input_mode_parts(self.input),
            ("class:toolbar.mode", f" {label}"),
            ("class:toolbar.info", f" (shift+tab to cycle) · {v.model} · "
                                   + (f"{effort} · " if effort else "")
                                   + f"${v.totals.cost_usd:.4f} · "
                                   f"{v.totals.context_percent:.0f}% context"),
        ]
        if self.pickers.status_line.strip():  # the status line command's, with its colours
            parts += [("", "\n "), *to_formatted_text(ANSI(self.pickers.status_line))]
        return FormattedText(parts)

    def _mcp_prompt_commands(self) -> dict[str, str]:
        """The MCP servers' prompts, for completion (`/mcp__server__prompt`)."""
        return dict(prompt_rows(self.view.mcp_prompts))

    def cycle_mode(self) -> None:
        self.session.submit(CycleMode())

    def banner(self, started: SessionStarted) -> None:
        self.out.line(f"claude-harness · {started.model} · {started.cwd}", "ch.accent")
        self.out.line("/help for commands · !cmd runs a shell command · Ctrl+C twice to exit",
                      "ch.dim")
        if not self.terminal:
            self.out.line(f"Permission mode: {started.mode}", "ch.dim")
        if started.history:
            replay_history(list(started.history), self.out)

    # ── main loop ───────────────────────────────────────────────────────────────────────────

    async def start(self) -> SessionStarted:
        """Follow the session's events from here on; returns its SessionStarted."""
        if self._started is None:
            self._events = self.session.events()
            started = await anext(self._events)
            assert isinstance(started, SessionStarted)
            self.view.apply(started)
            self._started = started
            self._consumer = asyncio.create_task(self._consume())
        return self._started

    async def run(self, first_prompt: str | None = None) -> int:
        started = await self.start()
        # Load the HTTP client while the user types the first prompt.
        threading.Thread(target=preload_transport, name="transport-preload", daemon=True).start()
        self.input = self._make_input(Path(started.cwd))
        loop = asyncio.get_running_loop()
        if not self.terminal:
            loop.add_signal_handler(signal.SIGINT, self._on_sigint)
        # Ctrl+C (SIGINT) stays the REPL's: it interrupts the turn, twice at the prompt exits
        signals = ShutdownSignals(self._on_shutdown_signal, (signal.SIGTERM, signal.SIGHUP))
        signals.install(loop)
        try:
            self.banner(started)
            if first_prompt:
                await self.handle(first_prompt)
            while self.exit_code is None:
                line = await self.input.read(self.keys.take_typeahead())
                if line is None or self.exit_code is not None:
                    break
                if not await self.handle(line):
                    break
                await self._side_answers_in_line_mode()
            await self._side_answers_in_line_mode()
        finally:
            signals.uninstall()
            if not self.terminal:
                loop.remove_signal_handler(signal.SIGINT)
        self.goodbye(started)
        return self.exit_code or 0

    async def _side_answers_in_line_mode(self) -> None:
        """Piped lines are a script: a /btw answer is shown before the next line goes out, and
        before the REPL leaves at the end of the input (which would otherwise drop it). At a
        terminal the prompt comes back at once and the answer prints when it arrives."""
        if self.terminal:
            return
        await self._sides_settled.wait()

    def _on_shutdown_signal(self, sig: signal.Signals) -> None:
        """SIGTERM or SIGHUP (the terminal closed): the commands are dead already
        (shutdown.py); stop the turn, end the prompt, and leave with 143/129."""
        self.exit_code = exit_code_for(sig)
        self.session.submit(Interrupt(stop_reason(sig)))
        if self.input is not None:
            self.input.stop()
        self._release_waiter()  # whatever the REPL waits for, it is leaving

    async def close(self, reason: str = "prompt_input_exit") -> None:
        self.session.submit(Shutdown(reason))
        if self._consumer is not None:
            await self._consumer
        else:
            await self.session.wait_closed()

    def goodbye(self, started: SessionStarted) -> None:
        if started.transcript_path and self.view.messages:
            self.out.line(f"Resume this conversation with: claude-harness -r "
                          f"{self.view.session_id}", "ch.dim")

    async def handle(self, line: str) -> bool:
        """One line from the user; False means leave the REPL."""
        text = line.strip()
        if not text:
            return True
        if text.startswith("!"):
            await self.shell(text[1:].strip())
            return True
        if text.startswith("#") and text[1:].strip():
            await self.pickers.memory(text[1:].strip())
            return True
        invocation = invoke(text)
        if invocation is None:
            await self.turn(line)
            return True
        if invocation.action == "exit":
            return False
        if invocation.action in PANEL_ACTIONS and not invocation.ops:
            await self.panels.run(invocation.action, invocation.args)
            return True
        if invocation.action in PICKER_ACTIONS and not invocation.ops:
            await self.pickers.run(invocation.action, invocation.args)
            return True
        if invocation.action in UNAVAILABLE:
            self.out.line(f"/{invocation.name} is only available in the full-screen app.",
                          "ch.dim")
            return True
        made = list(invocation.ops)
        if invocation.action is not None:
            made += ACTIONS[invocation.action](self.view, self.out, invocation.args)
        for op in made:
            await self.follow(op)
        return True

    # ── following an op's events ────────────────────────────────────────────────────────────

    async def follow(self, op: Op) -> None:
        """Submit `op` and render its events until what it started has ended."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting = (OpFollower(self.session.submit(op)), future)
        try:
            await future
        finally:
            self._waiting = None

    async def _consume(self) -> None:
        """Every event, in order: the view learns it; the scrollback shows it. Whatever ends
        this (the session closed, the terminal went away), nobody is left waiting on it."""
        try:
            await self._consume_events()
        finally:
            self._release_waiter()

    def _release_waiter(self) -> None:
        self._sides_settled.set()
        if self._waiting is not None and not self._waiting[1].done():
            self._waiting[1].set_result(None)

    async def _consume_events(self) -> None:
        assert self._events is not None
        async for event in self._events:
            self.view.apply(event)
            try:
                await self._show(event)
            except OSError:  # the terminal is gone (EIO): the events still count
                pass
            self._track(event)
            if isinstance(event, SessionClosed):
                return

    async def _show(self, event: Any) -> None:
        """Draw one event (a prompt, a picker or a line in the scrollback)."""
        if isinstance(event, PermissionRequest):
            await self.answer(event)
        elif isinstance(event, PANEL_EVENTS):
            await self.panels.on_event(event)
        elif isinstance(event, PICKER_EVENTS):
            await self.pickers.on_event(event)
        elif isinstance(event, HistoryReplaced) and event.reason == "rewind":
            self.pickers.history_replaced(event)
        elif isinstance(event, ElicitationRequested):
            await self.elicit(event)
        elif isinstance(event, HistoryReplaced) and event.reason == "resume":
            replay_history(list(event.messages), self.out)
        elif isinstance(event, EditorModeChanged):
            if isinstance(self.input, PromptInput):
                self.input.set_vi_mode(event.mode == "vim")
        elif isinstance(event, Report) and event.topic == "keybindings" and event.data:
            self.out.render(event)
            await edit_keybindings(self.input, event.data, self.out.line)
        elif isinstance(event, ModeChanged) and self._prompt_drawn():
            # Shift+Tab at the prompt: the toolbar says it. A line printed under a drawn
            # prompt-toolkit prompt leaves a stale toolbar behind and the redraw drops letters.
            self.input.session.app.invalidate()  # type: ignore[union-attr]
        else:
            self.out.render(event)

    def _prompt_drawn(self) -> bool:
        """The prompt-toolkit prompt is on screen (with its bottom toolbar)."""
        session = getattr(self.input, "session", None)
        return session is not None and session.app.is_running

    def _track(self, event: Any) -> None:
        if isinstance(event, SideQuestionsPending):
            (self._sides_settled.set if event.count == 0 else self._sides_settled.clear)()
        if self._waiting is None:
            return
        follower, future = self._waiting
        if follower.ended_by(event) and not future.done():
            future.set_result(None)

    # ── a turn ──────────────────────────────────────────────────────────────────────────────

    def _on_sigint(self) -> None:
        if self.view.busy:
            self.session.submit(Interrupt())
        elif self.input is not None:
            self.input.wake()

    def _on_escape(self) -> None:
        if self.view.busy:
            self.session.submit(Interrupt())

    def _on_backtab_in_turn(self) -> None:
        self.session.submit(CycleMode())

    def _on_ctrl_b(self) -> None:
        """Ctrl+B mid-turn: the running command goes on in the background."""
        self.session.submit(BackgroundCommands())

    def _steer(self, text: str) -> None:
        """Text typed mid-turn, then Enter: queued now; the model reads it after the current
        tool batch (or as the next prompt when the turn ends first)."""
        self.out.line(f"› {text.strip()}  (queued: sent after the current step)", "ch.dim")
        self.session.submit(UserPrompt(text.strip()))

    @contextlib.contextmanager
    def _sigint(self, handler: Callable[[], None]) -> Iterator[None]:
        """Ctrl+C runs `handler` for the block. In line mode the REPL's own handler is always
        installed (there is no prompt-toolkit to catch the key), so it comes back afterwards."""
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGINT, handler)
        try:
            yield
        finally:
            if self.terminal:
                loop.remove_signal_handler(signal.SIGINT)
            else:
                loop.add_signal_handler(signal.SIGINT, self._on_sigint)

    async def turn(self, prompt: str) -> None:
        with self._sigint(self._on_sigint):
            await self._run_turn(prompt)

    async def _run_turn(self, prompt: str) -> None:
        try:
            with self.keys.active(self.terminal):
                self.out.begin_turn()
                await self.follow(UserPrompt(prompt))
        finally:
            self.out.end_turn()

    async def answer(self, request: PermissionRequest) -> None:
        """Show the exact request, let the user pick, send the answer to the session."""
        self.out.settle()
        self.out.pause()
        # The change against the file on disk, as the app shows it; a big file's diff takes a
        # moment: built off the event loop (keys keep working).
        diff = None
        if shared_previews.needs_file_diff(request.tool_name, request.input, request.preview):
            diff = await shared_previews.file_change_diff_async(request.tool_name, request.input)
        body = await asyncio.to_thread(previews.permission_body, request.tool_name,
                                       request.input, request.preview, diff)
        self.show_request(request, body)
        assert self.input is not None
        with self.keys.suspended():
            result = await self.input.choose(options_for(request.suggestion,
                                                         always_label(request)))
            feedback = ""
            if result.choice == "no" and not (result.via_escape or result.interrupted):
                feedback = await self.input.feedback()
        self._report_choice(request, result, feedback)
        self.session.submit(AnswerPermission(request.request_id, result.choice, feedback))
        if result.interrupted:
            self.session.submit(Interrupt())
        self.out.resume()

    async def elicit(self, event: ElicitationRequested) -> None:
        """An MCP server's question: the live area steps aside, the fields are asked one by
        one, the answer goes to the session."""
        self.out.settle()
        self.out.pause()
        assert self.input is not None
        with self.keys.suspended():
            answer = await answer_question(event.request, self.input, self.out.line)
        self.out.line(f"  › {answer.action}", "ch.dim")
        self.session.submit(AnswerElicitation(event.request_id, answer.action, answer.content))
        self.out.resume()

    def show_request(self, request: PermissionRequest, body: list[str] | None = None) -> None:
        presentation = shared_previews.presentation_of(request.tool_name)
        self.out.line(presentation.permission_title(request.tool_name), "ch.tool")
        if presentation.plan_markdown and request.preview:
            from claude_harness.frontends.shared.plan_markdown import PlanMarkdown  # plans only

            emit(self.out.console, PlanMarkdown(request.preview))  # numbered as written
            return
        if body is None:
            body = previews.permission_body(request.tool_name, request.input, request.preview)
        changes_a_file = presentation.kind == "edit"  # +/- lines are a diff, not a command
        for line in body:
            style = ""
            if line.startswith("+") and changes_a_file:
                style = "ch.diff.add"
            elif line.startswith("-") and changes_a_file:
                style = "ch.diff.del"
            self.out.console.print(Text(f"  {line}", style=style))
        if request.reason:
            self.out.line(f"  {request.reason}", "ch.warning")

    def _report_choice(self, request: PermissionRequest, result: ChoiceResult,
                       feedback: str) -> None:
        labels = dict(options_for(request.suggestion, always_label(request)))
        label = "Interrupted" if result.interrupted else labels.get(result.choice, result.choice)
        suffix = f": {feedback}" if feedback else ""
        self.out.line(f"  › {label}{suffix}", "ch.dim")

    # ── !cmd ────────────────────────────────────────────────────────────────────────────────

    async def shell(self, command: str) -> None:
        if not command:
            self.out.line("Usage: !<shell command>", "ch.dim")
            return
        self.out.line(f"! {command}", "ch.accent")
        try:
            with self._sigint(self._on_sigint), self.keys.active(self.terminal):
                self.out.area.set_status(self.out.working_status("Running the command"))
                await self.follow(ShellCommand(command))
        finally:
            self.out.area.clear()


def _read_line() -> str:
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    if not sys.stdin.isatty():
        sys.stdout.write(line)  # a pipe does not echo: keep the transcript readable
    return line


def _settle_trust(cwd: Path, renderer: EventRenderer, trust_workspace: bool = False) -> bool:
    """First start in a folder: ask whether its files are trusted (project settings and hooks
    apply only then). Without a person at stdin, go on untrusted. False: the user said no."""
    store = data_dir()
    if trust_workspace or is_trusted(store, cwd):
        return True
    if not sys.stdin.isatty():
        renderer.line("This folder is not trusted: its project settings and hooks are off.",
                      "ch.dim")
        return True
    renderer.line(f"Do you trust the files in this folder? {cwd}", "ch.warning")
    renderer.line("Project settings and hooks (.claude/settings.json) apply only in folders you "
                  "trust.  1. Yes, proceed   2. No, exit", "ch.dim")
    answer = _read_line().strip().lower()
    if answer not in ("", "1", "y", "yes"):
        return False
    trust_folder(store, cwd)
    return True


def run_plain(opts: RunOptions) -> int:
    """Entry point used by the CLI for `--plain`, TERM=dumb, or a stdout that is not a TTY.

    A prompt on the command line with a pipe on stdin goes out as one prompt with the piped
    text, as Claude Code sends it; a pipe alone stays line mode (a prompt per line)."""
    if opts.prompt and sys.stdin is not None and not sys.stdin.isatty():
        from claude_harness.frontends.shared.piped_prompt import join_piped_stdin

        opts.prompt = join_piped_stdin(opts.prompt)
    if opts.resume == "":  # -r without an id: pick from this folder's conversations
        opts.resume = pick_session(data_dir(), opts.cwd.resolve(), sys.stdout, _read_line)
    # --theme, else the settings' (where /config saves it), as the app starts in it
    theme, theme_warning = load_theme(opts.theme or settings_theme(opts.cwd.resolve()))
    console = make_console(theme.rich_theme())
    renderer = EventRenderer(console, verbose=opts.verbose)
    if not _settle_trust(opts.cwd.resolve(), renderer, opts.trust_workspace):
        return 1
    try:
        session, warnings = build_session(opts)
    except StartupError as exc:
        sys.stderr.write(f"Error: {exc}\n")
        return 1
    renderer.verbose = session.config.verbose  # --verbose or the `verbose` setting
    for warning in [*warnings, *([theme_warning] if theme_warning else [])]:
        renderer.line(f"Warning: {warning}", "ch.warning")
    repl = PlainRepl(session, renderer, theme, terminal_capable())

    async def go() -> int:
        try:
            if not (await repl.start()).has_credentials:
                sys.stderr.write(f"Error: {NO_KEY_HELP}\n")
                return 1
            return await repl.run(opts.prompt)
        finally:
            await repl.close()

    try:
        return asyncio.run(go())
    except KeyboardInterrupt:
        return 130
