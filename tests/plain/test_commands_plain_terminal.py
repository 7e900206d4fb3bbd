"""The slash commands of the plain REPL in a real terminal (tmux, `claude-harness --plain`):
what a person sees after each, and where its effect shows elsewhere (the request the
scripted server got, the user settings, the transcripts written, the diff of an edit made in
the session). The same commands over pipes: test_more_commands_plain.py; in the app:
tests/tui/test_more_commands_terminal.py. One REPL per test, shared by the commands that
do not depend on each other."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from claude_harness import __version__
from tests.plain.tmux_helpers import TmuxSession

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]
READY = "(shift+tab to cycle)"


def tool(name: str, **inp: Any) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": name, "input": inp}]}


def joined(session: TmuxSession) -> str:
    """The pane and its scrollback with the terminal's wrapped lines joined again (-J): a
    long line wraps wherever the temp folder's path length puts it, even inside a word."""
    text = session._tmux("capture-pane", "-p", "-J", "-t", session.name, "-S", "-2000")
    return "\n".join(line.rstrip() for line in text.splitlines())


def command(session: TmuxSession, line: str, *shown: str, timeout: float = 30.0) -> str:
    """Type `line` and Enter; wait until each of `shown` is on screen below the line's echo
    and the prompt is back under it; the text between the two."""
    session.type(line)
    session.send("Enter")
    answer: list[str] = []

    def done(_screen: str) -> bool:
        _, echoed, tail = joined(session).rpartition(f"> {line}\n")
        body, prompt, _ = tail.rpartition("\n>")
        answer[:] = [body]
        return bool(echoed and prompt) and all(text in body for text in shown)

    session.wait_for(done, timeout)
    return answer[0]


def test_session_commands_answer_on_screen_and_write_the_user_settings(
        plain_tmux: Any, home: Path, project: Path) -> None:
    skill = project / ".claude" / "skills" / "tidy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: tidy\ndescription: Tidy the imports\n---\nTidy them.\n")
    settings = home / ".claude" / "settings.json"
    key_file = home / ".claude" / "harness-api-key"
    session, server = plain_tmux([])
    session.wait_for(READY)

    for line in ("/usage", "/cost"):  # /cost is /usage under its old name
        shown = command(session, line, "Total cost:", "Output tokens:")
        assert "Input tokens:           0" in shown and "Billed to the API key" in shown
        assert "Unknown command" not in shown
    shown = command(session, "/release-notes", f"Version {__version__}:")
    assert shown.index(f"Version {__version__}:") == 0  # this version's section, first
    shown = command(session, "/skills", "/tidy", "Tidy the imports")
    assert f"/tidy  [project] {skill}" in shown
    for name, why in (("ide", "connecting to an IDE"), ("upgrade", "no subscription plan"),
                      ("install-github-app", "no GitHub app to install")):
        shown = command(session, f"/{name}", f"/{name} is not available in claude-harness:")
        assert why in shown and "Unknown command" not in shown

    command(session, "/statusline ~/bin/status.sh", "Status line set to `~/bin/status.sh`")
    assert json.loads(settings.read_text())["statusLine"] == {
        "type": "command", "command": "~/bin/status.sh"}

    shown = command(session, "/login", "Usage: /login <API key>")
    assert "Subscription sign-in (claude.ai) is not offered." in shown
    assert not key_file.exists()
    shown = command(session, "/login sk-ant-test-123", "API key stored in")
    assert "Subscription sign-in is not offered." in shown
    assert key_file.read_text() == "sk-ant-test-123\n"
    assert key_file.stat().st_mode & 0o777 == 0o600
    helper = json.loads(settings.read_text())["apiKeyHelper"]
    assert subprocess.run(helper, shell=True, capture_output=True, text=True,
                          timeout=10).stdout.strip() == "sk-ant-test-123"
    command(session, "/logout", "Removed the API key /login stored")
    command(session, "/statusline off", "Status line removed from")
    saved = json.loads(settings.read_text())
    assert "apiKeyHelper" not in saved and "statusLine" not in saved
    assert not key_file.exists()
    assert server.requests == []  # none of them asked the model


def test_review_security_review_and_plan_send_their_prompts(plain_tmux: Any) -> None:
    session, server = plain_tmux(["Reviewed it.", "Nothing exploitable.", "Here is the plan."])
    session.wait_for(READY)
    command(session, "/review 123", "Reviewed it.")
    review = json.dumps(server.requests[0]["messages"])
    assert "gh pr diff 123" in review and "bugs" in review
    assert "<command-name>/review</command-name>" in review
    command(session, "/security-review", "Nothing exploitable.")
    assert "security review" in json.dumps(server.requests[1]["messages"][-1])
    shown = command(session, "/plan add a cache", "Here is the plan.")
    assert "plan mode on" in shown  # said when the mode changes
    assert "plan mode on" in session.screen().rpartition("Here is the plan.")[2]  # the toolbar
    planned = server.requests[2]
    assert "add a cache" in json.dumps(planned["messages"][-1])
    assert "Plan mode is active" in json.dumps(planned)
    assert "Plan mode is active" not in json.dumps(server.requests[1])
    shown = command(session, "/cost", "API calls:              3")  # these three turns
    assert "Total cost:             $0.0000" not in shown


def test_diff_bashes_and_branch_after_an_edit(plain_tmux: Any, home: Path,
                                              project: Path) -> None:
    target = project / "notes.txt"
    target.write_text("one\ntwo\n")
    turns = [tool("Read", file_path=str(target)),
             tool("Edit", file_path=str(target), old_string="two", new_string="TWO"),
             tool("Bash", command="sleep 60", run_in_background=True), "Done.",
             "Branch answer."]
    session, server = plain_tmux(turns, "--permission-mode", "bypassPermissions")
    session.wait_for(READY)
    command(session, "edit it", "Done.")
    shown = command(session, "/diff", "+++ b/notes.txt")
    assert "--- a/notes.txt" in shown and "-two" in shown and "+TWO" in shown
    assert target.read_text() == "one\nTWO\n"

    # /bashes is /tasks: the background command, and a number to stop it
    session.type("/bashes")
    session.send("Enter")
    listed = session.wait_for(lambda s: "Kill which (1-1, Enter to cancel):" in
                              s.rpartition("> /bashes")[2])
    assert "1. bash_1 · running" in listed.rpartition("> /bashes")[2]
    session.type("1")
    session.send("Enter")
    killed = session.wait_for(lambda s: "bash_1: killed.\n" in s
                              and "\n>" in s.rpartition("bash_1: killed.")[2])
    assert killed.rpartition("Kill which")[2].count("bash_1: killed.") == 1  # said once
    shown = command(session, "/bashes", "1. bash_1 · killed")
    assert "Kill which" not in shown  # nothing left to kill: no question

    shown = command(session, "/branch", "Now on a branch of this conversation (session ")
    new_id = shown.partition("(session ")[2].partition(")")[0]
    old_id = shown.partition("stays as session ")[2].partition(" ")[0]
    assert f"(`claude-harness --resume {old_id}`)" in shown and new_id != old_id
    command(session, "after the branch", "Branch answer.")
    transcripts = {p.stem: p.read_text()
                   for p in (home / ".claude" / "projects").rglob("*.jsonl")}
    assert "edit it" in transcripts[new_id] and "after the branch" in transcripts[new_id]
    assert "Branch answer." in transcripts[new_id]
    assert "edit it" in transcripts[old_id] and "after the branch" not in transcripts[old_id]
    assert "Branch answer." not in transcripts[old_id]
    assert "Done." in json.dumps(server.requests[-1]["messages"])  # the branch kept the context


def test_mcp_authenticate_logs_in_through_the_printed_link(plain_tmux: Any,
                                                           tmp_path: Path) -> None:
    """`/mcp authenticate NAME` in the REPL: the link printed on a line of its own logs in when
    opened (urllib plays the browser), and the server is connected at once."""
    import re
    import urllib.request

    from tests.mcp.test_mcp_oauth import oauth_server

    with oauth_server(tmp_path) as (url, _grants):
        config = json.dumps({"mcpServers": {"secure": {"type": "http", "url": url}}})
        session, _server = plain_tmux([], "--mcp-config", config)
        session.wait_for(READY)
        command(session, "/mcp authenticate nope", "No MCP server named nope")
        session.type("/mcp authenticate secure")
        session.send("Enter")
        session.wait_for(lambda _s: "log in to secure" in joined(session), 30)
        session.wait_for(lambda _s: re.search(r"http://127\.0\.0\.1:\d+/authorize\S+",
                                              joined(session)) is not None, 30)
        match = re.search(r"http://127\.0\.0\.1:\d+/authorize\S+", joined(session))
        assert match is not None and "code_challenge_method=S256" in match.group(0)
        with urllib.request.urlopen(match.group(0), timeout=20) as page:  # noqa: S310 - local
            assert b"Logged in" in page.read()
        session.wait_for(lambda _s: "Authentication successful. Connected to secure."
                         in joined(session), 30)
