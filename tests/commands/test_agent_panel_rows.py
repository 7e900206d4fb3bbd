"""The /agents panel's rows (session/services/agent_panel.py) from a real catalog: every source with
its tools and model (project, user, plugin, --agents, built-in), files created or deleted after
the session started shown at once (and marked as coming in the next session), and what cannot
be deleted refused with the reason."""

from __future__ import annotations

import json
from pathlib import Path

from claude_harness.commands.catalog import load_catalog
from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice, Report
from claude_harness.session.services.agent_panel import agent_rows, create, delete, view_lines


def plugin_dir(root: Path) -> Path:
    plugin = root / "helper"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "helper"}))
    (plugin / "agents").mkdir()
    (plugin / "agents" / "linter.md").write_text(
        "---\ndescription: Lints\ntools: Bash\n---\nLint it.\n")
    return plugin


def test_rows_from_every_source(repo: Path, user_dir: Path, tmp_path: Path) -> None:
    project = repo
    (project / ".claude" / "agents").mkdir(parents=True)
    (project / ".claude" / "agents" / "rev.md").write_text(
        "---\nname: rev\ndescription: Reviews\nmodel: haiku\n---\nReview.\n")
    user = user_dir / "agents"
    user.mkdir(parents=True)
    (user / "mine.md").write_text("---\nname: mine\ndescription: Mine\n---\nMine.\n")
    catalog = load_catalog(project, plugin_dirs=[plugin_dir(tmp_path)], agents_json=json.dumps(
        {"flagged": {"description": "From the flag", "prompt": "Flag."}}))
    rows = {r["name"]: r for r in agent_rows(catalog, project)}
    assert [r["scope"] for r in agent_rows(catalog, project)][:4] == [
        "flag", "project", "user", "plugin"]
    assert rows["rev"]["model"] == "haiku" and rows["rev"]["deletable"]
    assert rows["mine"]["scope"] == "user" and rows["mine"]["deletable"]
    assert rows["helper:linter"]["tools"] == "Bash" and not rows["helper:linter"]["deletable"]
    assert rows["flagged"]["scope"] == "flag" and rows["general-purpose"]["scope"] == "built-in"
    refused = delete(catalog, project, ops.DeleteAgent("helper:linter"))
    assert isinstance(refused[0], Notice) and refused[0].level == "error"
    assert "plugin agent" in refused[0].text

    made = create(catalog, project, ops.CreateAgent("project", "docs", "Writes docs",
                                                    "You write docs.", ("Read",), "sonnet"))
    assert isinstance(made[-1], Report)
    new = next(r for r in made[-1].data if r["name"] == "docs")
    assert not new["in_session"] and new["tools"] == "Read" and new["model"] == "sonnet"
    again = create(catalog, project, ops.CreateAgent("project", "docs", "x", "y"))
    assert again[0].level == "error" and "exists already" in again[0].text
    bad = create(catalog, project, ops.CreateAgent("user", "no/slash", "x", "y"))
    assert bad[0].level == "error" and not (user / "no").exists()
    assert "    You write docs." in view_lines(catalog, project, "docs")
    gone = delete(catalog, project, ops.DeleteAgent("docs"))
    assert not (project / ".claude" / "agents" / "docs.md").exists()
    assert "docs" not in {r["name"] for r in gone[-1].data}
