"""A sub-agent's permission request bubbles up to the app's prompt; its steps show under its
Agent call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.frontends.tui.widgets.permission_prompt import PermissionPrompt
from claude_harness.frontends.tui.widgets.tool_call import ToolCallView
from tests.tui.helpers import screen_text, send, wait_for


async def test_sub_agent_bash_write_prompts_in_the_parent(api: Any, make_app: Any,
                                                          project: Path) -> None:
    server = api([
        {"content": [{"type": "tool_use", "name": "Agent",
                      "input": {"description": "Make a marker", "prompt": "touch made.txt"}}]},
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "touch made.txt"}}]},
        "REPORT: made.txt created.",
        "The helper created made.txt.",
    ])
    app = make_app(server)
    async with app.run_test(size=(110, 34)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "delegate it")
        prompt = await wait_for(pilot, lambda: next(iter(app.query(PermissionPrompt)), None),
                                what="the sub-agent's permission prompt")
        assert "touch made.txt" in screen_text(app)
        assert prompt is not None
        await pilot.press("1")
        await wait_for(pilot, lambda: not app.busy, timeout=20, what="turn end")
        agent_view = next(v for v in app.query(ToolCallView) if v.tool_name == "Agent")
        assert not agent_view.running
        assert "REPORT: made.txt created." in screen_text(app)
    assert (project / "made.txt").exists()
    assert len(server.requests) == 4


async def test_a_custom_agents_steps_carry_its_name_and_colour(api: Any, make_app: Any,
                                                                project: Path) -> None:
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "scout.md").write_text("---\nname: scout\ndescription: looks\ntools: Glob\n"
                                     "color: purple\n---\nYou look.\n")
    from claude_harness.commands.catalog import load_catalog

    load_catalog(project)  # as bootstrap does: the session's catalog
    server = api([
        {"content": [{"type": "tool_use", "name": "Agent", "input": {
            "description": "Look around", "prompt": "glob", "subagent_type": "scout"}}]},
        {"content": [{"type": "tool_use", "name": "Glob", "input": {"pattern": "*.md"}}]},
        "REPORT: one file.", "Done."])
    app = make_app(server)
    async with app.run_test(size=(110, 34)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "look")
        await wait_for(pilot, lambda: not app.busy and server.remaining_turns == 0,
                       timeout=20, what="turn end")
        view = next(v for v in app.query(ToolCallView) if v.tool_name == "Agent")
        assert "scout → Glob(*.md)" in "\n".join(view._progress)
        assert view._progress_view.styles.color.rgb == (128, 0, 128)  # purple
