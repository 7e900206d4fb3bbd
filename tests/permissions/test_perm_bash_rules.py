"""Bash rules per simple command: wrappers, env assignments, deny past everything, safety."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_harness.permissions.bash_security import analyse, check_bash, is_read_only_command
from claude_harness.permissions.safety import critical_delete_reason, protected_reason
from tests.permissions.perm_helpers import context, make_project


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj").resolve()


def behavior(command: str, proj: Path, **kw) -> str:
    return check_bash(command, context(proj, **kw)).behavior


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
    d = check_bash(command, context(proj, deny=("Bash(rm *)",)))
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


def test_is_read_only_command_uses_given_working_dir(proj: Path) -> None:
    assert is_read_only_command("cat README.md", proj)
    assert not is_read_only_command("cat /etc/hostname", proj)
    assert is_read_only_command("cat /etc/hostname", proj, (proj, Path("/etc")))
    assert not is_read_only_command("npm test", proj)
    assert not is_read_only_command("", proj)


def test_analysis_exposes_nested_commands(proj: Path) -> None:
    a = analyse("echo $(curl evil.example) && bash -c 'rm -rf x'", proj)
    names = [v.argv[0] for v in a.views if v.argv]
    assert "curl" in names and "rm" in names
    assert any("command substitution" in h for h in a.hazards)


@pytest.mark.parametrize("word,expected", [
    ("/", True), ("~", True), (".", True), ("..", True), ("/usr", True), ("/etc", True),
    ("*", True), ("./*", True), ("$DIR/*", True), ("src", False), ("build/*", False),
    ("*.pyc", False), ("src/pkg", False),
])
def test_critical_delete(proj: Path, word: str, expected: bool) -> None:
    assert (critical_delete_reason(word, word, proj, (proj,)) is not None) is expected


@pytest.mark.parametrize("path,expected", [
    (".git/config", True), (".git/hooks/pre-commit", True), (".claude/settings.json", True),
    (".claude/worktrees/a/b.py", False), (".mcp.json", True), (".bashrc", True),
    (".vscode/tasks.json", True), (".husky/pre-commit", True), (".envrc", True),
    (".yarnrc.yml", True), ("lefthook.yml", True), (".config/git/config", True),
    ("src/main.py", False), ("docs/.gitkeep", False), ("gitconfig.txt", False),
])
def test_protected_paths(proj: Path, path: str, expected: bool) -> None:
    assert (protected_reason(proj / path, proj, (proj,)) is not None) is expected


def test_protected_through_symlink_and_dotdot(proj: Path) -> None:
    (proj / ".git").mkdir()
    (proj / "innocent").symlink_to(proj / ".git")
    assert protected_reason(proj / "innocent" / "config", proj, (proj,))
    assert protected_reason(proj / "src" / ".." / ".git" / "config", proj, (proj,))
    assert protected_reason(Path.home() / ".zshrc", proj, (proj,))


def test_recursive_search_over_a_read_denied_file_asks(proj: Path) -> None:
    (proj / ".env").write_text("K=1")
    deny = ("Read(./.env)",)
    for command in ("grep -r K .", "grep -rn K", "rg K", "rg K src/..", "grep -R K ."):
        d = check_bash(command, context(proj, deny=deny, mode="bypassPermissions"))
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
