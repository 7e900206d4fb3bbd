"""The permission decision runs nothing a repository configures, and asks where git would.

A hostile repository (what a downloaded tree can ship): its .git/config names an fsmonitor,
clean/smudge filters, an external diff, a textconv driver, a pager, gpg, a credential helper
and an upload-pack, all writing marker files; its hooks directory has a post-index-change hook;
a tracked file under a filter is modified (so hashing it would run the filter), and a second
repository's planted `.git/commondir` leads to that config. Deciding dozens of git commands
through the resolver, in every mode, allowed or denied, leaves no marker. Run unchecked in
bubblewrap, the read-only ones the checker used to allow do leave one: that is why they ask.
Files that config points at (its hooks directory, an included file, a filter's script) are
protected for the file tools and for Bash alike.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from claude_harness.permissions.bash.args import Arg
from claude_harness.permissions.bash.effects import Invocation
from claude_harness.permissions.bash.git_worktree import worktree_writes
from claude_harness.permissions.resolver import resolve_permission
from claude_harness.protocol.permission_data import PermissionContext, PermissionMode
from claude_harness.tools.edit import TOOL as EDIT
from claude_harness.tools.notebook_edit import TOOL as NOTEBOOK_EDIT
from claude_harness.tools.write import TOOL as WRITE
from tests.permissions.perm_helpers import BROAD, context, decide_bash, tool_context
from tests.permissions.sandbox_fixture import bwrap_problem, run_sandboxed, sandbox_base

DENY = ("Read(./.env)", "Bash(git push *)", "Bash(git stash *)", "Bash(git diff *)")


@dataclass(frozen=True)
class Hostile:
    root: Path

    @property
    def proj(self) -> Path:
        return self.root / "proj"

    @property
    def planted(self) -> Path:
        return self.root / "planted"

    @property
    def marks(self) -> Path:
        return self.root / "marks"

    def markers(self) -> list[str]:
        return sorted(p.name for p in self.marks.iterdir())


def _git(cwd: Path, *args: str, home: Path) -> None:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C", "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _config(marks: Path) -> str:
    def mark(name: str) -> str:
        return f"touch {marks}/{name}"

    return (
        f"[core]\n\tfsmonitor = {mark('fsmonitor')}\n\tpager = {mark('pager')}; cat\n"
        f"\tsshCommand = {mark('ssh')}\n\thooksPath = githooks\n"
        f"[filter \"evil\"]\n\tclean = {mark('clean')}; cat\n\tsmudge = {mark('smudge')}; cat\n"
        "[filter \"tool\"]\n\tclean = ./tools/clean.sh\n"
        f"[diff \"evil\"]\n\ttextconv = {mark('textconv')}; cat\n"
        f"[diff]\n\texternal = sh -c '{mark('external')}' x\n"
        f"[pager]\n\tlog = {mark('pager_log')}; cat\n"
        f"[gpg]\n\tprogram = {mark('gpg')}\n[log]\n\tshowSignature = true\n"
        f"[credential]\n\thelper = !{mark('credential')}\n"
        f"[remote \"origin\"]\n\tuploadpack = {mark('uploadpack')}; git-upload-pack\n"
        "[include]\n\tpath = ../inc/extra.cfg\n")


def build_hostile(root: Path) -> Hostile:
    world = Hostile(root)
    home = root / "home"
    for directory in (world.proj / "tools", world.proj / "githooks", world.marks, home,
                      root / "tmp"):
        directory.mkdir(parents=True)
    (world.proj / "README.md").write_text("# demo\n")
    (world.proj / "notes.txt").write_text("plain\n")
    (world.proj / ".gitattributes").write_text("*.txt filter=evil diff=evil\n")
    (world.proj / "tools" / "clean.sh").write_text("#!/bin/sh\ncat\n")
    _git(world.proj, "init", "-q", "-b", "main", home=home)
    _git(world.proj, "add", "-A", home=home)
    _git(world.proj, "commit", "-q", "-m", "first", home=home)
    _git(world.proj, "checkout", "-q", "-b", "feature", home=home)
    (world.proj / "notes.txt").write_text("feature\n")
    _git(world.proj, "commit", "-q", "-am", "feature", home=home)
    _git(world.proj, "checkout", "-q", "main", home=home)
    _git(root, "init", "-q", "--bare", "remote.git", home=home)
    _git(world.proj, "remote", "add", "origin", "../remote.git", home=home)
    _git(world.proj, "push", "-q", "origin", "main", home=home)
    with (world.proj / ".git" / "config").open("a") as cfg:
        cfg.write(_config(world.marks))
    hook = world.proj / "githooks" / "post-index-change"
    hook.write_text(f"#!/bin/sh\ntouch {world.marks}/hook_post_index_change\n")
    hook.chmod(0o755)
    (world.proj / "notes.txt").write_text("changed in the work tree\n")  # hashing it filters
    world.planted.mkdir()
    _git(world.planted, "init", "-q", "-b", "main", home=home)
    (world.planted / ".git" / "commondir").write_text(str(world.proj / ".git") + "\n")
    return world


@pytest.fixture(scope="module")
def hostile() -> Iterator[Hostile]:
    base = sandbox_base()
    world = build_hostile(base / "world")
    yield world
    shutil.rmtree(base, ignore_errors=True)


DECIDED = [
    "git status", "git status --short", "git diff", "git diff HEAD", "git diff --stat",
    "git log", "git log -p", "git log -p -1 -- notes.txt", "git show", "git show --stat",
    "git blame notes.txt", "git grep changed", "git ls-files -m", "git describe --always --dirty",
    "git stash", "git stash -u", "git stash -a", "git stash pop", "git stash show -p",
    "git reset --hard", "git reset --hard feature", "git checkout -- notes.txt",
    "git checkout feature", "git switch feature", "git restore notes.txt",
    "git restore -s feature notes.txt", "git clean -fd", "git clean -n", "git merge feature",
    "git cherry-pick feature", "git rebase feature", "git read-tree -u --reset feature",
    "git remote show origin", "git fetch origin", "git pull origin main", "git ls-remote origin",
    "git add notes.txt", "git commit -qam x", "git cat-file --filters HEAD:notes.txt",
    "git -C . status", "git -C githooks diff", "git log --show-signature -1",
]
MODES: tuple[tuple[PermissionMode, tuple[str, ...], tuple[str, ...]], ...] = (
    ("default", (), ()), ("default", BROAD, ()), ("default", BROAD, DENY),
    ("acceptEdits", (), ()), ("bypassPermissions", (), ()), ("bypassPermissions", (), DENY),
    ("plan", (), ()),
)


def _decide_everything(project: Path) -> list[str]:
    behaviors = []
    for mode, allow, deny in MODES:
        perm = context(project, mode=mode, allow=allow, deny=deny)
        for command in DECIDED:
            behaviors.append(decide_bash(command, perm).behavior)
    return behaviors


def test_deciding_git_commands_runs_nothing_the_repository_configures(hostile: Hostile) -> None:
    behaviors = _decide_everything(hostile.proj)
    assert hostile.markers() == [], "deciding ran the repository's programs"
    assert "deny" in behaviors and "ask" in behaviors  # denied ones were decided too


def test_a_planted_commondir_runs_nothing_and_asks(hostile: Hostile) -> None:
    """`.git/commondir` makes git take another directory's config: the decision follows it
    as data (the config asks) and runs none of it."""
    _decide_everything(hostile.planted)
    assert hostile.markers() == []
    decision = decide_bash("git status", context(hostile.planted, allow=BROAD))
    assert decision.behavior == "ask"
    assert "fsmonitor" in decision.reason


def test_work_tree_queries_see_a_filtered_file_without_running_the_filter(
        hostile: Hostile) -> None:
    """`git reset --hard` writes back every locally changed file: diff-index names the
    modified notes.txt from its stat data, where `git diff` would have run the clean filter."""
    inv = Invocation([Arg("git"), Arg("reset"), Arg("--hard")], hostile.proj)
    written = worktree_writes("reset", [Arg("--hard")], inv, hostile.proj)
    assert hostile.proj / "notes.txt" in {use.path for use in written}
    assert hostile.markers() == []


READ_ONLY_THAT_RUN_PROGRAMS = {
    "git status": "fsmonitor", "git diff": "external", "git log -p": "textconv",
    "git remote show origin": "uploadpack", "git diff --stat": "fsmonitor",
    "git blame notes.txt": "fsmonitor",
}


@pytest.mark.parametrize("command", sorted(READ_ONLY_THAT_RUN_PROGRAMS))
def test_read_only_git_in_a_hostile_repository_asks(hostile: Hostile, command: str) -> None:
    """The choice for a read-only command in a repository whose config names a program: ask
    (under `Bash(git *)` too), naming the setting. Neutralising it in the Bash tool would change
    what the user's own git setup does behind their back; asking shows it."""
    for allow in ((), BROAD):
        decision = decide_bash(command, context(hostile.proj, allow=allow))
        assert decision.behavior == "ask", (command, allow, decision.reason)
        assert "the repository's git config runs a program" in decision.reason


@pytest.mark.skipif(bwrap_problem() is not None, reason="bubblewrap is needed to run attacks")
@pytest.mark.parametrize("command", sorted(READ_ONLY_THAT_RUN_PROGRAMS))
def test_those_commands_really_run_the_program(hostile: Hostile, command: str,
                                               tmp_path_factory: pytest.TempPathFactory) -> None:
    """Proof that asking is needed: run unchecked in bubblewrap, in a copy of the repository
    mounted over its own path, each command starts the program its config names."""
    copy = Path(str(tmp_path_factory.mktemp("unused")))  # only for a unique name
    copy = hostile.root.parent / f"copy-{copy.name}"
    subprocess.run(["cp", "-a", str(hostile.root), str(copy)], check=True)
    try:
        rc, out, err, _timed_out, _final = run_sandboxed(copy, hostile.root, command,
                                                         cwd=hostile.proj)
        made = sorted(p.name for p in (copy / "marks").iterdir())
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    assert READ_ONLY_THAT_RUN_PROGRAMS[command] in made, (rc, out, err, made)
    assert hostile.markers() == []


def _file_tool_decision(tool, args: dict, perm: PermissionContext) -> str:  # type: ignore[no-untyped-def]
    inp = tool.input_model.model_validate(args)
    return asyncio.run(resolve_permission(tool, inp, tool_context(perm))).behavior


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "bypassPermissions"])
@pytest.mark.parametrize("target", ["githooks/pre-commit", "githooks/sub/x", "inc/extra.cfg",
                                    "tools/clean.sh"])
def test_files_the_config_points_at_are_protected(hostile: Hostile, mode: PermissionMode,
                                                  target: str) -> None:
    """core.hooksPath (the whole directory), include.path (even before it exists) and the
    script a filter runs: Write and Edit ask in every mode, as for `.git/` itself."""
    perm = context(hostile.proj, mode=mode, allow=("Edit", "Write"))
    path = str(hostile.proj / target)
    assert _file_tool_decision(WRITE, {"file_path": path, "content": "x"}, perm) == "ask"
    assert _file_tool_decision(EDIT, {"file_path": path, "old_string": "a", "new_string": "b"},
                               perm) == "ask"
    assert decide_bash(f"echo x > {target}", perm).behavior == "ask"


def test_a_notebook_under_the_hooks_directory_is_protected(hostile: Hostile) -> None:
    perm = context(hostile.proj, mode="bypassPermissions")
    args = {"notebook_path": str(hostile.proj / "githooks" / "n.ipynb"), "new_source": "x"}
    assert _file_tool_decision(NOTEBOOK_EDIT, args, perm) == "ask"


def test_other_files_of_that_repository_stay_editable(hostile: Hostile) -> None:
    perm = context(hostile.proj, mode="acceptEdits")
    assert _file_tool_decision(WRITE, {"file_path": str(hostile.proj / "README.md"),
                                       "content": "x"}, perm) == "allow"
    assert _file_tool_decision(WRITE, {"file_path": str(hostile.proj / "tools" / "other.sh"),
                                       "content": "x"}, perm) == "allow"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    from tests.permissions.perm_helpers import make_project

    proj = make_project(tmp_path / "proj")
    (tmp_path / "next-door").mkdir()
    (proj / "sub").mkdir()
    (proj / "rsp").write_text("-o\n/root/.bashrc\n")
    (proj / "evil.ini").write_text("[pytest]\naddopts = -q --junitxml=.git/hooks/x\n")
    (proj / "evil.toml").write_text('[tool.pytest.ini_options]\naddopts = ["--rootdir=/"]\n')
    (proj / "ok.cfg").write_text("[tool:pytest]\naddopts = -q\n")
    return proj


FOLDER_CASES = [
    ("Bash(cargo *)", "cargo build --manifest-path ../next-door/Cargo.toml", "ask"),
    ("Bash(cargo *)", "cargo build --manifest-path=sub/Cargo.toml", "allow"),
    ("Bash(yarn *)", "yarn --cwd ../next-door test", "ask"),
    ("Bash(yarn *)", "yarn --cwd=sub test", "allow"),
    ("Bash(pnpm *)", "pnpm -C ../next-door test", "ask"),
    ("Bash(pnpm *)", "pnpm --dir ../next-door run build", "ask"),
    ("Bash(go *)", "go -C ../next-door test ./...", "ask"),
    ("Bash(make *)", "make -C sub", "allow"),
    ("Bash(make *)", "make -C../next-door", "ask"),
    ("Bash(make *)", "make -C .git/hooks", "ask"),
    ("Bash(poetry *)", "poetry -C ../next-door run pytest", "ask"),
    ("Bash(uv *)", "uv run --directory ../next-door pytest", "ask"),
    ("Bash(just *)", "just -d ../next-door test", "ask"),
    ("Bash(npm *)", "npm test --prefix sub", "allow"),
    ("Bash(npm *)", "npm test --prefix $HOME", "ask"),
    ("Bash(gcc *)", "gcc -c src/main.c @rsp", "ask"),
    ("Bash(gcc *)", "gcc -c src/main.c", "allow"),
    ("Bash(javac *)", "javac @rsp", "ask"),
    ("Bash(python -m pytest *)", "python -m pytest -c evil.ini", "ask"),
    ("Bash(python -m pytest *)", "python -m pytest --config-file=evil.toml", "ask"),
    ("Bash(python -m pytest *)", "python -m pytest -c missing.ini", "ask"),
    ("Bash(python -m pytest *)", "python -m pytest -c ok.cfg tests", "allow"),
]


@pytest.mark.parametrize(("rule", "command", "expected"), FOLDER_CASES)
def test_runner_folders_and_response_files(project: Path, rule: str, command: str,
                                           expected: str) -> None:
    """A runner sent to another folder is decided as a run there (outside: ask; inside: its
    allow rule covers it); a response file an unknown program would read asks; the addopts of
    a config file pytest is pointed at are checked with the command's own options."""
    decision = decide_bash(command, context(project, allow=(rule,)))
    assert decision.behavior == expected, decision.reason
