"""The rewind picker in a small host app over a real checkpoint store: pick a prompt, see what
would change, restore the code (asking before overwriting the person's own changes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult

from claude_harness.frontends.tui.widgets.rewind_picker import RewindChoice, RewindPicker, ago
from claude_harness.session.checkpointing.checkpoints import Checkpoints
from tests.tui.helpers import wait_for


def make_session(tmp_path: Path) -> tuple[Checkpoints, Path]:
    """Three prompts: one edits app.py, one creates notes.md, one only talks."""
    project = tmp_path / "proj"
    project.mkdir()
    app_py = project / "app.py"
    app_py.write_text("print('v1')\n")
    store = Checkpoints.open(tmp_path / "checkpoints")
    store.begin_prompt("p1", message_uuid="u1", text="make it print v2")
    store.before_change(app_py)
    app_py.write_text("print('v2')\n")
    store.begin_prompt("p2", message_uuid="u2", text="add notes\nwith details")
    store.before_change(project / "notes.md")
    (project / "notes.md").write_text("# notes\n")
    store.begin_prompt("p3", message_uuid="u3", text="explain the code")
    store.settle()
    return store, project


class Host(App[None]):
    def __init__(self, store: Checkpoints) -> None:
        super().__init__()
        self.store = store
        self.choices: list[RewindChoice | None] = []
        self.results: list[Any] = []

    def compose(self) -> ComposeResult:
        yield RewindPicker(self.store.prompts(), self.store.plan_restore)

    def on_rewind_picker_chosen(self, message: RewindPicker.Chosen) -> None:
        self.choices.append(message.choice)
        if message.choice.restore_code:
            self.results.append(self.store.restore(message.choice.prompt_id,
                                                   force=message.choice.force))

    def on_rewind_picker_cancelled(self, message: RewindPicker.Cancelled) -> None:
        self.choices.append(None)


def body(app: Host) -> str:
    return str(app.query_one(RewindPicker)._body.render())


async def test_prompts_are_listed_newest_first_with_their_files(tmp_path: Path) -> None:
    store, _ = make_session(tmp_path)
    app = Host(store)
    async with app.run_test(size=(100, 30)):
        text = body(app)
        assert text.index("explain the code") < text.index("add notes") < text.index("make it")
        assert "no code changes" in text and "1 file changed: notes.md" in text
        assert "with details" not in text  # a prompt's first line only


async def test_restoring_the_code_to_before_a_prompt(tmp_path: Path) -> None:
    store, project = make_session(tmp_path)
    app = Host(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "down", "enter")  # "make it print v2"
        assert "app.py" in body(app) and "notes.md" in body(app)
        await pilot.press("3")  # Restore code
        await wait_for(pilot, lambda: app.choices, what="a choice")
    choice = app.choices[0]
    assert choice == RewindChoice("p1", "u1", restore_code=True, restore_conversation=False)
    assert (project / "app.py").read_text() == "print('v1')\n"
    assert not (project / "notes.md").exists()


async def test_conversation_only_and_never_mind(tmp_path: Path) -> None:
    store, project = make_session(tmp_path)
    app = Host(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")  # "explain the code": no files to restore
        assert "(no code changes to restore)" in body(app)
        await pilot.press("enter")  # the first usable action: Restore conversation
        await wait_for(pilot, lambda: app.choices, what="a choice")
        assert app.choices[0] == RewindChoice("p3", "u3", False, True)
        await pilot.press("4")  # (the host would close it; here:) Never mind
        await wait_for(pilot, lambda: len(app.choices) == 2, what="cancel")
    assert app.choices[1] is None and (project / "notes.md").exists()


async def test_a_file_changed_outside_the_session_needs_a_yes(tmp_path: Path) -> None:
    store, project = make_session(tmp_path)
    (project / "app.py").write_text("print('edited by hand')\n")
    app = Host(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "down", "enter")
        assert "changed outside the session" in body(app)
        await pilot.press("1")  # code and conversation
        assert "Overwrite them?" in body(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.choices, what="a choice")
    assert app.choices[0].force is False
    assert (project / "app.py").read_text() == "print('edited by hand')\n"  # kept
    assert not (project / "notes.md").exists()  # the rest was restored


async def test_escape_goes_back_then_closes(tmp_path: Path) -> None:
    store, _ = make_session(tmp_path)
    app = Host(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "escape")
        assert "explain the code" in body(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.choices == [None], what="closed")


def test_times_read_naturally() -> None:
    assert [ago(1000 - d, 1000) for d in (5, 120, 7200, 200_000)] == ["5s ago", "2m ago",
                                                                       "2h ago", "2d ago"]
