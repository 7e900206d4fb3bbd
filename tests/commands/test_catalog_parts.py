"""Expansion (!`cmd`, @path, the command-name blocks), --agents JSON, plugins enabled in
settings, the skill listing budget and the agents' fields, on real files in temp folders."""

from __future__ import annotations

import json
from pathlib import Path

from claude_harness.commands import expand, load_catalog, run_inline_commands
from claude_harness.commands.agents import parse_agents_json
from claude_harness.session.prompt.mentions import find_mentions
from tests.commands.conftest import write


async def test_inline_commands_go_through_the_callers_runner(repo: Path) -> None:
    write(repo / ".claude" / "commands" / "status.md",
          "---\nallowed-tools: Bash(git status:*)\n---\nBranch: !`git branch --show-current`\n"
          "Status: !`git status --short`\nCode: `not !run`")
    command = load_catalog(repo).find_command("status")
    assert command is not None and command.allowed_tools == ("Bash(git status:*)",)
    ran: list[str] = []

    async def runner(cmd: str) -> str:
        ran.append(cmd)
        return "denied: not allowed" if cmd.startswith("git branch") else "M a.py"

    text = await run_inline_commands(expand(command).text, runner)
    assert ran == ["git branch --show-current", "git status --short"]
    assert text == "Branch: denied: not allowed\nStatus: M a.py\nCode: `not !run`"


def test_file_references_and_message_blocks(repo: Path) -> None:
    write(repo / "notes.txt", "hello")
    write(repo / ".claude" / "commands" / "look.md", "Read @notes.txt and @missing.txt, "
          "not `@notes.txt` in code. $ARGUMENTS")
    command = load_catalog(repo).find_command("/look")
    expanded = expand(command, "now")
    assert [m.path for m in find_mentions(expanded.text, repo)] == [repo / "notes.txt"]
    assert expanded.blocks() == [
        {"type": "text", "text": "<command-message>look</command-message>\n"
                                 "<command-name>/look</command-name>\n"
                                 "<command-args>now</command-args>\n"},
        {"type": "text", "text": expanded.text}]


def test_agents_json_flag_wins_and_reports_problems(repo: Path) -> None:
    write(repo / ".claude" / "agents" / "r.md", "---\nname: reviewer\ndescription: file\n---\nx")
    flag = json.dumps({"reviewer": {"description": "from the flag", "prompt": "Review.",
                                    "tools": ["Read", "Bash(git diff:*)"], "model": "sonnet",
                                    "maxTurns": 3},
                       "broken": {"prompt": "no description"}, "weird": "not an object"})
    catalog = load_catalog(repo, agents_json=flag)
    reviewer = catalog.find_agent("reviewer")
    assert reviewer is not None and reviewer.scope == "flag"
    assert reviewer.tools == ("Read", "Bash") and reviewer.tool_rules == ("Bash(git diff:*)",)
    assert reviewer.max_turns == 3 and reviewer.model == "sonnet"
    reasons = [e.reason for e in catalog.report.of("agent", "skipped")]
    assert any("broken: missing `description`" in r for r in reasons)
    assert any("weird: must be an object" in r for r in reasons)
    assert parse_agents_json("{not json")[1][0].startswith("--agents: not valid JSON")


def test_builtin_agents_and_fields_for_the_runner(repo: Path) -> None:
    write(repo / ".claude" / "agents" / "a.md",
          "---\nname: Lint Bot\ndescription: lints\ntools: Read, mcp__github\n"
          "disallowedTools: [Write]\nmodel: claude-haiku-4-5\npermissionMode: acceptEdits\n"
          "maxTurns: 4\ncolor: green\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n"
          "          command: echo done\n---\nLint.")
    catalog = load_catalog(repo)
    assert [a.name for a in catalog.agent_list()] == ["Explore", "general-purpose", "Lint Bot",
                                                      "Plan"]
    explore = catalog.find_agent("Explore")
    assert explore.model == "haiku" and not explore.allows_tool("Edit")
    assert explore.allows_tool("Grep")
    bot = catalog.find_agent("Lint Bot")
    assert bot.allows_tool("mcp__github__get_issue") and not bot.allows_tool("Write")
    assert (bot.permission_mode, bot.max_turns, bot.color) == ("acceptEdits", 4, "green")
    assert bot.hooks == {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}
    assert "Lint Bot: lints (Tools: Read, mcp__github)" in catalog.agent_listing()


def test_enabled_plugins_resolve_through_a_local_marketplace(repo: Path, user_dir: Path,
                                                             tmp_path: Path) -> None:
    market = tmp_path / "market"
    write(market / ".claude-plugin" / "marketplace.json",
          json.dumps({"name": "team", "plugins": [{"name": "fmt", "source": "./plugins/fmt"}]}))
    plugin = market / "plugins" / "fmt"
    write(plugin / ".claude-plugin" / "plugin.json", json.dumps({"name": "fmt", "version": "2"}))
    write(plugin / "commands" / "go.md", "---\ndescription: format\n---\nFormat.")
    write(plugin / "hooks" / "hooks.json", json.dumps({"hooks": {"PostToolUse": [{"hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/fmt.sh"}]}]}}))
    write(plugin / ".mcp.json", json.dumps({"mcpServers": {"db": {
        "command": "${CLAUDE_PLUGIN_ROOT}/server", "args": ["--root", "${CLAUDE_PLUGIN_ROOT}"]}}}))
    write(user_dir / "plugins" / "known_marketplaces.json",
          json.dumps({"team": {"installLocation": str(market)}}))
    catalog = load_catalog(repo, enabled_plugins={"fmt@team": True, "gone@team": True,
                                                  "off@team": False})
    assert catalog.init_fields()["plugins"] == [
        {"name": "fmt", "path": str(plugin.resolve()), "source": "fmt@team", "version": "2"}]
    assert catalog.find_command("fmt:go") is not None
    ((source, path, hooks),) = catalog.hook_sources()
    assert hooks["PostToolUse"][0]["hooks"][0]["command"] == f"{plugin.resolve()}/fmt.sh"
    assert catalog.mcp_servers() == {"plugin:fmt:db": {
        "command": f"{plugin.resolve()}/server", "args": ["--root", str(plugin.resolve())]}}
    skipped = catalog.report.of("plugin", "skipped")
    assert [e.name for e in skipped] == ["gone@team"] and "not installed" in skipped[0].reason


def test_skill_listing_respects_its_budget(repo: Path) -> None:
    for i in range(40):
        write(repo / ".claude" / "skills" / f"s{i:02}" / "SKILL.md",
              f"---\ndescription: {'long words ' * 40}{i}\n---\nbody")
    write(repo / ".claude" / "commands" / "private.md",
          "---\ndescription: hidden\ndisable-model-invocation: true\n---\nx")
    catalog = load_catalog(repo)
    full = catalog.skill_listing(budget_chars=1_000_000)
    assert full.count("\n- ") == 40 and "private" not in full
    short = catalog.skill_listing(budget_chars=10_000)
    assert len(short) <= 10_000 and short.count("\n- ") == 40 and "…" in short
    names = catalog.skill_listing(budget_chars=500)
    assert names.count("\n- ") == 40 and "long words" not in names  # every name, no text
    assert "exact name" in names
