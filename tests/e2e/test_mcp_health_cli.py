"""`claude-harness mcp list` and `mcp get` connect to the servers and report their health as
Claude Code 2.1.332 does: a real stdio server (the `mcp` SDK) that answers, one that exits at
once, one that never answers, an http URL nobody listens on, an OAuth-protected server, and a
project server that waits for approval (never started)."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

from tests.cc_reference import needs_claude_code, run_claude_code
from tests.e2e.support import run_cli
from tests.mcp.support import SERVER, free_port
from tests.mcp.test_mcp_oauth import oauth_server

ROW = re.compile(r"^(?P<name>[\w-]+): (?P<target>.*) - (?P<status>[✔✘!⏸] [^—]+?)(?: — .*)?$")


def add(project: Path, *args: str) -> None:
    done = run_cli(["mcp", "add", *args], project)
    assert done.returncode == 0, done.stderr


def rows(listing: str) -> dict[str, tuple[str, str]]:
    """name -> (target, status) of each server line of `mcp list`."""
    found = {}
    for line in listing.splitlines():
        match = ROW.match(line)
        if match:
            found[match["name"]] = (match["target"], match["status"].strip())
    return found


@pytest.fixture
def servers(project: Path) -> Path:
    """good (answers), dead (exits), web (nobody listens); all fail or answer at once."""
    add(project, "good", "--", sys.executable, SERVER, "good")
    add(project, "dead", "--", sys.executable, "-c", "raise SystemExit(3)")
    add(project, "-t", "http", "web", f"http://127.0.0.1:{free_port()}/mcp")
    return project


def test_list_reports_each_servers_health(servers: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "project-server-ran"
    (servers / ".mcp.json").write_text(json.dumps({"mcpServers": {"proj": {
        "command": "touch", "args": [str(marker)]}}}))
    add(servers, "hangs", "--", sys.executable, "-c", "import time; time.sleep(60)")
    monkeypatch.setenv("MCP_TIMEOUT", "4000")  # milliseconds, as in Claude Code
    started = time.monotonic()
    done = run_cli(["mcp", "list"], servers)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Checking MCP server health…\n\n")
    found = rows(done.stdout)
    assert found["good"] == (f"{sys.executable} {SERVER} good", "✔ Connected")
    assert found["dead"][1] == "✘ Failed to connect"
    assert found["web"][1] == "✘ Failed to connect" and found["web"][0].endswith("/mcp (HTTP)")
    assert found["hangs"][1] == "✘ Failed to connect"
    assert "did not finish starting within 4 s" in done.stdout
    assert found["proj"][1].startswith("⏸ Pending approval") and not marker.exists()
    assert elapsed < 15  # in parallel, each with its deadline: never the sum, never a hang


def test_get_shows_the_status_and_the_issue(servers: Path) -> None:
    good = run_cli(["mcp", "get", "good"], servers).stdout
    assert "  Status: ✔ Connected\n  Type: stdio\n" in good
    dead = run_cli(["mcp", "get", "dead"], servers).stdout
    assert "  Status: ✘ Failed to connect\n  Issue: " in dead
    web = run_cli(["mcp", "get", "web"], servers).stdout
    assert "  Status: ✘ Failed to connect\n  Issue: " in web and "  Type: http\n" in web


def test_a_server_that_wants_oauth_needs_authentication(project: Path, tmp_path: Path) -> None:
    with oauth_server(tmp_path) as (url, _log):
        add(project, "-t", "http", "secure", url)
        listed = rows(run_cli(["mcp", "list"], project).stdout)
        shown = run_cli(["mcp", "get", "secure"], project).stdout
    assert listed["secure"] == (f"{url} (HTTP)", "! Needs authentication")
    assert "  Status: ! Needs authentication\n" in shown


@needs_claude_code
def test_the_same_rows_as_claude_codes_list(servers: Path) -> None:
    ours = rows(run_cli(["mcp", "list"], servers).stdout)
    theirs = rows(run_claude_code(["mcp", "list"], servers).stdout)
    assert set(ours) == set(theirs) == {"good", "dead", "web"}
    assert ours == theirs  # same target text, same status words, server by server
