"""The rewind picker (Esc Esc on an empty prompt, or /rewind): choose a prompt of this session,
then what to take back to the point before it: the code, the conversation, or both.

Step 1 lists the prompts newest first, each with when it was sent and the files it changed.
Step 2 shows what restoring the code would do (files, lines, files changed outside the session)
and offers "Restore code and conversation", "Restore conversation", "Restore code" or "Never
mind". If a file changed outside the session would be overwritten, step 3 asks for that
explicitly. The widget only posts `Chosen` (with a RewindChoice) or `Cancelled`; the session does
the restoring. Only a window of rows is drawn, so a session with hundreds of prompts opens as
fast as one with three.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.markup import escape
from textual.message import Message
from textual.widgets import Static

from claude_harness.config.paths import project_relative
from claude_harness.frontends.shared.previews import REWIND_CHOICES, ago
from claude_harness.session.checkpointing.checkpoints import PromptCheckpoint, RestorePlan

VISIBLE_ROWS = 8
MAX_PLAN_FILES = 6


@dataclass(frozen=True)
class RewindChoice:
    prompt_id: str
    message_uuid: str | None  # where the conversation forks (the prompt's user message)
    restore_code: bool
    restore_conversation: bool
    force: bool = False  # overwrite files changed outside the session


ACTIONS = REWIND_CHOICES  # label, restore code, restore conversation


def _files_summary(prompt: PromptCheckpoint | Any) -> str:
    files = prompt.files
    if not files:
        return "no code changes"
    names = ", ".join(Path(f).name for f in files[:3])
    more = f" +{len(files) - 3}" if len(files) > 3 else ""
    return f"{len(files)} file{'s' if len(files) != 1 else ''} changed: {names}{more}"


class RewindPicker(Vertical, can_focus=True):
    DEFAULT_CSS = """
    RewindPicker {
        height: auto;
        max-height: 80vh;
        border: round $accent;
        padding: 0 1;
        background: $surface;
    }
    RewindPicker .rewind-title { text-style: bold; }
    RewindPicker .rewind-body { padding: 0 0 0 1; }
    RewindPicker .rewind-hint { color: $text-muted; text-style: italic; }
    """

    BINDINGS = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("enter", "confirm", show=False),
        Binding("escape", "back", show=False),
        Binding("y", "answer(True)", show=False),
        Binding("n", "answer(False)", show=False),
        *(Binding(str(n), f"pick({n})", show=False) for n in range(1, 5)),
    ]

    class Chosen(Message):
        def __init__(self, choice: RewindChoice) -> None:
            super().__init__()
            self.choice = choice

    class Cancelled(Message):
        pass

    class PlanWanted(Message):
        """Without `plan_for`: ask the owner what restoring the code to before `prompt_id`
        would do; it answers with `show_plan`."""

        def __init__(self, prompt_id: str) -> None:
            super().__init__()
            self.prompt_id = prompt_id

    def __init__(self, prompts: Sequence[PromptCheckpoint | Any],
                 plan_for: Callable[[str], RestorePlan] | None = None,
                 cwd: Path | None = None) -> None:
        """`prompts` newest first (Checkpoints.prompts(), or the session's RewindPoints);
        `plan_for(prompt_id)` is what restoring the code would do (Checkpoints.plan_restore).
        Without it the picker asks for the plan (PlanWanted) and waits for `show_plan`."""
        super().__init__(classes="rewind-picker")
        self.prompts = [p for p in prompts if not p.rewound]
        self.plan_for = plan_for
        self.cwd = cwd  # file names are shown relative to it
        self.step = "prompt"  # "prompt" -> "action" -> "confirm"
        self.selected = 0
        self.action = 0
        self.plan: RestorePlan | None = None
        self._pending: RewindChoice | None = None
        self._title = Static(classes="rewind-title", markup=False)
        self._body = Static(classes="rewind-body")
        self._hint = Static(classes="rewind-hint", markup=False)

    def compose(self) -> ComposeResult:
        yield self._title
        yield self._body
        yield self._hint

    def on_mount(self) -> None:
        self._draw()
        self.focus()

    @property
    def prompt(self) -> PromptCheckpoint | None:
        return self.prompts[self.selected] if self.prompts else None

    # ── drawing ────────────────────────────────────────────────────────────────────────────

    def _draw(self) -> None:
        {"prompt": self._draw_prompts, "action": self._draw_actions,
         "confirm": self._draw_confirm, "planning": self._draw_planning}[self.step]()

    def _draw_planning(self) -> None:
        self._body.update("Looking at the files this would restore…")
        self._hint.update("Esc back")

    def _draw_prompts(self) -> None:
        self._title.update("Rewind: restore the code and/or the conversation to the point "
                           "before…")
        if not self.prompts:
            self._body.update("Nothing to rewind yet: no prompt of this session can be restored.")
            self._hint.update("Esc closes")
            return
        first = min(max(0, self.selected - VISIBLE_ROWS // 2),
                    max(0, len(self.prompts) - VISIBLE_ROWS))
        rows = []
        now = time.time()
        for index in range(first, min(len(self.prompts), first + VISIBLE_ROWS)):
            prompt = self.prompts[index]
            pointer = "❯" if index == self.selected else " "
            text = escape(prompt.text.splitlines()[0] if prompt.text else "(empty prompt)")
            row = (f"{pointer} {text}\n    [dim]{ago(prompt.created, now)} · "
                   f"{escape(_files_summary(prompt))}[/]")
            rows.append(f"[b]{row}[/]" if index == self.selected else row)
        self._body.update(Content.from_markup("\n".join(rows)))
        position = f"{self.selected + 1} of {len(self.prompts)} · " if len(self.prompts) > 1 else ""
        self._hint.update(f"{position}↑↓ choose · Enter select · Esc close")

    def _draw_actions(self) -> None:
        prompt = self.prompt
        assert prompt is not None
        self._title.update(f"Rewind to before: {prompt.text.splitlines()[0] if prompt.text else ''}")
        lines = self._plan_lines()
        for number, (label, code, _) in enumerate(ACTIONS, start=1):
            usable = self._usable(code)
            pointer = "❯" if number - 1 == self.action else " "
            text = f"{pointer} {number}. {escape(label)}"
            if not usable:
                text = f"[dim]{text} (no code changes to restore)[/]"
            elif number - 1 == self.action:
                text = f"[b]{text}[/]"
            lines.append(text)
        self._body.update(Content.from_markup("\n".join(lines)))
        self._hint.update("↑↓ or 1-4 choose · Enter confirm · Esc back")

    def _plan_lines(self) -> list[str]:
        plan = self.plan
        if plan is None or not plan.changes:
            return ["[dim]No file of this session changes by going back there.[/]", ""]
        lines = [f"The code goes back for {len(plan.changes)} file(s):"]
        for item in plan.changes[:MAX_PLAN_FILES]:
            mark = " [$warning]changed outside the session[/]" if item.conflict else ""
            verb = "delete" if item.action == "delete" else f"+{item.insertions} -{item.deletions}"
            lines.append(f"  {escape(project_relative(item.path, self.cwd))}  [dim]{verb}[/]{mark}")
        if len(plan.changes) > MAX_PLAN_FILES:
            lines.append(f"  [dim]… and {len(plan.changes) - MAX_PLAN_FILES} more[/]")
        return [*lines, ""]

    def _draw_confirm(self) -> None:
        plan = self.plan
        conflicts = plan.conflicts if plan is not None else []
        self._title.update("Some files were changed outside this session")
        names = "\n".join(f"  {escape(project_relative(c.path, self.cwd))}"
                          for c in conflicts[:MAX_PLAN_FILES])
        self._body.update(Content.from_markup(
            f"{names}\nRestoring the code overwrites these changes (their content is kept in "
            "the session's checkpoints). Overwrite them? [b]y[/] yes · [b]n[/] restore the other "
            "files only"))
        self._hint.update("y overwrite · n leave them · Esc back")

    # ── actions ────────────────────────────────────────────────────────────────────────────

    def _usable(self, code: bool) -> bool:
        return not code or bool(self.plan and self.plan.changes)

    def action_move(self, step: int) -> None:
        if self.step == "prompt" and self.prompts:
            self.selected = (self.selected + step) % len(self.prompts)
        elif self.step == "action":
            for _ in ACTIONS:
                self.action = (self.action + step) % len(ACTIONS)
                if self._usable(ACTIONS[self.action][1]):
                    break
        self._draw()

    def action_pick(self, number: int) -> None:
        if self.step == "action" and self._usable(ACTIONS[number - 1][1]):
            self.action = number - 1
            self.action_confirm()

    def action_confirm(self) -> None:
        if self.step == "prompt":
            if self.prompt is None:
                return
            if self.plan_for is None:
                self.step = "planning"
                self.post_message(self.PlanWanted(self.prompt.prompt_id))
                self._draw()
                return
            self.plan = self.plan_for(self.prompt.prompt_id)
            self.step, self.action = "action", 0 if self._usable(True) else 1
        elif self.step == "action":
            label, code, conversation = ACTIONS[self.action]
            if not (code or conversation):
                self._finish(None)
                return
            prompt = self.prompt
            assert prompt is not None
            choice = RewindChoice(prompt.prompt_id, prompt.message_uuid, code, conversation)
            if code and self.plan is not None and self.plan.conflicts:
                self._pending, self.step = choice, "confirm"
            else:
                self._finish(choice)
                return
        self._draw()

    def show_plan(self, prompt_id: str, plan: RestorePlan | None) -> None:
        """The plan asked for with PlanWanted (None: the code cannot be restored)."""
        if self.step != "planning" or self.prompt is None or self.prompt.prompt_id != prompt_id:
            return
        self.plan = plan
        self.step, self.action = "action", 0 if self._usable(True) else 1
        self._draw()

    def action_answer(self, overwrite: bool) -> None:
        if self.step == "confirm" and self._pending is not None:
            pending = self._pending
            self._finish(RewindChoice(pending.prompt_id, pending.message_uuid,
                                      pending.restore_code, pending.restore_conversation,
                                      force=overwrite))

    def action_back(self) -> None:
        if self.step == "prompt":
            self._finish(None)
            return
        self.step = "action" if self.step == "confirm" else "prompt"
        self._draw()

    def _finish(self, choice: RewindChoice | None) -> None:
        self.post_message(self.Chosen(choice) if choice is not None else self.Cancelled())
