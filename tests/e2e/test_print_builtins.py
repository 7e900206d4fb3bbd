"""Built-in slash commands as the `-p` prompt (text and json output), through the real
binary against the scripted API, beside Claude Code 2.1.332 where it is installed: a local
command runs here without a request and its words are the result (`local_command` names it),
one that needs a screen says it is not available, and custom commands and skills still expand
and go to the model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.testing.scenarios import TEXT
from tests.cc_reference import needs_claude_code, run_claude_code
from tests.e2e.support import run_cli


def result(proc: Any) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    [line] = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    return line


def test_model_and_add_dir_run_here_without_a_request(project: Path, api: Any) -> None:
    server = api([TEXT])
    text = run_cli(["-p", "/model claude-haiku-4-5"], project)
    assert text.returncode == 0, text.stderr
    assert text.stdout == "Set model to `claude-haiku-4-5` for this session only\n"
    switched = result(run_cli(["-p", "/model claude-haiku-4-5", "--output-format", "json"],
                              project))
    assert switched["local_command"] == "model" and switched["num_turns"] == 0
    assert switched["is_error"] is False and switched["subtype"] == "success"
    other = project.parent / "other"
    other.mkdir()
    added = result(run_cli(["-p", f"/add-dir {other}", "--output-format", "json"], project))
    assert added["local_command"] == "add-dir"
    assert added["result"].startswith(f"Added {other.resolve()} as a working directory")
    effort = run_cli(["-p", "/effort high"], project)
    assert effort.stdout.startswith("Effort level set to high"), effort.stderr
    assert server.requests == []  # none of them reached the model


def test_a_command_that_needs_the_screen_says_so(project: Path, api: Any) -> None:
    server = api([TEXT])
    proc = run_cli(["-p", "/help"], project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "/help isn't available in this environment.\n"
    line = result(run_cli(["-p", "/theme", "--output-format", "json"], project))
    assert line["result"] == "/theme isn't available in this environment."
    assert "local_command" not in line and line["is_error"] is False
    assert server.requests == []


def test_custom_commands_skills_and_prompt_commands_still_go_to_the_model(
        project: Path, api: Any) -> None:
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "greet.md").write_text("---\ndescription: g\n---\nSay hello to $ARGUMENTS\n")
    skill = project / ".claude" / "skills" / "tidy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: tidy\ndescription: t\n---\nTidy up $ARGUMENTS\n")
    server = api([TEXT, TEXT, TEXT, TEXT])
    for prompt in ("/greet Ada", "/tidy src", "/init", "/not-a-command here"):
        proc = run_cli(["-p", prompt, "--trust-workspace"], project)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == "ok\n"
    sent = [json.dumps(r["messages"]) for r in server.requests]
    assert len(sent) == 4
    assert "Say hello to Ada" in sent[0] and "Tidy up src" in sent[1]
    assert "CLAUDE.md" in sent[2] and "/not-a-command here" in sent[3]


@needs_claude_code
def test_the_same_shape_as_claude_code(project: Path, api: Any, home: Path) -> None:
    """Claude Code 2.1.332 answers these in -p without a model turn, in the same result
    shape; with a full model id it also sends a one-token probe request, which is not a
    turn (`num_turns` 0)."""
    server = api([TEXT, TEXT, TEXT])
    for prompt in ("/model claude-haiku-4-5", "/help"):
        args = ["-p", prompt, "--output-format", "json"]
        ours = result(run_cli(args, project))
        theirs = result(run_claude_code(args, project, base_url=server.url, timeout=120))
        for key in ("is_error", "subtype", "num_turns", "local_command"):
            assert ours.get(key) == theirs.get(key), (prompt, key, ours, theirs)
        if prompt == "/help":
            assert ours["result"] == theirs["result"]
        else:
            assert ours["result"].startswith("Set model to `")
            assert theirs["result"].startswith("Set model to `")
            assert ours["result"].endswith(" for this session only")
    assert all(r["max_tokens"] == 1 for r in server.requests)  # only Claude Code's probe
