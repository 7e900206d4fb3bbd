"""MCP tool names read as (server, tool) pairs, so rules match whole segments.

`mcp__<server>__<tool>` is one string; read as a prefix, an allow rule `mcp__docs` (or
`mcp__docs__*`) would also cover `mcp__docs__admin__wipe` of a server named `docs__admin`. Here
a name is split at the first `__` after `mcp__`: the server part is everything before it. That
reading is the only one because a server's name can never contain `__` or end in `_` (the MCP
config refuses such servers with a notice, mcp/config.py), while a tool's own name may contain
anything the API accepts. A rule then matches when its server segment equals (or, with `*`,
glob-matches) the server, and its tool segment, when it has one, the tool.
"""

from __future__ import annotations

import fnmatch

PREFIX = "mcp__"


def split_mcp_name(name: str) -> tuple[str, str | None] | None:
    """`mcp__docs__search` -> ("docs", "search"); `mcp__docs` -> ("docs", None); not MCP: None."""
    if not name.startswith(PREFIX) or len(name) == len(PREFIX):
        return None
    rest = name[len(PREFIX):]
    server, sep, tool = rest.partition("__")
    if not server:
        return None
    return (server, tool) if sep else (server, None)


def server_name_problem(server: str) -> str | None:
    """Why a (sanitised) server name could alias another server's tools, or None."""
    if "__" in server:
        return ("its name contains `__`, which would let `mcp__<name>__<tool>` read as a tool "
                "of another server in permission rules")
    if server.endswith("_"):
        return ("its name ends in `_`, which would let `mcp__<name>__<tool>` read as a tool of "
                "another server in permission rules")
    return None


def mcp_rule_matches(rule_tool: str, tool_name: str) -> bool:
    """Does the MCP rule name `rule_tool` cover the MCP tool `tool_name`, segment by segment?"""
    rule = split_mcp_name(rule_tool)
    tool = split_mcp_name(tool_name)
    if rule is None or tool is None or tool[1] is None:
        return False
    rule_server, rule_tool_part = rule
    if not fnmatch.fnmatchcase(tool[0], rule_server):
        return False
    if rule_tool_part is None:
        return True  # `mcp__server` (or `mcp__*`) covers every tool of the server
    return fnmatch.fnmatchcase(tool[1], rule_tool_part)
