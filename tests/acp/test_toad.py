"""Toad (`batrachian-toad`, a Textual ACP client) runs `claude-harness --acp` in tmux: a prompt
typed into Toad is answered on its screen by the scripted model.

Toad needs Python 3.14 (its wheel declares `Requires-Python >=3.14` and uses `type` statements),
and its Textual pin differs from ours, so it lives in a venv of its own, never in the project's:
    python3.14 -m venv /tmp/toad && /tmp/toad/bin/pip install batrachian-toad==0.6.20
    CLAUDE_HARNESS_TOAD=/tmp/toad/bin/toad pytest tests/acp/test_toad.py
Where no such Toad exists (this project's machines have Python 3.11 and no registry here ships a
3.14 interpreter) the test skips and says so."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.acp.acp_client import our_cli

pytestmark = pytest.mark.slow
TOAD_ENV = "CLAUDE_HARNESS_TOAD"


def toad_command() -> str | None:
    """$CLAUDE_HARNESS_TOAD, or a `toad` on PATH whose interpreter runs it."""
    path = os.environ.get(TOAD_ENV) or shutil.which("toad")
    if not path:
        return None
    probe = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
    return path if probe.returncode == 0 else None


def screen(socket: str, target: str) -> str:
    return subprocess.run(["tmux", "-L", socket, "capture-pane", "-p", "-t", target],
                          capture_output=True, text=True, timeout=10).stdout


def wait_for_screen(socket: str, target: str, needle: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = screen(socket, target)
        if needle in text:
            return text
        time.sleep(0.3)
    raise AssertionError(f"{needle!r} never appeared on Toad's screen:\n{text}")


def test_toad_shows_our_answer(project: Path, api: Any) -> None:
    toad = toad_command()
    if toad is None:
        pytest.skip("needs Toad (batrachian-toad needs Python >= 3.14; this machine has 3.11 "
                    f"and no 3.14 from its registries): set {TOAD_ENV} to a working `toad`")
    if shutil.which("tmux") is None:
        pytest.skip("needs tmux")
    api(["Toad sees this answer from claude-harness."])
    socket, target = f"acp-toad-{uuid.uuid4().hex[:8]}", "toad"
    agent = f"{shlex.quote(our_cli())} --acp"
    env = " ".join(f"{k}={shlex.quote(os.environ[k])}" for k in (
        "HOME", "CLAUDE_CONFIG_DIR", "CLAUDE_HARNESS_DATA_DIR", "ANTHROPIC_BASE_URL",
        "ANTHROPIC_API_KEY") if k in os.environ)
    command = f"env {env} {shlex.quote(toad)} acp {shlex.quote(agent)} {shlex.quote(str(project))}"
    subprocess.run(["tmux", "-L", socket, "new-session", "-d", "-s", target, "-x", "160",
                    "-y", "50", command], check=True, timeout=10)
    try:
        time.sleep(5)  # Toad starts the agent and initializes it
        subprocess.run(["tmux", "-L", socket, "send-keys", "-t", target, "say something",
                        "Enter"], check=True, timeout=10)
        wait_for_screen(socket, target, "Toad sees this answer", timeout=60)
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10)
