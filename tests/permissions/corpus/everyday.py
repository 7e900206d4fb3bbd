"""Read-only commands people run every day. In default mode with no rules each should run
without a prompt (target: at least 97 %), and running them must change nothing.

The names refer to the sandbox fixture's project (README.md, src/, data.json, log.txt, ...).
"""

from __future__ import annotations

# the false positives everyday use hits: each of these asked once
ISSUE_FALSE_POSITIVES = [
    "echo $?", "echo $HOME", 'echo "$PWD"', "printenv HOME", 'basename "$PWD"', "echo $(date)",
    "python --version", "node --version", "git --version", "git log --follow -- README.md",
    "git remote show", "env | grep -i path", "find . -name '*.py' | xargs grep foo",
    "find . -name '*.py' -exec wc -l {} +", "git ls-files | xargs wc -l", "ulimit -n",
]

GIT = [
    "git status", "git status --short", "git status -sb", "git status --porcelain",
    "git status -uno", "git log", "git log --oneline", "git log --oneline -5", "git log -1",
    "git log -n 3", "git log --stat", "git log --stat -2", "git log -p -1", "git log --graph --oneline",
    "git log --graph --oneline --all", "git log --decorate", "git log --since=yesterday",
    "git log --since='2 weeks ago'", "git log --author=Fixture", "git log --format='%h %s' -10",
    "git log --pretty=format:'%h %an %s'", "git log --name-only -3", "git log --name-status -2",
    "git log -- src/main.py", "git log --follow README.md", "git log main..HEAD",
    "git log --grep=first", "git log -S hello --oneline", "git log --reverse --oneline",
    "git log --merges", "git log --no-merges -5", "git log --all --oneline | head -20",
    "git log --oneline | head -20", "git log --oneline | wc -l", "git log -1 --format=%H",
    "git diff", "git diff --stat", "git diff --cached", "git diff --staged", "git diff HEAD",
    "git diff HEAD~1", "git diff HEAD~1 -- src", "git diff --name-only", "git diff --name-status",
    "git diff main", "git diff HEAD~1 HEAD --stat", "git diff --word-diff", "git diff -U0",
    "git diff --color=never", "git diff --check", "git show", "git show HEAD", "git show --stat",
    "git show HEAD~1 --stat", "git show --name-only HEAD", "git show HEAD:README.md",
    "git show v1", "git show -s --format=%ci HEAD", "git branch", "git branch -a", "git branch -v",
    "git branch -vv", "git branch -r", "git branch --show-current", "git branch --list 'm*'",
    "git branch --merged", "git branch --contains HEAD", "git remote", "git remote -v",
    "git remote get-url origin", "git tag", "git tag -l", "git tag --list 'v*'",
    "git rev-parse HEAD", "git rev-parse --short HEAD", "git rev-parse --abbrev-ref HEAD",
    "git rev-parse --show-toplevel", "git rev-parse --git-dir", "git rev-parse --is-inside-work-tree",
    "git ls-files", "git ls-files | wc -l", "git ls-files src", "git ls-files -m",
    "git ls-files --others --exclude-standard", "git ls-tree HEAD", "git ls-tree -r --name-only HEAD",
    "git blame README.md", "git blame -L 1,2 README.md", "git shortlog -sn", "git shortlog -sne",
    "git describe --tags", "git describe --always", "git stash list", "git reflog", "git reflog -5",
    "git config --get user.name", "git config user.email", "git config --list",
    "git config --get remote.origin.url", "git config -l --show-origin", "git count-objects -v",
    "git worktree list", "git cat-file -p HEAD", "git cat-file -t HEAD", "git --no-pager log -3",
    "git --no-pager diff", "git grep foo", "git grep -n hello", "git grep -l def",
    "git rev-list --count HEAD", "git merge-base HEAD HEAD~1", "git for-each-ref",
    "git show-ref", "git name-rev HEAD", "git check-ignore -v .env", "git whatchanged -1",
    "git log --oneline --decorate -3", "git diff --stat HEAD~1..HEAD", "git show-branch",
    "git status && git diff --stat", "git log -3 --oneline && git status -s",
]

FILES = [
    "ls", "ls -l", "ls -la", "ls -lah", "ls -1", "ls -a", "ls -A", "ls -lt", "ls -ltr",
    "ls -lS", "ls -R", "ls -d */", "ls *.md", "ls src", "ls -la src", "ls tests", "ls -la docs",
    "ls src/pkg", "ls -l README.md", "ls --color=never", "ls -la | sort", "ls | head -5",
    "ls | wc -l", "ls -la .claude", "ls -la .git", "pwd", "pwd -P", "cat README.md",
    "cat src/main.py", "cat -n setup.py", "cat README.md setup.py", "cat data.json",
    "cat README.md | head", "cat README.md | grep hello", "cat src/main.py | wc -l",
    "cat f.txt 2>/dev/null", "cat .gitignore", "cat .claude/settings.json", "cat package.json",
    "head README.md", "head -n 20 src/main.py", "head -5 log.txt", "head -c 100 README.md",
    "tail log.txt", "tail -n 5 log.txt", "tail -1 log.txt", "tail -n +2 data.csv",
    "wc -l README.md", "wc -c f.txt", "wc src/main.py", "wc -l src/*.py", "wc -w docs/guide.md",
    "wc -l *.py", "nl README.md", "tac README.md", "rev f", "column -t data.csv",
    "column -s, -t data.csv", "paste f f.txt", "cut -d, -f1 data.csv", "cut -c1-5 README.md",
    "sort f.txt", "sort -u f.txt", "sort -r f", "sort -n f", "sort f.txt | uniq -c",
    "sort data.csv | uniq", "uniq f.txt", "uniq -c f", "tr a-z A-Z < f.txt", "tr -d '\\r' < f",
    "diff f f.txt", "diff -u f f.txt", "diff -r src tests", "cmp f f.txt", "comm f f.txt",
    "join f f.txt", "fold -w 20 README.md", "expand README.md", "fmt docs/guide.md",
    "od -c f | head", "xxd f.txt", "xxd README.md | head", "hexdump -C f | head", "strings setup.py",
    "file README.md", "file src/main.py", "stat README.md", "stat -c %s README.md", "du -sh .",
    "du -sh src", "du -h --max-depth=1", "df -h", "df -h .", "md5sum README.md",
    "sha256sum f.txt", "sha1sum README.md", "cksum f", "base64 f", "realpath src",
    "readlink -f src", "basename src/main.py", "dirname src/main.py", "basename $PWD",
    "less README.md", "more README.md", "jq . data.json", "jq '.a' data.json",
    "jq -r .name data.json", "jq 'keys' data.json", "cat data.json | jq .a", "jq '.b | length' data.json",
    "test -f README.md", "test -d src", "[ -d src ]", "[ -f setup.py ] && echo yes",
    "[[ -e README.md ]]", "test -e .git && echo repo", "ls nonexistent 2>&1", "cat f.txt; cat f",
    "ls src && ls tests", "cd src && ls", "cd tests && ls -la", "cd src && cat main.py",
    "cd docs; ls", "cd src/pkg && pwd", "head -3 README.md && tail -2 log.txt",
]

SEARCH = [
    "grep -rn foo .", "grep -r import src", "grep -rn 'def ' src", "grep -l def src/*.py",
    "grep -c hello README.md", "grep -i todo -r .", "grep -E 'a|b' f", "grep -v x f",
    "grep -rn --include='*.py' def .", "grep -w hello README.md", "grep -n hello README.md",
    "grep -o hello README.md", "grep -A2 hello README.md", "grep -B1 -A1 two log.txt",
    "grep -C 2 error log.txt", "grep -rl TODO src", "grep -R TODO src", "grep -h hello README.md",
    "grep -q hello README.md && echo found", "grep -rn TODO --exclude-dir=.git .",
    "grep foo f.txt || true", "grep -F 'a.b' f", "grep -x a f", "grep -m1 line log.txt",
    "grep -e one -e two log.txt", "egrep 'one|two' log.txt", "fgrep one log.txt",
    "grep -rn 'import os' src tests", "grep -c '' log.txt", "grep '^line' log.txt",
    "grep -in error log.txt", "grep -r --color=never main src", "ps aux | grep python",
    "find . -name '*.py'", "find . -type f", "find src -name '*.py'", "find . -maxdepth 2 -type d",
    "find . -newer setup.py", "find . -name '*.md' -print", "find . -size +1k",
    "find . -type f | wc -l", "find . -name '*.py' -newer setup.py", "find src -type f -name '*.py'",
    "find . -path ./.git -prune -o -type f -print", "find . -iname 'readme*'", "find . -empty",
    "find . -mtime -1", "find . -name '*.py' | head", "find . -name '*.py' | sort",
    "find . -name '*.py' | xargs wc -l", "find . -name '*.py' -exec grep -l def {} +",
    "find . -name '*.py' -exec cat {} \\;", "find src -name '*.py' | xargs grep -n def",
    "find . -type d -name tests", "find . -maxdepth 1", "find . -not -path './.git/*' -type f",
    "find . -name '*.json' -exec jq . {} \\;", "find docs -type f -exec head -1 {} \\;",
    "git ls-files '*.py' | xargs grep -n import", "ls src/*.py | xargs wc -l",
    "find . -name '*.md' | xargs cat", "find . -name '*.py' -print0 | xargs -0 grep -l def",
    "awk '{print $1}' f.txt", "awk -F, '{print $2}' data.csv", "awk 'NR==1' README.md",
    "awk '/error/' log.txt", "awk 'END {print NR}' log.txt", "awk '{s+=length($0)} END {print s}' f",
    "awk -F, 'NR>1 {print $1}' data.csv", "sed -n '1,10p' README.md", "sed -n 5p src/main.py",
    "sed 's/a/b/g' f.txt", "sed -n '/def/p' src/pkg/util.py", "sed -n '$p' log.txt",
    "sed -e 's/line/LINE/' log.txt", "sed 1d data.csv", "sed -n '2,3p' log.txt | cat -n",
    "sed -E 's/[0-9]+/N/g' data.csv", "cut -d' ' -f2 log.txt | sort | uniq -c",
]

ENV_AND_SYSTEM = [
    "echo hello", "echo $?", "echo $HOME", "echo $PATH", "echo $SHELL", "echo $USER",
    'echo "$PWD"', "echo ${HOME}", "echo $(date)", "echo $(pwd)", "echo \"$(git branch --show-current)\"",
    "printf '%s\\n' hi", "printf 'a\\tb\\n'", "echo done && git status", "echo -n x", "echo {1..3}",
    "printenv", "printenv HOME", "printenv PATH", "env", "env | sort", "env | grep -i path",
    "whoami", "id", "id -u", "groups", "hostname", "uname", "uname -a", "uname -r", "date",
    "date +%Y-%m-%d", "date -u", "date -I", "uptime", "nproc", "free -m", "free -h",
    "ps", "ps aux", "ps -ef", "ps aux | head", "ps -p $$", "ulimit -n",
    "ulimit -a", "umask", "locale", "tty", "arch", "getconf PAGESIZE", "lscpu | head -5",
    "which python3", "which git",
    "type ls", "type -a python3", "command -v git", "command -v python3 node",
    "python --version", "python3 --version", "python3 -V", "node --version", "node -v",
    "git --version", "bash --version", "make --version", "jq --version", "perl --version | head -2",
    "sleep 1", "true", "false || true", ":", "seq 1 10", "seq 5", "expr 1 + 2",
    "echo $((1 + 2))", "test 1 -eq 1", "[ 2 -gt 1 ] && echo bigger", "yes | head -3",
    "basename \"$PWD\"", "dirname \"$PWD\"", "realpath .", "echo $PWD/src", "ls \"$PWD\"",
    "history | tail -5", "alias", "set | grep -c PATH", "declare -p HOME", "export -p | head -3",
    "type cd", "help cd | head -3", "shopt -p | head -3", "compgen -c | head -3",
    "cd src && pwd && cd .. && pwd",
]

# git in the project (whose .git/config names a hooks dir, an include and an
# upload-pack) and in a sub-folder, patches of normal files, objects named by their path
GIT_IN_A_CONFIGURED_REPO = [
    "git -C src log --oneline -3", "git -C src status --short", "git -C tests diff --stat",
    "git log -p -2 -- README.md", "git show HEAD -- README.md", "git diff HEAD~1 -- README.md",
    "git cat-file -p HEAD:README.md", "git cat-file -s HEAD:README.md", "git remote -v show -n origin",
    "git log -p --follow README.md", "git config --get core.hooksPath", "git log --all --oneline -3",
]

EVERYDAY: list[str] = list(dict.fromkeys(
    ISSUE_FALSE_POSITIVES + GIT + FILES + SEARCH + ENV_AND_SYSTEM + GIT_IN_A_CONFIGURED_REPO))
