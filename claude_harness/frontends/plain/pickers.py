"""The REPL's pickers and prompts: numbered pickers for /rewind (and Esc Esc),
/tasks, /model (and Alt+P), /output-style, `#` memory and /resume search; AskUserQuestion as a
numbered prompt; /context as a grid; the status line command in the toolbar.

Every picker asks the session first (a ListX op) and waits for its answer event, prints plain
numbered lines (so it works the same in a terminal, on TERM=dumb and with a pipe), reads a
number with the input side, and submits the op the choice means. Nothing here reads the
session's attributes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prompt_toolkit.application.current import get_app_or_none

from claude_harness.config.paths import data_dir, project_relative
from claude_harness.frontends.plain.answers import Answers
from claude_harness.frontends.plain.ask import PlainQuestionAsker
from claude_harness.frontends.shared.previews import REWIND_CHOICES, ago, window_label
from claude_harness.protocol import ops
from claude_harness.protocol.events import (
    SELF_DRAWN_EVENTS,
    ContextMeasured,
    HistoryReplaced,
    ModelsListed,
    OutputStylesListed,
    QuestionsAsked,
    RewindPlanned,
    RewindPoints,
    RewindProgress,
    Rewound,
    StatusLineChanged,
    TasksListed,
)
from claude_harness.protocol.questions import Question
from claude_harness.session.services.context_usage import render_rich
from claude_harness.session.store.titles import search, summarize
from claude_harness.session.store.transcript import history_roots, list_sessions

EVENTS = SELF_DRAWN_EVENTS
ACTIONS = {"rewind", "tasks", "model", "output-style", "resume", "rename"}


class PlainPickers:
    def __init__(self, repl: Any) -> None:
        self.repl = repl  # the PlainRepl: its session (submit only), output and input side
        self.status_line = ""
        self.answers = Answers(repl)

    @property
    def out(self) -> Any:
        return self.repl.out

    # ── events ──────────────────────────────────────────────────────────────────────────────

    async def on_event(self, event: Any) -> None:
        """An event of ours (EVENTS): answer a waiting picker, or show it."""
        if self.answers.take(event):
            return
        match event:
            case QuestionsAsked():
                await self._questions(event)
            case StatusLineChanged(text=text):
                self.status_line = text
                if (app := get_app_or_none()) is not None:
                    app.invalidate()  # the toolbar is drawn again with the new line
            case ContextMeasured(usage=usage):
                self.out.settle()
                self.out.console.print(render_rich(usage))
            case RewindProgress(phase=phase, done=done, total=total):
                verb = "preparing" if phase == "prepared" else "restoring"
                self.out.area.set_status(self.out.working_status(
                    f"Rewinding: {verb} {done}/{total} files"))
            case Rewound():
                self._rewound(event)

    def history_replaced(self, event: HistoryReplaced) -> None:
        """A conversation rewind: the scrollback keeps what was said; mark where it forks."""
        self.out.line(f"── the conversation continues from an earlier point, as session "
                      f"{event.session_id} (the previous one stays resumable) ──", "ch.dim")

    async def _ask_number(self, count: int, what: str = "Number") -> int | None:
        """A number from 1 to `count`; None for Enter, anything else, or end of input."""
        answer = await self.repl.input.ask_line(f"{what} (1-{count}, Enter to cancel): ")
        text = (answer or "").strip()
        if text.isdigit() and 1 <= int(text) <= count:
            return int(text)
        return None

    # ── actions ─────────────────────────────────────────────────────────────────────────────

    async def run(self, action: str, args: str) -> None:
        if action == "rewind":
            await self.rewind()
        elif action == "tasks":
            await self.tasks()
        elif action == "model":
            await self.models()
        elif action == "output-style":
            await self.styles()
        elif action == "resume":
            await self.resume(args)
        elif action == "rename":
            self.out.line("Usage: /rename <title>", "ch.dim")

    async def rewind(self) -> None:
        listed = await self.answers.request(ops.ListRewindPoints(), RewindPoints)
        if listed is None or not listed.points:
            self.out.line("Nothing to rewind yet: no prompt of this session can be restored.",
                          "ch.dim")
            return
        self.out.line("Rewind: restore the code and/or the conversation to the point before…",
                      "ch.accent")
        for number, point in enumerate(listed.points, 1):
            text = point.text.splitlines()[0] if point.text else "(empty prompt)"
            files = f"{len(point.files)} file(s) changed" if point.files else "no code changes"
            self.out.line(f"  {number}. {text}")
            self.out.line(f"     {ago(point.created)} · {files}", "ch.dim")
        number = await self._ask_number(len(listed.points), "Prompt")
        if number is None:
            return
        point = listed.points[number - 1]
        planned = await self.answers.request(ops.PlanRewind(point.prompt_id), RewindPlanned)
        plan = planned.plan if planned is not None else None
        changes = plan.changes if plan is not None else []
        if changes:
            self.out.line(f"The code goes back for {len(changes)} file(s):")
            for item in changes[:12]:
                verb = "delete" if item.action == "delete" else \
                    f"+{item.insertions} -{item.deletions}"
                mark = "  (changed outside the session)" if item.conflict else ""
                shown = project_relative(item.path, self._cwd())
                self.out.line(f"  {shown}  {verb}{mark}", "ch.warning" if mark else "")
        else:
            self.out.line("No file of this session changes by going back there.", "ch.dim")
        for index, (label, code, _) in enumerate(REWIND_CHOICES, 1):
            unusable = code and not changes
            self.out.line(f"  {index}. {label}" + (" (no code changes)" if unusable else ""),
                          "ch.dim" if unusable else "")
        choice = await self._ask_number(len(REWIND_CHOICES), "Choice")
        if choice is None:
            return
        _, code, conversation = REWIND_CHOICES[choice - 1]
        code = code and bool(changes)
        if not (code or conversation):
            return
        force = False
        if code and plan is not None and plan.conflicts:
            answer = await self.repl.input.ask_line(
                "Some files were changed outside this session; overwrite them? (y/N) ")
            force = (answer or "").strip().lower() in ("y", "yes")
        await self.repl.follow(ops.Rewind(point.prompt_id, code, conversation, force))

    def _rewound(self, event: Rewound) -> None:
        self.out.area.clear()
        parts = []
        if event.written or event.deleted:
            parts.append(f"restored {len(event.written)} file(s), deleted {len(event.deleted)}")
        if event.conflicts:
            parts.append("left as they are (changed outside the session): "
                         + ", ".join(event.conflicts))
        self.out.line("Rewound: " + ("; ".join(parts) or "the conversation only") + ".",
                      "ch.warning" if event.conflicts else "ch.dim")
        if event.prompt_text:
            self.repl.keys.typeahead = event.prompt_text  # back in the prompt, to edit or resend

    async def tasks(self) -> None:
        listed = await self.answers.request(ops.ListTasks(), TasksListed)
        if listed is None or not listed.tasks:
            self.out.line("No background tasks.", "ch.dim")
            return
        for number, task in enumerate(listed.tasks, 1):
            self.out.line(f"  {number}. {task.summary}")
        running = [t for t in listed.tasks if t.state == "running"]
        if not running:
            return
        number = await self._ask_number(len(listed.tasks), "Kill which")
        if number is None:
            return
        # the session's own notice says what became of it (`bash_1: killed.`): a line of ours
        # said it a second time; the listing that follows is waited for, so the prompt comes
        # back after the notice
        await self.answers.request(ops.StopTask(listed.tasks[number - 1].task_id), TasksListed)

    async def models(self) -> None:
        listed = await self.answers.request(ops.ListModels(), ModelsListed)
        if listed is None:
            return
        for number, model in enumerate(listed.models, 1):
            current = " ✔" if model.model == listed.current else ""
            efforts = f" · effort {'/'.join(model.efforts)}" if model.efforts else ""
            if model.default_effort:
                efforts += f" (default {model.default_effort})"
            self.out.line(f"  {number}. {model.label}{current}")
            self.out.line(f"     {model.model} · {window_label(model.context_window)} context"
                          f"{efforts} · {model.price}", "ch.dim")
        number = await self._ask_number(len(listed.models), "Model")
        if number is not None:
            chosen = listed.models[number - 1]
            await self.repl.follow(ops.SetModel(chosen.alias or chosen.model, source="picker"))

    async def styles(self) -> None:
        listed = await self.answers.request(ops.ListOutputStyles(), OutputStylesListed)
        if listed is None:
            return
        for number, style in enumerate(listed.styles, 1):
            current = " ✔" if style.name.casefold() == listed.current.casefold() else ""
            self.out.line(f"  {number}. {style.name}{current}  ({style.source})")
            self.out.line(f"     {style.description}", "ch.dim")
        number = await self._ask_number(len(listed.styles), "Style")
        if number is not None:
            await self.repl.follow(ops.SetOutputStyle(listed.styles[number - 1].name))

    async def memory(self, note: str) -> None:
        """`#note`: which CLAUDE.md?"""
        self.out.line(f"Save to memory: {note}", "ch.accent")
        self.out.line("  1. Project memory  ./CLAUDE.md (shared with this repository)")
        self.out.line("  2. User memory     ~/.claude/CLAUDE.md (every project of yours)")
        number = await self._ask_number(2, "Where")
        if number is not None:
            await self.repl.follow(ops.AddMemory(note, "user" if number == 2 else "project"))

    def _cwd(self) -> Path:
        started = self.repl.view.started
        return Path(started.cwd) if started is not None else Path.cwd()

    async def resume(self, args: str) -> None:
        """/resume: a session id, or words to search titles and first prompts for."""
        cwd = self._cwd()
        paths = [p for p in list_sessions(history_roots(data_dir()), cwd) if p.stem != self.repl.view.session_id]
        if args and (exact := next((p for p in paths if p.stem.startswith(args)), None)):
            await self.repl.follow(ops.Resume(exact.stem))
            return
        found = search([summarize(p) for p in paths[:200]], args)[:20]
        if not found:
            self.out.line("No earlier session matches." if args else
                          "No earlier sessions in this folder.", "ch.dim")
            return
        for number, summary in enumerate(found, 1):
            self.out.line(f"  {number:>2}. {summary.label()}")
        number = await self._ask_number(len(found), "Resume which")
        if number is not None:
            await self.repl.follow(ops.Resume(found[number - 1].session_id))

    # ── questions ───────────────────────────────────────────────────────────────────────────

    async def _questions(self, event: QuestionsAsked) -> None:
        repl = self.repl
        self.out.settle()
        self.out.pause()
        asker = PlainQuestionAsker(repl.input.ask_line, self.out.line)
        with repl.keys.suspended():
            answers = await asker.ask([Question.model_validate(q) for q in event.questions])
        repl.session.submit(ops.AnswerQuestions(event.request_id, dict(answers.answers),
                                                dict(answers.annotations), answers.declined))
        self.out.resume()
