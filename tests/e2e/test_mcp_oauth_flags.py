"""`mcp add --client-id --client-secret --callback-port`: stored where Claude Code 2.1.332 stores
them (client id and port in the entry, the secret in `$CLAUDE_CONFIG_DIR/.credentials.json`),
so `claude mcp get` shows what we added and we show what it added; the secret comes from
MCP_CLIENT_SECRET or a prompt on a real terminal, and without either nothing is written."""

from __future__ import annotations

import json
import os
import pty
import select
import stat
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cc_reference import needs_claude_code, run_claude_code
from tests.e2e.support import run_cli

URL = "http://127.0.0.1:9/mcp"  # nothing listens: the health check fails at once
OAUTH_LINE = "  OAuth: client_id configured, client_secret configured, callback_port 8765\n"
FLAGS = ["--client-id", "cid-1", "--client-secret", "--callback-port", "8765"]


def config(home: Path) -> dict[str, Any]:
    return json.loads((home / ".claude" / ".claude.json").read_text())


def credentials(home: Path) -> dict[str, Any]:
    return json.loads((home / ".claude" / ".credentials.json").read_text())


def entry(home: Path, project: Path, name: str) -> dict[str, Any]:
    return config(home)["projects"][str(project.resolve())]["mcpServers"][name]


@needs_claude_code
def test_claude_code_shows_the_oauth_client_we_added(project: Path, home: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_CLIENT_SECRET", "s3cret-value")
    done = run_cli(["mcp", "add", "-t", "http", "secure", URL, *FLAGS], project)
    assert done.returncode == 0, done.stderr
    assert entry(home, project, "secure") == {
        "type": "http", "url": URL, "oauth": {"clientId": "cid-1", "callbackPort": 8765}}
    assert "s3cret-value" not in (home / ".claude" / ".claude.json").read_text()
    assert list(credentials(home)["mcpOAuthClientConfig"].values()) == [
        {"clientSecret": "s3cret-value"}]
    mode = (home / ".claude" / ".credentials.json").stat().st_mode
    assert stat.S_IMODE(mode) == 0o600
    monkeypatch.delenv("MCP_CLIENT_SECRET")
    assert OAUTH_LINE in run_claude_code(["mcp", "get", "secure"], project).stdout
    assert OAUTH_LINE in run_cli(["mcp", "get", "secure"], project).stdout


@needs_claude_code
def test_we_show_and_remove_the_oauth_client_claude_code_added(project: Path, home: Path) -> None:
    done = run_claude_code(["mcp", "add", "-t", "sse", "-s", "user", "old", URL, "-H", "X-A: b",
                            *FLAGS], project, extra_env={"MCP_CLIENT_SECRET": "theirs"})
    assert done.returncode == 0, done.stderr
    shown = run_cli(["mcp", "get", "old"], project).stdout
    assert "  Headers:\n    X-A: b\n" + OAUTH_LINE in shown
    assert run_cli(["mcp", "remove", "old"], project).returncode == 0
    assert credentials(home)["mcpOAuthClientConfig"] == {}  # the secret goes with it


def test_without_a_secret_or_a_terminal_nothing_is_written(project: Path, home: Path) -> None:
    done = run_cli(["mcp", "add", "-t", "http", "secure", URL, *FLAGS], project)
    assert done.returncode == 1 and "No TTY available to prompt for client secret" in done.stderr
    assert not (home / ".claude" / ".claude.json").exists()
    assert not (home / ".claude" / ".credentials.json").exists()


def test_the_secret_is_asked_for_on_a_terminal(project: Path, home: Path) -> None:
    output = run_on_terminal([sys.executable, "-m", "claude_harness", "mcp", "add", "-t", "http",
                              "secure", URL, *FLAGS], project, answer="typed-secret")
    assert "Enter OAuth client secret:" in output and "typed-secret" not in output  # not echoed
    assert list(credentials(home)["mcpOAuthClientConfig"].values()) == [
        {"clientSecret": "typed-secret"}]


@pytest.mark.parametrize(("args", "says"), [
    (["mcp", "add", "local", "--client-id", "x", "--", "true"], "ignored for stdio"),
    (["mcp", "add", "-t", "http", "bad", URL, "--callback-port", "abc"],
     "--callback-port must be a whole number from 1 to 65535"),
])
def test_flags_that_do_not_apply_are_named(args: list[str], says: str, project: Path,
                                           home: Path) -> None:
    done = run_cli(args, project)
    assert says in done.stderr
    if done.returncode == 0:
        assert "oauth" not in entry(home, project, "local")


def run_on_terminal(argv: list[str], cwd: Path, *, answer: str) -> str:
    """Run `argv` on a new pseudo-terminal, type `answer` at the first prompt, return all it
    wrote there."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the terminal is its controlling one
        try:
            os.chdir(cwd)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    seen, deadline, typed = b"", time.monotonic() + 60, False
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
            if not typed and b"secret:" in seen:
                os.write(fd, answer.encode() + b"\n")
                typed = True
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, seen.decode(errors="replace")
    return seen.decode(errors="replace")
