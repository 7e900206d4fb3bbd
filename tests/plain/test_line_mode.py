"""`claude-harness` with pipes instead of a terminal: the line-mode fallback of the plain REPL.

Same engine, same permission answers, but plain reads and writes: the output must carry no
control sequences at all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from claude_harness.testing.mock_api import MockApiServer
from tests.e2e.support import conversation
from tests.plain.conftest import child_env

pytestmark = [pytest.mark.timeout(90), pytest.mark.slow]


def run_piped(project: Path, home: Path, server: MockApiServer, stdin: str,
              *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **child_env(home, server)}
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "claude_harness", *args], cwd=project,
                          input=stdin, capture_output=True, text=True, timeout=60, env=env)


def test_piped_session_prints_plain_text_without_escape_sequences(project: Path,
                                                                  home: Path) -> None:
    answer = "# Title\n\nSome **bold** text.\n\n```python\nprint('hi')\n```\n\nDone."
    with MockApiServer({"turns": [{"content": [answer], "chunk_size": 7}]}) as server:
        done = run_piped(project, home, server, "explain\n")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout
    lines = [line.strip() for line in done.stdout.splitlines()]
    assert "Title" in lines
    assert "Some bold text." in lines
    assert "print('hi')" in lines
    assert "Done." in lines


def test_permission_always_saves_the_rule_and_runs(project: Path, home: Path) -> None:
    turns: list[Any] = [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "touch made"}}]},
        "Made it.",
    ]
    with MockApiServer({"turns": turns}) as server:
        done = run_piped(project, home, server, "make a file\n2\n")
    shown = done.stdout + done.stderr
    assert done.returncode == 0, shown
    assert "touch made" in done.stdout, shown
    assert "Do you want to proceed?" in done.stdout, shown
    assert "Made it." in done.stdout, shown
    assert (project / "made").exists(), shown
    saved = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert any("touch" in rule for rule in saved["permissions"]["allow"])


def test_permission_no_with_feedback_reaches_the_model(project: Path, home: Path) -> None:
    turns: list[Any] = [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "rm -rf build"}}]},
        "Understood.",
    ]
    with MockApiServer({"turns": turns}) as server:
        done = run_piped(project, home, server, "clean up\n3\nkeep the build folder\n")
        last = conversation(server.requests[-1])[-1]["content"]
    assert done.returncode == 0, done.stderr
    result = next(b for b in last if b.get("type") == "tool_result")
    assert result["is_error"] is True
    assert "keep the build folder" in json.dumps(result)
    assert "Understood." in done.stdout


def test_bang_command_output_goes_to_the_next_prompt(project: Path, home: Path) -> None:
    with MockApiServer({"turns": ["Seen."]}) as server:
        done = run_piped(project, home, server, "!echo from-the-shell\nwhat did it print?\n")
        sent = conversation(server.requests[-1])[-1]["content"]
    assert done.returncode == 0, done.stderr
    assert "from-the-shell" in done.stdout
    texts = [b["text"] for b in sent if b.get("type") == "text"]
    assert any("<bash-input>echo from-the-shell</bash-input>" in t for t in texts)
    assert any("<bash-stdout>from-the-shell\n</bash-stdout>" in t for t in texts)
    assert "what did it print?" in texts
    assert texts.index("what did it print?") > 0  # after the shell output


def test_backslash_enter_continues_the_prompt(project: Path, home: Path) -> None:
    with MockApiServer({"turns": ["Two lines."]}) as server:
        done = run_piped(project, home, server, "first line\\\nsecond line\n")
        sent = conversation(server.requests[-1])[-1]["content"]
    assert done.returncode == 0, done.stderr
    assert "first line\nsecond line" in [b.get("text") for b in sent]


def test_slash_commands_run_locally(project: Path, home: Path) -> None:
    with MockApiServer({"turns": []}) as server:
        done = run_piped(project, home, server,
                         "/model opus\n/status\n/nosuch\n/exit\nnever sent\n")
        requests = list(server.requests)
    assert done.returncode == 0, done.stderr
    assert "Model set to" in done.stdout
    assert "Mode:         default" in done.stdout
    assert "Unknown command /nosuch" in done.stdout
    assert requests == []  # nothing reached the model, and /exit left before the last line


def test_compact_replaces_the_history_with_a_summary(project: Path, home: Path) -> None:
    turns: list[Any] = ["Hi there.", "SUMMARY: the user said hello.", "Still here."]
    with MockApiServer({"turns": turns}) as server:
        done = run_piped(project, home, server, "hello\n/compact\nagain\n")
        last = server.requests[-1]["messages"]
    assert done.returncode == 0, done.stderr
    assert "Conversation compacted as asked" in done.stdout
    assert "Still here." in done.stdout
    assert "SUMMARY: the user said hello." in json.dumps(last)
    assert "Hi there." not in json.dumps(last)  # the old turn is gone from the context


def test_continue_replays_the_end_of_the_last_conversation(project: Path, home: Path) -> None:
    with MockApiServer({"turns": ["The first answer."]}) as server:
        first = run_piped(project, home, server, "first question\n")
    assert first.returncode == 0, first.stderr
    with MockApiServer({"turns": ["Second answer."]}) as server:
        again = run_piped(project, home, server, "follow up\n", "-c")
        sent = conversation(server.requests[-1])
    assert again.returncode == 0, again.stderr
    before_prompt = again.stdout.partition("── resumed ──")[0]
    assert "> first question" in before_prompt and "The first answer." in before_prompt
    assert "Second answer." in again.stdout
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]


def test_resume_without_an_id_lists_conversations_and_resumes_the_pick(project: Path,
                                                                       home: Path) -> None:
    for prompt in ("older topic", "newer topic"):
        with MockApiServer({"turns": [f"Answer to {prompt}."]}) as server:
            assert run_piped(project, home, server, f"{prompt}\n").returncode == 0
    with MockApiServer({"turns": ["Back on the older one."]}) as server:
        done = run_piped(project, home, server, "9\n2\nwhere were we?\n", "-r")
        sent = server.requests[-1]["messages"]
    assert done.returncode == 0, done.stderr
    listing = done.stdout.partition("Resume which conversation?")[2]
    assert listing.index("newer topic") < listing.index("older topic")  # newest first
    assert "Not a number from the list: '9'" in done.stdout
    assert "older topic" in json.dumps(sent[0]) and "newer topic" not in json.dumps(sent)


def test_plan_mode_exit_shows_the_plan_and_approval_leaves_plan_mode(project: Path,
                                                                     home: Path) -> None:
    plan = "# Plan\n\n1. Add the flag\n2. Test it"
    turns: list[Any] = [
        {"content": [{"type": "tool_use", "name": "ExitPlanMode", "input": {"plan": plan}}]},
        "Starting now.",
    ]
    with MockApiServer({"turns": turns}) as server:
        done = run_piped(project, home, server, "plan it\n1\n/status\n", "--permission-mode",
                         "plan")
    shown = done.stdout + done.stderr
    assert done.returncode == 0, shown
    approval = done.stdout.partition("start implementing it?")[2].partition("Do you want")[0]
    assert "Plan" in approval and "Add the flag" in approval, shown
    assert "Starting now." in done.stdout
    assert "Mode:         default" in done.stdout  # approving the plan left plan mode


def test_custom_commands_and_model_aliases_work_as_in_the_app(project: Path, home: Path) -> None:
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "review.md").write_text("---\ndescription: x\n---\nReview $ARGUMENTS carefully.\n")
    with MockApiServer({"turns": ["Reviewed."]}) as server:
        done = run_piped(project, home, server, "/model opus\n/review src/app.py\n")
        sent = server.requests[-1]
    assert done.returncode == 0, done.stderr
    assert "Model set to claude-opus-5-5." in done.stdout
    assert "Reviewed." in done.stdout
    assert sent["model"] == "claude-opus-5-5"
    assert "Review src/app.py carefully." in json.dumps(sent["messages"][0])
