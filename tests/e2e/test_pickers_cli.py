"""/context and pickers through the real binary in `-p`: `/context` answered locally in Markdown
(as Claude
Code does), `--fork-session` continuing a conversation under a new id, and the output style
from the settings in the system prompt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.session.store.transcript import load_messages, read_entries
from claude_harness.testing.scenarios import TEXT
from tests.e2e.support import run_cli


def test_context_in_print_mode_is_markdown_without_a_request(project: Path, api: Any) -> None:
    server = api([TEXT])
    proc = run_cli(["-p", "/context"], project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("## Context Usage\n")
    assert "| System prompt |" in proc.stdout and "| Free space |" in proc.stdout
    assert server.requests == []  # answered here, like Claude Code


def test_fork_session_continues_under_a_new_id(project: Path, api: Any) -> None:
    server = api([TEXT, TEXT])
    first = json.loads(run_cli(["-p", "remember 7", "--output-format", "json"],
                               project).stdout)
    original = next((project.parent / "home" / ".claude" / "projects").glob(
        f"*/{first['session_id']}.jsonl"))
    lines_before = original.read_text()
    forked = run_cli(["-p", "what number?", "-r", first["session_id"], "--fork-session",
                      "--output-format", "json"], project)
    second = json.loads(forked.stdout)
    assert second["session_id"] != first["session_id"]
    assert original.read_text() == lines_before  # the original is left as it was
    copy = original.with_name(f"{second['session_id']}.jsonl")
    texts = [m["content"][0]["text"] for m in load_messages(copy) if m["role"] == "user"]
    assert texts == ["remember 7", "what number?"]
    assert all(e["sessionId"] == second["session_id"] for e in read_entries(copy))
    assert "remember 7" in json.dumps(server.requests[1]["messages"])


def test_the_output_style_setting_shapes_the_system_prompt(project: Path, api: Any) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "output-styles").mkdir()
    (project / ".claude" / "output-styles" / "pirate.md").write_text(
        "---\nname: Pirate\ndescription: talks like one\n---\nAnswer like a pirate.\n")
    (project / ".claude" / "settings.local.json").write_text('{"outputStyle": "Pirate"}')
    server = api([TEXT])
    assert run_cli(["-p", "hi"], project).returncode == 0
    system = json.dumps(server.requests[0]["system"])
    assert "Output Style: Pirate" in system and "Answer like a pirate." in system
