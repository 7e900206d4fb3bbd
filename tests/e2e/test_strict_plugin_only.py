"""strictPluginOnlyCustomization in managed settings: the locked surfaces (skills with their
commands folders, agents, hooks, MCP servers) load only from managed settings and plugins, as
Claude Code 2.1.332 applies it; a list locks only the surfaces it names, and the key in the
user's own settings changes nothing. Observed through the real program in -p (the init line,
the request, hook side effects) and `doctor --json`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import run_cli
from tests.e2e.test_catalog_cli import DEMO_SERVER, init_line, make_plugin

TEXT = {"content": [{"type": "text", "text": "done"}]}
NOTE = "skipped: strictPluginOnlyCustomization is set in managed settings"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def hook(marker: Path) -> dict[str, Any]:
    return {"UserPromptSubmit": [{"hooks": [{"type": "command",
                                             "command": f"echo ran >> {marker}"}]}]}


def own_customizations(home: Path, project: Path, marker: Path,
                       settings: dict[str, Any] | None = None) -> None:
    """The user's skill, agent, hook and MCP server and the project's command."""
    write(home / ".claude" / "skills" / "mine" / "SKILL.md",
          "---\ndescription: my own skill\n---\nDo it.\n")
    write(home / ".claude" / "agents" / "mine.md",
          "---\nname: mine\ndescription: my own agent\n---\nYou are mine.\n")
    write(project / ".claude" / "commands" / "proj.md", "---\ndescription: proj cmd\n---\nGo\n")
    write(home / ".claude" / "settings.json", json.dumps({"hooks": hook(marker), **(settings or {})}))
    write(home / ".claude" / ".claude.json", json.dumps({"mcpServers": {
        "mine": {"command": sys.executable, "args": [str(DEMO_SERVER), "mine"]}}}))


def plugin_with_prompt_hook(tmp_path: Path, marker: Path) -> Path:
    root = make_plugin(tmp_path / "kit", tmp_path / "unused.jsonl")
    write(root / "hooks" / "hooks.json", json.dumps({"hooks": hook(marker)}))
    return root


def run(project: Path, plugin: Path) -> dict[str, Any]:
    proc = run_cli(["-p", "go", "--plugin-dir", str(plugin), "--output-format", "stream-json",
                    "--verbose"], project, timeout=90)
    return init_line(proc)


@pytest.fixture
def managed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "managed.json"
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(path))
    return path


def test_true_locks_every_surface_to_managed_settings_and_plugins(
        project: Path, home: Path, tmp_path: Path, api: Any, managed: Path) -> None:
    mine, theirs = tmp_path / "mine.log", tmp_path / "plugin.log"
    own_customizations(home, project, mine)
    plugin = plugin_with_prompt_hook(tmp_path, theirs)
    write(managed, json.dumps({"strictPluginOnlyCustomization": True}))
    server = api([TEXT])
    line = run(project, plugin)
    assert "kit:hello" in line["slash_commands"] and "kit:helper" in line["agents"]
    assert "mine" not in line["slash_commands"] and "proj" not in line["slash_commands"]
    assert "mine" not in line["skills"] and "mine" not in line["agents"]
    names = [s["name"] for s in line["mcp_servers"]]
    assert "plugin:kit:demo" in names and "mine" not in names
    request = json.dumps(server.requests[0])
    assert "my own skill" not in request and "my own agent" not in request
    assert "A plugin helper" in request
    assert theirs.read_text().split() == ["ran"] and not mine.exists()


def test_a_list_locks_only_the_surfaces_it_names(project: Path, home: Path, tmp_path: Path,
                                                 api: Any, managed: Path) -> None:
    mine, theirs = tmp_path / "mine.log", tmp_path / "plugin.log"
    own_customizations(home, project, mine)
    plugin = plugin_with_prompt_hook(tmp_path, theirs)
    write(managed, json.dumps({"strictPluginOnlyCustomization": ["hooks", "typo"]}))
    api([TEXT])
    line = run(project, plugin)
    assert {"mine", "proj", "kit:hello"} <= set(line["slash_commands"])
    assert "mine" in line["agents"] and "mine" in [s["name"] for s in line["mcp_servers"]]
    assert theirs.exists() and not mine.exists()
    write(managed, json.dumps({"strictPluginOnlyCustomization": ["mcp", "agents"]}))
    api([TEXT])
    line = run(project, plugin)
    assert "mine" in line["slash_commands"] and mine.read_text().split() == ["ran"]
    assert "mine" not in line["agents"] and "kit:helper" in line["agents"]
    assert "mine" not in [s["name"] for s in line["mcp_servers"]]


@pytest.mark.parametrize("value", [False, ["typo"]])
def test_false_an_unknown_list_or_the_users_own_settings_lock_nothing(
        project: Path, home: Path, tmp_path: Path, api: Any, managed: Path,
        value: Any) -> None:
    mine = tmp_path / "mine.log"
    own_customizations(home, project, mine, {"strictPluginOnlyCustomization": True})
    write(managed, json.dumps({"strictPluginOnlyCustomization": value}))
    api([TEXT])
    line = run(project, plugin_with_prompt_hook(tmp_path, tmp_path / "plugin.log"))
    assert {"mine", "proj"} <= set(line["slash_commands"]) and "mine" in line["agents"]
    assert "mine" in [s["name"] for s in line["mcp_servers"]] and mine.exists()


def test_an_invalid_value_counts_as_true_and_doctor_names_what_is_skipped(
        project: Path, home: Path, tmp_path: Path, managed: Path) -> None:
    own_customizations(home, project, tmp_path / "mine.log")
    write(managed, json.dumps({"strictPluginOnlyCustomization": "yes please"}))
    proc = run_cli(["doctor", "--json"], project)
    assert proc.returncode == 0, proc.stderr
    entries = json.loads(proc.stdout)["entries"]
    skipped = {(e["kind"], e["name"]) for e in entries if NOTE in e["reason"]}
    assert {("skill", "mine"), ("agent", "mine"), ("command", "proj"), ("mcp", "mine")} <= \
        skipped, entries
    assert any(e["kind"] == "hook" and NOTE in e["reason"] for e in entries)
    [key] = [e for e in entries if e["name"] == "strictPluginOnlyCustomization"]
    assert key["status"] == "loaded", key
