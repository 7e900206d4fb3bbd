"""Rule syntax and matching: Bash patterns, gitignore paths, symlinks, domains, MCP names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from claude_harness.permissions.rules import (
    RuleSyntaxError,
    format_rule,
    match_bash_pattern,
    match_domain_rule,
    parse_rule,
    rule_matches,
    split_rules,
    tool_matches,
)
from claude_harness.protocol.permission_data import PermissionRule, RuleValue


def rule(text: str, behavior: str = "allow", root: Path | None = None) -> PermissionRule:
    return PermissionRule("projectSettings", behavior, parse_rule(text), root)  # type: ignore[arg-type]


@pytest.mark.parametrize("text,value", [
    ("Bash", RuleValue("Bash")),
    ("Bash(*)", RuleValue("Bash")),
    ("Bash()", RuleValue("Bash")),
    ("Bash(git *)", RuleValue("Bash", "git *")),
    ("Bash(echo \\(hi\\))", RuleValue("Bash", "echo (hi)")),
    ("Read(./.env)", RuleValue("Read", "./.env")),
    ("mcp__github__get_issue", RuleValue("mcp__github__get_issue")),
    ("WebFetch(domain:example.com)", RuleValue("WebFetch", "domain:example.com")),
])
def test_parse(text: str, value: RuleValue) -> None:
    assert parse_rule(text) == value


@pytest.mark.parametrize("bad", ["", "Bash(ls", "Ba sh", "Bash(ls) x", "(ls)"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(RuleSyntaxError):
        parse_rule(bad)


def test_format_round_trips_escaped_parens() -> None:
    value = parse_rule("Bash(echo \\(hi\\))")
    assert parse_rule(format_rule(value)) == value


def test_split_rules_respects_parentheses() -> None:
    assert split_rules("Bash(a, b *), Read, Bash(c *)") == ["Bash(a, b *)", "Read", "Bash(c *)"]


@pytest.mark.parametrize("pattern,command,expected", [
    ("ls *", "ls", True),
    ("ls *", "ls -la", True),
    ("ls *", "lsof", False),
    ("ls *", "lsof -i", False),
    ("ls:*", "ls -la", True),
    ("ls:*", "lsof", False),
    ("npm:*", "npm install", True),
    ("npm run test *", "npm run test --watch", True),
    ("npm run test *", "npm run testx", False),
    ("npm run build", "npm run build", True),
    ("npm run build", "npm run build --prod", False),
    ("git * main", "git push origin main", True),
    ("git * main", "git push origin dev", False),
    ("* --version", "node --version", True),
    ("ls*", "lsof", True),
    ("git *", "git", True),
    ("*", "anything at all", True),
])
def test_bash_patterns(pattern: str, command: str, expected: bool) -> None:
    assert match_bash_pattern(pattern, command) is expected


@pytest.mark.parametrize("rule_tool,tool,expected", [
    ("Edit", "Edit", True), ("Edit", "Write", True), ("Edit", "NotebookEdit", True),
    ("Read", "Grep", True), ("Read", "Glob", True), ("Read", "Edit", False),
    ("Write", "Edit", False), ("mcp__github", "mcp__github__get_issue", True),
    ("mcp__github", "mcp__githubx__get_issue", False), ("mcp__github__*", "mcp__github__x", True),
    ("mcp__github__get_issue", "mcp__github__list", False), ("mcp__*", "mcp__a__b", True),
    ("Task", "Agent", True), ("Bash", "BashOutput", False),
])
def test_tool_names(rule_tool: str, tool: str, expected: bool) -> None:
    assert tool_matches(rule_tool, tool) is expected


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = (tmp_path / "proj").resolve()
    (root / "src" / "deep").mkdir(parents=True)
    (root / "src" / "a.ts").write_text("")
    (root / "src" / "deep" / "b.ts").write_text("")
    (root / ".env").write_text("SECRET=1")
    (root / "sub").mkdir()
    (root / "sub" / ".env").write_text("")
    return root


@pytest.mark.parametrize("text,path,expected", [
    ("Read(./.env)", ".env", True),
    ("Read(./.env)", "sub/.env", False),
    ("Read(.env)", "sub/.env", True),  # bare name: any depth
    ("Read(**/.env)", "sub/.env", True),
    ("Edit(/src/**/*.ts)", "src/deep/b.ts", True),
    ("Edit(/src/**/*.ts)", "src/a.ts", True),
    ("Edit(/src/**/*.ts)", "other/src/a.ts", False),
    ("Edit(src/**)", "src/deep/b.ts", True),
    ("Edit(*.ts)", "src/deep/b.ts", True),
    ("Edit(*.ts)", "README.md", False),
])
def test_path_rules_relative(tree: Path, text: str, path: str, expected: bool) -> None:
    tool = "Read" if text.startswith("Read") else "Edit"
    assert rule_matches(rule(text, root=tree), tool, str(tree / path), tree) is expected


def test_slash_rule_is_relative_to_settings_root_not_cwd(tree: Path) -> None:
    sub = tree / "sub"
    r = rule("Edit(/src/**)", root=tree)
    assert rule_matches(r, "Edit", str(tree / "src" / "a.ts"), sub)
    assert not rule_matches(rule("Edit(/src/**)", root=sub), "Edit", str(tree / "src" / "a.ts"), sub)


def test_absolute_and_home_rules(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tree.parent / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    assert rule_matches(rule("Read(~/.ssh/**)", "deny"), "Read", str(home / ".ssh" / "id_rsa"), tree)
    assert rule_matches(rule(f"Read(/{tree}/src/**)"), "Read", str(tree / "src" / "a.ts"), tree)
    assert not rule_matches(rule(f"Read(/{tree}/src/**)"), "Read", str(tree / ".env"), tree)


def test_edit_rule_covers_write_and_read_rule_covers_grep(tree: Path) -> None:
    assert rule_matches(rule("Edit(src/**)"), "Write", str(tree / "src" / "a.ts"), tree)
    assert rule_matches(rule("Read(src/**)"), "Grep", str(tree / "src"), tree)
    assert not rule_matches(rule("Read(src/**)"), "Edit", str(tree / "src" / "a.ts"), tree)


def test_symlink_allow_needs_both_deny_fires_on_either(tree: Path) -> None:
    secret_dir = tree.parent / "secrets"
    secret_dir.mkdir()
    (secret_dir / "key").write_text("k")
    link = tree / "src" / "notes.ts"
    os.symlink(secret_dir / "key", link)
    # allow: the link matches src/**, its target does not -> not allowed
    assert not rule_matches(rule("Edit(src/**)"), "Edit", str(link), tree)
    # deny on the target fires through the link
    deny_target = rule(f"Read(/{secret_dir}/**)", "deny")
    assert rule_matches(deny_target, "Read", str(link), tree)
    # deny on the link name fires too
    assert rule_matches(rule("Read(**/notes.ts)", "deny"), "Read", str(link), tree)


def test_dotdot_is_resolved_before_matching(tree: Path) -> None:
    sneaky = str(tree / "src" / ".." / ".env")
    assert rule_matches(rule("Read(./.env)", "deny"), "Read", sneaky, tree)


@pytest.mark.parametrize("content,url,expected", [
    ("domain:example.com", "https://example.com/x", True),
    ("domain:example.com", "https://EXAMPLE.com./x", True),
    ("domain:example.com", "https://api.example.com/x", False),
    ("domain:*.example.com", "https://api.example.com/x", True),
    ("domain:*.example.com", "https://example.com/x", False),
    ("domain:example.*", "https://example.org", True),
    ("domain:example.*", "https://example.evil.com", False),
    ("domain:example.com", "https://example.com.evil.net", False),
    ("domain:example.com", "not a url", False),
])
def test_domains(content: str, url: str, expected: bool) -> None:
    assert match_domain_rule(content, url) is expected


def test_webfetch_and_mcp_through_rule_matches(tree: Path) -> None:
    assert rule_matches(rule("WebFetch(domain:docs.python.org)"), "WebFetch",
                        "https://docs.python.org/3/", tree)
    assert rule_matches(rule("mcp__github"), "mcp__github__get_issue", None, tree)
    assert not rule_matches(rule("mcp__github"), "mcp__gitlab__get_issue", None, tree)
    assert rule_matches(rule("Agent(Explore)"), "Agent", "Explore", tree)
    assert not rule_matches(rule("Agent(Explore)"), "Agent", "general-purpose", tree)
