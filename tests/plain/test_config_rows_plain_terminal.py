"""/config's verbose, theme, output style and model rows in the real `claude-harness --plain`
in tmux: the numbers a person types in the list, the file each change lands in (where Claude
Code saves it: the user settings, the output style in the project's .claude/settings.local.json)
and what then changes on the screen (thinking text printed, the list's colours, the toolbar's
model) and in the next request."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]
READY = "(shift+tab to cycle)"
LIST = "Change which (1-11"
HEADER = "Settings (saved where Claude Code saves them):"
INK = re.compile(r"38;(?:5;\d+|2;\d+;\d+;\d+)")


def answer(session: Any, text: str) -> None:
    session.type(text)
    session.send("Enter")


def thinking(text: str, answer_text: str) -> dict[str, Any]:
    return {"content": [{"type": "thinking", "thinking": text}, answer_text]}


def header_inks(session: Any) -> list[str]:
    """The foreground colour of each printed list's heading (capture-pane -e)."""
    lines = [line for line in session.screen(styled=True).splitlines() if HEADER in line]
    return [m.group(0) if (m := INK.search(line)) else "" for line in lines]


def saved(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def test_config_rows_save_and_take_effect(plain_tmux: Any, home: Path, project: Path) -> None:
    session, server = plain_tmux([thinking("Quietly weighing it.", "First answer."),
                                  thinking("Now thinking out loud.", "Second answer.")])
    user = home / ".claude" / "settings.json"
    local = project / ".claude" / "settings.local.json"
    screen = session.wait_for(READY)
    assert "claude-sonnet-5-5" in screen
    answer(session, "hello")
    screen = session.wait_for(lambda s: "\n>" in s.partition("First answer.")[2])
    assert "Thought for" in screen and "Quietly weighing it." not in screen  # not verbose

    answer(session, "/config")
    session.wait_for(LIST)
    answer(session, "5")  # Verbose output: a switch, flipped at once
    session.wait_for("Set Verbose output to true")
    assert saved(user)["verbose"] is True
    session.wait_for(lambda s: s.count(LIST) == 2)
    answer(session, "6")  # Theme: its choices, numbered
    session.wait_for("Theme (1-3, Enter to keep)")
    answer(session, "3")  # light
    session.wait_for("Set Theme to light")
    assert saved(user)["theme"] == "light"
    session.wait_for(lambda s: s.count(LIST) == 3)
    answer(session, "7")
    screen = session.wait_for("Output style (1-5, Enter to keep)")
    assert "2. Proactive" in screen
    answer(session, "2")
    session.wait_for("Output style: Proactive")
    assert saved(local)["outputStyle"] == "Proactive" and "outputStyle" not in saved(user)
    session.wait_for(lambda s: s.count(LIST) == 4)
    answer(session, "9")
    screen = session.wait_for("Model (1-5, Enter to keep)")
    assert "4. haiku" in screen
    answer(session, "4")
    session.wait_for("Set Model to haiku")
    assert saved(user)["model"] == "haiku"
    session.wait_for(lambda s: s.count(LIST) == 5)
    session.send("Enter")  # done

    inks = header_inks(session)  # one list per change, each printed after it
    assert len(inks) == 5 and inks[0] and inks[0] == inks[1]  # dark's, before the theme change
    assert inks[2] == inks[3] == inks[4] != inks[0]  # light's, from the change on
    session.wait_for(lambda s: "· claude-haiku-5-5 ·" in s.rpartition(LIST)[2])  # the toolbar
    answer(session, "again")
    screen = session.wait_for("Second answer.")
    assert "Now thinking out loud." in screen  # verbose: the thinking text is printed
    request = server.requests[1]
    assert request["model"] == "claude-haiku-5-5"
    assert "Proactive output style is active" in json.dumps(request["messages"])


def test_verbose_saved_in_the_settings_applies_from_the_start(plain_tmux: Any,
                                                               home: Path) -> None:
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(json.dumps({"verbose": True}))
    session, _server = plain_tmux([thinking("Thinking from the first turn.", "Answered.")])
    session.wait_for(READY)
    answer(session, "hello")
    screen = session.wait_for(lambda s: "\n>" in s.partition("Answered.")[2])
    assert "Thinking from the first turn." in screen


def line_ink(styled: str, marker: str) -> str:
    """The foreground colour of the first line with `marker` in it (capture-pane -e)."""
    line = next(line for line in styled.splitlines() if marker in line)
    found = INK.search(line)
    return found.group(0) if found else ""


def test_theme_saved_in_the_settings_colours_the_repl_from_the_start(plain_tmux: Any,
                                                                     home: Path) -> None:
    """A saved `"theme"` is the REPL after /config's theme change, from the first line: the
    banner (Rich) and the `>` prompt (prompt-toolkit) in the theme's colours, not dark's."""
    from rich.color import Color, ColorSystem

    from claude_harness.frontends.plain.theme import load_theme

    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(json.dumps({"theme": "high-contrast"}))
    session, _server = plain_tmux(["Unused."])
    session.wait_for(READY)
    styled = session.screen(styled=True)
    banner, prompt = line_ink(styled, "claude-harness ·"), line_ink(styled, ">")

    def ink(theme: str) -> str:  # the theme's primary colour as a 256-colour foreground
        colour = Color.parse(load_theme(theme)[0].colours["primary"])
        return ";".join(colour.downgrade(ColorSystem.EIGHT_BIT).get_ansi_codes())

    assert ink("high-contrast") != ink("dark")
    assert banner == ink("high-contrast"), styled
    assert prompt == ink("high-contrast"), styled
