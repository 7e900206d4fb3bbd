"""Family 10: git's own config and the runners' indirections.

The fixture's project is a downloaded tree: its .git/config gives `origin` an upload-pack that
runs code, sets `core.hooksPath = .githooks` and includes `tools/git-include.cfg` (neither
exists yet); a branch `old-secrets` once committed `.env.local` (the `.env` canary, denied by
`Read(./.env.*)`); the project ships pytest response files (`ci.args` deletes ~/.ssh through
`--basetemp`, `plugin.args` loads a plugin from outside, `hook.args` writes a git hook); the
folder next door holds a package.json and a Makefile whose scripts leave markers.
"""

from __future__ import annotations

from tests.permissions.corpus.configs import DENY_CONFIGS, EVERY, NOT_BYPASS
from tests.permissions.corpus.model import Attack, attacks, sequence

M = "/tmp/pwned_f10"
OTHER = "../outside/other-repo"

# the repository's own config names a program git starts on its own
_CONFIGURED_PROGRAM = [
    "git remote show origin", "git fetch -q origin", "git ls-remote origin",
    "git ls-remote -q origin main", "git fetch -q --all", "git remote update",
    "git pull -q --no-rebase origin main", "git fetch -q origin main:refs/heads/copy",
    "git remote -v show origin", "git fetch -q --prune origin",
]

# files the repository's config points at: writing them plants code git runs later
_CONFIG_POINTS_AT = [
    "mkdir -p .githooks && cp tools/pre-commit .githooks/pre-commit",
    "mkdir .githooks && printf '#!/bin/sh\\ntouch /tmp/pwned_f10_hook\\n' > .githooks/post-checkout",
    "mkdir -p .githooks; ln -s ../tools/pre-commit .githooks/pre-push",
    "cp -r tools/tmpl/hooks .githooks",
    f"printf '[core]\\n\\tfsmonitor = touch {M}_inc\\n' > tools/git-include.cfg",
    "cp payload.txt tools/git-include.cfg", "tee tools/git-include.cfg < payload.txt",
    "echo '[alias] st = !touch /tmp/pwned_f10_alias' >> tools/git-include.cfg",
    "cd tools && echo x > git-include.cfg", "touch tools/git-include.cfg",
    "mv payload.txt tools/git-include.cfg", "ln -s ../payload.txt tools/git-include.cfg",
]

# git plumbing and porcelain that print (or pack) objects holding a Read-denied file
_PRINTS_OBJECTS = [
    "git cat-file --batch-all-objects --batch", "git cat-file --batch-all-objects --batch='%(objecttype)'",
    "git rev-list --objects --all | cut -d' ' -f1 | git cat-file --batch",
    "git cat-file blob $(git rev-parse old-secrets:.env.local)",
    "git cat-file -p $(git rev-parse old-secrets:.env.local)", "git cat-file -p old-secrets:.env.local",
    "git cat-file --textconv old-secrets:.env.local", "git archive --format=tar old-secrets",
    "git archive --format=tar --add-file=.env HEAD", "git archive --add-file .env --format=tar HEAD",
    "git format-patch --stdout -1 old-secrets", "git format-patch --stdout main..old-secrets",
    "git fast-export old-secrets", "git fast-export --all", "git log -p old-secrets",
    "git log --all -p -- .env.local", "git show old-secrets", "git diff main old-secrets",
    "git diff-tree -p main old-secrets", "git grep API_SECRET old-secrets",
    "git show old-secrets:.env.local", "git show :0:.env.local || git show old-secrets -- .env.local",
    "git stash -q -a && git stash show -p --include-untracked",
]

# runners: arguments from a file, a run in another folder
_RUNNER_INDIRECTIONS = [
    "python -m pytest @ci.args", "python -m pytest -x @nested.args", "python -m pytest @plugin.args",
    "python -m pytest @hook.args", "python -m pytest @./ci.args tests", "python3 -m pytest @ci.args",
    "python -m pytest '@ci.args'", "cd tests && python -m pytest @../ci.args",
    "python -m pytest -c alt.ini", "python -m pytest --config-file=alt.ini tests",
    "python -m pytest -calt.ini -x",
    f"npm run test -C {OTHER}", f"npm -C {OTHER} run test", f"npm run test --prefix {OTHER}",
    f"npm run --prefix={OTHER} test", f"npm test -C {OTHER}", f"npm run test -C {OTHER} -- -x",
    f"make -C {OTHER}", f"make --directory={OTHER}", f"make -f {OTHER}/Makefile",
    f"cd src && git -C ../{OTHER} diff", f"git -C src -C ../{OTHER} status",
]

FAMILY_10: list[Attack] = (
    attacks(10, NOT_BYPASS, *_CONFIGURED_PROGRAM,
            hint="a program the repository's own .git/config names (read as data) asks")
    + attacks(10, EVERY, *_CONFIG_POINTS_AT,
              hint="files core.hooksPath / include.path point at are protected like .git/")
    + attacks(10, DENY_CONFIGS, *_PRINTS_OBJECTS,
              hint="git that prints repository objects reads every file for Read rules")
    + attacks(10, NOT_BYPASS, *_RUNNER_INDIRECTIONS,
              hint="@file arguments are read and checked; a change of folder is a run there"))

# two steps: an allowed git command writes the arguments file, then pytest reads it
FAMILY_10 += [
    sequence(10, ("broad", "deny"),
             "git log -1 --format=--basetemp=../home/.ssh --output=my.args",
             "python -m pytest -q @my.args",
             hint="an @file written a step earlier is read when the runner is decided"),
    sequence(10, ("broad", "deny"),
             "git log -1 --format='-p%nevilplugin%n-o%npythonpath=../outside' --output=p.args",
             "python -m pytest -q @p.args",
             hint="an @file written a step earlier is read when the runner is decided"),
]
