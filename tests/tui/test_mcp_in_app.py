"""The MCP features in the app, with real MCP servers over stdio: a server's question as
a form in place of the input, prompts as slash commands, tools a server adds mid-session, a
direct call to a deferred tool, /add-dir reaching the servers' roots.

The demo server (tests/mcp/servers/demo_server.py) offers 13 tools, more than the deferral
threshold: every one of its tools is deferred, so each call here is a direct call."""

from __future__ import annotations

import asyncio
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from claude_harness.frontends.tui.widgets.elicitation_form import ElicitationForm
from claude_harness.frontends.tui.widgets.notice import NoticeView
from claude_harness.protocol.ops import Interrupt
from tests.mcp.support import demo
from tests.mcp.test_mcp_oauth import oauth_server
from tests.tui.helpers import choose, panel_text, screen_text, send, wait_for


def mcp_engine(server: Any, project: Path, servers: list[Any],
               allow: tuple[str, ...] = ("mcp__srv",)) -> Any:
    """A session as bootstrap builds it, with MCP servers and allow rules for their tools."""
    from claude_harness.api.client import ApiSettings
    from claude_harness.mcp import McpManager
    from claude_harness.permissions.rules import parse_rule
    from claude_harness.protocol.permission_data import PermissionContext, PermissionRule
    from claude_harness.session.core import Session, SessionConfig
    from claude_harness.tools.registry import assemble_tool_pool

    rules = tuple(PermissionRule("cliArg", "allow", parse_rule(r)) for r in allow)
    perm = PermissionContext(mode="default", cwd=project, interactive=True, rules=rules)
    return Session(SessionConfig(
        cwd=project, model="claude-sonnet-5-5", permission=perm,
        tools=assemble_tool_pool(perm), system_prompt="You are a test assistant.",
        api=ApiSettings(api_key="test", auth_token=None, base_url=server.url,
                        retry_base_delay=0.05, max_retries=1),
        data_dir=project.parent / "home" / "data",
        mcp=McpManager(servers, cwd=project, startup_timeout=30)))


def mcp_app(server: Any, project: Path, servers: list[Any], **kw: Any) -> Any:
    from claude_harness.frontends.tui.app import HarnessApp

    return HarnessApp(cwd=project, preload_transport=False,
                      session_factory=lambda: mcp_engine(server, project, servers, **kw))


def tool_results(request: dict[str, Any]) -> list[Any]:
    return [b.get("content") for m in request["messages"] for b in m["content"]
            if isinstance(b, dict) and b.get("type") == "tool_result"]


def last_texts(request: dict[str, Any]) -> list[str]:
    """The text blocks of the request's last user message (not the listing message that
    follows the first one)."""
    last = [m for m in request["messages"] if m["role"] == "user"][-1]
    return [b.get("text", "") for b in last["content"] if b.get("type") == "text"]


async def test_a_servers_question_is_a_form_in_place_of_the_input(
        api: Any, project: Path) -> None:
    server = api([{"content": [{"type": "tool_use", "name": "mcp__srv__ask", "input": {}}]},
                  "Hello Grace.",
                  {"content": [{"type": "tool_use", "name": "mcp__srv__ask", "input": {}}]},
                  "Fine.",
                  {"content": [{"type": "tool_use", "name": "mcp__srv__ask", "input": {}}]},
                  "Stopped."])
    app = mcp_app(server, project, [demo("srv")])
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "who am i?")
        form = await wait_for(pilot, lambda: next(iter(app.query(ElicitationForm)), None),
                              timeout=30, what="the form")
        assert not app.prompt.display  # the form takes the input's place
        assert "Who are you?" in screen_text(app)
        await wait_for(pilot, lambda: isinstance(app.focused, Input), what="focus on the name")
        await pilot.press(*"Grace")  # the first field (name) has the focus
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not app.busy and len(server.requests) == 2, timeout=30,
                       what="the answer")
        assert tool_results(server.requests[1]) == ["accept: Grace (30)"]  # age: its default
        assert not form.is_attached and app.prompt.display

        await send(pilot, "again, but say no")
        await wait_for(pilot, lambda: app.query(ElicitationForm), timeout=30, what="form 2")
        await pilot.press("ctrl+d")  # decline (the app does not exit)
        await wait_for(pilot, lambda: not app.busy and len(server.requests) == 4, timeout=30,
                       what="declined")
        assert tool_results(server.requests[3])[-1] == "decline"
        assert app.is_running

        await send(pilot, "once more")
        await wait_for(pilot, lambda: app.query(ElicitationForm), timeout=30, what="form 3")
        app.submit(Interrupt())  # an interrupt closes the question
        await wait_for(pilot, lambda: not app.query(ElicitationForm) and not app.busy,
                       timeout=30, what="form gone")
        assert app.prompt.display


async def test_prompts_are_commands_in_completion_help_and_the_conversation(
        api: Any, project: Path) -> None:
    server = api(["Reviewed."])
    app = mcp_app(server, project, [demo("srv")])
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready and app.view.mcp_prompts, timeout=30,
                       what="the server's prompts")
        app.prompt.insert("/mcp__s")
        await pilot.pause()
        hint = str(app.query_one("#completion-hint").render())
        assert "/mcp__srv__review" in hint and "Review one file" in hint
        app.prompt.clear()
        assert "mcp__srv__review" in app.command_names()

        await send(pilot, "/help")
        await wait_for(pilot, lambda: "/mcp__srv__review <file> [focus]" in screen_text(app),
                       what="/help")
        await send(pilot, "/mcp__srv__review")
        await wait_for(pilot, lambda: any("Missing required argument file" in n.text
                                          for n in app.query(NoticeView)), what="usage error")
        await send(pilot, "/mcp__srv__review src/app.py error handling")
        await wait_for(pilot, lambda: not app.busy and "Reviewed." in screen_text(app),
                       timeout=30, what="the answer")
        assert last_texts(server.requests[0])[0] == (
            "Please review src/app.py, focusing on error handling.")


async def test_tools_a_server_adds_are_appended_deferred_and_announced(
        api: Any, project: Path) -> None:
    server = api([{"content": [{"type": "tool_use", "name": "mcp__srv__grow", "input": {}}]},
                  "Grown.",
                  {"content": [{"type": "tool_use", "name": "mcp__srv__late",
                                "input": {"word": "hi"}}]},
                  "Late said hi."])
    app = mcp_app(server, project, [demo("srv")])
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "grow")  # a direct call of a deferred tool
        await wait_for(pilot, lambda: not app.busy and "Grown." in screen_text(app),
                       timeout=30, what="grown")
        assert tool_results(server.requests[1]) == ["grown"]
        await wait_for(pilot, lambda: "mcp__srv__summarize" in app.command_names(),
                       timeout=15, what="the prompt the server added")
        await send(pilot, "use the new tool")
        await wait_for(pilot, lambda: not app.busy and "Late said hi." in screen_text(app),
                       timeout=30, what="late")
    first, later = server.requests[0]["tools"], server.requests[2]["tools"]
    assert later[:-1] == first  # the cached prefix, cache_control included, is untouched
    assert later[-1]["name"] == "mcp__srv__late" and later[-1]["defer_loading"] is True
    assert "cache_control" not in later[-1] and "cache_control" in first[-1]
    assert "MCP servers added" not in "\n".join(last_texts(server.requests[0]))
    reminder = "\n".join(last_texts(server.requests[2]))
    assert "mcp__srv__late" in reminder and "no longer available: mcp__srv__shrink" in reminder
    assert tool_results(server.requests[3])[-1] == "late: hi"


async def test_add_dir_reaches_permissions_status_and_the_servers_roots(
        api: Any, project: Path, tmp_path: Path) -> None:
    from claude_harness.mcp.config import McpServerConfig
    from tests.mcp.npm_servers import FILESYSTEM, require

    script = require(FILESYSTEM)
    other = tmp_path / "other-dir"
    other.mkdir()
    (other / "data.txt").write_text("outside the project\n")
    server = api([{"content": [{"type": "tool_use", "name": "mcp__fs__read_text_file",
                                "input": {"path": str(other / "data.txt")}}]},
                  "Read it."])
    fs = McpServerConfig(name="fs", command="node", args=(script,), scope="cli")
    app = mcp_app(server, project, [fs], allow=("mcp__fs",))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "/add-dir /no/such/dir")
        await wait_for(pilot, lambda: "Path /no/such/dir was not found." in screen_text(app),
                       what="refusal")
        await send(pilot, f"/add-dir {other}")
        await wait_for(pilot, lambda: app.view.directories == (str(other.resolve()),),
                       what="the new directory")
        assert f"Added {other.resolve()} as a working directory" in screen_text(app)
        await send(pilot, "/status")
        await wait_for(pilot, lambda: f"Additional working directories: {other.resolve()}"
                       in screen_text(app), what="/status")
        manager = app.link.session.config.mcp  # the server re-reads the roots on its own time
        await manager.wait_ready(30)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            conn = manager.get("fs")
            listed = await conn.request("list", lambda c: c.call_tool(
                "list_allowed_directories", {}))
            if str(other.resolve()) in str(listed.content):
                break
            await asyncio.sleep(0.05)
        await send(pilot, "read the file there")
        await wait_for(pilot, lambda: not app.busy and "Read it." in screen_text(app),
                       timeout=30, what="answer")
    assert "outside the project" in str(tool_results(server.requests[1]))
    assert any(f"added {other.resolve()} as a working directory" in t
               for t in last_texts(server.requests[0]))


@pytest.fixture
def secure(tmp_path: Path) -> Iterator[str]:
    with oauth_server(tmp_path) as (url, _log):
        yield url


async def test_mcp_authenticate_shows_a_login_link_and_connects(
        api: Any, project: Path, secure: str) -> None:
    from claude_harness.mcp.config import parse_server

    url = secure
    remote = parse_server("secure", {"type": "http", "url": url}, scope="cli",
                          source="--mcp-config", env={})
    app = mcp_app(api(["unused"]), project, [remote, demo("srv")])
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "/mcp authenticate nope")
        await wait_for(pilot, lambda: "No MCP server named nope" in screen_text(app),
                       what="unknown server")
        await send(pilot, "/mcp authenticate srv")
        await wait_for(pilot, lambda: "srv is a local (stdio) server" in screen_text(app),
                       what="stdio server")
        await send(pilot, "/mcp")  # the panel offers the login of a server that needs one
        await wait_for(pilot, lambda: "△ secure   needs authentication"
                       in panel_text(app.screen), what="needs authentication")
        await choose(pilot, app.screen, "secure")
        await choose(pilot, app.screen, "Authenticate")  # = /mcp authenticate secure
        link = await wait_for(pilot, lambda: next(
            (n for n in app.query(NoticeView) if n.link), None), timeout=30, what="the link")
        assert "Open this link in your browser to log in to secure" in link.text
        assert "code_challenge_method=S256" in link.link and link.link in str(link.render())

        def browser() -> None:  # the user opens the link; the server redirects back
            with urllib.request.urlopen(link.link, timeout=20) as page:  # noqa: S310 - local
                assert b"Logged in" in page.read()

        await asyncio.to_thread(browser)
        await wait_for(pilot, lambda: "Authentication successful. Connected to secure."
                       in screen_text(app), timeout=30, what="connected")
        await send(pilot, "/mcp")  # the panel: the server connected since the login
        await wait_for(pilot, lambda: "✔ secure   " in panel_text(app.screen), what="/mcp")
