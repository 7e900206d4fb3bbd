"""TaskCreated, TaskCompleted and FileChanged through the real program (`-p` against the
scripted API), with real hook commands that append their stdin to a file: the fields Claude
Code documents for each (`task_id`, `task_subject`, `task_description`; `file_path`, `event`),
a TaskCreated hook that refuses a task, and files a command creates, changes and removes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.e2e.support import run_cli


def record_hooks(home: Path, out: Path, hooks: dict[str, list[dict[str, Any]]]) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))


def recorder(out: Path) -> dict[str, str]:
    """A hook command that appends its stdin (one JSON line) to `out`."""
    return {"type": "command", "command": (
        f"{sys.executable} -c \"import sys; open({str(out)!r}, 'a').write("
        "sys.stdin.read().strip() + '\\n')\"")}


def payloads(out: Path, event: str) -> list[dict[str, Any]]:
    if not out.exists():
        return []
    lines = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return [p for p in lines if p["hook_event_name"] == event]


def todo_write(*todos: tuple[str, str]) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "TodoWrite", "input": {"todos": [
        {"content": text, "status": status, "activeForm": f"Doing {text}"}
        for text, status in todos]}}]}


def bash(command: str) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "Bash",
                         "input": {"command": command, "description": command}}]}


def last_result(request: dict[str, Any]) -> dict[str, Any]:
    return next(b for b in request["messages"][-1]["content"] if b.get("type") == "tool_result")


def test_task_hooks_hear_of_each_task_created_and_completed(project: Path, api: Any,
                                                            home: Path) -> None:
    out = project.parent / "hooks.jsonl"
    record_hooks(home, out, {"TaskCreated": [{"hooks": [recorder(out)]}],
                             "TaskCompleted": [{"hooks": [recorder(out)]}]})
    api([todo_write(("Write the test", "in_progress"), ("Fix the bug", "pending")),
         todo_write(("Write the test", "completed"), ("Fix the bug", "in_progress")),
         todo_write(("Write the test", "completed"), ("Fix the bug", "completed"),
                    ("Ship it", "completed")),
         "done"])
    proc = run_cli(["-p", "plan"], project)
    assert proc.returncode == 0, proc.stderr
    created = payloads(out, "TaskCreated")
    assert [(p["task_id"], p["task_subject"], p["task_description"]) for p in created] == [
        ("1", "Write the test", "Doing Write the test"), ("2", "Fix the bug", "Doing Fix the bug"),
        ("3", "Ship it", "Doing Ship it")]
    completed = payloads(out, "TaskCompleted")
    assert [p["task_subject"] for p in completed] == ["Write the test", "Fix the bug", "Ship it"]
    assert all(p["session_id"] and p["cwd"] == str(project) for p in created + completed)


def test_a_task_created_hook_that_exits_2_refuses_the_update(project: Path, api: Any,
                                                             home: Path) -> None:
    refuse = {"type": "command",
              "command": "cat > /dev/null; echo 'tasks need a ticket number' >&2; exit 2"}
    record_hooks(home, project.parent / "unused", {"TaskCreated": [{"hooks": [refuse]}]})
    server = api([todo_write(("Vague task", "pending")), "done"])
    proc = run_cli(["-p", "plan"], project)
    assert proc.returncode == 0, proc.stderr
    result = last_result(server.requests[1])
    text = json.dumps(result)
    assert result.get("is_error") and "tasks need a ticket number" in text
    assert "not updated" in text


def test_file_changed_fires_for_the_files_the_matcher_names(project: Path, api: Any,
                                                           home: Path) -> None:
    out = project.parent / "hooks.jsonl"
    (project / "package.json").write_text("{}\n")
    record_hooks(home, out, {"FileChanged": [{"matcher": "app.env|package.json",
                                              "hooks": [recorder(out)]}]})
    api([bash("echo A=1 > app.env"), bash("echo '{\"v\": 2}' > package.json"),
         bash("echo not-watched > other.txt && rm app.env"), "done"])
    proc = run_cli(["-p", "go", "--allowedTools", "Bash", "--permission-mode", "acceptEdits"],
                   project)
    assert proc.returncode == 0, proc.stderr
    seen = [(p["file_path"], p["event"]) for p in payloads(out, "FileChanged")]
    assert seen == [(str(project / "app.env"), "add"), (str(project / "package.json"), "change"),
                    (str(project / "app.env"), "unlink")]


def test_a_session_start_hook_adds_files_to_watch(project: Path, api: Any, home: Path) -> None:
    out = project.parent / "hooks.jsonl"
    watched = project / "notes" / "todo.txt"
    answer = json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                "watchPaths": [str(watched)]}})
    start = {"type": "command", "command": f"cat > /dev/null; echo '{answer}'"}
    record_hooks(home, out, {"SessionStart": [{"hooks": [start]}],
                             "FileChanged": [{"hooks": [recorder(out)]}]})
    api([bash("mkdir -p notes && echo first > notes/todo.txt"), "done"])
    proc = run_cli(["-p", "go", "--allowedTools", "Bash", "--permission-mode", "acceptEdits"],
                   project)
    assert proc.returncode == 0, proc.stderr
    assert [(p["file_path"], p["event"]) for p in payloads(out, "FileChanged")] == [
        (str(watched), "add")]


def test_file_changed_fires_while_the_session_waits_for_a_prompt(project: Path, api: Any,
                                                                 home: Path) -> None:
    """A person edits a watched file between prompts: its hook runs then, not at the next
    prompt (through the SDK's stream-json input, the session open and idle)."""
    out = project.parent / "hooks.jsonl"
    record_hooks(home, out, {"FileChanged": [{"matcher": ".envrc", "hooks": [recorder(out)]}]})
    api(["first answer", "second answer"])
    proc = subprocess.Popen(
        [sys.executable, "-m", "claude_harness", "-p", "--input-format", "stream-json",
         "--output-format", "stream-json", "--verbose"], cwd=project, env=dict(os.environ),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(user_line("hello"))
        proc.stdin.flush()
        for line in proc.stdout:  # the first turn ends: the session now waits
            if json.loads(line).get("type") == "result":
                break
        (project / ".envrc").write_text("export A=1\n")
        assert wait_for(lambda: payloads(out, "FileChanged"), 15.0), "no FileChanged while idle"
        (seen,) = payloads(out, "FileChanged")
        assert (seen["file_path"], seen["event"]) == (str(project / ".envrc"), "add")
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""


def user_line(text: str) -> str:
    return json.dumps({"type": "user", "message": {"role": "user", "content": text}}) + "\n"


def wait_for(condition: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False
