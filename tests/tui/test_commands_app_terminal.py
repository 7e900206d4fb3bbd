"""The account, status-line, usage and not-applicable slash commands, and the /mcp panel's
reconnect and enable, in the installed app in a real terminal (tmux): what each shows and what
it changes on disk (the user settings, the stored key, Claude Code's ~/.claude.json). One app
session per test, shared by the independent checks in it."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.tui.test_more_commands_terminal import send, started
from tests.tui.test_panels_mcp_terminal import DEMO
from tests.tui.test_terminal import BINARY, app_env, terminal  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not BINARY.exists(),
                                reason="claude-harness is not installed in this venv")


def config_dir() -> Path:
    return Path(os.environ["CLAUDE_CONFIG_DIR"])


def shows(term: Any, text: str, timeout: float = 20.0) -> str:
    """Wait for `text` with a path in it: the app wraps a long path at its slashes, so the
    screen and the text are compared with all white space taken out."""
    flat = "".join(text.split())
    deadline = time.monotonic() + timeout
    while flat not in "".join((screen := term.screen()).split()):
        assert time.monotonic() < deadline, f"{text!r} never appeared:\n{screen}"
        time.sleep(0.05)
    return screen


def test_usage_cost_statusline_login_logout_and_unavailable(api: Any, terminal: Any,  # noqa: F811
                                                            project: Path) -> None:
    api([{"content": ["Counted."], "usage": {"input_tokens": 1234, "output_tokens": 567}},
         {"content": ["Counted again."], "usage": {"input_tokens": 1000, "output_tokens": 100}}])
    settings = config_dir() / "settings.json"
    key_file = config_dir() / "harness-api-key"
    term = terminal(app_env())
    started(term)
    # /cost is /usage's alias: both show this session's totals so far, a turn's tokens in them
    for prompt, command, calls, sent, received in (("count this", "/cost", 1, "1,234", "567"),
                                                   ("again", "/usage", 2, "2,234", "667")):
        send(term, prompt)
        term.wait(f"Counted{' again' if calls == 2 else ''}.")
        send(term, command)
        screen = term.wait(f"Input tokens:           {sent}")
        shown = " ".join(screen.rpartition("Total cost:")[2].split())
        assert f"Output tokens: {received}" in shown and f"API calls: {calls} (" in shown, screen
        assert "no subscription plan limits to show here." in shown
        assert "$0.0000" not in screen.rpartition("Total cost:")[2].split()[0]

    send(term, "/statusline ~/bin/status.sh")
    shows(term, f"Status line set to `~/bin/status.sh` in {settings} (from the next start).")
    assert json.loads(settings.read_text())["statusLine"] == {"type": "command",
                                                              "command": "~/bin/status.sh"}
    send(term, "/statusline off")
    shows(term, f"Status line removed from {settings}.")
    assert "statusLine" not in json.loads(settings.read_text())

    send(term, "/login sk-ant-app-key-1")
    shows(term, f"API key stored in {key_file}")
    term.wait("Subscription sign-in is not offered.")
    assert key_file.read_text() == "sk-ant-app-key-1\n"
    helper = json.loads(settings.read_text())["apiKeyHelper"]
    assert helper == f"cat {shlex.quote(str(key_file))}"
    send(term, "/logout")
    shows(term, f"Removed the API key /login stored ({key_file}).")
    assert not key_file.exists()
    assert "apiKeyHelper" not in json.loads(settings.read_text())
    send(term, "/logout")
    term.wait("No API key stored by /login")

    send(term, "/ide")
    term.wait("/ide is not available in claude-harness: connecting to an IDE extension")
    send(term, "/upgrade")
    screen = term.wait("/upgrade is not available in claude-harness: there is no subscription")
    assert "Unknown command" not in screen


def test_mcp_panel_reconnects_and_enables_a_server(api: Any, terminal: Any,  # noqa: F811
                                                   project: Path) -> None:
    api([])
    starts = project.parent / "srv-starts.log"  # one line per start of the server's process
    (project / "srv.sh").write_text(f"echo start >> {shlex.quote(str(starts))}\n"
                                    f"exec {shlex.quote(sys.executable)} {shlex.quote(str(DEMO))} srv\n")
    config = config_dir() / ".claude.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"projects": {str(project.resolve()): {"mcpServers": {"srv": {
        "type": "stdio", "command": "sh", "args": ["srv.sh"]}}}}}))
    term = terminal(app_env())
    started(term)
    send(term, "/mcp")
    term.wait("✔ srv   13 tools", timeout=40)
    assert starts.read_text() == "start\n"
    term.keys("Enter")
    term.wait("Status:           ✔ connected")
    screen = term.wait("Disable in this project")
    assert "Reconnect" in screen
    term.keys("Home", "Down")  # View tools, Reconnect
    term.keys("Enter")
    term.wait("Reconnecting srv…")
    deadline = time.monotonic() + 30
    while starts.read_text() != "start\nstart\n":  # a new process
        assert time.monotonic() < deadline, (starts.read_text(), term.screen())
        time.sleep(0.1)
    term.wait("Capabilities:     13 tools · resources")  # connected again, tools listed
    term.keys("Home", "Down", "Down")  # Disable in this project
    term.keys("Enter")
    screen = term.wait("Status:           ◯ disabled")
    assert "Enable" in screen and "Reconnect" not in screen
    saved = json.loads(config.read_text())["projects"][str(project.resolve())]
    assert saved["disabledMcpServers"] == ["srv"]
    term.keys("Home")  # Enable
    term.keys("Enter")
    term.wait("Enabled srv.")
    term.wait("Status:           ✔ connected", timeout=30)
    saved = json.loads(config.read_text())["projects"][str(project.resolve())]
    assert saved.get("disabledMcpServers", []) == [] and "srv" in saved["mcpServers"]
    assert starts.read_text() == "start\nstart\nstart\n"
    term.keys("Escape")
    term.wait("✔ srv   13 tools")


def login_link(screen: str) -> str:
    """The login link as the app draws it: on its own line, wrapped at the screen's width (a
    URL is all of URL characters, so its pieces are the lines that follow until one that is
    not: a blank line, text, the input's border)."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("http://127.0.0.1"))
    pieces = [lines[start].strip()]
    for line in lines[start + 1:]:
        piece = line.strip()
        if not re.fullmatch(r"[A-Za-z0-9%._~:/?#\[\]@!$&'()*+,;=-]+", piece):
            break
        pieces.append(piece)
    return "".join(pieces)


def test_mcp_authenticate_logs_in_through_the_link(api: Any, terminal: Any,  # noqa: F811
                                                   project: Path, tmp_path: Path) -> None:
    """`/mcp authenticate NAME` for a server behind OAuth: the link is on screen, opening it
    (the browser's part, done here by urllib) logs in, and the server is connected."""
    import urllib.request

    from tests.mcp.test_mcp_oauth import oauth_server

    api([])
    with oauth_server(tmp_path) as (url, _grants):
        config = json.dumps({"mcpServers": {"secure": {"type": "http", "url": url}}})
        term = terminal(app_env(), "--mcp-config", shlex.quote(config))
        started(term)
        send(term, "/mcp authenticate nope")
        term.wait("No MCP server named nope")
        send(term, "/mcp authenticate secure")
        screen = term.wait("Open this link in your browser to log in to secure", timeout=30)
        link = login_link(screen)
        assert "code_challenge_method=S256" in link, screen
        with urllib.request.urlopen(link, timeout=20) as page:  # noqa: S310 - a local server
            assert b"Logged in" in page.read()
        term.wait("Authentication successful. Connected to secure.", timeout=30)
        send(term, "/mcp")
        term.wait("✔ secure", timeout=30)
