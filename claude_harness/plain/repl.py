"""`claude-harness --plain`: the line-mode REPL.

Reads a prompt, runs one turn of the shared Engine, renders its events into the scrollback,
answers its permission requests, repeats. The loop, the tool pipeline and every permission
decision stay in the engine: this module only moves text between the user and the events.
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

from prompt_toolkit.formatted_text import FormattedText
from rich.text import Text

from claude_harness.agent.engine import Engine
from claude_harness.agent.events import PermissionAnswer, PermissionRequest
from claude_harness.api.client import preload_sdk
from claude_harness.options import RunOptions
from claude_harness.plain import previews
from claude_harness.plain.choice import ChoiceResult, options_for
from claude_harness.plain.commands import SLASH_COMMANDS, run_command
from claude_harness.plain.input import (
    InputSide,
    LineInput,
    PromptInput,
    terminal_capable,
)
from claude_harness.plain.render import EventRenderer, make_console
from claude_harness.plain.replay import replay_history
from claude_harness.plain.resume import pick_session
from claude_harness.plain.stream import PlainMarkdown, emit
from claude_harness.plain.theme import PlainTheme, load_theme
from claude_harness.plain.turnkeys import TurnKeys
from claude_harness.shell_escape import run_shell_escape

MODE_LABELS = {
    "default": "default mode",
    "acceptEdits": "⏵⏵ accept edits on",
    "plan": "⏸ plan mode on",
    "bypassPermissions": "⏵⏵ bypass permissions on",
    "dontAsk": "don't ask mode",
    "auto": "auto mode",
}

PERMISSION_TITLES = {
    "Bash": "Bash command",
    "Edit": "Edit file",
    "MultiEdit": "Edit file",
    "Write": "Write file",
    "NotebookEdit": "Edit notebook",
    "WebFetch": "Fetch web page",
    "ExitPlanMode": "Ready to code? Here is the plan:",
}


class PlainRepl:
    def __init__(self, engine: Engine, renderer: EventRenderer, theme: PlainTheme,
                 terminal: bool) -> None:
        self.engine = engine
        self.out = renderer
        self.theme = theme
        self.terminal = terminal
        self.input: InputSide | None = None
        self.pending_context: list[str] = []  # `!cmd` outputs for the next prompt
        self.keys = TurnKeys(self._on_escape, self._on_backtab_in_turn)

    # ── setup ───────────────────────────────────────────────────────────────────────────────

    def _make_input(self) -> InputSide:
        if self.terminal:
            return PromptInput(self.engine.config.cwd, self.engine.config.cwd,
                               self.theme.prompt_style(), self.toolbar, self.cycle_mode,
                               lambda text: self.out.line(text, "ch.dim"))
        return LineInput(history_cwd=self.engine.config.cwd)

    def toolbar(self) -> FormattedText:
        e = self.engine
        label = MODE_LABELS.get(e.mode, e.mode)
        return FormattedText([
            ("class:toolbar.mode", f" {label}"),
            ("class:toolbar.info", f" (shift+tab to cycle) · {e.model} · "
                                   f"${e.totals.cost_usd:.4f} · {e.context_percent:.0f}% context"),
        ])

    def cycle_mode(self) -> None:
        self.engine.cycle_mode()

    def banner(self) -> None:
        e = self.engine
        self.out.line(f"claude-harness · {e.model} · {e.config.cwd}", "ch.accent")
        self.out.line("/help for commands · !cmd runs a shell command · Ctrl+C twice to exit",
                      "ch.dim")
        if not self.terminal:
            self.out.line(f"Permission mode: {e.mode}", "ch.dim")
        if e.messages:
            replay_history(e.messages, self.out)

    # ── main loop ───────────────────────────────────────────────────────────────────────────

    async def run(self, first_prompt: str | None = None) -> int:
        # The SDK takes seconds to import: load it while the user types the first prompt.
        threading.Thread(target=preload_sdk, name="sdk-preload", daemon=True).start()
        self.input = self._make_input()
        loop = asyncio.get_running_loop()
        if not self.terminal:
            loop.add_signal_handler(signal.SIGINT, self._on_sigint)
        try:
            self.banner()
            if first_prompt:
                await self.handle(first_prompt)
            while True:
                line = await self.input.read(self.keys.take_typeahead())
                if line is None:
                    break
                if not await self.handle(line):
                    break
        finally:
            if not self.terminal:
                loop.remove_signal_handler(signal.SIGINT)
        self.goodbye()
        return 0

    def goodbye(self) -> None:
        if self.engine.transcript is not None and self.engine.messages:
            self.out.line(f"Resume this conversation with: claude-harness -r "
                          f"{self.engine.session_id}", "ch.dim")

    async def handle(self, line: str) -> bool:
        """One line from the user; False means leave the REPL."""
        text = line.strip()
        if not text:
            return True
        if text.startswith("!"):
            await self.shell(text[1:].strip())
            return True
        if text.startswith("/") and text.split()[0] in SLASH_COMMANDS:
            return not (await run_command(text, self.engine, self.out)).exit
        if text.startswith("/") and " " not in text and "/" not in text[1:]:
            await run_command(text, self.engine, self.out)  # unknown: say so, send nothing
            return True
        await self.turn(line)
        return True

    # ── a turn ──────────────────────────────────────────────────────────────────────────────

    def _on_sigint(self) -> None:
        if self.engine.running:
            self.engine.interrupt()
        elif self.input is not None:
            self.input.wake()

    def _on_escape(self) -> None:
        if self.engine.running:
            self.engine.interrupt()

    def _on_backtab_in_turn(self) -> None:
        self.engine.cycle_mode()
        self.out.line(f"  {MODE_LABELS.get(self.engine.mode, self.engine.mode)} "
                      "(shift+tab to cycle)", "ch.warning")

    def _prompt_content(self, prompt: str) -> str | list[dict[str, Any]]:
        if not self.pending_context:
            return prompt
        blocks = [{"type": "text", "text": c} for c in self.pending_context]
        self.pending_context = []
        return [*blocks, {"type": "text", "text": prompt}]

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
                async for event in self.engine.submit(self._prompt_content(prompt)):
                    if isinstance(event, PermissionRequest):
                        await self.answer(event)
                    else:
                        self.out.render(event)
        except Exception as exc:  # a bug or an unexpected failure must not end the session
            self.out.settle()
            self.out.line(f"{self.out.glyphs.cross} Internal error: {type(exc).__name__}: {exc}",
                          "ch.error")
            if self.engine.config.debug:
                self.out.console.print_exception()
        finally:
            self.out.end_turn()

    async def answer(self, request: PermissionRequest) -> None:
        """Show the exact request, let the user pick, resolve the future (if still open)."""
        if request.future.done():
            return  # already answered "no" by an interrupt
        self.out.settle()
        self.out.pause()
        self.show_request(request)
        assert self.input is not None
        with self.keys.suspended():
            result = await self.input.choose(options_for(request.suggestion))
            feedback = ""
            if result.choice == "no" and not (result.via_escape or result.interrupted):
                feedback = await self.input.feedback()
        self._report_choice(request, result, feedback)
        if not request.future.done():
            request.future.set_result(PermissionAnswer(result.choice, feedback))
        if result.interrupted:
            self.engine.interrupt()
        self.out.resume()

    def show_request(self, request: PermissionRequest) -> None:
        title = PERMISSION_TITLES.get(request.tool_name, f"Use {request.tool_name}")
        self.out.line(title, "ch.tool")
        if request.tool_name == "ExitPlanMode" and request.preview:
            emit(self.out.console, PlainMarkdown(request.preview))  # the plan, as Markdown
            return
        for line in previews.permission_body(request.tool_name, request.input, request.preview):
            style = ""
            if line.startswith("+") and request.tool_name != "Bash":
                style = "ch.diff.add"
            elif line.startswith("-") and request.tool_name != "Bash":
                style = "ch.diff.del"
            self.out.console.print(Text(f"  {line}", style=style))
        if request.reason:
            self.out.line(f"  {request.reason}", "ch.warning")

    def _report_choice(self, request: PermissionRequest, result: ChoiceResult,
                       feedback: str) -> None:
        labels = dict(options_for(request.suggestion))
        label = "Interrupted" if result.interrupted else labels.get(result.choice, result.choice)
        suffix = f": {feedback}" if feedback else ""
        self.out.line(f"  › {label}{suffix}", "ch.dim")

    # ── !cmd ────────────────────────────────────────────────────────────────────────────────

    async def shell(self, command: str) -> None:
        if not command:
            self.out.line("Usage: !<shell command>", "ch.dim")
            return
        self.out.line(f"! {command}", "ch.accent")
        task = asyncio.ensure_future(run_shell_escape(command, self.engine.shell.cwd))
        on_escape, self.keys.on_escape = self.keys.on_escape, task.cancel
        try:
            with self._sigint(task.cancel), self.keys.active(self.terminal):
                self.out.area.set_status(self.out.working_status("Running the command"))
                result = await task
        except asyncio.CancelledError:
            self.out.line("  Stopped.", "ch.warning")
            return
        finally:
            self.keys.on_escape = on_escape
            self.out.area.clear()
        for i, line in enumerate(result.display_lines()):
            lead = f"  {self.out.glyphs.branch} " if i == 0 else "    "
            self.out.line(lead + line, "ch.dim" if result.returncode == 0 else "ch.error")
        self.pending_context.append(result.context_text())


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
    from claude_harness.config.paths import data_dir
    from claude_harness.config.trust import is_trusted, trust_folder

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
    """Entry point used by the CLI for `--plain`, TERM=dumb, or a stdout that is not a TTY."""
    from claude_harness.bootstrap import StartupError, build_engine, data_dir

    if opts.resume == "":  # -r without an id: pick from this folder's conversations
        opts.resume = pick_session(data_dir(), opts.cwd.resolve(), sys.stdout, _read_line)
    theme, theme_warning = load_theme(opts.theme)
    console = make_console(theme.rich_theme())
    renderer = EventRenderer(console)
    if not _settle_trust(opts.cwd.resolve(), renderer, opts.trust_workspace):
        return 1
    try:
        engine, warnings = build_engine(opts)
    except StartupError as exc:
        sys.stderr.write(f"Error: {exc}\n")
        return 1
    for warning in [*warnings, *([theme_warning] if theme_warning else [])]:
        renderer.line(f"Warning: {warning}", "ch.warning")
    if not engine.api.settings.has_credentials:
        from claude_harness.api.errors import NO_KEY_HELP

        sys.stderr.write(f"Error: {NO_KEY_HELP}\n")
        return 1
    repl = PlainRepl(engine, renderer, theme, terminal_capable())

    async def go() -> int:
        try:
            return await repl.run(opts.prompt)
        finally:
            await engine.close("prompt_input_exit")

    try:
        return asyncio.run(go())
    except KeyboardInterrupt:
        return 130
