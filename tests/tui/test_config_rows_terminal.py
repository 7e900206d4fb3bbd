"""/config's verbose, theme, output style and model rows in the installed app, in a real
terminal (tmux): the keys a person presses in the panel, the file each change lands in (where
Claude Code saves it: the user settings, the output style in the project's
.claude/settings.local.json), and what then changes on the screen and in the next request."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.tui.test_more_commands_terminal import closed, send, started
from tests.tui.test_terminal import BINARY, app_env, terminal  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not BINARY.exists(),
                                reason="claude-harness is not installed in this venv")
THOUGHT = "I weigh the two options carefully."


def footer(term: Any) -> str:
    """The footer's line with its colours (capture-pane -e)."""
    styled = term.run("capture-pane", "-p", "-e", "-t", term.name)
    return next(line for line in styled.splitlines() if "default mode" in line)


def saved(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def test_config_rows_save_and_take_effect(api: Any, terminal: Any,  # noqa: F811
                                          project: Path) -> None:
    server = api([{"content": [{"type": "thinking", "thinking": THOUGHT}, "First answer."]},
                  "Second answer."])
    user = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "settings.json"
    local = project / ".claude" / "settings.local.json"
    term = terminal(app_env())
    started(term)
    dark_footer = footer(term)
    assert "claude-sonnet-5-5" in dark_footer
    send(term, "hello")
    screen = term.wait("First answer.")
    assert "(ctrl+o to expand)" in screen and THOUGHT not in screen  # not verbose: collapsed

    send(term, "/config")
    term.wait("Respect .gitignore in file picker")
    term.keys("Down", "Down", "Down", "Down", "Enter")  # Verbose output: false -> true
    term.wait("Set Verbose output to true")
    assert saved(user)["verbose"] is True
    term.keys("Down", "Left")  # Theme: dark -> light (the choices: dark, high-contrast, light)
    term.wait("Set Theme to light")
    assert saved(user)["theme"] == "light"
    term.keys("Down", "Right")  # Output style: default -> Proactive
    term.wait("Output style: Proactive")
    assert saved(local)["outputStyle"] == "Proactive"
    assert "outputStyle" not in saved(user)
    term.keys("Down", "Down", "Left")  # Model: claude-sonnet-5-5 (the running one) -> haiku
    term.wait("Set Model to haiku")
    assert saved(user)["model"] == "haiku"
    closed(term, "Respect .gitignore in file picker")

    screen = term.wait(THOUGHT)  # verbose: the thinking is shown in full
    assert "(ctrl+o to expand)" not in screen
    deadline = time.monotonic() + 10
    while "claude-haiku-5-5" not in (light_footer := footer(term)):
        assert time.monotonic() < deadline, light_footer
        time.sleep(0.1)
    assert light_footer.replace("claude-haiku-5-5", "claude-sonnet-5-5") != dark_footer  # colours
    send(term, "/status")
    term.wait("theme light")
    send(term, "next one")
    term.wait("Second answer.")
    request = server.requests[1]
    assert request["model"] == "claude-haiku-5-5"
    assert "Proactive output style is active" in json.dumps(request["messages"])


def test_verbose_saved_in_the_settings_shows_details_from_the_start(
        api: Any, terminal: Any, project: Path) -> None:  # noqa: F811
    """A saved `"verbose": true` is the app after /config verbose on, from the first turn:
    the thinking and a tool's output in full, no "ctrl+o to expand" (before, only a change
    during the session applied it)."""
    (project / "rows.txt").write_text("".join(f"row-{n}\n" for n in range(1, 10)))
    user = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "settings.json"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(json.dumps({"verbose": True}))
    api([{"content": [{"type": "tool_use", "name": "Read",
                       "input": {"file_path": str(project / "rows.txt")}}]},
         {"content": [{"type": "thinking", "thinking": THOUGHT}, "Read it."]}])
    term = terminal(app_env())
    started(term)
    send(term, "show the rows")
    screen = term.wait("Read it.")
    assert THOUGHT in screen  # the thinking in full
    assert "row-9" in screen and "input: {" in screen  # the whole result, and the input
    assert "(ctrl+o to expand)" not in screen
