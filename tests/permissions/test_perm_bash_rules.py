"""Bash rules per simple command: wrappers, env assignments, deny past everything, safety."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_harness.permissions.bash.decision import is_read_only_command
from tests.permissions.perm_helpers import context, decide_bash, make_project


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj").resolve()


def behavior(command: str, proj: Path, **kw) -> str:
    return decide_bash(command, context(proj, **kw)).behavior


@pytest.mark.parametrize("command", [
    "timeout 30 npm test", "nice -n 10 npm test", "nohup npm test", "time npm test",
    "stdbuf -oL npm test", "command npm test", "NODE_ENV=test npm test", "CI=1 npm test --ci",
])
def test_harmless_wrappers_and_safe_env_are_stripped_for_allow(proj: Path, command: str) -> None:
    assert behavior(command, proj, allow=("Bash(npm test *)",)) == "allow"


@pytest.mark.parametrize("command", [
    "PAGER=x npm test", "NODE_OPTIONS=--require=x npm test", "LD_PRELOAD=x npm test",
    "PYTHONPATH=. npm test", "GIT_DIR=x npm test", "EDITOR=vim npm test", "FOO=$(id) npm test",
    "sudo npm test", "env npm test", "watch npm test", "xargs npm test",
])
def test_unsafe_env_and_opaque_wrappers_ask(proj: Path, command: str) -> None:
    assert behavior(command, proj, allow=("Bash(npm test *)",)) == "ask"


@pytest.mark.parametrize("command", [
    "rm -rf src", "FOO=1 rm -rf src", "PAGER=x rm x", "sudo rm x", "env A=1 rm x",
    "timeout 5 nice rm x", "watch -n1 rm x", "ls | xargs rm", "echo $(rm x)", "ls && rm x",
    "bash -c 'rm x'", "sh -c \"ls; rm x\"", "eval rm x", "find . -exec rm {} \\;",
    "ionice -c3 rm x", "flock /tmp/l rm x", "cat <(rm x)",
])
def test_deny_matches_any_simple_command_past_wrappers(proj: Path, command: str) -> None:
    d = decide_bash(command, context(proj, deny=("Bash(rm *)",)))
    assert d.behavior == "deny", (command, d.reason)
    assert "Bash(rm *)" in d.reason


def test_deny_still_applies_over_fifty_subcommands_and_unparseable(proj: Path) -> None:
    many = " && ".join(["true"] * 60) + " && rm -rf src"
    assert behavior(many, proj, deny=("Bash(rm *)",)) == "deny"
    assert behavior(many, proj, allow=("Bash(*)",)) == "ask"
    assert behavior("echo $[ 1 ]; rm -rf src", proj, deny=("Bash(rm *)",)) == "deny"
    assert behavior("echo $[ 1 ]", proj, allow=("Bash(echo *)",)) == "ask"


def test_allow_needs_every_subcommand(proj: Path) -> None:
    allow = ("Bash(npm test *)", "Bash(make *)")
    assert behavior("npm test && make lint", proj, allow=allow) == "allow"
    assert behavior("npm test && make lint && npm publish", proj, allow=allow) == "ask"
    assert behavior("npm test | tee out.log", proj, allow=allow) == "ask"
    assert behavior("git status && npm test", proj, allow=allow) == "allow"  # read-only part


def test_ask_rule_beats_allow_and_read_only(proj: Path) -> None:
    assert behavior("git log", proj, ask=("Bash(git log *)",)) == "ask"
    assert behavior("git push", proj, allow=("Bash(git *)",), ask=("Bash(git push *)",)) == "ask"
    assert behavior("git push", proj, allow=("Bash(git push)",), deny=("Bash(git *)",)) == "deny"


def test_read_deny_rules_cover_bash_readers(proj: Path) -> None:
    (proj / ".env").write_text("K=1")
    deny = ("Read(./.env)",)
    for command in ("cat .env", "head -1 .env", "grep K .env", "cd src && cat ../.env",
                    "sed -n 1p .env"):
        assert behavior(command, proj, deny=deny) == "deny", command
    assert behavior("cat README.md", proj, deny=deny) == "allow"


def test_edit_deny_rules_cover_redirections(proj: Path) -> None:
    deny = ("Edit(docs/**)",)
    assert behavior("echo x > docs/a.md", proj, deny=deny, mode="acceptEdits") == "deny"
    assert behavior("echo x > out.md", proj, deny=deny, mode="acceptEdits") == "allow"
    assert behavior("echo x > docs/a.md", proj, allow=("Edit(docs/**)",)) == "allow"


def test_reads_outside_need_a_read_rule_even_under_a_bash_rule(proj: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes").write_text("n")
    assert behavior(f"cat {other}/notes", proj) == "ask"
    assert behavior(f"cat {other}/notes", proj, allow=("Bash(cat *)",)) == "ask"
    assert behavior(f"cat {other}/notes", proj, allow=(f"Read(/{other}/**)",)) == "allow"
    assert behavior(f"cat {other}/notes", proj, extra_dirs=(other,)) == "allow"
    evil = tmp_path / "proj-evil"
    evil.mkdir()
    assert behavior(f"ls {evil}", proj) == "ask"  # component-wise, not a string prefix


def test_read_only_hint_for_the_bash_tool(proj: Path) -> None:
    """The Bash tool's scheduling hint reads the same analysis: reads are read-only, writes,
    programs it does not know and anything not understood are not."""
    assert is_read_only_command("cat README.md", proj)
    assert is_read_only_command("git status && ls -la src | head", proj)
    assert not is_read_only_command("npm test", proj)
    assert not is_read_only_command("echo x > out.txt", proj)
    assert not is_read_only_command("sort -o out f.txt", proj)
    assert not is_read_only_command("", proj)


def test_nested_commands_meet_deny_rules(proj: Path) -> None:
    deny = ("Bash(curl *)", "Bash(rm *)")
    for command in ("echo $(curl evil.example)", "bash -c 'rm -rf x'", "echo `rm x`",
                    "cat <(curl evil.example)", "X=$(rm x) true"):
        assert behavior(command, proj, deny=deny) == "deny", command


@pytest.mark.parametrize("word,critical", [
    ("/", True), ("~", True), (".", True), ("..", True), ("/usr", True), ("/etc", True),
    ("*", True), ("./*", True), ('"$UNSET"/*', True), (".[!.]*", True), ("~+", True),
    ("~-", True), ("$(pwd)", True), ("src", False), ("build/*", False), ("*.pyc", False),
    ("src/pkg", False),
])
def test_critical_deletes_ask_even_in_bypass(proj: Path, word: str, critical: bool) -> None:
    d = decide_bash(f"rm -rf {word}", context(proj, mode="bypassPermissions"))
    assert (d.behavior == "ask") is critical, (word, d.reason)


@pytest.mark.parametrize("path,expected", [
    (".git/config", True), (".git/hooks/pre-commit", True), (".claude/settings.json", True),
    (".claude/worktrees/a/b.py", False), (".mcp.json", True), (".bashrc", True),
    (".vscode/tasks.json", True), (".husky/pre-commit", True), (".envrc", True),
    (".yarnrc.yml", True), ("lefthook.yml", True), (".config/git/config", True),
    ("src/main.py", False), ("docs/.gitkeep", False), ("gitconfig.txt", False),
])
def test_protected_paths(proj: Path, path: str, expected: bool) -> None:
    (proj / path).parent.mkdir(parents=True, exist_ok=True)
    d = decide_bash(f"echo x > {path}", context(proj, mode="bypassPermissions"))
    assert (d.behavior == "ask") is expected, (path, d.reason)


def test_protected_through_symlink_and_dotdot(proj: Path) -> None:
    (proj / ".git").mkdir()
    (proj / "innocent").symlink_to(proj / ".git")
    for command in ("echo x > innocent/config", "echo x > src/../.git/config",
                    "echo x >> ~/.zshrc", "cp f innocent/hooks"):
        d = decide_bash(command, context(proj, mode="bypassPermissions"))
        assert d.behavior == "ask" and d.decided_by == "safety", command


def test_recursive_search_over_a_read_denied_file_asks(proj: Path) -> None:
    (proj / ".env").write_text("K=1")
    deny = ("Read(./.env)",)
    for command in ("grep -r K .", "grep -rn K", "rg K", "rg K src/..", "grep -R K .",
                    "grep -d recurse K ."):
        d = decide_bash(command, context(proj, deny=deny, mode="bypassPermissions"))
        assert d.behavior == "ask" and "Read(./.env)" in d.reason, command
    for command in ("grep -r K src", "rg K docs", "grep K README.md", "ls -R"):
        assert behavior(command, proj, deny=deny) == "allow", command
    anywhere = ("Read(**/.env)",)
    assert behavior("rg K src", proj, deny=anywhere) == "ask"


@pytest.mark.parametrize("rule_text,broad", [
    ("Bash", True), ("Bash(*)", True), ("Bash(python*)", True), ("Bash(python3 *)", True),
    ("Bash(npm run *)", True), ("Bash(npx *)", True), ("Bash(node:*)", True),
    ("Bash(npm run test *)", False), ("Bash(git status *)", False), ("Bash(make *)", False),
    ("Bash(python3 manage.py test *)", False),
])
def test_auto_mode_drops_broad_allow_rules(proj: Path, rule_text: str, broad: bool) -> None:
    from claude_harness.permissions.modes import is_broad_bash_allow
    from tests.permissions.perm_helpers import rules

    assert is_broad_bash_allow(rules("allow", rule_text)[0]) is broad
    if rule_text in {"Bash(*)", "Bash(python3 *)"}:
        command = "python3 evil.py"
        assert behavior(command, proj, allow=(rule_text,)) == "allow"
        assert behavior(command, proj, allow=(rule_text,), mode="auto") == "ask"


LOOP = 'for i in $(seq 1 3); do echo "line $i"; done'


def test_a_bare_bash_rule_allows_what_the_checker_does_not_follow(proj: Path) -> None:
    """`Bash` alone allows every command, loops and functions included, as in Claude Code; a
    narrower rule does not reach inside a construct the checker does not follow."""
    assert behavior(LOOP, proj, allow=("Bash",)) == "allow"
    assert behavior(LOOP, proj, allow=("Bash(echo *)", "Bash(seq *)")) == "ask"
    assert behavior(LOOP, proj) == "ask"


def test_under_a_bare_bash_rule_deny_rules_and_safety_still_hold_inside_a_loop(
        proj: Path) -> None:
    assert behavior("for f in a b; do rm $f; done", proj, allow=("Bash",),
                    deny=("Bash(rm *)",)) == "deny"
    assert behavior("for f in a b; do echo x > .git/config; done", proj,
                    allow=("Bash",)) != "allow"
