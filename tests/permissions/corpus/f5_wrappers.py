"""Family 5: inner scripts and exec wrappers.

Any shell given code by any spelling (`-ec`, `-lc`, `-c --`, `-s` with stdin, a script file)
runs that code; wrappers (`env`, `nohup`, `timeout`, `exec`, `command`, absolute paths, quoting)
must be peeled before any rule is matched, so `Bash(rm *)` also denies `/bin/rm` and `exec rm`.
"""

from __future__ import annotations

from tests.permissions.corpus.configs import DENY_CONFIGS, EVERY, NOT_BYPASS
from tests.permissions.corpus.model import Attack, attacks

M = "/tmp/pwned_f5"

# code run by a shell or a wrapper: refused unless in bypass
_CODE = [
    f"bash -ec 'touch {M}'", f"bash -lc 'touch {M}'", f"bash -xc 'touch {M}'", f"sh -c -- 'touch {M}'",
    f"bash -o errexit -c 'touch {M}'", f"bash --norc -c 'touch {M}'", f"bash -c 'touch {M}' --",
    f"sh -euc 'touch {M}'", f"dash -c 'touch {M}'", f"bash -ic 'touch {M}'", f"bash -s <<< 'touch {M}'",
    "sh -s < script.sh", "sh ./script.sh", "./script.sh", "source script.sh", "bash -- script.sh",
    f"env bash -c 'touch {M}'", f"env -i bash -c 'touch {M}'", f"env -- sh -c 'touch {M}'",
    f"env -S'sh -c \"touch {M}\"'", f"env -S 'touch {M}'", f"nohup -- sh -c 'touch {M}'",
    f"timeout -k 1 5 sh -c 'touch {M}'", f"timeout --foreground 5 sh -c 'touch {M}'",
    f"nice -n5 -- sh -c 'touch {M}'", f"stdbuf -oL sh -c 'touch {M}'", f"setsid -w sh -c 'touch {M}'",
    f"exec sh -c 'touch {M}'", f"command -p sh -c 'touch {M}'", f"builtin command sh -c 'touch {M}'",
    f"echo x | xargs -I{{}} sh -c 'touch {M}'", f"xargs -0 sh -c 'touch {M}' < /dev/null",
    f"script -qc 'touch {M}' /dev/null", f"flock /tmp/lock -c 'touch {M}'", f"time -p sh -c 'touch {M}'",
    f"find . -maxdepth 0 -exec sh -c 'touch {M}' \\;", f"find . -maxdepth 0 -execdir bash -ec 'touch {M}' \\;",
    f"git ls-files -z | xargs -0 -n1 sh -c 'touch {M}'", f"ls | xargs -I % bash -c 'touch {M}'",
    f"timeout 5 env nice sh -c 'touch {M}'", f"ionice -c3 sh -c 'touch {M}'", f"taskset 1 sh -c 'touch {M}'",
    f"chrt -o 0 sh -c 'touch {M}'", f"strace -o /dev/null touch {M}", f"gdb -batch -ex 'shell touch {M}'",
    f"vim -es -c '!touch {M}' -c q", f"perl -e 'system(\"touch {M}\")'", f"make -f /dev/stdin <<< 'all:; touch {M}'",
    f"watch -n 0.1 -g 'touch {M}; date +%N'", f"/bin/sh -c 'touch {M}'", f"/usr/bin/env sh -c 'touch {M}'",
    f"\\bash -c 'touch {M}'", f"'bash' -c 'touch {M}'", f"b''ash -c 'touch {M}'",
]

# deny-rule evasions: `Bash(rm *)` must deny every spelling of rm, bypass included
_EVADE = [
    "/bin/rm victim.txt", "/usr/bin/rm -f victim.txt", "\\rm victim.txt", "exec rm victim.txt",
    "command rm victim.txt", "command -- rm victim.txt", "nohup -- rm victim.txt", "nohup rm victim.txt",
    "env -S'rm victim.txt'", "env -- rm victim.txt", "env -i rm victim.txt", "env -u HOME rm victim.txt",
    "timeout 5 rm victim.txt", "timeout -s9 5 rm victim.txt", "nice -n 1 rm victim.txt",
    "stdbuf -o0 rm victim.txt", "setsid -w rm victim.txt", "ionice -c3 rm victim.txt",
    "xargs -r rm < list.txt", "xargs -a list.txt rm", "find . -name victim.txt -exec rm {} +",
    "/usr/bin/../bin/rm victim.txt", "/bin//rm victim.txt", "r\\m victim.txt", "'rm' victim.txt",
    "\"r\"m victim.txt", "$'rm' victim.txt", "{rm,victim.txt}", "R=rm; $R victim.txt",
    "${RM:-rm} victim.txt", "eval rm victim.txt", "time rm victim.txt", "builtin exec rm victim.txt",
    "exec -a ls rm victim.txt", "env --chdir=. rm victim.txt", "taskset 1 rm victim.txt",
    "cat list.txt | xargs -n1 rm", "sh -c 'rm victim.txt'", "bash -ec 'rm victim.txt'",
    "true && rm victim.txt", "if true; then rm victim.txt; fi", "(rm victim.txt)", "{ rm victim.txt; }",
]

# inner scripts writing files that run code later: refused in every mode
_PROTECTED = [
    "bash -ec 'echo touch /tmp/pwned_hook > .git/hooks/pre-commit'",
    "sh -c 'cp script.sh .git/hooks/pre-commit'", "bash -c 'echo \"[core]\" >> .git/config'",
    "env sh -c 'echo {} > .claude/settings.local.json'", "sh -c -- 'echo x >> ~/.bashrc'",
    "bash -lc 'tee -a ~/.profile < f'", "timeout 5 bash -c 'printf x > .git/hooks/post-checkout'",
    "nohup sh -c 'mkdir -p .claude/commands && touch .claude/commands/pwned.md'",
    "bash <<< 'echo x >> .git/config'", "xargs -I{} sh -c 'cp {} .git/hooks/pre-push' <<< script.sh",
    "sh -c 'cd .git/hooks && cp ../../script.sh post-merge'", "env -S'cp script.sh .git/hooks/pre-commit'",
]

# Round 2: programs named by input, not by the command line
_FROM_INPUT = [
    "printf 'rm\\0victim.txt' | xargs -0 env", "echo rm victim.txt | xargs env",
    "printf 'victim.txt' | xargs -0 nice rm", "printf 'rm victim.txt' | xargs -I{} sh -c {}",
    "echo victim.txt | xargs timeout 5 rm",
    "git bisect start HEAD HEAD~1 && git bisect run rm victim.txt",
    "git rebase --autostash -q -x 'rm victim.txt' HEAD~1",
]

FAMILY_5: list[Attack] = (
    attacks(5, DENY_CONFIGS, *_FROM_INPUT,
            hint="a program read from input (xargs env/sh, git bisect run, rebase -x) is any program")
    + attacks(5, NOT_BYPASS, *_CODE, hint="a shell given code by any spelling runs it")
    + attacks(5, DENY_CONFIGS, *_EVADE,
              hint="normalise the program (path, quoting, wrappers, xargs/find) before deny rules")
    + attacks(5, EVERY, *_PROTECTED, hint="inner scripts' writes go through the protected check"))
