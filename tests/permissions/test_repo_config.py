"""repo_config reads a repository's git config as git would, without running git.

Each case writes real files and compares with what `git config --list` itself says (git run
here only with the repository's programs unable to matter: listing config runs none).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from claude_harness.permissions.repo_config import find_gitdir, parse_config, repo_config

CONFIG = r"""
[core]
	fsmonitor = "touch /tmp/x" ; a comment
	hooksPath=hooks\
dir
[Filter "Mixed.Case"]
	clean = tr a b # trailing comment
	smudge = "quoted # not a comment"
[diff "a\"b"]
	textconv = cat
[branch.Old]
	flag
[credential]
	helper = store
	helper = !sh -c 'touch /tmp/y'
"""


def _git_list(repo: Path) -> list[tuple[str, str]]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(repo),
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}
    out = subprocess.run(["git", "config", "--local", "--list", "-z"], cwd=repo, env=env,
                         capture_output=True, check=True).stdout.decode()
    pairs = []
    for item in out.split("\0"):
        if item:
            key, _, value = item.partition("\n")
            pairs.append((key, value if "\n" in item else "true"))
    return pairs


def test_values_are_read_as_git_reads_them(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    with (tmp_path / ".git" / "config").open("a") as cfg:
        cfg.write(CONFIG)
    ours = parse_config((tmp_path / ".git" / "config").read_text())
    theirs = _git_list(tmp_path)
    # git lowercases the section and the name but keeps a quoted subsection as written
    assert [(k, v) for k, v in ours] == [(k, v) for k, v in theirs]


def test_programs_and_what_they_point_at(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "conv").write_text("#!/bin/sh\n")
    with (tmp_path / ".git" / "config").open("a") as cfg:
        cfg.write("[core]\n\tfsmonitor = true\n\thooksPath = .hooks\n"
                  "[diff \"x\"]\n\ttextconv = tools/conv --flag\n"
                  "[credential]\n\thelper = store\n"
                  "[includeIf \"gitdir:/never/\"]\n\tpath = ../extra.cfg\n")
    (tmp_path / "extra.cfg").write_text("[remote \"o\"]\n\tuploadpack = ./up.sh\n")
    config = repo_config(tmp_path / "tools")
    assert config is not None
    # a boolean fsmonitor is git's own daemon, `store` is git's own helper: not programs
    assert config.programs() == [("diff.x.textconv", "tools/conv --flag"),
                                 ("remote.o.uploadpack", "./up.sh")]
    pointed = {path: tree for path, tree, _why in config.executed_paths}
    root = tmp_path.resolve()
    assert pointed[root / ".hooks"] is True
    assert root / "extra.cfg" in pointed and root / "tools" / "conv" in pointed
    assert root / "up.sh" in pointed


def test_a_changed_or_created_include_is_read_again(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    with (tmp_path / ".git" / "config").open("a") as cfg:
        cfg.write("[include]\n\tpath = ../later.cfg\n")
    first = repo_config(tmp_path)
    assert first is not None and first.programs() == []
    (tmp_path / "later.cfg").write_text("[core]\n\tfsmonitor = ./watch\n")
    second = repo_config(tmp_path)
    assert second is not None and second.programs() == [("core.fsmonitor", "./watch")]


def test_gitdir_files_and_commondir_are_followed(tmp_path: Path) -> None:
    main, linked = tmp_path / "main", tmp_path / "linked"
    subprocess.run(["git", "init", "-q", str(main)], check=True)
    with (main / ".git" / "config").open("a") as cfg:
        cfg.write("[diff]\n\texternal = ./ext\n")
    gitdir = main / ".git" / "worktrees" / "linked"
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    linked.mkdir()
    (linked / ".git").write_text(f"gitdir: {gitdir}\n")
    found = find_gitdir(linked / "sub")
    assert found == (gitdir, linked)
    config = repo_config(linked)
    assert config is not None and config.programs() == [("diff.external", "./ext")]
    assert find_gitdir(tmp_path) is None
