"""The compiled rule check Grep and Glob use to leave protected files out (tools/grep/protect.py)
decides every file exactly as the Read decision's matcher does, on a real tree listed by real
ripgrep, through a symlinked search folder too. (The pipeline test: tests/e2e/
test_search_protected.py.)"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from claude_harness.permissions.rules import parse_rule
from claude_harness.protocol.permission_data import PermissionContext, PermissionRule
from claude_harness.tools.grep.protect import protection
from claude_harness.tools.grep.ripgrep import find_rg

RULES = ["Read(./.env)", "Read(.env*)", "Read(*.pem)", "Read(./config/secrets/**)",
         "Read(/deep/**/token.txt)", "Read(**/private/*)", "Read(src/generated)",
         "Read(//{outside}/**)", "Read(~/notes.txt)", "Grep(./logs/*.log)"]
FILES = [".env", ".env.local", "a/.env", "key.pem", "a/b/c.pem", "config/secrets/k",
         "config/app.toml", "deep/x/y/token.txt", "deep/token.txt", "x/private/p.txt",
         "x/private/q/r.txt", "src/generated/g.py", "src/app.py", "logs/a.log", "logs/a.txt",
         "README.md"]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    for name in FILES:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("x\n")
    (tmp_path / "alias").symlink_to(project, target_is_directory=True)
    return project


def listed(cwd: Path, root: str | None) -> list[str]:
    argv = [find_rg(), "--no-config", "--files", "--hidden", "--null"]
    out = subprocess.run([*argv, *([root] if root else [])], cwd=cwd, capture_output=True,
                         check=True).stdout
    return [p for p in out.decode().split("\0") if p]


@pytest.mark.parametrize("via_alias", [False, True])
def test_the_compiled_check_agrees_with_the_rule_matcher(tree: Path, tmp_path: Path,
                                                         via_alias: bool) -> None:
    rules = tuple(PermissionRule("projectSettings", "deny",
                                 parse_rule(r.format(outside=str(tree / "a").lstrip("/"))), tree)
                  for r in RULES)
    perm = PermissionContext(mode="default", rules=rules, cwd=tree)
    cwd = tmp_path if via_alias else tree
    root = "alias" if via_alias else None
    guard = protection("Grep", perm, cwd)
    paths = listed(cwd, root)
    assert len(paths) == len(FILES)
    excluded = {p for p in paths if guard.excludes(p)}
    reference = {p for p in paths if guard.excludes_by_rule_matcher(os.path.join(cwd, p))}
    assert excluded == reference
    kept = {p.removeprefix("alias/") for p in paths if p not in excluded}
    assert kept == {"config/app.toml", "src/app.py", "logs/a.txt", "README.md"}
