"""MCP resources as `@server:uri` in the app, with the real demo server (the `mcp` SDK,
resource memo://notes): the `@` popup offers them, and a sent mention is read with
`resources/read` and given to the model as Claude Code 2.1.332 gives it (a system message
after the prompt, which stays as typed; seen in its own request log). In `-p` Claude Code
leaves the mention as text, and so does the binary here."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from claude_harness.frontends.shared.resource_suggestions import suggest_resources
from claude_harness.protocol.events import McpResourceInfo, Notice
from claude_harness.session.services.mcp_resources import find_resource_mentions
from tests.e2e.support import run_cli
from tests.mcp.support import demo
from tests.tui.helpers import screen_text, send, type_text, wait_for
from tests.tui.test_mcp_in_app import mcp_app

DEMO = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"
NOTES = ("Full contents of resource:\nnotes from srv\nDo NOT read this resource again unless "
         "you think it may have changed, since you already have the full contents.")


def test_mentions_and_suggestions_match_the_listed_resources() -> None:
    listed = [McpResourceInfo("srv", "memo://notes", "notes", "Team notes"),
              McpResourceInfo("docs", "file:///guide.md", "guide")]
    found = find_resource_mentions("see @srv:memo://notes. and @docs:file:///guide.md, "
                                   "not @other:x://y nor me@srv:memo://notes", ["srv", "docs"],
                                   listed)
    assert [(m.server, m.uri) for m in found] == [("srv", "memo://notes"),
                                                  ("docs", "file:///guide.md")]
    assert [r.uri for r in suggest_resources("srv:", listed)] == ["memo://notes"]
    assert [r.uri for r in suggest_resources("guide", listed)] == ["file:///guide.md"]
    assert suggest_resources("", listed) == [] and suggest_resources("zzz", listed) == []


async def open_the_popup_on_srv(pilot: Any, app: Any) -> None:
    """Once srv's resources are listed, type `summarize @srv:` and wait for its row (with its
    description) in the popup."""
    await wait_for(pilot, lambda: app.ready, what="engine ready")
    await wait_for(pilot, lambda: app.view.mcp_resources, what="the resources listed")
    app.prompt.focus()
    await type_text(pilot, "summarize @srv:")
    hint = app.query_one("#completion-hint")
    await wait_for(pilot, lambda: "◇ srv:memo://notes   Team notes" in str(hint.render()),
                   what="the resource in the popup")


async def test_the_popup_offers_resources_and_a_mention_is_attached_after_the_prompt(
        api: Any, project: Path) -> None:
    server = api(["Summarised.", "Again.", "Third."])
    app = mcp_app(server, project, [demo("srv")])
    async with app.run_test(size=(110, 40)) as pilot:
        await open_the_popup_on_srv(pilot, app)
        await pilot.press("tab")
        assert app.prompt.text == "summarize @srv:memo://notes "
        await type_text(pilot, "please")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Summarised." in screen_text(app), what="the answer")
        assert "Read MCP resource notes from srv" in screen_text(app)
        messages = server.requests[0]["messages"]
        prompt = next(i for i, m in enumerate(messages) if m["role"] == "user" and any(
            b.get("text") == "summarize @srv:memo://notes please" for b in m["content"]))
        # a system message after the prompt (on the first turn the session's listing of
        # agents and skills is one too, and consecutive ones go as one message)
        system = [b for m in messages[prompt + 1:] if m["role"] == "system"
                  for b in m["content"]]
        assert system[-1]["text"] == NOTES  # (the last block carries the cache breakpoint)
        await send(pilot, "@srv:memo://missing what is in it?")
        await wait_for(pilot, lambda: "Again." in screen_text(app), what="the second answer")
        assert "MCP resource read failed for srv memo://missing" in screen_text(app)
        assert "Full contents" not in json.dumps(server.requests[1]["messages"][prompt + 3:])
        await send(pilot, "and @srv:memo://notes again")
        await wait_for(pilot, lambda: "Third." in screen_text(app), what="the third answer")
        later = server.requests[2]["messages"]
        assert later[-2]["content"][0]["text"] == "and @srv:memo://notes again"
        assert later[-1]["role"] == "system"
        assert [b["text"] for b in later[-1]["content"]] == [NOTES]


async def test_keys_typed_ahead_of_the_app_never_take_a_stale_row(api: Any, project: Path) -> None:
    """The prompt handles keys before the app hears of the text they made (a hog run sent
    `summarize @srv:memo://notes memo://notes please`: Enter, pressed before the app had seen
    Tab's replacement and the typed `please`, took the popup's row for `@srv:` a second time).
    Here the keys land in one tick, with no pause for the app's messages between them."""
    app = mcp_app(api(["Unused."]), project, [demo("srv")])
    async with app.run_test(size=(110, 40)) as pilot:
        await open_the_popup_on_srv(pilot, app)
        enter = app.prompt.accept_popup  # what Enter asks first, as the prompt holds it now
        assert enter is not None and enter()  # Tab/Enter on the open popup takes its row
        app.prompt.insert("please")  # typed before the app has handled the change
        assert not enter()  # the word at the cursor is `please`: Enter sends, it takes nothing
        assert app.prompt.text == "summarize @srv:memo://notes please"
        await pilot.pause()
        assert app.prompt.accept_popup is None  # the app has heard: the popup is closed


def test_print_mode_leaves_the_mention_as_text_as_claude_code_does(
        project: Path, api: Any, tmp_path: Path) -> None:
    server = api(["Plain."])
    cfg = tmp_path / "mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"srv": {
        "type": "stdio", "command": sys.executable, "args": [str(DEMO), "srv"]}}}))
    run = run_cli(["-p", "summarize @srv:memo://notes please", "--mcp-config", str(cfg)],
                  project, timeout=60)
    assert run.returncode == 0, run.stderr
    sent = json.dumps(server.requests[0]["messages"])
    assert "summarize @srv:memo://notes please" in sent and "Full contents" not in sent


async def test_a_resource_the_deny_rules_protect_is_not_read(api: Any, project: Path) -> None:
    from claude_harness.api.client import ApiSettings
    from claude_harness.mcp import McpManager
    from claude_harness.permissions.rules import parse_rule
    from claude_harness.protocol.ops import Describe
    from claude_harness.protocol.permission_data import PermissionContext, PermissionRule
    from claude_harness.session.core import Session, SessionConfig
    from claude_harness.tools.registry import assemble_tool_pool
    from tests.e2e.support import run_op, run_prompt

    server = api(["Cannot see it."])
    deny = (PermissionRule("userSettings", "deny", parse_rule("ReadMcpResourceTool")),)
    perm = PermissionContext(mode="default", cwd=project, interactive=True, rules=deny)
    session = Session(SessionConfig(
        cwd=project, model="claude-sonnet-5-5", permission=perm,
        tools=assemble_tool_pool(perm), system_prompt="You are a test assistant.",
        api=ApiSettings(api_key="test", auth_token=None, base_url=server.url,
                        retry_base_delay=0.05, max_retries=1),
        data_dir=project.parent / "home" / "data",
        mcp=McpManager([demo("srv")], cwd=project, startup_timeout=30)))
    try:
        await run_op(session, Describe("mcp"))
        assert await session.config.mcp.wait_ready(40)
        events = await run_prompt(session, "what is in @srv:memo://notes")
    finally:
        await session.config.mcp.close()
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any(n.startswith("Did not read MCP resource ") and n.endswith(
        " from srv (blocked by permission settings)") for n in notices), notices
    sent = json.dumps(server.requests[0]["messages"])
    assert ('<mcp-resource server=\\"srv\\" uri=\\"memo://notes\\">(Not read: this '
            "session's permissions do not allow it)</mcp-resource>") in sent
    assert "notes from srv" not in sent
