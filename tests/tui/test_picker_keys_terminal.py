"""The keys in the installed app, in a real terminal (tmux): Esc Esc opens the rewind
picker and restores, Ctrl+B sends a running command to the background, and the status line
command's output shows at the bottom with its colours."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.tui.test_terminal import BINARY, app_env, terminal  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not BINARY.exists(),
                                reason="claude-harness is not installed in this venv")


def tool(name: str, **inp: Any) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": name, "input": inp}]}


def test_esc_esc_rewinds_code_and_conversation(api: Any, terminal: Any,  # noqa: F811
                                              project: Path) -> None:
    target = project / "notes.txt"
    api([tool("Write", file_path=str(target), content="one\n"), "Wrote it."])
    term = terminal(app_env(), "--permission-mode", "acceptEdits")
    term.wait("accept edits on")
    term.keys("write the notes", literal=True)
    term.keys("Enter")
    term.wait("Wrote it.")
    assert target.exists()
    term.keys("Escape")
    term.keys("Escape")
    term.wait("Rewind: restore the code")
    term.keys("Enter")
    term.wait("Restore code and conversation")
    # the file named as the project sees it (a long absolute path would wrap in 80 columns)
    screen = term.wait("notes.txt  delete")
    assert "Restore code and conversation" in screen
    term.keys("1")
    term.wait("Rewound: restored 0 file(s), deleted 1")
    assert not target.exists()
    # the prompt comes back to edit, below the notice (it may land a frame after the notice)
    deadline = time.monotonic() + 10
    while "write the notes" not in (screen := term.screen()).rpartition("Rewound")[2]:
        assert time.monotonic() < deadline, screen
        time.sleep(0.05)


def test_ctrl_b_moves_the_running_command_to_the_background(api: Any,
                                                             terminal: Any) -> None:  # noqa: F811
    server = api([tool("Bash", command="echo go; sleep 30"), "It runs on."])
    term = terminal(app_env(), "--permission-mode", "bypassPermissions")
    term.wait("bypass permissions on")
    term.keys("start the server", literal=True)
    term.keys("Enter")
    term.wait("go")
    term.keys("C-b")
    term.wait("It runs on.")
    result = server.requests[1]["messages"][-1]["content"][0]
    assert "background" in json.dumps(result).lower()


def test_the_status_line_command_shows_at_the_bottom(api: Any, terminal: Any,  # noqa: F811
                                                     project: Path, tmp_path: Path) -> None:
    script = tmp_path / "status.py"
    script.write_text("import json, sys\nd = json.load(sys.stdin)\n"
                      "print('\\x1b[36mSTATUS ' + d['model']['display_name'] + ' '"
                      " + d['workspace']['current_dir'].rsplit('/', 1)[-1] + '\\x1b[0m')\n")
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.local.json").write_text(json.dumps(
        {"statusLine": {"type": "command", "command": f"{sys.executable} {script}"}}))
    api(["Hi."])
    term = terminal(app_env())
    screen = term.wait("STATUS Sonnet 5.5 proj")
    assert screen.rstrip().splitlines()[-1].strip() == "STATUS Sonnet 5.5 proj"  # the bottom
    styled = term.run("capture-pane", "-p", "-e", "-t", term.name)
    colour = next(x for x in styled.splitlines() if "STATUS Sonnet" in x).split("STATUS")[0]
    plain = next(x for x in styled.splitlines() if "claude-harness ·" in x).split("✻")[0]
    assert colour.strip().startswith("\x1b[38;")  # drawn in its own colour...
    assert colour.strip()[-12:] not in plain  # ...not the colour of plain text
    term.keys("typing stays free", literal=True)
    term.wait("typing stays free")
