"""Pickers in the plain REPL: numbered pickers and prompts over pipes (AskUserQuestion, `#`
memory, /model, /output-style, /context, /rewind, /resume search), and the keys through the
real binary in tmux (Esc Esc, Ctrl+B, typing mid-turn to steer, Ctrl+R, the status line in the
toolbar)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from claude_harness.testing.mock_api import MockApiServer
from tests.plain.test_line_mode import run_piped

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]
READY = "(shift+tab to cycle)"
QUESTION = {"question": "Which style?", "header": "Style", "multiSelect": False,
            "options": [{"label": "Tabs", "description": "t"},
                        {"label": "Spaces", "description": "s"}]}


def tool(name: str, **inp: Any) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": name, "input": inp}]}


def test_numbered_questions_memory_model_style_and_context_over_pipes(
        project: Path, home: Path) -> None:
    turns = [tool("AskUserQuestion", questions=[QUESTION]), "Spaces it is."]
    with MockApiServer({"turns": turns}) as server:
        done = run_piped(project, home, server,
                         "format it\n2\n# indent with spaces\n1\n/model\n3\n/output-style\n4\n"
                         "/context\n")
        answer = server.requests[1]["messages"][-1]["content"][0]
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "1. Tabs" in out and "2. Spaces" in out and "Spaces it is." in out
    assert '"Which style?"="Spaces"' in answer["content"]
    assert (project / "CLAUDE.md").read_text() == "- indent with spaces\n"
    assert "1. Project memory" in out and "2. User memory" in out
    assert "Haiku" in out and "effort" in out and "Model set to claude-haiku-5-5." in out
    assert "Output style set to Explanatory" in out
    saved = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert saved["outputStyle"] == "Explanatory"
    assert "System prompt" in out and "Free space" in out  # the /context legend


def test_rewind_by_number_restores_the_code(project: Path, home: Path) -> None:
    target = project / "notes.txt"
    turns = [tool("Write", file_path=str(target), content="one\n"), "Wrote it.",
             tool("Edit", file_path=str(target), old_string="one", new_string="two"),
             "Changed it."]
    with MockApiServer({"turns": turns}) as server:
        done = run_piped(project, home, server,
                         "write it\nchange it\n/rewind\n1\n3\n", "--permission-mode",
                         "acceptEdits")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "1. change it" in out and "2. write it" in out  # newest first
    assert "Restore code and conversation" in out and "Rewound: restored 1 file(s)" in out
    assert target.read_text() == "one\n"


def test_resume_search_lists_matching_sessions(project: Path, home: Path) -> None:
    with MockApiServer({"turns": ["First.", "Second."]}) as server:
        run_piped(project, home, server, "tokenizer bug\n")
        run_piped(project, home, server, "release notes\n")
        done = run_piped(project, home, server, "/resume tokenizer\n1\n")
    assert done.returncode == 0, done.stderr
    listed = done.stdout.partition("/resume tokenizer")[2]
    assert "tokenizer bug" in listed and "release notes" not in listed.partition("First.")[0]
    assert "First." in listed  # the resumed conversation is replayed


# ── the real binary in tmux ─────────────────────────────────────────────────────────────────


def test_esc_esc_opens_the_numbered_rewind_picker(plain_tmux: Any, project: Path) -> None:
    target = project / "notes.txt"
    turns = [tool("Write", file_path=str(target), content="one\n"), "Wrote it."]
    session, _server = plain_tmux(turns, "--permission-mode", "acceptEdits")
    session.wait_for(READY)
    session.type("write it")
    session.send("Enter")
    session.wait_for(lambda s: "\n>" in s.partition("Wrote it.")[2])  # the next prompt
    session.send("Escape", "Escape")
    session.wait_for("Rewind: restore the code")
    session.type("1")
    session.send("Enter")
    session.wait_for("Restore code and conversation")
    session.type("3")
    session.send("Enter")
    session.wait_for("Rewound: restored 0 file(s), deleted 1")
    assert not target.exists()  # a file the session created is deleted


def test_ctrl_b_and_steering_mid_turn(plain_tmux: Any) -> None:
    turns = [tool("Bash", command="echo started; sleep 30"), "It runs on; noted the README."]
    session, server = plain_tmux(turns, "--allowedTools", "Bash(echo *)",
                                 "--permission-mode", "bypassPermissions")
    session.wait_for(READY)
    session.type("start the server")
    session.send("Enter")
    session.wait_for("started")
    session.type("also read the README")
    session.send("Enter")
    session.wait_for("queued: sent after the current step")
    session.send("C-b")
    session.wait_for("It runs on; noted the README.", timeout=20)
    last = server.requests[1]["messages"][-1]["content"]
    assert "background" in json.dumps(last[0]).lower()
    assert "also read the README" in last[1]["text"]  # in the same turn, after the results
    assert len(server.requests) == 2


def test_ctrl_r_searches_history_and_the_status_line_shows_in_the_toolbar(
        plain_tmux: Any, project: Path, tmp_path: Path) -> None:
    script = tmp_path / "status.py"
    script.write_text("import json, sys\nd = json.load(sys.stdin)\n"
                      "print('\\x1b[35mSTATUS ' + d['model']['display_name'] + '\\x1b[0m')\n")
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.local.json").write_text(json.dumps(
        {"statusLine": {"type": "command", "command": f"{sys.executable} {script}"}}))
    session, _server = plain_tmux(["First answer.", "Second answer."])
    session.wait_for("STATUS Sonnet 5.5")
    styled = session.screen(styled=True)
    assert "\x1b[35mSTATUS" in styled  # its colours kept
    session.type("fix the tokenizer")
    session.send("Enter")
    session.wait_for(lambda s: "\n>" in s.partition("First answer.")[2])  # the next prompt
    session.send("C-r")
    session.type("tokeni")
    session.wait_for("I-search backward: tokeni")
    session.send("Enter")  # takes the match into the prompt, to edit or send
    session.wait_for(lambda s: "I-search" not in s
                     and "> fix the tokenizer" in s.partition("First answer.")[2])
    session.send("Enter")
    session.wait_for(lambda s: s.count("> fix the tokenizer") == 2)  # sent again
