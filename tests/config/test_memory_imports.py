"""`@path` imports of memory files are decided as a Read of the file would be (real files)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from claude_harness.config.memory import load_memory
from claude_harness.permissions.rules import parse_rule
from claude_harness.protocol.permission_data import PermissionContext, PermissionRule


@pytest.fixture
def repo(home: Path) -> Path:
    project = (home.parent / "repo").resolve()
    (project / "docs").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "docs" / "style.md").write_text("STYLE-IN-REPO\n")
    (project / ".env").write_text("DOTENV-SECRET\n")
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "extra.md").write_text("USER-EXTRA\n")
    (home / "notes.md").write_text("HOME-NOTES\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("AWS-SECRET\n")
    return project


def _perm(cwd: Path, *, allow: tuple[str, ...] = (), deny: tuple[str, ...] = (),
          ask: tuple[str, ...] = ()) -> PermissionContext:
    rules = tuple(PermissionRule("userSettings", kind, parse_rule(text))  # type: ignore[arg-type]
                  for kind, texts in (("allow", allow), ("deny", deny), ("ask", ask))
                  for text in texts)
    return PermissionContext(rules=rules, cwd=cwd)


def test_the_users_own_memory_imports_the_persons_files_but_no_secret_or_denied_one(
        home: Path, repo: Path) -> None:
    (home / ".claude" / "CLAUDE.md").write_text(
        "USER\n@~/.claude/extra.md\n@~/notes.md\n@~/.aws/credentials\n")
    text = load_memory(repo, permission=_perm(repo), trusted=False).text
    assert "USER-EXTRA" in text and "HOME-NOTES" in text
    assert "AWS-SECRET" not in text
    denied = load_memory(repo, permission=_perm(repo, deny=("Read(~/notes.md)",))).text
    assert "USER-EXTRA" in denied and "HOME-NOTES" not in denied


@pytest.mark.parametrize("trusted", [False, True])
def test_repository_imports_inside_it_flow_but_not_what_a_rule_or_secret_covers(
        repo: Path, trusted: bool) -> None:
    (repo / "CLAUDE.md").write_text("ROOT\n@docs/style.md\n@.env\n@docs/../.env\n")
    text = load_memory(repo, permission=_perm(repo), trusted=trusted).text
    assert "STYLE-IN-REPO" in text and "DOTENV-SECRET" not in text
    for rules in ({"deny": ("Read(./docs/**)",)}, {"ask": ("Read(docs/style.md)",)}):
        text = load_memory(repo, permission=_perm(repo, **rules), trusted=trusted).text
        assert "STYLE-IN-REPO" not in text, rules


def test_before_trust_a_repository_import_never_leaves_it_even_under_an_allow_rule(
        home: Path, repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("ROOT\n@~/notes.md\n@../home/notes.md\n")
    perm = _perm(repo, allow=("Read(~/notes.md)",))
    assert "HOME-NOTES" not in load_memory(repo, permission=perm, trusted=False).text
    assert "HOME-NOTES" in load_memory(repo, permission=perm, trusted=True).text
