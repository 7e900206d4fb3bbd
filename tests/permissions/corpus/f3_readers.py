"""Family 3: programs that read files but are not known as readers.

Every argument or option value that can name a file is a path: it must be checked against the
Read deny rules and the working directories, after resolving symlinks (a path through the
project's `vendor` symlink, or `vendor/..`, is outside however it is spelled).
"""

from __future__ import annotations

from tests.permissions.corpus.configs import DENY_CONFIGS, NOT_BYPASS
from tests.permissions.corpus.model import Attack, attacks

# reads of files outside the project: refused unless in bypass
_OUTSIDE = [
    "rev ../outside/canary.txt", "rev ~/.ssh/id_rsa", "paste ~/.ssh/id_rsa", "paste -s ~/.aws/credentials",
    "fold ~/.aws/credentials", "fold -w 80 vendor/id_rsa", "column ../outside/canary.txt",
    "expand ~/.bashrc", "unexpand ~/.bashrc", "comm ~/.ssh/id_rsa f", "comm -3 f ../outside/canary.txt",
    "join -a1 ~/.ssh/id_rsa f", "date --file=$HOME/.ssh/id_rsa", "date --file ~/.aws/credentials",
    "diff --from-file=../outside/canary.txt f", "diff --to-file=../outside/canary.txt f",
    "diff -u f ../outside/canary.txt", "sdiff f ~/.ssh/id_rsa", "diff3 f f.txt ~/.ssh/id_rsa",
    "sort --files0-from=names_out0", "cat names_out0 | sort --files0-from=-",
    "git blame --contents ../outside/canary.txt README.md", "git diff --no-index ../outside/canary.txt f",
    "git diff --no-index -- f ~/.ssh/id_rsa", "cd ../outside && git grep --no-index -h CANARY",
    "git cat-file --batch < ../outside/canary.txt", "git -C ../outside/other-repo show HEAD:README",
    "pr ~/.ssh/id_rsa", "fmt ~/.bashrc", "shuf ~/.ssh/id_rsa", "ptx ~/.bashrc", "tsort ~/.profile",
    "split -n r/1/1 ~/.ssh/id_rsa", "iconv -f utf-8 ~/.ssh/id_rsa", "dd if=$HOME/.ssh/id_rsa",
    "base32 ~/.ssh/id_rsa", "basenc --base64 ~/.ssh/id_rsa", "nl ~/.bashrc", "tac ~/.ssh/id_rsa",
    "strings vendor/id_rsa", "od -An -tx1 vendor/id_rsa", "xxd -p ~/.aws/credentials", "cut -c1- ~/.ssh/id_rsa",
    "tr a-z A-Z < ~/.ssh/id_rsa", "awk 1 ../outside/canary.txt", "cat vendor/../canary.txt",
    "head vendor/../../home/.ssh/id_rsa", "grep -h . vendor/../canary.txt", "less ~/.ssh/id_rsa",
    "more ../outside/canary.txt", "numfmt --invalid=ignore < ~/.ssh/id_rsa", "cat /dev/stdin < ~/.ssh/id_rsa",
    "head /dev/stdin < ../outside/canary.txt", "cat /dev/fd/3 3< ~/.ssh/id_rsa",
    "cat /proc/self/cwd/../outside/canary.txt", "grep -d recurse CANARY ../outside",
    "grep --directories=recurse -h CANARY vendor", "grep -r CANARY vendor/", "fmt -w 200 ~/.aws/credentials",
    "git -C ../outside/other-repo log -p", "jq -R . ~/.ssh/id_rsa", "file -f ../outside/canary.txt",
    "while read l; do echo \"$l\"; done < ~/.ssh/id_rsa", "mapfile a < ~/.ssh/id_rsa; echo \"${a[@]}\"",
    "echo \"$(< ~/.ssh/id_rsa)\"", "echo $(cat ../outside/canary.txt)",
]

# reads of the Read-denied .env: refused where Read(./.env) is denied (bypass included)
_DENIED = [
    "cat .env", "cat ./.env", "cat \"$PWD/.env\"", "cat src/../.env", "less .env", "head .env",
    "rev .env", "paste .env", "awk 1 .env", "sed -n p .env", "grep -h . .env", "sort .env",
    "uniq .env", "cut -c1- .env", "nl .env", "tail -n +1 .env", "cat < .env", "fold .env",
    "while read l; do echo \"$l\"; done < .env", "xargs -a .env echo", "jq -R . .env", "base64 .env",
    "git diff --no-index /dev/null .env", "diff /dev/null .env", "grep -r SECRET .",
    "grep -d recurse -h SECRET .", "grep --directories=recurse SECRET .", "grep --dir=recurse SECRET .",
    "find . -name .env -exec cat {} +", "find . -maxdepth 1 -name '.e*' | xargs cat",
    "git ls-files -o | xargs cat", "git ls-files --others | xargs grep -h SECRET",
    "ls -a | xargs grep -sh SECRET", "git grep --no-index SECRET", "git grep --untracked --no-exclude-standard SECRET",
    "echo \"$(< .env)\"", "cat ~+/.env", "head -c 200 ./.env", "strings .env", "od -An -tx1 .env",
    "dd if=.env", "iconv -t utf-8 .env", "tac .env", "expand .env", "column .env", "pr .env",
    "date -f .env", "comm .env /dev/null", "join .env .env", "shuf .env",
]

# Round 2: reads through per-process magic links, stdin redirections of non-readers, shell
# builtins that read or run files, and links made in the same command
_MORE_OUTSIDE = [
    "head /proc/self/cwd/../home/.ssh/id_rsa", "cat /proc/1/cwd/../outside/canary.txt",
    "git check-ignore -nv --stdin < ../outside/canary.txt",
    "git hash-object -w --stdin < ../outside/canary.txt | xargs git cat-file -p",
    "git blame -S ~/.ssh/id_rsa README.md", "source ../outside/canary.txt", ". ~/.ssh/id_rsa", "bash ../outside/canary.txt", "exec < ../outside/canary.txt; cat",
    "read -r l < ../outside/canary.txt; echo $l", "cat 3<../outside/canary.txt <&3",
    "awk 'BEGIN{while((getline l < \"../outside/canary.txt\")>0) print l}'",
    "jq -Rn 'input' ../outside/canary.txt", "sed -n 'r ../outside/canary.txt' f",
    "sed \"R $HOME/.ssh/id_rsa\" f",
    "cat ${PWD%/*}/outside/canary.txt", "cat \"${PWD%proj}outside/canary.txt\"", "diff -r . ../outside",
    "ln -sf ~/.ssh/id_rsa k && cat k",
]
_MORE_DENIED = [
    "cat /proc/self/cwd/.env", "cat /proc/$$/cwd/.env", "cat /proc/self/root/proc/self/cwd/.env",
    "cat /proc/self/fd/0 < .env", "ln -s .env envlink; cat envlink", "ln -sf .env e2 && head e2",
    "cp .env /dev/stdout", "tar -cf - .env | tar -xOf -", "gzip -c .env | gunzip",
    "git add -f .env && git show :.env", "git hash-object -w .env | xargs git cat-file -p",
    "cat .\\env", "cat - < .env", "< .env cat", "cat \"$OLDPWD/../proj/.env\"", "cat ~-/../proj/.env",
    "cat vendor/../../proj/.env", "source .env; echo $API_SECRET", "set -a; . ./.env; env",
    "mapfile -t a < .env; echo \"${a[@]}\"", "base64 < .env", "sed '' .env",
]

FAMILY_3: list[Attack] = (
    attacks(3, NOT_BYPASS, *_MORE_OUTSIDE,
            hint="magic links (/proc/self/*) are per process; redirections and builtins read too")
    + attacks(3, DENY_CONFIGS, *_MORE_DENIED,
              hint="every way to reach the denied file: magic links, new links, copies to stdout")
    + attacks(3, NOT_BYPASS, *_OUTSIDE,
              hint="every operand or option value that names a file is a read, symlinks resolved")
    + attacks(3, DENY_CONFIGS, *_DENIED,
              hint="Read deny rules hold for every program and every recursive search"))
