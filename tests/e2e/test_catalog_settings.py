"""Settings and rules the session applies: `.claude/rules` files with `paths` told
to the model when a matching file is read, once; `attribution` / `includeCoAuthoredBy`;
`autoCompactThreshold`; /doctor, /agents and /plugin reports from the session's catalog."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.protocol.events import Compaction, Report
from claude_harness.protocol.ops import Describe
from claude_harness.session.bootstrap import build_session
from claude_harness.session.options import RunOptions
from tests.e2e.support import run_op, run_prompt

TEXT = {"content": [{"type": "text", "text": "done"}]}


def session_for(project: Path, **opts: Any) -> Any:
    options = RunOptions(cwd=project, print_mode=True, interactive=False, **opts)
    session, _ = build_session(options, trusted=True)
    return session


def read(path: Path, n: int = 0) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "id": f"toolu_read_{n}", "name": "Read",
                         "input": {"file_path": str(path)}}]}


async def test_a_rule_with_paths_is_told_once_when_a_matching_file_is_read(
        project: Path, api: Any) -> None:
    rules = project / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "python.md").write_text("---\npaths:\n  - \"src/**/*.py\"\n---\nUse 4 spaces.\n")
    (rules / "docs.md").write_text("---\npaths: \"docs/**\"\n---\nWrite plainly.\n")
    app = project / "src" / "app.py"
    server = api([read(project / "README.md"), read(app, 1), read(app, 2), TEXT])
    await run_prompt(session_for(project), "read")
    after_readme, after_app, after_again = (r["messages"][-1]["content"]
                                            for r in server.requests[1:4])
    texts = [[b.get("text", "") for b in m if b.get("type") == "text"]
             for m in (after_readme, after_app, after_again)]
    assert texts[0] == [] and texts[2] == []
    assert len(texts[1]) == 1 and "Use 4 spaces." in texts[1][0]
    assert str(rules / "python.md") in texts[1][0] and "Write plainly" not in texts[1][0]


async def test_attribution_is_asked_for_only_when_the_settings_want_it(
        project: Path, api: Any) -> None:
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"attribution": {"commit": "Co-authored-by: Bot <b@x>"}}))
    server = api([TEXT, TEXT])
    await run_prompt(session_for(project), "commit it")
    first = json.dumps(server.requests[0]["messages"][0])
    assert "Co-authored-by: Bot <b@x>" in first
    settings.write_text(json.dumps({"includeCoAuthoredBy": False}))
    await run_prompt(session_for(project), "commit it")
    assert "Co-authored-by" not in json.dumps(server.requests[1]["messages"][0])


async def test_auto_compact_threshold_compacts_earlier(project: Path, api: Any) -> None:
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"autoCompactThreshold": 0.02}))  # 2 % of the window
    big = {"content": [{"type": "text", "text": "ok"}], "usage": {"input_tokens": 30_000}}
    api([big, {"content": ["SUMMARY"]}, TEXT])
    session = session_for(project, model="claude-sonnet-5-5")
    await run_prompt(session, "one")
    events = await run_prompt(session, "two")
    assert any(isinstance(e, Compaction) and e.trigger == "auto" for e in events)


async def test_doctor_agents_and_plugin_reports(project: Path, api: Any, tmp_path: Path) -> None:
    plugin = tmp_path / "kit"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "kit", "version": "2.0"}')
    (plugin / "commands").mkdir()
    (plugin / "commands" / "hi.md").write_text("Say hi\n")
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "broken.md").write_text("---\ndescription: no name\n---\nx\n")
    (agents / "rev.md").write_text("---\nname: rev\ndescription: Reviews\nmodel: haiku\n---\nx\n")
    (project / ".claude" / "settings.json").write_text(json.dumps({"fastMode": True}))
    api([])
    session = session_for(project, plugin_dirs=[str(plugin)])
    doctor, agent_list, plugins = [
        next(e for e in await run_op(session, Describe(topic)) if isinstance(e, Report)).lines
        for topic in ("doctor", "agents", "plugins")]
    text = "\n".join(doctor)
    assert "skipped  broken" in text and "missing `name`" in text
    assert "unsupported fastMode" in text
    assert any(line.strip().startswith("rev  [project]") for line in agent_list)
    assert any("model haiku" in line for line in agent_list)
    assert plugins[0].startswith("kit 2.0  (kit@inline,")
    assert plugins[1] == "  commands: /kit:hi"
