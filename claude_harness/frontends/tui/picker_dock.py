"""The app's pickers and prompts that take the input's place (rewind, AskUserQuestion, /tasks,
/model, /output-style, `#` memory, Ctrl+R), and what the session's answers to them look like.

The dock sits just above the prompt (the link mounts it once the session is ready: nothing here
is on the first paint's path). What it shows is mounted inside it, so their messages
(Chosen, Answered, Cancelled...) bubble up to it and it turns them into ops; while something is
shown the prompt is hidden, and it comes back, focused, when the last one closes. The link hands
it the session events it draws (`EVENTS`); the app's keys and slash commands call its `open_*`
methods, which ask the session first (a ListX op) and draw when the answer arrives.
"""

from __future__ import annotations

import time
from typing import Any

from textual.containers import Vertical
from textual.widget import Widget

from claude_harness.frontends.shared.previews import window_label
from claude_harness.frontends.tui.widgets.choice_list import ChoiceList, Row
from claude_harness.frontends.tui.widgets.history_search import HistorySearch
from claude_harness.frontends.tui.widgets.rewind_picker import RewindPicker
from claude_harness.frontends.tui.widgets.status_line import StatusLineView
from claude_harness.protocol import ops
from claude_harness.protocol.events import (
    SELF_DRAWN_EVENTS,
    ContextMeasured,
    ModelsListed,
    OutputStylesListed,
    QuestionsAsked,
    QuestionsSettled,
    RewindPlanned,
    RewindPoints,
    RewindProgress,
    Rewound,
    StatusLineChanged,
    TasksListed,
)

EVENTS = SELF_DRAWN_EVENTS
DOUBLE_ESCAPE_SECONDS = 0.8
MEMORY_ROWS = (Row("project", "Project memory", "./CLAUDE.md: shared with this repository"),
               Row("user", "User memory", "~/.claude/CLAUDE.md: every project of yours"))


class PickerDock(Vertical):
    DEFAULT_CSS = """
    PickerDock { height: auto; }
    """

    def __init__(self) -> None:
        super().__init__(id="picker-dock")
        self.wanted: set[str] = set()  # lists the person asked to see (vs. answers to others)
        self.questions: dict[str, Widget] = {}  # request id -> its AskUserQuestionPrompt
        self._last_escape = 0.0
        self._memory_note = ""
        self.task_outputs: dict[str, str] = {}  # /tasks: id -> output file

    # ── showing and closing ─────────────────────────────────────────────────────────────────

    @property
    def host(self) -> Any:
        return self.app  # the HarnessApp: its prompt, conversation and submit()

    @property
    def showing(self) -> bool:
        return bool(self.children)

    async def show(self, widget: Widget) -> None:
        self.host.prompt.display = False
        await self.mount(widget)
        widget.focus()

    async def close(self, widget: Widget | None) -> None:
        if widget is not None and widget.parent is self:
            await widget.remove()
        if not self.children:
            self.host.prompt.display = True
            self.host.prompt.focus()

    def _submit(self, op: ops.Op) -> bool:
        if not self.host.has_session or not self.host.ready:
            self.app.notify("Still starting; try again in a moment.")
            return False
        self.host.submit(op)
        return True

    def _ask(self, what: str, op: ops.Op) -> None:
        if self._submit(op):
            self.wanted.add(what)

    # ── what the keys and commands open ─────────────────────────────────────────────────────

    def open_rewind(self) -> None:
        self._ask("rewind", ops.ListRewindPoints())

    def open_tasks(self) -> None:
        self._ask("tasks", ops.ListTasks())

    def open_models(self) -> None:
        self._ask("models", ops.ListModels())

    def open_styles(self) -> None:
        self._ask("styles", ops.ListOutputStyles())

    def measure_context(self) -> None:
        self._submit(ops.MeasureContext())

    def background_commands(self) -> None:
        self._submit(ops.BackgroundCommands())

    async def ask_memory_scope(self, note: str) -> None:
        """`#note`: where should it go?"""
        self._memory_note = note
        await self.show(ChoiceList(f"Save to memory: {note}", MEMORY_ROWS, name="memory"))

    async def search_history(self) -> None:
        """Ctrl+R: open the search, or (while it is open) step to an older match."""
        searches = list(self.query(HistorySearch))
        if searches:
            searches[0].action_older()
        elif not self.showing:
            await self.show(HistorySearch(self.host.history.entries))

    def escape_pressed(self) -> bool:
        """Esc on an empty prompt while idle: a second one soon after opens the rewind picker."""
        now = time.monotonic()
        double = now - self._last_escape <= DOUBLE_ESCAPE_SECONDS
        self._last_escape = 0.0 if double else now
        if double and not self.host.prompt.text and not self.showing:
            self.open_rewind()
            return True
        return False

    # ── session events ──────────────────────────────────────────────────────────────────────

    async def on_session_event(self, event: Any) -> None:
        match event:
            case RewindPoints(points=points) if "rewind" in self.wanted:
                self.wanted.discard("rewind")
                if not points:
                    await self.host.post_notice("Nothing to rewind yet: no prompt of this "
                                                "session can be restored.")
                else:
                    await self.show(RewindPicker(points, cwd=getattr(self.app, "cwd", None)))
            case RewindPlanned(prompt_id=prompt_id, plan=plan, error=error):
                for picker in self.query(RewindPicker):
                    picker.show_plan(prompt_id, plan)
                if error:
                    await self.host.post_notice(error, "warning")
            case RewindProgress(phase=phase, done=done, total=total):
                verb = "Preparing" if phase == "prepared" else "Restoring"
                self.host.activity.relabel(f"Rewinding: {verb.lower()} {done}/{total} files")
            case Rewound():
                await self._rewound(event)
            case QuestionsAsked():
                await self._ask_questions(event)
            case QuestionsSettled(request_id=request_id):
                await self.close(self.questions.pop(request_id, None))
            case TasksListed(tasks=tasks) if "tasks" in self.wanted:
                self.wanted.discard("tasks")
                self.task_outputs = {t.task_id: t.output_path for t in tasks}
                await self._replace("tasks", ChoiceList(
                    "Background tasks", [Row(t.task_id, t.summary) for t in tasks],
                    keys={"k": "kill"}, name="tasks",
                    hint="↑↓ choose · k kill the selected task · Enter show its output file "
                         "· Esc close"))
            case ContextMeasured(usage=usage):
                from claude_harness.frontends.tui.widgets.context_grid import (
                    ContextGrid,  # on /context
                )

                await self.host.conversation.add(ContextGrid(usage))
            case StatusLineChanged(text=text):
                self.app.query_one("#status-line", StatusLineView).show_line(text)
            case OutputStylesListed(styles=styles, current=current) if "styles" in self.wanted:
                self.wanted.discard("styles")
                rows = [Row(s.name, s.name, f"{s.description} ({s.source})",
                            s.name.casefold() == current.casefold()) for s in styles]
                await self.show(ChoiceList("Output style", rows, name="styles"))
            case ModelsListed() if "models" in self.wanted:
                self.wanted.discard("models")
                await self.show(ChoiceList("Model", _model_rows(event), name="models"))

    async def _rewound(self, event: Rewound) -> None:
        parts = []
        if event.written or event.deleted:
            parts.append(f"restored {len(event.written)} file(s), deleted {len(event.deleted)}")
        if event.conflicts:
            parts.append(f"left {len(event.conflicts)} file(s) changed outside the session as "
                         "they are: " + ", ".join(event.conflicts))
        if event.conversation:
            parts.append(f"the conversation continues as session {event.session_id} (the "
                         "earlier one stays resumable)")
        await self.host.post_notice("Rewound: " + ("; ".join(parts) or "nothing to change")
                                    + ".", "warning" if event.conflicts else "info")
        if event.prompt_text:
            self.host.prompt.set_text(event.prompt_text)

    async def _ask_questions(self, event: QuestionsAsked) -> None:
        from claude_harness.frontends.tui.widgets.ask_user_question import AskUserQuestionPrompt
        from claude_harness.protocol.questions import Question  # on the first ask

        prompt = AskUserQuestionPrompt([Question.model_validate(q) for q in event.questions])
        self.questions[event.request_id] = prompt
        await self.show(prompt)
        self.app.bell()

    async def _replace(self, name: str, widget: Widget) -> None:
        for old in [c for c in self.children if c.name == name]:
            await old.remove()
        await self.show(widget)

    # ── what the shown widgets report ───────────────────────────────────────────────────────

    async def on_rewind_picker_chosen(self, message: RewindPicker.Chosen) -> None:
        choice = message.choice
        self._submit(ops.Rewind(choice.prompt_id, choice.restore_code,
                                choice.restore_conversation, choice.force))
        for picker in list(self.query(RewindPicker)):
            await self.close(picker)

    async def on_rewind_picker_cancelled(self, message: RewindPicker.Cancelled) -> None:
        for picker in list(self.query(RewindPicker)):
            await self.close(picker)

    def on_rewind_picker_plan_wanted(self, message: RewindPicker.PlanWanted) -> None:
        self._submit(ops.PlanRewind(message.prompt_id))

    async def on_ask_user_question_prompt_answered(self, message: Any) -> None:
        request_id = next((rid for rid, w in self.questions.items() if w is message.prompt), None)
        if request_id is not None:
            answers = message.answers
            self._submit(ops.AnswerQuestions(request_id, dict(answers.answers),
                                             dict(answers.annotations), answers.declined))
            await self.close(self.questions.pop(request_id))

    async def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        owner, key = message.owner, message.key
        if owner.name == "tasks":
            if message.action == "kill":
                self._submit(ops.StopTask(key))
                self.wanted.add("tasks")  # the session lists them again after the kill
            else:
                path = self.task_outputs.get(key, "")
                await self.host.post_notice(f"{key}: its output is in {path or 'its file'} "
                                            "(the model can Read it).")
            return
        await self.close(owner)
        if owner.name == "models":
            self._submit(ops.SetModel(key, source="picker"))
        elif owner.name == "styles":
            self._submit(ops.SetOutputStyle(key))
        elif owner.name == "memory":
            self._submit(ops.AddMemory(self._memory_note, "user" if key == "user" else "project"))

    async def on_choice_list_cancelled(self, message: ChoiceList.Cancelled) -> None:
        await self.close(message.owner)

    async def on_history_search_accepted(self, message: HistorySearch.Accepted) -> None:
        await self.close(self.query_one(HistorySearch))
        self.host.prompt.set_text(message.text)

    async def on_history_search_cancelled(self, message: HistorySearch.Cancelled) -> None:
        await self.close(self.query_one(HistorySearch))


def _model_rows(event: ModelsListed) -> list[Row]:
    rows = []
    for model in event.models:
        efforts = ""
        if model.efforts:
            efforts = f" · effort {'/'.join(model.efforts)}"
            if model.default_effort:
                efforts += f" (default {model.default_effort})"
        detail = f"{model.model} · {window_label(model.context_window)} context{efforts} · " \
                 f"{model.price}"
        rows.append(Row(model.alias or model.model, model.label, detail,
                        model.model == event.current))
    return rows
