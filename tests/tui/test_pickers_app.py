"""Pickers in the Textual app, driven by a pilot against a real session and the scripted
server: Esc Esc and the rewind picker, AskUserQuestion's widget, Ctrl+B and /tasks, /context,
/model and Alt+P, /output-style, Ctrl+R, Ctrl+G, `#` memory, /rename, /resume search, the status
line command, and a resumed 2,000-message conversation."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from claude_harness.frontends.tui.widgets.ask_user_question import AskUserQuestionPrompt
from claude_harness.frontends.tui.widgets.choice_list import ChoiceList
from claude_harness.frontends.tui.widgets.context_grid import ContextGrid
from claude_harness.frontends.tui.widgets.history_search import HistorySearch
from claude_harness.frontends.tui.widgets.rewind_picker import RewindPicker
from claude_harness.session.services.status_line_command import StatusLineConfig
from tests.tui.helpers import screen_text, send, sent_texts, type_text, wait_for


def tool(name: str, tid: str = "t1", **inp: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": name, "input": inp}


def choice_list(app: Any, name: str) -> ChoiceList | None:
    return next((c for c in app.query(ChoiceList) if c.name == name), None)


async def test_esc_esc_opens_the_rewind_picker_and_restores_code_and_conversation(
        api: Any, make_app: Any, project: Path) -> None:
    target = project / "notes.txt"
    server = api([
        {"content": [tool("Write", file_path=str(target), content="one\n")]}, "Wrote one.",
        {"content": [tool("Edit", "t2", file_path=str(target), old_string="one",
                          new_string="two")]}, "Changed it.",
        "Fresh start.",
    ])
    app = make_app(server, mode="bypassPermissions", bypass=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "write one")
        await wait_for(pilot, lambda: "Wrote one." in screen_text(app), what="first answer")
        await send(pilot, "make it two")
        await wait_for(pilot, lambda: "Changed it." in screen_text(app), what="second answer")
        await wait_for(pilot, lambda: not app.busy, what="idle")
        assert target.read_text() == "two\n"
        await pilot.press("escape", "escape")
        picker = await wait_for(pilot, lambda: next(iter(app.query(RewindPicker)), None),
                                what="rewind picker")
        assert not app.prompt.display
        assert [p.text for p in picker.prompts] == ["make it two", "write one"]  # newest first
        await pilot.press("enter")  # before "make it two"
        await wait_for(pilot, lambda: picker.step == "action", what="the restore plan")
        assert "notes.txt" in str(picker._body.render())
        await pilot.press("1")  # code and conversation
        await wait_for(pilot, lambda: target.read_text() == "one\n", what="code restored")
        await wait_for(pilot, lambda: app.prompt.text == "make it two", what="prompt back")
        assert app.prompt.display and not app.query(RewindPicker)
        await wait_for(pilot, lambda: "Changed it." not in screen_text(app), what="redrawn")
        await send(pilot, "again")
        await wait_for(pilot, lambda: "Fresh start." in screen_text(app), what="answer")
    sent = [t for m in server.requests[-1]["messages"] for t in sent_texts(m)]
    assert "write one" in sent and "make it two" not in sent


async def test_the_models_questions_are_answered_in_the_widget(api: Any, make_app: Any) -> None:
    question = {"question": "Which style?", "header": "Style", "multiSelect": False,
                "options": [{"label": "Tabs", "description": "t"},
                            {"label": "Spaces", "description": "s"}]}
    server = api([{"content": [tool("AskUserQuestion", questions=[question])]}, "Spaces it is."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "format it")
        await wait_for(pilot, lambda: app.query(AskUserQuestionPrompt), what="questions")
        await pilot.press("2")
        await wait_for(pilot, lambda: "Spaces it is." in screen_text(app), what="answer")
        assert not app.query(AskUserQuestionPrompt) and app.prompt.display
    assert '"Which style?"="Spaces"' in str(server.requests[1]["messages"][-1]["content"][0])


async def test_ctrl_b_backgrounds_the_command_and_tasks_kills_it(api: Any, make_app: Any) -> None:
    server = api([{"content": [tool("Bash", command="echo go; sleep 30")]}, "It runs on."])
    app = make_app(server, mode="bypassPermissions", bypass=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "start the server")
        await wait_for(pilot, lambda: app.busy and "go" in screen_text(app), what="running")
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: "It runs on." in screen_text(app), what="turn went on")
        assert "background" in str(server.requests[1]["messages"][-1]["content"][0]).lower()
        await send(pilot, "/tasks")
        tasks = await wait_for(pilot, lambda: choice_list(app, "tasks"), what="tasks list")
        row = next(r for r in tasks.rows if "sleep 30" in r.label and "running" in r.label)
        tasks.selected = tasks.rows.index(row)
        await pilot.press("k")
        await wait_for(pilot, lambda: any(
            r.key == row.key and "killed" in r.label
            for c in app.query(ChoiceList) if c.name == "tasks" for r in c.rows),
            what="killed")
        await pilot.press("escape")
        assert app.prompt.display


async def test_context_model_and_output_style(api: Any, make_app: Any, project: Path) -> None:
    server = api(["Hello."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "/context")
        grid = await wait_for(pilot, lambda: next(iter(app.query(ContextGrid)), None),
                              what="context grid")
        assert "System prompt" in str(grid.render())
        await pilot.press("alt+p")
        models = await wait_for(pilot, lambda: choice_list(app, "models"), what="model picker")
        assert [r.key for r in models.rows][:3] == ["opus", "sonnet", "haiku"]
        assert "effort" in models.rows[0].detail
        await pilot.press("3")
        await wait_for(pilot, lambda: app.view.model == "claude-haiku-5-5", what="haiku")
        await send(pilot, "/output-style")
        styles = await wait_for(pilot, lambda: choice_list(app, "styles"), what="styles")
        explanatory = next(i for i, r in enumerate(styles.rows) if r.key == "Explanatory")
        await pilot.press(str(explanatory + 1))
        await wait_for(pilot, lambda: app.view.output_style == "Explanatory", what="style set")
    assert '"outputStyle": "Explanatory"' in (project / ".claude" / "settings.local.json"
                                              ).read_text()


async def test_ctrl_r_finds_an_earlier_prompt(api: Any, make_app: Any) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        for entry in ("fix the parser", "write the docs", "run the tests"):
            app.history.add(entry)
        await pilot.press("ctrl+r")
        search = await wait_for(pilot, lambda: next(iter(app.query(HistorySearch)), None),
                                what="search")
        await type_text(pilot, "the")
        assert search.match == "run the tests"
        await pilot.press("ctrl+r")
        assert search.match == "write the docs"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.prompt.text == "write the docs", what="match used")


async def test_ctrl_g_edits_the_prompt_in_the_editor(api: Any, make_app: Any, tmp_path: Path,
                                                     monkeypatch: Any) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text("import sys\np = sys.argv[1]\ntext = open(p).read()\n"
                      "open(p, 'w').write(text.upper() + ' (edited)')\n")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    app = make_app(api([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        app.prompt.insert("draft")
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: app.prompt.text == "DRAFT (edited)", what="edited")


async def test_hash_saves_a_memory_note_where_the_person_says(api: Any, make_app: Any,
                                                               project: Path) -> None:
    server = api([])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "# run ruff before committing")
        scope = await wait_for(pilot, lambda: choice_list(app, "memory"), what="which file")
        assert [r.key for r in scope.rows] == ["project", "user"]
        await pilot.press("1")
        await wait_for(pilot, lambda: (project / "CLAUDE.md").exists(), what="saved")
        await send(pilot, "/rename parser fixes")
        await wait_for(pilot, lambda: app.view.title == "parser fixes", what="renamed")
    assert (project / "CLAUDE.md").read_text() == "- run ruff before committing\n"
    assert server.requests == []  # neither went to the model


async def test_the_status_line_command_shows_at_the_bottom(api: Any, make_app: Any,
                                                           tmp_path: Path) -> None:
    script = tmp_path / "status.py"
    script.write_text("import json, sys\nd = json.load(sys.stdin)\n"
                      "print('\\x1b[31m' + d['model']['display_name'] + '\\x1b[0m ok')\n")
    server = api(["Hi."])
    app = make_app(server, status_line=StatusLineConfig(f"{sys.executable} {script}"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        view = app.query_one("#status-line")
        await wait_for(pilot, lambda: view.line, what="status line")
        assert str(view.render()) == "Sonnet 5.5 ok" and view.display
        assert view.line.startswith("\x1b[31m")  # drawn with its colours
        spans = [(s.start, s.end, str(s.style)) for s in view.render().spans]
        assert spans == [(0, 10, "ansi_red")]


async def test_resume_search_narrows_the_picker(api: Any, make_app: Any, project: Path) -> None:
    from claude_harness.frontends.tui.screens.session_picker import SessionPicker
    from claude_harness.session.store.transcript import Transcript

    data = project.parent / "home" / "data"
    for prompt in ("fix the tokenizer", "write release notes"):
        transcript = Transcript.create(data, project)
        transcript.append_message({"role": "user", "content": prompt})
        transcript.close()
    app = make_app(api([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "/resume tokenizer")
        picker = await wait_for(pilot, lambda: isinstance(app.screen, SessionPicker)
                                and app.screen, what="picker")
        assert [s.first_prompt for s in picker.shown] == ["fix the tokenizer"]
        await pilot.press("backspace", *["backspace"] * 9)
        assert len(picker.shown) == 2
        await pilot.press("escape")


async def test_resuming_two_thousand_messages_shows_the_tail_at_once(
        api: Any, project: Path) -> None:
    from claude_harness.frontends.tui.app import HarnessApp
    from tests.tui.conftest import make_engine

    history: list[dict[str, Any]] = []
    for n in range(1000):
        history += [{"role": "user", "content": [{"type": "text", "text": f"question {n}"}]},
                    {"role": "assistant", "content": [{"type": "text",
                                                       "text": f"**answer** {n}"}]}]
    server = api([])
    app = HarnessApp(cwd=project, preload_transport=False,
                     session_factory=lambda: make_engine(server, project, history=history))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        started = time.perf_counter()
        await wait_for(pilot, lambda: "**answer** 999" in screen_text(app), what="the tail")
        assert time.perf_counter() - started < 5  # the figure is in scripts/bench_tui.py
        conversation = app.conversation
        assert len(conversation.blocks()) < 60 and conversation.archive.pending
