"""`claude-harness mcp serve`: the MCP Python client lists our tools and calls them over stdio,
and each call goes through the permission pipeline the model's own calls take."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

BINARY = Path(sys.executable).with_name("claude-harness")


async def session_calls(project: Path, flags: list[str],
                        calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[str], list[Any]]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=str(BINARY), args=["mcp", "serve", *flags],
                                   cwd=str(project), env=dict(os.environ))
    async with stdio_client(params) as (reader, writer), ClientSession(reader, writer) as client:
        await client.initialize()
        names = [t.name for t in (await client.list_tools()).tools]
        results = [await client.call_tool(name, args) for name, args in calls]
    return names, results


async def test_tools_are_offered_and_a_read_answers(project: Path) -> None:
    names, (read,) = await session_calls(
        project, [], [("Read", {"file_path": str(project / "README.md")})])
    assert {"Read", "Write", "Edit", "Bash", "Grep", "Glob"} <= set(names)
    # tools that need this conversation (they ask the person, start agents, switch the mode,
    # load tools) are not offered, as `claude mcp serve` leaves them out
    assert not {"Agent", "AskUserQuestion", "ToolSearch", "Skill", "EnterPlanMode",
                "ExitPlanMode"} & set(names)
    assert not read.is_error and "# demo project" in read.content[0].text


async def test_a_call_that_would_ask_is_refused_and_leaves_no_trace(project: Path) -> None:
    _, (write, bash) = await session_calls(project, [], [
        ("Write", {"file_path": str(project / "made.txt"), "content": "x"}),
        ("Bash", {"command": f"touch {project / 'touched'}"})])
    assert write.is_error and "not granted" in write.content[0].text
    assert bash.is_error and "not granted" in bash.content[0].text
    assert not (project / "made.txt").exists() and not (project / "touched").exists()


async def test_the_permission_flags_apply(project: Path) -> None:
    _, (write, bash) = await session_calls(project, ["--permission-mode", "acceptEdits"], [
        ("Write", {"file_path": str(project / "made.txt"), "content": "x"}),
        ("Bash", {"command": f"python3 -c \"open('{project / 'ran'}', 'w')\""})])
    assert not write.is_error and (project / "made.txt").read_text() == "x"
    assert bash.is_error and not (project / "ran").exists()  # acceptEdits does not run programs
