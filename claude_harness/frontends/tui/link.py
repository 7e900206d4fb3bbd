"""The app's side of its session: the SessionView, the event pump, and the ops the app submits.

Loaded when the session is ready, after the first paint (the protocol's dataclasses and the
command table are not needed to draw the first frame). The link renders every event into the
app's widgets: turn events through the TurnRenderer, session state into the footer, the
activity line, the permission prompt and the conversation.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.worker import Worker

from claude_harness.frontends.shared.event_text import effort_label
from claude_harness.frontends.tui import commands, panels
from claude_harness.frontends.tui.picker_dock import EVENTS as DOCK_EVENTS
from claude_harness.frontends.tui.picker_dock import PickerDock
from claude_harness.frontends.tui.router import TurnRenderer, history_widgets
from claude_harness.frontends.tui.widgets.notice import NoticeView
from claude_harness.frontends.tui.widgets.todo_panel import TodoPanel
from claude_harness.protocol.events import (
    Busy,
    ClipboardText,
    EditorModeChanged,
    ElicitationRequested,
    ElicitationSettled,
    HistoryReplaced,
    McpAuthUrl,
    ModeChanged,
    ModelChanged,
    Notice,
    PermissionRequest,
    PermissionSettled,
    PromptsReturned,
    QueueChanged,
    Report,
    RequestControlsChanged,
    SessionClosed,
    SessionStarted,
    ShellRan,
    TodosChanged,
    TotalsChanged,
)
from claude_harness.protocol.ops import (
    AnswerElicitation,
    AnswerPermission,
    CycleMode,
    Interrupt,
    Op,
    ShellCommand,
    Shutdown,
    ToggleThinking,
    UserPrompt,
)
from claude_harness.protocol.panels import PANEL_EVENTS
from claude_harness.protocol.view import SessionView
from claude_harness.text.terminal_safety import strip_unsafe

NO_KEY_NOTICE = (
    "No API key found. Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in your environment, "
    "or point ANTHROPIC_BASE_URL at a compatible server, then restart. You can still browse "
    "/help, /status and /theme."
)


class SessionLink:
    def __init__(self, app: Any, session: Any) -> None:
        self.app = app  # the HarnessApp: its widgets and notices
        self.session = session  # only ever used through submit() and events()
        self.view = SessionView()
        self.renderer = TurnRenderer(app.conversation)
        self.dock = PickerDock()  # pickers and questions, in place of the prompt
        app.query_one("#input-area").mount(self.dock, before=app.prompt)
        self.questions: Any = None  # a WidgetElicitationHandler, from the first question on
        self._asking: dict[str, Worker[None]] = {}  # request id -> the worker showing its form

    # ── ops out ─────────────────────────────────────────────────────────────────────────────

    def submit(self, op: Op) -> None:
        self.session.submit(op)

    def prompt(self, text: str) -> None:
        self.submit(UserPrompt(text))

    def shell(self, command: str) -> None:
        self.submit(ShellCommand(command))

    def cycle_mode(self) -> None:
        self.submit(CycleMode())

    def interrupt(self, reason: str = "") -> None:
        """Esc, Ctrl+C; a `reason` when a signal stops the app."""
        self.submit(Interrupt(reason))

    def answer(self, request: PermissionRequest, choice: str, feedback: str) -> None:
        self.submit(AnswerPermission(request.request_id, choice, feedback))  # type: ignore[arg-type]

    def shutdown(self) -> None:
        self.submit(Shutdown("prompt_input_exit"))

    def toggle_thinking(self) -> None:
        self.submit(ToggleThinking())

    def answer_elicitation(self, request_id: str, answer: Any) -> None:
        self.submit(AnswerElicitation(request_id, answer.action, answer.content))

    # ── an MCP server's questions ───────────────────────────────────────────────────────────

    def ask(self, event: ElicitationRequested) -> None:
        """Show the form (one at a time) in a worker; the answer goes back as an op."""
        from claude_harness.frontends.tui.widgets.elicitation_form import (  # the first question only
            WidgetElicitationHandler,
        )

        if self.questions is None:
            self.questions = WidgetElicitationHandler(self.app.show_question,
                                                      self.app.hide_question)
        handler = self.questions

        async def ask() -> None:
            answer = await handler.elicit(safe_question(event.request))
            self._asking.pop(event.request_id, None)
            self.answer_elicitation(event.request_id, answer)

        self._asking[event.request_id] = self.app.run_worker(ask(), group="questions",
                                                             exit_on_error=False)

    def question_settled(self, request_id: str) -> None:
        """Closed by the session (an interrupt): the form goes without an answer."""
        worker = self._asking.pop(request_id, None)
        if worker is not None:
            worker.cancel()

    # ── events in ───────────────────────────────────────────────────────────────────────────

    async def pump(self) -> None:
        """Every session event, in order, to the view, the chrome and the conversation."""
        async for event in self.session.events():
            try:
                await self.on_event(event)
            except Exception as exc:  # a rendering bug must not stop the stream
                await self.app.post_notice(f"Error: {type(exc).__name__}: {exc}", "error")

    async def on_event(self, event: Any) -> None:
        app = self.app
        self.view.apply(event)
        match event:
            case SessionStarted():
                await self._started(event)
            case Busy(running=running, label=label):
                self._busy(running, label)
            case QueueChanged(pending=pending):
                app.activity.set_queued(len(pending))
                if not pending:
                    app.unqueue_views()
            case PromptsReturned(texts=texts):
                app.return_prompts(texts)
            case PermissionRequest():
                app.permissions.add(event)
            case PermissionSettled(request_id=request_id):
                app.permissions.settled(request_id)
            case HistoryReplaced():
                await self._history_replaced(event)
            case ShellRan(display=display, failed=failed):
                await app.conversation.add(NoticeView(display, "error" if failed else "info"))
            case Report() | Notice() if panels.deliver(app, event):
                pass  # an open panel asked for it (frontends/tui/panels)
            case Report(lines=()):
                pass  # data for a panel closed since it asked
            case Report(lines=lines):
                await app.post_notice("\n".join(lines), boxed=len(lines) > 1)
                if event.topic == "keybindings" and event.data:
                    await app.open_keybindings(Path(event.data))
            case EditorModeChanged(mode=mode):
                app.apply_editor_mode(mode)
            case ClipboardText(text=text):
                app.copy_to_clipboard(text)  # Textual writes OSC 52 to the terminal
            case ModelChanged(model=model):
                self.refresh_status()
                await app.post_notice(f"Model set to {model}.")
            case ModeChanged() | TotalsChanged():
                self.refresh_status()
            case TodosChanged(todos=todos):
                app.query_one(TodoPanel).set_todos(list(todos))
            case RequestControlsChanged():
                self.refresh_status()
            case ElicitationRequested():
                self.ask(event)
            case ElicitationSettled(request_id=request_id):
                self.question_settled(request_id)
            case McpAuthUrl(server=server, url=url):
                await app.conversation.add(NoticeView(
                    f"Open this link in your browser to log in to {server}:", link=url))
            case SessionClosed():
                return
            case _ if isinstance(event, PANEL_EVENTS):
                from claude_harness.frontends.tui.panels.opener import (
                    opener_for,  # a panel was opened
                )

                await opener_for(app).on_event(event)
            case _ if isinstance(event, DOCK_EVENTS):
                await self.dock.on_session_event(event)
            case _:
                await self.renderer.handle(event)

    async def _started(self, started: SessionStarted) -> None:
        app = self.app
        if started.verbose and not app.details:  # as after /config verbose on (or Ctrl+O)
            app.action_toggle_details()
        self.refresh_status()
        if started.mcp_pending_approval:
            names = ", ".join(started.mcp_pending_approval)
            await app.post_notice(f"This project's .mcp.json offers MCP servers that need your "
                                  f"approval: {names}. Use /mcp approve <name>.", "warning")
        if not started.has_credentials:
            await app.post_notice(NO_KEY_NOTICE, "warning", boxed=True)
        if started.history:
            await app.conversation.load_history(list(started.history), history_widgets)
            await app.post_notice(
                f"Continuing the conversation ({len(started.history)} messages).")
        elif app.pick_session:
            await commands.run_command(app, "/resume")
        if app.early:
            text, app.early = "\n\n".join(app.early), []
            app.unqueue_views()
            self.prompt(text)

    async def _history_replaced(self, event: HistoryReplaced) -> None:
        app = self.app
        app.permissions.clear()
        await app.conversation.clear()
        if event.reason == "clear":
            await app.post_notice("Conversation cleared: the model starts from a fresh context.")
            return
        await app.conversation.load_history(list(event.messages), history_widgets)
        if event.reason == "resume":
            await app.post_notice(f"Resumed {event.session_id} ({len(event.messages)} messages).")

    def _busy(self, running: bool, label: str) -> None:
        app = self.app
        app.prompt.set_class(running, "-busy")
        if running:
            app.activity.start(label or "Working")
            return
        app.activity.stop()
        app.permissions.clear()
        app.run_worker(self.renderer.close_blocks(), group="render", exit_on_error=False)
        self.refresh_status()

    def refresh_status(self) -> None:
        view, totals = self.view, self.view.totals
        if view.ready:
            self.app.status.set_state(mode=view.mode, model=view.model,
                                      context_percent=totals.context_percent,
                                      cache_percent=totals.cache_read_percent,
                                      cost=totals.cost_usd, effort=effort_label(view.controls))


def safe_question(request: Any) -> Any:
    """The server's words without escape sequences (the form shows them as they are)."""
    return replace(request, message=strip_unsafe(request.message),
                   url=strip_unsafe(request.url) if request.url else request.url)
