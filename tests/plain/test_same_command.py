"""One custom command (with `$1`, an inline `!`cmd`` and an `@file`) typed in `-p`, the Textual
app and the plain REPL sends the same user message, the shape Claude Code 2.1.332 sends; the
app and the REPL list it in /help with the catalog's plugins, agents and the load report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from claude_harness.testing.mock_api import MockApiServer
from tests.plain.conftest import child_env

pytestmark = [pytest.mark.timeout(150), pytest.mark.slow]
COMMAND = ("---\ndescription: Fix an issue\nargument-hint: [issue] [priority]\n"
           "allowed-tools: Bash(echo:*)\n---\n"
           "Fix issue $1 with priority $2.\nStatus: !`echo inline-ok`\nSee @notes.txt please.\n")


def setup_project(project: Path) -> None:
    (project / ".claude" / "commands").mkdir(parents=True, exist_ok=True)
    (project / ".claude" / "commands" / "fix.md").write_text(COMMAND)
    (project / "notes.txt").write_text("note contents here\n")
    (project / ".claude" / "settings.local.json").write_text('{"spinnerVerbs": ["Pondering"]}')


def first_message(server: MockApiServer) -> list[str]:
    return [b["text"] for b in server.requests[0]["messages"][0]["content"]]


def run(project: Path, home: Path, args: list[str], stdin: str) -> tuple[list[str], str]:
    with MockApiServer({"turns": ["Fixed."]}) as server:
        env = {**os.environ, **child_env(home, server)}
        done = subprocess.run([sys.executable, "-m", "claude_harness", *args], cwd=project,
                              input=stdin, capture_output=True, text=True, timeout=90, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        return first_message(server), done.stdout


async def run_app(project: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[
        list[str], str]:
    from claude_harness.frontends.tui.app import HarnessApp
    from claude_harness.session.bootstrap import build_session
    from claude_harness.session.options import RunOptions
    from tests.tui.helpers import screen_text, send, wait_for

    with MockApiServer({"turns": ["Fixed."]}) as server:
        for key, value in child_env(home, server).items():
            monkeypatch.setenv(key, value)
        app = HarnessApp(cwd=project, preload_transport=False, session_factory=lambda: build_session(
            RunOptions(cwd=project), trusted=True))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: app.ready, what="engine ready")
            await send(pilot, "/fix 42 high")
            await wait_for(pilot, lambda: server.remaining_turns == 0 and not app.busy,
                           timeout=30, what="turn end")
            await send(pilot, "/help")
            await send(pilot, "/doctor")
            await wait_for(pilot, lambda: "Commands: 1 loaded" in screen_text(app),
                           what="/doctor")
            return first_message(server), screen_text(app)


async def test_a_command_expands_the_same_in_print_mode_the_app_and_the_repl(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup_project(project)
    homes = {name: tmp_path / f"home-{name}" for name in ("p", "app", "plain")}
    for home in homes.values():
        home.mkdir()
    headless, _ = run(project, homes["p"], ["-p", "/fix 42 high", "--trust-workspace"], "")
    app, app_screen = await run_app(project, homes["app"], monkeypatch)
    from claude_harness.config.trust import trust_folder

    trust_folder(homes["plain"] / "data", project.resolve())
    plain, plain_out = run(project, homes["plain"], ["--plain"],
                           "/fix 42 high\n/help\n/agents\n/plugin\n/status\n")
    assert headless[2] == ("<command-message>fix</command-message>\n<command-name>/fix"
                           "</command-name>\n<command-args>42 high</command-args>\n")
    assert headless[3] == ("Fix issue high with priority $2.\nStatus: inline-ok\n"
                           "See @notes.txt please.\n")
    assert "note contents here" in headless[1]
    assert app == headless and plain == headless
    assert "/fix" in app_screen and "Fix an issue" in app_screen
    assert "/fix" in plain_out and "Fix an issue [issue] [priority]" in plain_out
    assert "general-purpose" in plain_out and "Explore" in plain_out  # /agents
    assert "No plugins loaded" in plain_out  # /plugin
    assert "Unsupported:  spinnerVerbs (" in plain_out  # /status
