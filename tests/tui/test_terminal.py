"""The installed `claude-harness` in a real terminal (tmux) against the scripted server:
type a prompt, approve the permission prompt with a key, read the result off the screen."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.plain.tmux_helpers import remove_socket

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

BINARY = Path(sys.executable).with_name("claude-harness")


class Terminal:
    """One tmux session on a private server (`-L`), so parallel runs never collide."""

    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.name, *args], capture_output=True,
                              text=True).stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.run("send-keys", "-t", self.name, *(["-l"] if literal else []), *keys)

    def wait(self, text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen or _words(text) in _words(screen):  # a line may wrap anywhere
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen()}")


def _words(text: str) -> str:
    """The text with its line breaks and runs of spaces as one space: a phrase found across a
    wrapped line (where it wraps depends on the temp folder's path length, for one)."""
    return " ".join(text.split())


def app_env() -> dict[str, str]:
    env = {k: os.environ[k] for k in ("HOME", "CLAUDE_CONFIG_DIR", "CLAUDE_HARNESS_DATA_DIR",
                                      "CLAUDE_HARNESS_NO_DAEMON",  # no warm process left behind
                                      "CLAUDE_HARNESS_MANAGED_SETTINGS", "ANTHROPIC_BASE_URL",
                                      "ANTHROPIC_API_KEY")}
    env["TERM"] = "xterm-256color"
    return env


@pytest.fixture
def terminal(project: Path) -> Iterator[Any]:
    name = f"tui-test-{uuid.uuid4().hex[:8]}"
    term = Terminal(name)

    def start(env: dict[str, str], *args: str, then: str = "") -> Terminal:
        from claude_harness.config.trust import trust_folder

        trust_folder(Path(env["CLAUDE_HARNESS_DATA_DIR"]), project.resolve())
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        command = f"env {exports} {BINARY} {' '.join(args)}"
        if then:
            command += f"; {then}"
        subprocess.run(["tmux", "-L", name, "new-session", "-d", "-s", name, "-x", "100", "-y",
                        "30", "-c", str(project), command], check=True)
        return term

    yield start
    term.run("kill-server")
    remove_socket(name)


@pytest.mark.skipif(not BINARY.exists(), reason="claude-harness is not installed in this venv")
def test_installed_app_prompt_approve_and_result(api: Any, terminal: Any, project: Path) -> None:
    server = api([{"content": ["Creating it.", {"type": "tool_use", "name": "Bash",
                                                "input": {"command": "touch from-tmux.txt"}}]},
                  "The file from-tmux.txt is there now."])
    term = terminal(app_env())
    term.wait("default mode")  # the footer: the first frame is up
    term.keys("please create the file", literal=True)
    term.keys("Enter")
    screen = term.wait("Do you want to proceed?")
    assert "touch from-tmux.txt" in screen
    term.keys("1")
    screen = term.wait("is there now.")
    assert "Bash(touch from-tmux.txt)" in screen
    assert (project / "from-tmux.txt").exists()
    term.keys("C-d")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if subprocess.run(["tmux", "-L", term.name, "has-session", "-t", term.name],
                          capture_output=True).returncode != 0:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("Ctrl+D did not exit the app")
    texts = [b.get("text") for b in server.requests[0]["messages"][0]["content"]]
    assert "please create the file" in texts


@pytest.mark.skipif(not BINARY.exists(), reason="claude-harness is not installed in this venv")
def test_inline_mode_leaves_the_conversation_in_the_scrollback(api: Any, terminal: Any) -> None:
    api(["An inline answer with **bold** text."])
    term = terminal(app_env(), "--inline", then="echo APP-EXITED; sleep 30")
    term.wait("default mode")
    term.keys("hello inline", literal=True)
    term.keys("Enter")
    term.wait("An inline answer")
    term.keys("C-d")
    screen = term.wait("APP-EXITED")
    before_exit = screen[: screen.index("APP-EXITED")]
    assert "› hello inline" in before_exit
    assert "An inline answer with bold text." in before_exit  # rendered Markdown, printed
