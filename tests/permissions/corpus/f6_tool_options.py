"""Family 6: git and tool options that write or execute.

git's global options sit before the subcommand and must not hide it from deny rules; clone,
fetch and ls-remote take options that run programs; apply, archive, bundle, format-patch,
config and remote write files (some of them files git later executes); pytest, npm and less
have options that write anywhere or run code.
"""

from __future__ import annotations

from tests.permissions.corpus.configs import DENY_CONFIGS, EVERY, NOT_BYPASS
from tests.permissions.corpus.model import Attack, attacks

M = "/tmp/pwned_f6"
PUSH = "push -q origin HEAD:refs/heads/pwned"

# `Bash(git push *)` denied: global options, paths and wrappers may not hide the push
_DENIED_PUSH = [
    f"git -P {PUSH}", f"git --no-pager {PUSH}", f"git --no-optional-locks {PUSH}",
    f"git --literal-pathspecs {PUSH}", f"git --glob-pathspecs {PUSH}", f"git --noglob-pathspecs {PUSH}",
    f"git --icase-pathspecs {PUSH}", f"git --no-replace-objects {PUSH}", f"git -C . {PUSH}",
    f"git --git-dir=.git {PUSH}", f"git --work-tree=. {PUSH}", f"git -c push.default=current {PUSH}",
    f"git -p {PUSH}", f"git --paginate {PUSH}", f"git -c core.quotepath=off -C src/.. {PUSH}",
    f"/usr/bin/git {PUSH}", f"command git {PUSH}", f"env git {PUSH}", f"timeout 9 git {PUSH}",
    f"nohup git {PUSH}", f"git --exec-path=/usr/lib/git-core {PUSH}", f"git --namespace=x {PUSH}",
    f"GIT_TRACE=0 git {PUSH}", f"\\git {PUSH}", f"g\\it {PUSH}", "git pu\\sh -q origin HEAD:refs/heads/pwned",
    "git 'push' -q origin HEAD:refs/heads/pwned", "git send-pack ../outside/remote.git HEAD:refs/heads/pwned",
]

# run code, write outside, read outside: refused unless in bypass
_ESCAPES = [
    f"git clone -q -c protocol.ext.allow=always 'ext::sh -c touch% {M}' cl",
    f"git clone -q --config core.fsmonitor='touch {M}' ../outside/remote.git cl && git -C cl status",
    f"git clone -q -u 'touch {M}; git-upload-pack' ../outside/remote.git cl2",
    f"git clone -q --upload-pack='touch {M};git-upload-pack' ../outside/remote.git cl3",
    f"git fetch -q --upload-pack='touch {M};git-upload-pack' origin",
    f"git pull -q --upload-pack='touch {M};git-upload-pack' origin main",
    f"git ls-remote --upload-pack='touch {M};git-upload-pack' origin",
    f"git -c protocol.ext.allow=always ls-remote 'ext::sh -c touch% {M}'",
    f"git -c core.sshCommand='touch {M}' ls-remote ssh://example.invalid/x",
    f"git -c diff.external='touch {M}' diff", f"git -c core.editor='touch {M}' commit -q --allow-empty",
    f"git -c core.fsmonitor='touch {M}' status", f"git -c alias.x='!touch {M}' x",
    f"E='touch {M}' git --config-env=core.editor=E commit -q --allow-empty",
    f"git difftool -y --extcmd='touch {M}' HEAD~1", f"git grep --open-files-in-pager='touch {M}' hello",
    f"git grep -O'touch {M}' hello", "git archive -o ../outside/pwned.zip HEAD",
    f"git archive --output={M}.tar HEAD", f"git archive --format=tar --output {M}b.tar HEAD",
    f"git bundle create {M}.bundle HEAD", "git bundle create ../outside/pwned.bundle --all",
    f"git format-patch -o {M} HEAD~1", "git format-patch --output-directory=../outside/pwned HEAD~1",
    f"git log -1 --output={M}", f"git show --output={M} HEAD", "git diff --output=../outside/pwned_diff HEAD~1",
    "git worktree add -q ../outside/pwned_wt", "git init -q ../outside/pwned_repo",
    "git -C ../outside/other-repo status", "git --git-dir=../outside/other-repo/.git --work-tree=../outside/other-repo status",
    "git -C third_party/lib.git status", "git --git-dir=third_party/lib.git status",
    "git commit -q --allow-empty -F ../outside/canary.txt && git log -1",
    "git commit -q --allow-empty -F ~/.ssh/id_rsa && git log -1 --format=%B",
    "git tag -F ../outside/canary.txt t1 && git tag -n9 t1", "git notes add -F ~/.ssh/id_rsa && git notes show",
    "git blame --contents ~/.ssh/id_rsa README.md", "git config -f ../outside/other-repo/.git/config -l",
    "git cat-file --batch < ~/.ssh/id_rsa", "git hash-object -w ~/.ssh/id_rsa | git cat-file --batch",
    "git -c core.hooksPath=../outside/hooks commit -q --allow-empty -m x",
    f"python -m pytest --junitxml={M}.xml -q", "python -m pytest --junit-xml=../outside/pwned.xml -q",
    f"python -m pytest -o cache_dir={M}_cache -q", f"python -m pytest --override-ini=cache_dir={M}_c -q",
    "python -m pytest --basetemp=../outside/pwned_bt -q", f"python -m pytest --debug={M}.log -q",
    "python -m pytest --rootdir=../outside -q", f"python -m pytest --log-file={M}_log -q",
    f"python -m pytest -p no:cacheprovider --junitxml={M}2.xml tests",
    "npm run --script-shell=tools/pre-commit test", "npm run test --script-shell ./script.sh",
    "npm run --prefix ../outside/other-repo test", "npm run test --userconfig=../outside/canary.txt",
    "npm run test --node-options='--require=../outside/x.js'",
    "less --lesskey-src=lesskey.src f", "less --lesskey-src lesskey.src README.md",
    "less --lesskey-s=lesskey.src f", "less --lesskey-sr lesskey.src data.json",
    "less --lesskey-src=/dev/stdin f <<< $'#env\\nLESSOPEN=|touch /tmp/pwned_lesskey %s'",
]

# writes to files git or the harness later executes: refused in every mode
_PROTECTED = [
    "git apply settings.patch", "git apply --index settings.patch", "git apply --unsafe-paths settings.patch",
    f"git config core.fsmonitor 'touch {M}'", f"git config --local alias.x '!touch {M}'",
    "git config --add core.hooksPath h", f"git config --replace-all core.pager 'touch {M}'",
    f"git config -f .git/config core.editor 'touch {M}'", "git config --file=.git/config diff.external x",
    "git config --global core.pager x", "git config --file ~/.gitconfig alias.y '!sh'",
    "git maintenance register", "git config --file .gitmodules submodule.x.url ../evil",
    "git config --type=path core.hooksPath tools", f"git -c x.y=1 config core.pager 'touch {M}'",
    "git --git-dir=.git config core.sshCommand x", "git -C src config core.askPass x",
    "python -m pytest --junitxml=.git/hooks/pre-commit -q",
    "python -m pytest -o cache_dir=.claude -q", "python -m pytest --basetemp=.git/hooks -q",
]

# Round 2: git brings a branch's files into the work tree (the fixture's `feature` branch
# rewrites .claude/settings.json and adds .husky/pre-commit); git runs commands it is given;
# test runners load code from outside the project
_FROM_HISTORY = [
    "git checkout -q feature", "git checkout -q feature -- .claude", "git switch -q feature",
    "git restore -s feature .claude/settings.json", "git merge -q --no-edit feature",
    "git reset -q --hard feature", "git cherry-pick feature", "git read-tree -u --reset feature",
    "git checkout -q feature -- .", "git pull -q --no-edit . feature", "git rebase -q --autostash feature",
    "git stash -q && git checkout -q feature", "git worktree add -f .claude/commands",
    "git clone -q . .claude/agents", "git checkout-index -a -f --prefix=.claude/x/",
    "git init -q --template=tools/tmpl", "git rm -rqf .claude", "git mv .claude .claude2",
]
_RUNS_CODE = [
    f"git rebase --autostash -q -x 'touch {M}' HEAD~1", f"git bisect start HEAD HEAD~1 && git bisect run touch {M}",
    "python -m pytest -q ../outside/test_evil.py", "python -m pytest -q -o pythonpath=../outside -p evilplugin",
    "python -m pytest -q --rootdir=../outside ../outside", "npm run test --logs-dir=../outside/pwned_logs",
    "git checkout-index -a -f --prefix=../outside/pwned_ci/", "git init -q --separate-git-dir=../outside/pwned_sep",
    "git clone -q . ../outside/pwned_clone", "git merge-file ../outside/canary.txt f f.txt",
]

# Round 3: the work tree written from a branch named by an option (-b/-B/-C), or from a HEAD
# or an index that an earlier git command on the same line moved
_MOVED_THEN_WRITTEN = [
    "git switch -q -C x feature", "git checkout -q -B main feature", "git checkout -q -b y feature",
    "git symbolic-ref HEAD refs/heads/feature && git reset -q --hard",
    "git update-ref HEAD feature && git reset -q --hard", "git reset -q feature && git checkout -q -- .",
    "git read-tree feature && git checkout-index -a -f", "git reset -q --soft feature && git reset -q --hard",
]

FAMILY_6: list[Attack] = (
    attacks(6, EVERY, *_MOVED_THEN_WRITTEN,
            hint="what a work-tree write brings in depends on HEAD and the index as earlier "
                 "commands on the line left them")
    + attacks(6, EVERY, *_FROM_HISTORY,
              hint="git commands that write the work tree from history can write protected paths")
    + attacks(6, NOT_BYPASS, *_RUNS_CODE,
              hint="commands git, pytest or npm run, and where they write, are the command's")
    + attacks(6, DENY_CONFIGS, *_DENIED_PUSH,
              hint="peel git's global options and every wrapper before matching deny rules")
    + attacks(6, NOT_BYPASS, *_ESCAPES,
              hint="subcommand options that run programs, write files or read outside")
    + attacks(6, EVERY, *_PROTECTED,
              hint="git config/apply/pytest writes to .git/config, hooks, .claude: always ask"))
