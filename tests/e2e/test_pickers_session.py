"""Rewind and pickers through the session's ops and events, with the real SDK against the
scripted server: steering mid-turn, background commands (Ctrl+B, /tasks, the model told when
one ends), AskUserQuestion answered by a front end, `@` mentions, /context, output styles,
/model's table, /rename, `#` memory notes and the status line command."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from claude_harness.protocol.events import (
    ContextMeasured,
    ModelsListed,
    Notice,
    OutputStyleChanged,
    OutputStylesListed,
    PromptsReturned,
    QuestionsAsked,
    QuestionsSettled,
    QueueChanged,
    StatusLineChanged,
    TasksListed,
    ToolProgress,
    ToolResultEvent,
    ToolStart,
)
from claude_harness.protocol.ops import (
    AddMemory,
    AnswerQuestions,
    BackgroundCommands,
    Interrupt,
    ListModels,
    ListOutputStyles,
    ListTasks,
    MeasureContext,
    RenameSession,
    SetOutputStyle,
    StopTask,
    UserPrompt,
)
from claude_harness.session.services.context_usage import render_markdown
from claude_harness.session.services.status_line_command import StatusLineConfig
from claude_harness.session.store.transcript import load_messages, read_entries
from claude_harness.testing.scenarios import TEXT
from tests.e2e.support import iter_prompt, make_engine, run_op, run_prompt


def tool(name: str, **inp: Any) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": name, "input": inp}]}


def texts(message: dict[str, Any]) -> list[str]:
    content = message["content"]
    if isinstance(content, str):
        return [content]
    return [b["text"] for b in content if b.get("type") == "text"]


# ── steering ────────────────────────────────────────────────────────────────────────────────


async def test_a_prompt_sent_mid_turn_reaches_the_model_after_the_tool_batch(
        project: Path, api: Any) -> None:
    server = api([tool("Bash", command="sleep 0.6; echo slow"), TEXT])
    session = make_engine(server, project, mode="bypassPermissions")
    queue: list[tuple[str, ...]] = []
    async for event in iter_prompt(session, "start"):
        if isinstance(event, ToolStart):
            session.submit(UserPrompt("also check the README"))
        elif isinstance(event, QueueChanged):
            queue.append(event.pending)
    assert queue == [("also check the README",), ()]  # shown queued, then taken
    assert len(server.requests) == 2  # inside the same turn, not a turn of its own
    last = server.requests[1]["messages"][-1]
    assert last["content"][0]["type"] == "tool_result"
    assert "also check the README" in last["content"][1]["text"]


async def test_esc_still_hands_queued_prompts_back(project: Path, api: Any) -> None:
    server = api([tool("Bash", command="sleep 5"), TEXT])
    session = make_engine(server, project, mode="bypassPermissions")
    returned = []
    async for event in iter_prompt(session, "start"):
        if isinstance(event, ToolStart):
            session.submit(UserPrompt("second thoughts"))
            session.submit(Interrupt())
        elif isinstance(event, PromptsReturned):
            returned.append(event.texts)
    assert returned == [("second thoughts",)] and len(server.requests) == 1


# ── background commands ─────────────────────────────────────────────────────────────────────


async def test_the_model_hears_when_a_background_command_ends(project: Path, api: Any) -> None:
    server = api([tool("Bash", command="sleep 0.2; echo done", run_in_background=True),
                  tool("Bash", command="sleep 1.2"), TEXT])
    session = make_engine(server, project, mode="bypassPermissions")
    events = await run_prompt(session, "go")
    started = server.requests[1]["messages"][-1]["content"][0]["content"]
    task_id = started.split("ID: ")[1].split(".")[0].split()[0] if "ID: " in started else ""
    note = server.requests[2]["messages"][-1]
    assert note["role"] == "system"
    text = texts(note)[0]
    assert "<task-notification>" in text and "<status>completed</status>" in text
    assert f"<task-id>{task_id}</task-id>" in text or task_id == ""
    assert any(isinstance(e, Notice) and "Background command" in e.text for e in events)


async def until_no_task_runs(session: Any, timeout: float = 30.0) -> None:
    """Wait for the state (every background task ended), not a fixed while."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        listed = next(e for e in await run_op(session, ListTasks()) if isinstance(e, TasksListed))
        if listed.tasks and all(t.state != "running" for t in listed.tasks):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("a background task is still running")


async def test_a_background_command_that_ends_between_turns_is_told_at_the_next_prompt(
        project: Path, api: Any) -> None:
    server = api([tool("Bash", command="sleep 0.1", run_in_background=True), TEXT, TEXT])
    session = make_engine(server, project, mode="bypassPermissions")
    await run_prompt(session, "start it")
    await until_no_task_runs(session)  # however long a loaded machine takes to run it
    await run_prompt(session, "anything new?")
    sent = server.requests[-1]["messages"]
    assert texts(sent[-2]) == ["anything new?"]
    assert sent[-1]["role"] == "system" and "<task-notification>" in texts(sent[-1])[0]


async def test_ctrl_b_moves_the_running_command_to_the_background_and_tasks_kills_it(
        project: Path, api: Any) -> None:
    server = api([tool("Bash", command="echo started; sleep 30"), TEXT])
    session = make_engine(server, project, mode="bypassPermissions")
    result = None
    async for event in iter_prompt(session, "run it"):
        if isinstance(event, ToolProgress):
            session.submit(BackgroundCommands())
        elif isinstance(event, ToolResultEvent):
            result = event
    assert result is not None and "background" in str(result.content).lower()
    listed = next(e for e in await run_op(session, ListTasks()) if isinstance(e, TasksListed))
    running = [t for t in listed.tasks if t.state == "running" and "sleep 30" in t.command]
    assert running, listed
    task_id = running[0].task_id
    session.submit(StopTask(task_id))
    for _ in range(100):
        listed = next(e for e in await run_op(session, ListTasks())
                      if isinstance(e, TasksListed))
        if next(t for t in listed.tasks if t.task_id == task_id).state == "killed":
            break
        await asyncio.sleep(0.05)
    assert next(t for t in listed.tasks if t.task_id == task_id).state == "killed"


# ── AskUserQuestion ─────────────────────────────────────────────────────────────────────────

QUESTION = {"question": "Which database?", "header": "Database", "multiSelect": False,
            "options": [{"label": "SQLite", "description": "a file"},
                        {"label": "Postgres", "description": "a server"}]}


async def test_a_front_end_answers_the_models_questions(project: Path, api: Any) -> None:
    server = api([tool("AskUserQuestion", questions=[QUESTION]), TEXT])
    session = make_engine(server, project, interactive=True)
    asked: list[QuestionsAsked] = []
    settled = []
    async for event in iter_prompt(session, "set it up"):
        if isinstance(event, QuestionsAsked):
            asked.append(event)
            session.submit(AnswerQuestions(event.request_id, {"Which database?": "Postgres"}))
        elif isinstance(event, QuestionsSettled):
            settled.append(event.request_id)
    assert asked[0].questions[0]["header"] == "Database" and settled == [asked[0].request_id]
    result = server.requests[1]["messages"][-1]["content"][0]
    assert not result.get("is_error") and '"Which database?"="Postgres"' in str(result["content"])


async def test_esc_declines_open_questions(project: Path, api: Any) -> None:
    server = api([tool("AskUserQuestion", questions=[QUESTION]), TEXT])
    session = make_engine(server, project, interactive=True)
    async for event in iter_prompt(session, "set it up"):
        if isinstance(event, QuestionsAsked):
            session.submit(Interrupt())
    assert len(server.requests) == 1  # the turn stopped; nothing was answered for the person


# ── @ mentions ──────────────────────────────────────────────────────────────────────────────


async def test_a_mentioned_range_is_attached_as_read_and_may_be_edited_at_once(
        project: Path, api: Any) -> None:
    app_py = project / "src" / "app.py"
    server = api([tool("Edit", file_path=str(app_py), old_string="hello ", new_string="hi "),
                  TEXT])
    session = make_engine(server, project, mode="acceptEdits")
    await run_prompt(session, "fix the greeting in @src/app.py#L1-2 and @nothing-here.py")
    first = server.requests[0]["messages"][0]
    joined = "\n".join(texts(first))
    assert "Called the Read tool" in joined and "1\tdef greet(name):" in joined
    order = [i for i, t in enumerate(texts(first)) if "Read tool" in t or "fix the" in t]
    assert "fix the greeting" in texts(first)[order[-1]]  # attachments first, then the prompt
    assert "print(greet" not in joined  # only the range
    result = server.requests[1]["messages"][-1]["content"][0]
    assert not result.get("is_error"), result  # the mention counts as a Read: no Read first
    assert "return 'hi ' + name" in app_py.read_text()


async def test_a_whole_file_mention_counts_as_read_and_a_denied_one_is_not_attached(
        project: Path, api: Any) -> None:
    util = project / "src" / "util.py"
    server = api([tool("Edit", file_path=str(util), old_string="42", new_string="43"), TEXT])
    session = make_engine(server, project, mode="acceptEdits", deny=("Read(./README.md)",))
    events = await run_prompt(session, "bump @src/util.py, see @README.md")
    assert util.read_text() == "def helper():\n    return 43\n"
    assert any(isinstance(e, Notice) and "README.md" in e.text for e in events)
    assert "# demo project" not in json.dumps(server.requests[0]["messages"])


# ── /context, output styles, models, /rename, # memory ─────────────────────────────────────


async def test_context_is_measured_for_the_grid_and_markdown(project: Path, api: Any) -> None:
    server = api([TEXT])
    session = make_engine(server, project)
    await run_prompt(session, "hello")
    usage = next(e for e in await run_op(session, MeasureContext())
                 if isinstance(e, ContextMeasured)).usage
    assert usage.model == "claude-sonnet-5-5" and usage.category("messages").tokens > 0
    assert "| Messages |" in render_markdown(usage)


async def test_an_output_style_change_is_a_system_message_and_keeps_the_cached_prefix(
        project: Path, api: Any) -> None:
    server = api([TEXT, TEXT])
    session = make_engine(server, project)
    await run_prompt(session, "one")
    listed = next(e for e in await run_op(session, ListOutputStyles())
                  if isinstance(e, OutputStylesListed))
    assert {"default", "Explanatory", "Learning"} <= {s.name for s in listed.styles}
    events = await run_op(session, SetOutputStyle("explanatory"))
    assert any(isinstance(e, OutputStyleChanged) and e.name == "Explanatory" for e in events)
    saved = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert saved["outputStyle"] == "Explanatory"
    await run_prompt(session, "two")
    first, second = server.requests
    assert first["system"] == second["system"] and first["tools"] == second["tools"]
    note = second["messages"][-1]
    assert note["role"] == "system" and "Explanatory" in texts(note)[0]


async def test_models_rename_and_memory(project: Path, api: Any, home: Path) -> None:
    server = api([TEXT, TEXT])
    session = make_engine(server, project)
    await run_prompt(session, "one")
    models = next(e for e in await run_op(session, ListModels()) if isinstance(e, ModelsListed))
    assert [m.alias for m in models.models][:3] == ["opus", "sonnet", "haiku"]
    assert models.current == "claude-sonnet-5-5" and models.models[0].efforts
    await run_op(session, RenameSession("the parser work"))
    entries = read_entries(Path(session.transcript_path))
    assert {"type": "custom-title", "customTitle": "the parser work",
            "sessionId": session.session_id}.items() <= entries[-1].items()
    await run_op(session, AddMemory("always run ruff", "project"))
    assert (project / "CLAUDE.md").read_text() == "- always run ruff\n"
    await run_op(session, AddMemory("prefer tabs", "user"))
    assert (home / ".claude" / "CLAUDE.md").read_text() == "- prefer tabs\n"
    await run_prompt(session, "two")
    notes = [texts(m)[0] for m in server.requests[-1]["messages"] if m["role"] == "system"]
    assert any("always run ruff" in n for n in notes) and any("prefer tabs" in n for n in notes)
    assert len(load_messages(Path(session.transcript_path))) >= 4  # title lines are not messages


# ── the status line command ─────────────────────────────────────────────────────────────────

SCRIPT = ("import json, sys; d = json.load(sys.stdin); "
          "print('\\x1b[32m' + d['model']['display_name'] + '\\x1b[0m ' + d['output_style']['name']"
          " + ' ' + str(d['context_window']['context_window_size'])); print('second line')")


async def test_the_status_line_command_runs_after_turns_and_mode_changes(
        project: Path, api: Any, tmp_path: Path) -> None:
    script = tmp_path / "status.py"
    script.write_text(SCRIPT)
    server = api([TEXT])
    session = make_engine(server, project, status_line=StatusLineConfig(
        f"{sys.executable} {script}", padding=1))
    await run_prompt(session, "hello")
    line = await next_event(session, StatusLineChanged)  # run in the background, debounced
    assert line.text == " \x1b[32mSonnet 5.5\x1b[0m default 1000000"  # first line, colours kept
    await run_op(session, SetOutputStyle("Learning"))
    assert (await next_event(session, StatusLineChanged)).text.endswith(" Learning 1000000")


async def next_event(session: Any, kind: type, timeout: float = 10.0) -> Any:
    """The next event of `kind` the session emits (the status line reports on its own time)."""
    async def wait() -> Any:
        async for event in session.events():
            if isinstance(event, kind):
                return event
        return None

    return await asyncio.wait_for(wait(), timeout)
