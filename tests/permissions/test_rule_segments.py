"""Rule names match whole segments: `mcp__docs` means the server `docs` exactly.

The matcher reads `mcp__<server>__<tool>` as a (server, tool) pair; a server whose name could
alias another's (`docs__admin`, `docs..admin` once sanitised, `docs_`) is refused at config
load with a notice. With real MCP servers through the real binary:
tests/e2e/test_mcp_rule_segments.py.
"""

from __future__ import annotations

import pytest

from claude_harness.mcp.config import parse_server
from claude_harness.permissions.rules import tool_matches
from claude_harness.permissions.tool_names import split_mcp_name


@pytest.mark.parametrize(("rule", "tool", "covered"), [
    ("mcp__docs", "mcp__docs__search", True),
    ("mcp__docs", "mcp__docs__admin__wipe", True),  # the tool `admin__wipe` of server docs
    ("mcp__docs__*", "mcp__docs__admin__wipe", True),
    ("mcp__docs__admin", "mcp__docs__admin__wipe", False),  # server docs, tool admin: not wipe
    ("mcp__docs__admin__*", "mcp__docs__admin__wipe", True),  # docs's tools named admin__*
    ("mcp__docs__admin__wipe", "mcp__docs__admin__wipe", True),
    ("mcp__doc", "mcp__docs__search", False),
    ("mcp__docs", "mcp__docsx__search", False),
    ("mcp__doc*", "mcp__docs__search", True),
    ("mcp__*", "mcp__docs__search", True),
    ("mcp__*__search", "mcp__docs__search", True),
    ("mcp__*__search", "mcp__docs__searches", False),
])
def test_rules_match_server_and_tool_segments(rule: str, tool: str, covered: bool) -> None:
    assert tool_matches(rule, tool) is covered


def test_names_split_at_the_first_separator() -> None:
    assert split_mcp_name("mcp__docs__admin__wipe") == ("docs", "admin__wipe")
    assert split_mcp_name("mcp__docs") == ("docs", None)
    assert split_mcp_name("Read") is None and split_mcp_name("mcp__") is None


@pytest.mark.parametrize("name", ["docs__admin", "docs..admin", "docs_", "a__b__c", "x.-_"])
def test_server_names_that_could_alias_another_are_refused(name: str) -> None:
    cfg = parse_server(name, {"command": "true"}, scope="project", source=".mcp.json", env={})
    assert cfg.error and "rename it" in cfg.error and repr(name) in cfg.error


@pytest.mark.parametrize("name", ["docs", "docs_admin", "my-server", "_private"])
def test_ordinary_server_names_are_kept(name: str) -> None:
    assert parse_server(name, {"command": "true"}, scope="project", source="x",
                        env={}).error is None


def test_an_agents_tool_lists_read_mcp_names_by_segment() -> None:
    from claude_harness.commands.agents import AgentDefinition

    only_admin = AgentDefinition("a", "d", "p", None, "user", tools=("Read", "mcp__docs__admin"))
    assert only_admin.allows_tool("mcp__docs__admin")
    assert not only_admin.allows_tool("mcp__docs__admin__wipe")  # docs's tool admin__wipe
    assert not only_admin.allows_tool("mcp__docsx__admin")
    whole = AgentDefinition("a", "d", "p", None, "user", tools=("mcp__docs",))
    assert whole.allows_tool("mcp__docs__admin__wipe") and not whole.allows_tool("mcp__doc__x")
    without = AgentDefinition("a", "d", "p", None, "user", disallowed_tools=("mcp__docs",))
    assert not without.allows_tool("mcp__docs__search") and without.allows_tool("mcp__docs2__x")
