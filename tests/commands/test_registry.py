"""The one slash-command table: what a line asks for (ops or a front-end action)."""

from __future__ import annotations

from pathlib import Path

from claude_harness.commands.registry import command_names, describe_commands, invoke
from claude_harness.protocol.ops import (
    AddRule,
    Clear,
    Compact,
    McpServer,
    RemoveRule,
    RunCommand,
    SetModel,
)


def test_built_ins_become_ops_or_front_end_actions() -> None:
    assert invoke("/clear").ops == (Clear(),)
    assert invoke("/compact keep the tests").ops == (Compact("keep the tests"),)
    assert invoke("/model opus").ops == (SetModel("opus"),)
    assert invoke("/model").action == "model" and not invoke("/model").ops
    assert invoke("/permissions allow Bash(npm test:*)").ops == (AddRule("allow", "Bash(npm test:*)"),)
    assert invoke("/permissions remove Read").ops == (RemoveRule("Read"),)
    assert invoke("/permissions").ops == () and invoke("/permissions").action == "permissions"
    assert invoke("/mcp approve srv").ops == (McpServer("approve", "srv"),)
    assert invoke("/quit").action == invoke("/exit").action == "exit"
    assert invoke("/theme light").action == "theme"


def test_other_words_go_to_the_session_and_paths_to_the_model() -> None:
    assert invoke("/deploy src/app.py").ops == (RunCommand("deploy", "src/app.py"),)
    assert invoke("/usr/bin/env is odd") is None
    assert invoke("//not a command") is None
    assert invoke("plain text") is None


def test_custom_commands_are_listed_with_the_built_ins(tmp_path: Path, home: Path) -> None:
    folder = tmp_path / ".claude" / "commands"
    folder.mkdir(parents=True)
    (folder / "refine.md").write_text("---\ndescription: refine a file\n---\nRefine $ARGUMENTS\n")
    assert "refine" in command_names(tmp_path) and "clear" in command_names(tmp_path)
    assert ("/refine", "refine a file") in describe_commands(tmp_path, "re")
    assert ("/resume", "list earlier sessions; /resume <n> continues one") in \
        describe_commands(tmp_path, "re")
