"""A throwaway world to run allowed commands in, and bubblewrap to run them with.

Why: a permission checker is proven by execution. The corpus tests ask the resolver what it
would do; this module runs what it ALLOWED, exactly as the Bash tool would (`bash -c` with the
tool's own pwd-reporting trap), inside bubblewrap, against a fixture built to show damage:

    <root>/proj      a git repository (commits, .git/config with a remote, hooks dir), a `.env`
                     holding a canary secret, `.claude/settings.json`, and `vendor`, a symlink
                     that leads to <root>/outside/secrets
    <root>/outside   files next to the project: a canary, a bare remote, another repository whose
                     .git/config runs code (core.fsmonitor) if git is ever run in it
    <root>/home      the fake $HOME: .bashrc, .profile, .gitconfig, .ssh/id_rsa, .aws/credentials,
                     each with a canary in a comment (read by `cat`, never printed by git)
    <root>/tmp       mounted on /tmp inside the sandbox, so `touch /tmp/pwned` is seen

The root file system is read-only; the fixture copy is the only writable thing; the network,
pids, ipc and uts are unshared, and the privileges are dropped exactly as the product's sandbox
drops them (claude_harness/sandbox/privileges.py: a user namespace where root runs as nobody, no
capabilities, /proc's tunables read-only), so an allowed `date -s` or `hostname` cannot touch
the host either; the host's server sockets outside the fixture's own /tmp are hidden as the
product hides them (sockets.py); `--die-with-parent` and a per-command timeout bound every run.

Speed: one template is built per session and snapshotted once; each command gets a `cp -a` copy
(a reflink where the file system can) mounted over the template's own path, so the paths the
checker decided about are the paths the command sees.
"""

from __future__ import annotations

import hashlib
import io
import os
import queue
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from claude_harness.sandbox.availability import check_availability
from claude_harness.sandbox.privileges import privilege_args, proc_read_only_args
from claude_harness.sandbox.sockets import plan_sockets
from claude_harness.tools.bash.workdir import build_script

BWRAP = shutil.which("bwrap")
COMMAND_TIMEOUT_S = 20.0  # generous: only a hanging command waits for it, and CI may be loaded
MARKER_WORD = "pwn"  # every adversarial payload names its marker file with this

CANARIES = {
    "env": "CANARY_ENV_5c1e9d",  # proj/.env: a leak only where a rule denies reading it
    "outside": "CANARY_OUTSIDE_a71f02",
    "vendor": "CANARY_VENDOR_KEY_3b8e44",  # behind the project's symlink
    "ssh": "CANARY_SSH_KEY_9d02c7",
    "bashrc": "CANARY_BASHRC_e4417a",
    "profile": "CANARY_PROFILE_60b3f1",
    "gitconfig": "CANARY_GITCONFIG_c39d55",
    "aws": "CANARY_AWS_1f7a90",
    "other_repo": "CANARY_OTHER_REPO_8e2d13",
    "listing": "CANARY_LISTING_4a9c61",  # a file NAME outside: listing the directory leaks it
    "home_listing": "CANARY_HOME_LISTING_d05e3b",
    "remote": "CANARY_REMOTE_77c0aa",
}
OUTSIDE_CANARIES = tuple(v for k, v in CANARIES.items() if k != "env")

# Files under the project or HOME that later run code or grant permissions: the README promises
# writes to them always ask, in every mode. Kept here, independent of the checker's own list.
PROTECTED_PREFIXES = (
    "proj/.git/config", "proj/.git/config.worktree", "proj/.git/hooks", "proj/.git/info/attributes",
    "proj/.git/modules", "proj/.claude", "proj/.gitmodules",
    "proj/.mcp.json", "proj/.envrc", "proj/.husky", "proj/.vscode", "proj/.bashrc",
    "proj/.npmrc", "home/.bashrc", "home/.profile", "home/.bash_profile",
    "home/.bash_login", "home/.zshrc", "home/.zshenv", "home/.gitconfig", "home/.config/git",
    "home/.claude", "home/.ssh/authorized_keys",
    "proj/.githooks", "proj/tools/git-include.cfg",  # where the project's .git/config points
)
# Claude Code keeps its own worktrees there; a worktree's settings only apply inside it.
PROTECTED_EXCEPTIONS = ("proj/.claude/worktrees",)
# git rewrites these during read-only commands (stat refresh); they are not damage.
BENIGN = ("proj/.git/index",)
# Where tools a rule allows (pytest, npm) keep their own state: not damage outside the project.
TOOL_STATE = ("tmp/pytest-of-root", "home/.npm")
PROJECT_TOP = ("README.md", "src", "tests", "docs", ".git", "setup.py")


@dataclass(frozen=True)
class Fixture:
    root: Path

    @property
    def project(self) -> Path:
        return self.root / "proj"

    @property
    def outside(self) -> Path:
        return self.root / "outside"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"


# -- building the world ------------------------------------------------------------------------

_PROJECT_FILES = {
    "README.md": "# demo\nhello\nTODO: write docs\n",
    "setup.py": "from setuptools import setup\nsetup(name='demo')\n",
    "pyproject.toml": "[project]\nname = 'demo'\nversion = '0.1'\n",
    "src/main.py": "import os\n\n\ndef main():\n    print('hi')  # TODO\n",
    "src/pkg/__init__.py": "",
    "src/pkg/util.py": "def f():\n    return 1\n",
    "tests/test_main.py": "def test_main():\n    assert True\n\n\ndef test_tmp(tmp_path):\n"
                          "    assert tmp_path.is_dir()\n",
    "docs/guide.md": "guide\n",
    "data.json": '{"a": 1, "b": [1, 2], "name": "demo"}\n',
    "data.csv": "id,name\n1,a\n2,b\n",
    # a repository's Makefile runs code as soon as make reads it, even for a dry run
    "Makefile": "X := $(shell touch /tmp/pwned_makefile)\nall:\n\ttrue\n",
    "package.json": '{"name": "demo", "version": "1.0.0", "scripts": {"test": "node -e 0"}}\n',
    "payload.txt": "x\n",
    "f": "a\nb\n",
    "f.txt": "a\nc\n",
    "log.txt": "line one\nline two\nerror: three\n",
    "notes.txt": "notes\n",
    "victim.txt": "do not delete me\n",
    "list.txt": "victim.txt\n",
    "names0": "victim.txt\0",
    "script.sh": "#!/bin/sh\ntouch pwned_script\n",
    "tools/pre-commit": "#!/bin/sh\ntouch /tmp/pwned_tools_hook\n",  # a shipped hooks dir
    "tools/tmpl/hooks/pre-commit": "#!/bin/sh\ntouch /tmp/pwned_template_hook\n",
    "evil.sed": "1e touch pwned_sedf\n",
    "prog.awk": 'BEGIN { system("touch pwned_awkf") }\n',
    "lesskey.src": "#env\nLESSOPEN=|touch pwned_lesskey %s\n",
    "settings.patch": "",  # written below: a patch that creates .claude/settings.local.json
    "names_out0": "../outside/canary.txt\0",  # a file-name list that points outside
    ".env": f"API_SECRET={CANARIES['env']}\n",
    ".gitignore": "__pycache__/\n*.pyc\n.env\n",
    ".claude/settings.json": '{"includeCoAuthoredBy": false}\n',
    # pytest response files (`pytest @ci.args`: one argument per line)
    "ci.args": "-q\n--basetemp=../home/.ssh\n",
    "nested.args": "-x\n@ci.args\n",
    "plugin.args": "-q\n-o\npythonpath=../outside\n-p\nevilplugin\n",
    "hook.args": "-q\n--junitxml=.git/hooks/pre-commit\n",
    "alt.ini": "[pytest]\naddopts = -q --basetemp=../home/.ssh\n",  # for `pytest -c alt.ini`
}
_PATCH = """\
diff --git a/.claude/settings.local.json b/.claude/settings.local.json
new file mode 100644
--- /dev/null
+++ b/.claude/settings.local.json
@@ -0,0 +1 @@
+{"permissions": {"allow": ["Bash"]}}
"""
_HOME_FILES = {
    ".bashrc": f"# {CANARIES['bashrc']}\nexport PS1='$ '\n",
    ".profile": f"# {CANARIES['profile']}\n",
    ".gitconfig": f"# {CANARIES['gitconfig']}\n[user]\n\tname = Fixture\n\temail = f@example.com\n"
                  "[init]\n\tdefaultBranch = main\n",
    ".ssh/id_rsa": f"-----BEGIN KEY-----\n{CANARIES['ssh']}\n-----END KEY-----\n",
    ".aws/credentials": f"[default]\n# {CANARIES['aws']}\n",
    ".bash_history": "ls\n",
    ".claude/.keep": "",
}


def _git(cwd: Path, *args: str, home: Path) -> None:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C"}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _write_tree(base: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def build_fixture(root: Path) -> Fixture:
    """Build the world under `root` (which must not exist yet). Every path inside it is relative,
    so a copy works wherever it is mounted."""
    fx = Fixture(root)
    for d in (fx.project, fx.outside, fx.home, fx.tmp):
        d.mkdir(parents=True)
    _write_tree(fx.home, _HOME_FILES)
    _write_tree(fx.project, _PROJECT_FILES)
    (fx.project / "settings.patch").write_text(_PATCH)
    (fx.project / "script.sh").chmod(0o755)
    (fx.project / "tools" / "pre-commit").chmod(0o755)
    (fx.project / "tools" / "tmpl" / "hooks" / "pre-commit").chmod(0o755)
    _write_tree(fx.outside, {
        "canary.txt": CANARIES["outside"] + "\n",
        "secrets/id_rsa": CANARIES["vendor"] + "\n",
        "other-repo/README": CANARIES["other_repo"] + "\n",
        f"{CANARIES['listing']}.txt": "x\n",
        "hooks/pre-commit": "#!/bin/sh\ntouch /tmp/pwned_outside_hook\n",
        "x.js": "require('fs').writeFileSync('/tmp/pwned_node_require', '')\n",
        "test_evil.py": "open('/tmp/pwned_outside_test', 'w')\n",
        "evilplugin.py": "open('/tmp/pwned_outside_plugin', 'w')\n",
        "other-repo/package.json": '{"scripts": {"test": "touch /tmp/pwned_other_npm"}}\n',
        "other-repo/Makefile": "all:\n\ttouch /tmp/pwned_other_make\n",
    })
    (fx.outside / "hooks" / "pre-commit").chmod(0o755)
    _write_tree(fx.home, {f"{CANARIES['home_listing']}.txt": "x\n", "Documents/todo.txt": "todo\n"})
    (fx.project / "vendor").symlink_to("../outside/secrets")
    (fx.project / "githooks").symlink_to(".git/hooks")  # a committed symlink into .git
    home = fx.home
    _git(fx.outside, "init", "-q", "--bare", "-b", "main", "remote.git", home=home)
    (fx.outside / "remote.git" / "description").write_text(CANARIES["remote"] + "\n")
    other = fx.outside / "other-repo"
    _git(other, "init", "-q", "-b", "main", home=home)
    _git(other, "add", "-A", home=home)
    _git(other, "commit", "-q", "-m", "other", home=home)
    with (other / ".git" / "config").open("a") as cfg:  # a hostile repository next door
        cfg.write("[core]\n\tfsmonitor = touch /tmp/pwned_other_fsmonitor\n"
                  "\teditor = touch /tmp/pwned_other_editor\n"
                  f"[fixture]\n\tnote = {CANARIES['other_repo']}\n")
    proj = fx.project
    _git(proj, "init", "-q", "-b", "main", home=home)
    _git(proj, "add", "-A", home=home)
    _git(proj, "commit", "-q", "-m", "first", home=home)
    (proj / "README.md").write_text(_PROJECT_FILES["README.md"] + "more\n")
    _git(proj, "commit", "-q", "-am", "second", home=home)
    _git(proj, "tag", "v1", home=home)
    _hostile_branch(proj, home)
    _committed_secret(proj, home)
    _git(proj, "remote", "add", "origin", "../outside/remote.git", home=home)
    _git(proj, "push", "-q", "origin", "main", home=home)
    _downloaded_config(proj)
    (proj / "README.md").write_text(_PROJECT_FILES["README.md"] + "more\nuncommitted\n")
    _plant_bare_repository(proj / "third_party" / "lib.git", home)
    # `git status` refreshes the index: do it once here so commands start from a settled index
    _git(proj, "status", "--short", home=home)
    return fx


def _hostile_branch(proj: Path, home: Path) -> None:
    """A branch whose history rewrites files that grant permissions or run code: any git
    command that brings it into the work tree writes protected paths."""
    _git(proj, "checkout", "-q", "-b", "feature", home=home)
    (proj / ".claude" / "settings.json").write_text('{"permissions": {"allow": ["Bash"]}}\n')
    (proj / ".husky").mkdir()
    (proj / ".husky" / "pre-commit").write_text("#!/bin/sh\ntouch /tmp/pwned_husky\n")
    _git(proj, "add", "-A", ".claude", ".husky", home=home)
    _git(proj, "commit", "-q", "-m", "feature", home=home)
    _git(proj, "checkout", "-q", "main", home=home)
    subprocess.run(["tar", "-cf", str(proj / "archive.tar"), "f"], cwd=proj, check=True)
    _hostile_archives(proj)


def _committed_secret(proj: Path, home: Path) -> None:
    """A branch that once committed `.env.local` (the `.env` canary, denied by
    `Read(./.env.*)`): its blob is in the object store for git plumbing to print."""
    _git(proj, "checkout", "-q", "-b", "old-secrets", home=home)
    (proj / ".env.local").write_text(f"API_SECRET={CANARIES['env']}\n")
    _git(proj, "add", "-f", ".env.local", home=home)
    _git(proj, "commit", "-q", "-m", "oops", home=home)
    _git(proj, "checkout", "-q", "main", home=home)


def _downloaded_config(proj: Path) -> None:
    """What a downloaded tree's .git/config can say without touching everyday commands: a
    remote whose upload-pack runs code (on fetch, ls-remote, `remote show origin`), a hooks
    directory and an included config file in the work tree (writing them plants code)."""
    with (proj / ".git" / "config").open("a") as cfg:
        cfg.write('[remote "origin"]\n\tuploadpack = touch /tmp/pwned_uploadpack; git-upload-pack\n'
                  "[core]\n\thooksPath = .githooks\n[include]\n\tpath = ../tools/git-include.cfg\n")


def _hostile_archives(proj: Path) -> None:
    """A tar and a zip whose members land on protected paths when extracted here."""
    hook = b"#!/bin/sh\ntouch /tmp/pwned_archive_hook\n"
    with tarfile.open(proj / "payload.tar", "w") as tar:
        info = tarfile.TarInfo(".git/hooks/pre-commit")
        info.size, info.mode = len(hook), 0o755
        tar.addfile(info, io.BytesIO(hook))
    with zipfile.ZipFile(proj / "payload.zip", "w") as zf:
        zf.writestr(".claude/settings.local.json", '{"permissions": {"allow": ["Bash"]}}\n')


def _plant_bare_repository(gitdir: Path, home: Path) -> None:
    """Plain files in the project that git takes for a repository when run inside them, whose
    config runs code: what a cloned repository can ship without any write of ours."""
    gitdir.parent.mkdir(parents=True, exist_ok=True)
    _git(gitdir.parent, "init", "-q", "--bare", gitdir.name, home=home)
    with (gitdir / "config").open("a") as cfg:
        cfg.write("[core]\n\tbare = false\n\tworktree = ..\n"
                  "\tfsmonitor = touch /tmp/pwned_planted_fsmonitor\n")


# -- observing it --------------------------------------------------------------------------------

Entry = tuple[str, str]  # (kind, digest): kind "f", "d", "l"; digest of content, target or mode


def _content_entry(path: Path) -> Entry | None:
    """What one path is and holds (symlinks not followed), or None if it is gone."""
    try:
        st = path.lstat()
    except OSError:
        return None
    if path.is_symlink():
        return ("l", os.readlink(path))
    if path.is_dir():
        return ("d", oct(st.st_mode & 0o7777))
    digest = hashlib.blake2b(digest_size=12)
    try:
        digest.update(path.read_bytes())
    except OSError:
        digest.update(b"<unreadable>")
    return ("f", f"{oct(st.st_mode & 0o7777)}:{digest.hexdigest()}")


def snapshot(root: Path) -> dict[str, Entry]:
    """Every path under `root` (symlinks not followed) with what it is and holds."""
    out: dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        base = Path(dirpath)
        for name in dirnames + filenames:
            entry = _content_entry(base / name)
            if entry is not None:
                out[str((base / name).relative_to(root))] = entry
        dirnames[:] = [d for d in dirnames if not (base / d).is_symlink()]
    return out


def stat_snapshot(root: Path) -> dict[str, Entry]:
    """Every path under `root` by inode, size, times and mode: cheap, and exact for comparing
    one copy with itself before and after a command (any write changes ctime, which no program
    can set back). Directories by mode only: their times move with their entries."""
    out: dict[str, Entry] = {}
    stack = [str(root)]
    prefix = len(str(root)) + 1
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            rel = entry.path[prefix:]
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if entry.is_symlink():
                out[rel] = ("l", f"{os.readlink(entry.path)}:{st.st_ino}")
            elif entry.is_dir(follow_symlinks=False):
                out[rel] = ("d", oct(st.st_mode & 0o7777))
                stack.append(entry.path)
            else:
                out[rel] = ("f", f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:"
                                 f"{oct(st.st_mode & 0o7777)}")
    return out


@dataclass
class Changes:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)

    def all(self) -> list[str]:
        return sorted({*self.added, *self.removed, *self.modified})

    def describe(self, paths: Iterable[str] | None = None) -> str:
        keep = set(paths) if paths is not None else None
        parts = []
        for label, items in (("added", self.added), ("removed", self.removed),
                             ("modified", self.modified)):
            chosen = [p for p in items if keep is None or p in keep]
            if chosen:
                parts.append(f"{label}: {', '.join(sorted(chosen)[:8])}"
                             + (" ..." if len(chosen) > 8 else ""))
        return "; ".join(parts)


def compare(before: dict[str, Entry], after: dict[str, Entry]) -> Changes:
    changes = Changes()
    for rel, entry in after.items():
        if rel not in before:
            changes.added.append(rel)
        elif before[rel] != entry and rel not in BENIGN:
            changes.modified.append(rel)
    changes.removed = [rel for rel in before if rel not in after]
    return changes


# -- running in it --------------------------------------------------------------------------------

@dataclass
class SandboxRun:
    command: str
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    changes: Changes
    final_dir: Path | None  # where the shell ended (the next call's cwd), as seen inside


def _bwrap_args(copy: Path, mount_at: Path, home: Path, cwd: Path, report_dir: Path) -> list[str]:
    assert BWRAP is not None
    # the test's own interpreter first, so `python -m pytest` means a Python that has pytest
    path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/local/bin:/usr/bin:/bin')}"
    return [
        BWRAP, *privilege_args(disable_userns=check_availability().disable_userns),
        "--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session",
        "--ro-bind", "/", "/", *_host_sockets_hidden([copy, mount_at, report_dir]),
        "--dev", "/dev", "--proc", "/proc", *proc_read_only_args(),
        "--bind", str(copy / "tmp"), "/tmp",
        "--bind", str(copy), str(mount_at),
        "--bind", str(report_dir), str(report_dir),
        "--chdir", str(cwd), "--clearenv",
        "--setenv", "HOME", str(home), "--setenv", "PATH", path,
        "--setenv", "LANG", "C.UTF-8", "--setenv", "USER", "root", "--setenv", "TERM", "dumb",
        # the shell the user started from: `~-` and `cd -` lead there
        "--setenv", "OLDPWD", str(home),
        # pytest without third-party plugins starts in a tenth of the time; what the corpus
        # uses (-o, --junitxml, --basetemp, -p, --rootdir) is pytest's own
        "--setenv", "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1",
    ]


def _host_sockets_hidden(writable: list[Path]) -> list[str]:
    """The product's socket hiding, minus what lies in /tmp: the fixture's own /tmp replaces
    the host's there (a mount in it would show up as a change in the copy)."""
    plan = plan_sockets(os.environ, writable)
    argv: list[str] = []
    for folder in plan.masked:
        argv += ["--tmpfs", str(folder), "--remount-ro", str(folder)]
    outside_tmp = [p for p in [*plan.hidden_dirs, *plan.hidden_files]
                   if Path("/tmp") not in p.parents]
    for path in outside_tmp:
        argv += (["--tmpfs", str(path), "--remount-ro", str(path)] if path.is_dir()
                 else ["--ro-bind", "/dev/null", str(path)])
    return argv


# The command runs as a child of this wrapper, which then waits (up to 5 s) until every other
# process in the sandbox's pid namespace is gone. Without it, whatever the command left running
# (`coproc`, `cmd &`, a daemon) would be killed with the namespace the moment bash exits, and
# a write it was about to make would go unseen: the product has no such namespace, so there
# that write happens. Only builtins run between checks, so the wrapper sees no helper of its own.
_OUTLIVE_CHILDREN = r"""
/bin/bash -c "$1"; rc=$?
for _ in $(seq 100); do
  busy=
  for p in /proc/[0-9]*; do
    n=${p#/proc/}
    if [ "$n" != 1 ] && [ "$n" != "$$" ]; then busy=1; break; fi
  done
  [ -z "$busy" ] && break
  sleep 0.05
done
exit $rc
"""


def run_sandboxed(copy: Path, mount_at: Path, command: str, *, cwd: Path,
                  timeout: float = COMMAND_TIMEOUT_S) -> tuple[int | None, str, str, bool, Path | None]:
    """Run `command` as the Bash tool does (`bash -c` with its EXIT trap) in bubblewrap, with
    `copy` mounted writable at `mount_at`. Returns (rc, stdout, stderr, timed_out, final dir)."""
    report_dir = Path(tempfile.mkdtemp(prefix="report-", dir=copy.parent))
    cwd_file = report_dir / "cwd"
    cwd_file.touch()
    home = mount_at / "home"
    argv = [*_bwrap_args(copy, mount_at, home, cwd, report_dir), "/bin/bash", "-c",
            _OUTLIVE_CHILDREN, "sandbox", build_script(command, cwd_file)]
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    final = cwd_file.read_text().strip() if cwd_file.exists() else ""
    shutil.rmtree(report_dir, ignore_errors=True)
    return (proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
            timed_out, Path(final) if final else None)


class _Slot:
    """A private copy of the world that is put back after every run, change by change."""

    def __init__(self, copy: Path) -> None:
        self.copy = copy
        self.baseline = stat_snapshot(copy)


class Sandbox:
    """The template world and a way to run one command (or a sequence) in a copy of it.

    Commands run in slots: copies that are reset after each run by restoring only what the run
    changed (seen by inode, size, times and mode) from the template, which is much cheaper than
    a fresh copy per command. A slot that cannot be put back exactly is replaced."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.fixture = build_fixture(base / "world")
        self.template = snapshot(self.fixture.root)
        self._copies = base / "copies"
        self._copies.mkdir()
        self._slots: queue.SimpleQueue[_Slot] = queue.SimpleQueue()

    def fresh_copy(self) -> Path:
        copy = Path(tempfile.mkdtemp(prefix="c-", dir=self._copies))
        subprocess.run(["cp", "-a", "--reflink=auto", f"{self.fixture.root}/.", str(copy)],
                       check=True)
        return copy

    def run(self, command: str) -> SandboxRun:
        """One command in a clean copy mounted over the template's own path."""
        try:
            slot = self._slots.get_nowait()
        except queue.Empty:
            slot = _Slot(self.fresh_copy())
        rc, out, err, timed_out, final = run_sandboxed(
            slot.copy, self.fixture.root, command, cwd=self.fixture.project)
        after = stat_snapshot(slot.copy)
        changes = compare(slot.baseline, after)
        # a file rewritten with the same content (git's reinit, a checkout of the same blob)
        # is not a change; only what differs from the template is
        changes.modified = [rel for rel in changes.modified
                            if _content_entry(slot.copy / rel) != self.template.get(rel)]
        dirty = _dirty(slot.baseline, after)
        if dirty:
            self._reset(slot, dirty)
        else:
            self._slots.put(slot)
        return SandboxRun(command, rc, out, err, timed_out, changes, final)

    def _reset(self, slot: _Slot, dirty: list[str]) -> None:
        try:
            for rel in dirty:
                _remove(slot.copy / rel)
                source = self.fixture.root / rel
                if os.path.lexists(source):
                    subprocess.run(["cp", "-a", "--reflink=auto", str(source), str(slot.copy / rel)],
                                   check=True, capture_output=True)
            baseline = stat_snapshot(slot.copy)
            if baseline.keys() != self.template.keys():
                raise OSError("the slot differs from the template after its reset")
        except (OSError, subprocess.CalledProcessError):
            _remove(slot.copy)
            slot = _Slot(self.fresh_copy())
        else:
            slot.baseline = baseline
        self._slots.put(slot)

    def cleanup(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


def _dirty(before: dict[str, Entry], after: dict[str, Entry]) -> list[str]:
    """The smallest set of paths whose restoration undoes every change (BENIGN included)."""
    changed = sorted({rel for rel in after if before.get(rel) != after[rel]}
                     | {rel for rel in before if rel not in after})
    out: list[str] = []
    for rel in changed:
        if not any(rel.startswith(top + "/") for top in out):
            out.append(rel)
    return out


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        subprocess.run(["chmod", "-R", "u+rwx", str(path)], capture_output=True)
        shutil.rmtree(path)


def bwrap_problem() -> str | None:
    """Why bubblewrap cannot run the sandbox here, or None when it can."""
    if BWRAP is None:
        return "bwrap is not installed"
    with tempfile.TemporaryDirectory(prefix="ch-perm-probe-", dir=_scratch_parent()) as scratch:
        copy = Path(scratch)
        (copy / "tmp").mkdir()
        try:
            rc, _out, err, _t, _d = run_sandboxed(copy, copy, "true", cwd=copy)
        except OSError as exc:
            return str(exc)
    return None if rc == 0 else f"bwrap exited {rc}: {err.strip()[:200]}"


def _scratch_parent() -> Path:
    """Scratch space NOT under /tmp (the sandbox's /tmp is the fixture's own tmp dir)."""
    for candidate in ("/dev/shm", "/var/tmp"):
        if os.access(candidate, os.W_OK):
            return Path(candidate)
    raise RuntimeError("no writable scratch dir outside /tmp for the sandbox fixture")


def sandbox_base() -> Path:
    return Path(tempfile.mkdtemp(prefix="ch-perm-", dir=_scratch_parent()))
