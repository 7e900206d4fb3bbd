"""A skill the model loads with the Skill tool runs its !`cmd` spans as it does when the
person types `/name` (the same path: PreSkillShellCommand, the Bash permission chain with the
skill's allowed-tools, disableSkillShellExecution), through the real binary in `-p` against
the scripted API. Shapes as Claude Code 2.1.332 sends them (observed with the same skill):
the output in the instructions block after `Launching skill: NAME`; a refused span makes the
tool_result an error, `Shell command permission check failed for pattern ...`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.testing.scenarios import TEXT
from tests.e2e.support import run_cli
from tests.e2e.test_switch_dir_skill_hooks import payloads, recorder

CALL = {"content": [{"type": "tool_use", "id": "toolu_s1", "name": "Skill",
                     "input": {"skill": "peek", "args": "A1"}}]}


def skill(project: Path, body: str, allowed: str = "") -> None:
    folder = project / ".claude" / "skills" / "peek"
    folder.mkdir(parents=True)
    front = f"allowed-tools: {allowed}\n" if allowed else ""
    (folder / "SKILL.md").write_text(f"---\nname: peek\ndescription: peeks\n{front}---\n{body}")


def settings(home: Path, data: dict[str, Any]) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps(data))


def answer_to_skill(server: Any) -> list[dict[str, Any]]:
    """The user message that answers the Skill call (the second request's last message)."""
    assert len(server.requests) == 2
    return server.requests[1]["messages"][-1]["content"]


def test_the_skill_tool_runs_the_inline_commands(project: Path, home: Path, api: Any) -> None:
    out = project.parent / "hooks.jsonl"
    marker = project / "ran"
    skill(project, f"Out: !`touch {marker} && echo SKILL-RAN`\nDone $ARGUMENTS\n",
          "Bash(touch:*)")
    settings(home, {"permissions": {"allow": ["Skill(peek)"]},
                    "hooks": {"PreSkillShellCommand": [{"hooks": [recorder(out)]}]}})
    server = api([CALL, TEXT])
    proc = run_cli(["-p", "use it", "--trust-workspace"], project)
    assert proc.returncode == 0, proc.stderr
    content = answer_to_skill(server)
    assert len(content) == 2, content
    result, instructions = content
    assert result["content"] == "Launching skill: peek" and not result.get("is_error")
    assert instructions["text"].endswith("Out: SKILL-RAN\nDone A1\n")
    assert marker.exists()
    [seen] = payloads(out, "PreSkillShellCommand")
    assert seen["invoked_by"] == "claude" and seen["command_name"] == "peek"
    assert seen["tool_input"]["command"] == f"touch {marker} && echo SKILL-RAN"


def test_a_refused_inline_command_fails_the_call(project: Path, home: Path, api: Any) -> None:
    marker = project / "ran"
    skill(project, f"Out: !`touch {marker}`\n")  # no allowed-tools: -p cannot ask
    server = api([CALL, TEXT])
    assert run_cli(["-p", "use it", "--trust-workspace"], project).returncode == 0
    [result] = answer_to_skill(server)
    assert result["is_error"] is True
    assert result["content"].startswith(
        f'Shell command permission check failed for pattern "!`touch {marker}`": ')
    assert not marker.exists()


def test_disable_skill_shell_execution_holds_for_the_skill_tool(
        project: Path, home: Path, api: Any) -> None:
    marker = project / "ran"
    skill(project, f"Out: !`touch {marker} && echo SKILL-RAN`\n", "Bash(touch:*)")
    settings(home, {"disableSkillShellExecution": True,
                    "permissions": {"allow": ["Skill(peek)"]}})
    server = api([CALL, TEXT])
    assert run_cli(["-p", "use it", "--trust-workspace"], project).returncode == 0
    _result, instructions = answer_to_skill(server)
    assert "Out: [shell command execution disabled by policy]\n" in instructions["text"]
    assert not marker.exists()
