"""What the `/agents` panels show and do, for every front end: the agent types as plain data
(`Describe("agent_list")` answers with it), read again from disk so a file just created or
deleted shows at once, and the files the panel creates and deletes. The model's own list of
agents is fixed for a session: a change reaches it from the next session on, as in Claude
Code (each row says whether this session has it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.commands.agent_files import AgentFileError, create_agent, delete_agent
from claude_harness.commands.agents import collect_agents
from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice, Report

SOURCE_ORDER = {"flag": 0, "project": 1, "user": 2, "plugin": 3, "built-in": 4}


def agent_rows(catalog: Any, cwd: Path) -> list[dict[str, Any]]:
    """Every agent type visible from `cwd`, grouped by source (Claude Code's precedence)."""
    in_session = {a.name for a in catalog.agent_list()}
    flag_agents = [a for a in catalog.agent_list() if a.scope == "flag"]
    found = collect_agents(cwd, plugins=catalog.plugins, flag_agents=flag_agents)
    rows = [{"name": a.name, "scope": a.scope, "path": str(a.path) if a.path else "",
             "description": a.description, "tools": a.tools_summary,
             "model": a.model or "inherit", "color": a.color or "",
             "prompt": a.system_prompt, "in_session": a.name in in_session,
             "deletable": a.path is not None and a.scope in ("project", "user")}
            for a in found.ordered()]
    return sorted(rows, key=lambda r: (SOURCE_ORDER.get(r["scope"], 9), r["name"].lower()))


def agents_report(catalog: Any, cwd: Path) -> Report:
    return Report("agent_list", (), agent_rows(catalog, cwd))


def create(catalog: Any, cwd: Path, op: ops.CreateAgent) -> list[Any]:
    """The new file, then the list again; a bad name or an existing file is an error notice
    and nothing is written."""
    tools = [t.strip() for t in op.tools if t.strip()]
    try:
        path = create_agent(cwd, op.name, op.description, scope=op.scope,
                            tools=tools or None, model=op.model.strip() or None,
                            prompt=op.prompt)
    except AgentFileError as exc:
        return [Notice(f"Cannot create the agent: {exc}.", "error")]
    except OSError as exc:
        return [Notice(f"Cannot create the agent: {exc.strerror or exc}.", "error")]
    return [Notice(f"Created agent {op.name.strip()} in {path}. It is offered to the model "
                   "from the next session."), agents_report(catalog, cwd)]


def delete(catalog: Any, cwd: Path, op: ops.DeleteAgent) -> list[Any]:
    row = next((r for r in agent_rows(catalog, cwd) if r["name"] == op.name), None)
    if row is None:
        return [Notice(f"No agent named {op.name!r}.", "error")]
    if not row["deletable"]:
        return [Notice(f"{op.name} is a {row['scope']} agent: it has no file of yours to "
                       "delete.", "error")]
    try:
        delete_agent(Path(row["path"]))
    except OSError as exc:
        return [Notice(f"Cannot delete {row['path']}: {exc.strerror or exc}.", "error")]
    return [Notice(f"Deleted agent {op.name} ({row['path']})."), agents_report(catalog, cwd)]


def view_lines(catalog: Any, cwd: Path, name: str) -> list[str]:
    """`/agents view NAME` in the REPL: one agent's fields and prompt."""
    row = next((r for r in agent_rows(catalog, cwd) if r["name"] == name), None)
    if row is None:
        names = ", ".join(r["name"] for r in agent_rows(catalog, cwd))
        return [f"No agent named {name!r}. Agents: {names}."]
    return [f"{row['name']}  [{row['scope']}]", f"  File: {row['path'] or '(none: ' + row['scope'] + ')'}",
            f"  Description: {row['description']}", f"  Tools: {row['tools']}",
            f"  Model: {row['model']}", *([f"  Colour: {row['color']}"] if row["color"] else []),
            "  Prompt:", *(f"    {line}" for line in (row["prompt"] or "(empty)").splitlines())]
