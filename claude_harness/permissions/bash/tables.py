"""Option tables of the programs the checker may run without asking (data only).

Each entry: the program's complete option table (options.table syntax) and what its operands
are. Written from GNU coreutils 9, grep 3, util-linux, procps and ripgrep 14/15 `--help`;
an option missing here is an unknown option, and an unknown option means "ask", so a gap costs
a prompt, never a hole.

Roles used here (interpreted by readers.py):
  read      the value is a file whose contents are read
  readlist  the value is a file that names more files to read (which cannot be known)
  name      the value is a file that is only looked up (stat, realpath)
  write     the value is a file that is written
  exec      the option runs a program
  ask       the option does something outside the model (sets the clock, the host name...)
  pattern   the option supplied the pattern, so no operand is one
  recursive operands are directories read recursively
  follow    symlinks met on the way are followed
  listing   the option makes the program print names only (rg --files)

Operand kinds:
  files     every operand is a file read (none: standard input)
  names     every operand is a file only looked up or listed (ls, stat, du)
  strings   operands are not files (echo, basename, seq)
  pattern   the first operand is a pattern unless an option gave one; the rest are files
  none      no operand is accepted
"""

from __future__ import annotations

HELP = " --help --version"

READERS: dict[str, tuple[str, str]] = {
    "cat": ("-A|--show-all -b|--number-nonblank -e -E|--show-ends -n|--number -s|--squeeze-blank"
            " -t -T|--show-tabs -u -v|--show-nonprinting" + HELP, "files"),
    "tac": ("-b|--before -r|--regex -s|--separator=" + HELP, "files"),
    "head": ("# -c|--bytes= -n|--lines= -q|--quiet|--silent -v|--verbose -z|--zero-terminated"
             + HELP, "files"),
    "tail": ("# -c|--bytes= -f|--follow? -F -n|--lines= --max-unchanged-stats= --pid="
             " -q|--quiet|--silent --retry -s|--sleep-interval= -v|--verbose"
             " -z|--zero-terminated" + HELP, "files"),
    "wc": ("-c|--bytes -m|--chars -l|--lines --files0-from=:readlist -L|--max-line-length"
           " -w|--words --total=" + HELP, "files"),
    "nl": ("-b|--body-numbering= -d|--section-delimiter= -f|--footer-numbering="
           " -h|--header-numbering= -i|--line-increment= -l|--join-blank-lines="
           " -n|--number-format= -p|--no-renumber -s|--number-separator="
           " -v|--starting-line-number= -w|--number-width=" + HELP, "files"),
    "cut": ("-b|--bytes= -c|--characters= -d|--delimiter= -f|--fields= -n --complement"
            " -s|--only-delimited --output-delimiter= -z|--zero-terminated" + HELP, "files"),
    "fold": ("-b|--bytes -s|--spaces -w|--width= #" + HELP, "files"),
    "paste": ("-d|--delimiters= -s|--serial -z|--zero-terminated" + HELP, "files"),
    "expand": ("-i|--initial -t|--tabs= #" + HELP, "files"),
    "unexpand": ("-a|--all --first-only -t|--tabs= #" + HELP, "files"),
    "rev": ("-0|--zero -h|--help -V|--version", "files"),
    "comm": ("-1 -2 -3 --check-order --nocheck-order --output-delimiter= --total"
             " -z|--zero-terminated" + HELP, "files"),
    "join": ("-a= -e= -i|--ignore-case -j= -o= -t= -v= -1= -2= --check-order --nocheck-order"
             " --header -z|--zero-terminated" + HELP, "files"),
    "cmp": ("-b|--print-bytes -i|--ignore-initial= -l|--verbose -n|--bytes= -s|--quiet|--silent"
            " --help -v|--version", "files"),
    "column": ("-t|--table -n|--table-name= -O|--table-order= -N|--table-columns="
               " -l|--table-columns-limit= -E|--table-noextreme= -d|--table-noheadings"
               " -e|--table-header-repeat -H|--table-hide= -R|--table-right="
               " -T|--table-truncate= -W|--table-wrap= -L|--keep-empty-lines -J|--json"
               " -r|--tree= -i|--tree-id= -p|--tree-parent= -c|--output-width="
               " -o|--output-separator= -s|--separator= -x|--fillrows -h|--help -V|--version",
               "files"),
    "md5sum": ("-b|--binary -c|--check:readlist --tag -t|--text -z|--zero --ignore-missing"
               " --quiet --status --strict -w|--warn" + HELP, "files"),
    **{name: ("-b|--binary -c|--check:readlist --tag -t|--text -z|--zero --ignore-missing"
              " --quiet --status --strict -w|--warn" + HELP, "files")
       for name in ("sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum")},
    "cksum": ("-a|--algorithm= -c|--check:readlist -l|--length= --tag --untagged -z|--zero"
              " --base64 --raw --ignore-missing --quiet --status --strict -w|--warn --debug"
              + HELP, "files"),
    "b2sum": ("-b|--binary -c|--check:readlist -l|--length= --tag -t|--text -z|--zero"
              " --ignore-missing --quiet --status --strict -w|--warn" + HELP, "files"),
    "sum": ("-r -s|--sysv" + HELP, "files"),
    "od": ("-A|--address-radix= --endian= -j|--skip-bytes= -N|--read-bytes= -S|--strings?"
           " -t|--format= -v|--output-duplicates -w|--width? --traditional -a -b -c -d -f -i"
           " -l -o -s -x" + HELP, "files"),
    "hexdump": ("-b|--one-byte-octal -c|--one-byte-char -C|--canonical -d|--two-bytes-decimal"
                " -o|--two-bytes-octal -x|--two-bytes-hex -L|--color? -e|--format="
                " -f|--format-file=:read -n|--length= -s|--skip= -v|--no-squeezing -h|--help"
                " -V|--version", "files"),
    "strings": ("-a|--all -d|--data -f|--print-file-name -n|--bytes= -t|--radix= -w|--include-all-whitespace"
                " -o -T|--target= -e|--encoding= -U|--unicode= -s|--output-separator= -h|--help"
                " -v|-V|--version #", "files"),
    "base64": ("-d|--decode -i|--ignore-garbage -w|--wrap=" + HELP, "files"),
    "base32": ("-d|--decode -i|--ignore-garbage -w|--wrap=" + HELP, "files"),
    "tsort": (HELP.strip(), "files"),
    "fmt": ("-c|--crown-margin -p|--prefix= -s|--split-only -t|--tagged-paragraph"
            " -u|--uniform-spacing -w|--width= -g|--goal= #" + HELP, "files"),
    "pr": ("-a|--across -c|--show-control-chars -d|--double-space -D|--date-format="
           " -e|--expand-tabs? -F|-f|--form-feed -h|--header= -i|--output-tabs? -J|--join-lines"
           " -l|--length= -m|--merge -n|--number-lines? -N|--first-line-number= -o|--indent="
           " -r|--no-file-warnings -s|--separator? -S|--sep-string? -t|--omit-header"
           " -T|--omit-pagination -v|--show-nonprinting -w|--width= -W|--page-width= --columns="
           " #" + HELP, "files"),
    "numfmt": ("--debug -d|--delimiter= --field= --format= --from= --from-unit= --grouping"
               " --header? --invalid= --padding= --round= --suffix= --to= --to-unit="
               " -z|--zero-terminated" + HELP, "strings"),
    "tr": ("-c|-C|--complement -d|--delete -s|--squeeze-repeats -t|--truncate-set1" + HELP,
           "strings"),
    "ls": ("-a|--all -A|--almost-all --author -b|--escape --block-size= -B|--ignore-backups -c"
           " -C --color? -d|--directory -D|--dired -f -F|--classify? --file-type --format="
           " --full-time -g --group-directories-first -G|--no-group -h|--human-readable --si"
           " -H|--dereference-command-line --dereference-command-line-symlink-to-dir --hide="
           " --hyperlink? --indicator-style= -i|--inode -I|--ignore= -k|--kibibytes -l"
           " -L|--dereference:follow -m -n|--numeric-uid-gid -N|--literal -o -p -q|--hide-control-chars"
           " --show-control-chars -Q|--quote-name --quoting-style= -r|--reverse"
           " -R|--recursive:recursive -s|--size -S --sort= --time= --time-style= -t -T|--tabsize="
           " -u -U -v -w|--width= -x -X -Z|--context --zero -1" + HELP, "names"),
    "dir": ("-a|--all -A|--almost-all -l -h|--human-readable -R|--recursive:recursive -1 -t -r"
            " -S" + HELP, "names"),
    "stat": ("-L|--dereference -f|--file-system --cached= -c|--format= --printf= -t|--terse"
             + HELP, "names"),
    "du": ("-0|--null -a|--all --apparent-size -B|--block-size= -b|--bytes -c|--total"
           " -D|-H|--dereference-args -d|--max-depth= --files0-from=:readlist -h|--human-readable"
           " --inodes -k -L|--dereference:follow -l|--count-links -m -P|--no-dereference"
           " -S|--separate-dirs --si -s|--summarize -t|--threshold= --time? --time-style="
           " -X|--exclude-from=:read --exclude= -x|--one-file-system" + HELP, "names"),
    "df": ("-a|--all -B|--block-size= -h|--human-readable -H|--si -i|--inodes -k -l|--local"
           " --no-sync --output? -P|--portability --sync --total -t|--type= -T|--print-type"
           " -x|--exclude-type= -v" + HELP, "names"),
    "realpath": ("-e|--canonicalize-existing -m|--canonicalize-missing -L|--logical"
                 " -P|--physical -q|--quiet --relative-to=:name --relative-base=:name"
                 " -s|--strip|--no-symlinks -z|--zero" + HELP, "names"),
    "readlink": ("-f|--canonicalize -e|--canonicalize-existing -m|--canonicalize-missing"
                 " -n|--no-newline -q|--quiet -s|--silent -v|--verbose -z|--zero" + HELP,
                 "names"),
    "basename": ("-a|--multiple -s|--suffix= -z|--zero" + HELP, "strings"),
    "dirname": ("-z|--zero" + HELP, "strings"),
    "seq": ("-f|--format= -s|--separator= -w|--equal-width #" + HELP, "strings"),
    "sleep": (HELP.strip(), "strings"),
    "uname": ("-a|--all -s|--kernel-name -n|--nodename -r|--kernel-release -v|--kernel-version"
              " -m|--machine -p|--processor -i|--hardware-platform -o|--operating-system" + HELP,
              "none"),
    "arch": (HELP.strip(), "none"),
    "nproc": ("--all --ignore=" + HELP, "none"),
    "uptime": ("-p|--pretty -h|--help -s|--since -V|--version", "none"),
    "free": ("-b|--bytes --kilo --mega --giga --tera --peta -k|--kibi -m|--mebi -g|--gibi --tebi"
             " --pebi -h|--human --si -l|--lohi -L|--line -t|--total -v|--committed"
             " -s|--seconds= -c|--count= -w|--wide --help -V|--version", "none"),
    "whoami": (HELP.strip(), "none"),
    "id": ("-a -Z|--context -g|--group -G|--groups -n|--name -r|--real -u|--user -z|--zero"
           + HELP, "strings"),
    "groups": (HELP.strip(), "strings"),
    "tty": ("-s|--silent|--quiet" + HELP, "none"),
    "printenv": ("-0|--null" + HELP, "strings"),
    "pwd": ("-L|--logical -P|--physical" + HELP, "none"),
    "locale": ("-a|--all-locales -m|--charmaps -c|--category-name -k|--keyword-name"
               " -v|--verbose --help --usage -V|--version", "strings"),
    "getconf": ("-a -v=", "strings"),
    "hostname": ("-a|--alias -A|--all-fqdns -d|--domain -f|--fqdn|--long -i|--ip-address"
                 " -I|--all-ip-addresses -s|--short -y|--yp|--nis -h|--help -V|--version",
                 "none"),
    "which": ("-a -s", "strings"),
    "uniq": ("-c|--count -d|--repeated -D --all-repeated? -f|--skip-fields= --group?"
             " -i|--ignore-case -s|--skip-chars= -u|--unique -z|--zero-terminated"
             " -w|--check-chars= #" + HELP, "files"),
    "sort": ("-b|--ignore-leading-blanks -d|--dictionary-order -f|--ignore-case"
             " -g|--general-numeric-sort -i|--ignore-nonprinting -M|--month-sort"
             " -h|--human-numeric-sort -n|--numeric-sort -R|--random-sort"
             " --random-source=:read -r|--reverse --sort= -V|--version-sort --batch-size="
             " -c|--check? -C --compress-program=:exec --debug --files0-from=:readlist"
             " -k|--key= -m|--merge -o|--output=:write -s|--stable -S|--buffer-size="
             " -t|--field-separator= -T|--temporary-directory=:name --parallel= -u|--unique"
             " -z|--zero-terminated" + HELP, "files"),
    "shuf": ("-e|--echo:strings -i|--input-range= -n|--head-count= -o|--output=:write"
             " --random-source=:read -r|--repeat -z|--zero-terminated" + HELP, "files"),
    "diff": ("--normal -q|--brief -s|--report-identical-files -c -C= --context? -u -U="
             " --unified? -e|--ed -n|--rcs -y|--side-by-side -W|--width= --left-column"
             " --suppress-common-lines -p|--show-c-function -F|--show-function-line= --label="
             " -t|--expand-tabs -T|--initial-tab --tabsize= --suppress-blank-empty -l|--paginate"
             " -r|--recursive:recursive,follow --no-dereference:nofollow -N|--new-file"
             " --unidirectional-new-file"
             " --ignore-file-name-case --no-ignore-file-name-case -x|--exclude="
             " -X|--exclude-from=:read -S|--starting-file= --from-file=:read --to-file=:read"
             " -i|--ignore-case -E|--ignore-tab-expansion -Z|--ignore-trailing-space"
             " -b|--ignore-space-change -w|--ignore-all-space -B|--ignore-blank-lines"
             " -I|--ignore-matching-lines= -a|--text --strip-trailing-cr -D|--ifdef="
             " --old-group-format= --new-group-format= --unchanged-group-format="
             " --changed-group-format= --line-format= --old-line-format= --new-line-format="
             " --unchanged-line-format= -d|--minimal --horizon-lines= --speed-large-files"
             " --color? --palette= --help -v|--version #", "files"),
    "grep": ("-E|--extended-regexp -F|--fixed-strings -G|--basic-regexp -P|--perl-regexp"
             " -e|--regexp=:pattern -f|--file=:read,pattern -i|-y|--ignore-case --no-ignore-case"
             " -w|--word-regexp -x|--line-regexp -z|--null-data -s|--no-messages"
             " -v|--invert-match -V|--version --help -m|--max-count= -b|--byte-offset"
             " -n|--line-number --line-buffered -H|--with-filename -h|--no-filename --label="
             " -o|--only-matching -q|--quiet|--silent --binary-files= -a|--text -I"
             " -d|--directories=:directories -D|--devices= -r|--recursive:recursive"
             " -R|--dereference-recursive:recursive,follow --include= --exclude="
             " --exclude-from=:read --exclude-dir= -L|--files-without-match"
             " -l|--files-with-matches -c|--count -T|--initial-tab -Z|--null"
             " -B|--before-context= -A|--after-context= -C|--context= --group-separator="
             " --no-group-separator --color? --colour? -U|--binary #", "pattern"),
    "rg": ("-e|--regexp=:pattern -f|--file=:read,pattern --pre=:exec --no-pre --pre-glob="
           " -z|--search-zip --no-search-zip -s|--case-sensitive --crlf --no-crlf"
           " --dfa-size-limit= -E|--encoding= --no-encoding --engine= -F|--fixed-strings"
           " --no-fixed-strings -i|--ignore-case -v|--invert-match --no-invert-match"
           " -x|--line-regexp -m|--max-count= --mmap --no-mmap -U|--multiline --no-multiline"
           " --multiline-dotall --no-multiline-dotall --no-unicode --unicode --null-data"
           " -P|--pcre2 --no-pcre2 --regex-size-limit= -S|--smart-case --stop-on-nonmatch"
           " -a|--text --no-text -j|--threads= -w|--word-regexp --auto-hybrid-regex"
           " --no-auto-hybrid-regex --no-pcre2-unicode --pcre2-unicode --binary --no-binary"
           " -L|--follow:follow --no-follow -g|--glob= --glob-case-insensitive"
           " --no-glob-case-insensitive --hidden -. --no-hidden --iglob="
           " --ignore-file=:read --ignore-file-case-insensitive"
           " --no-ignore-file-case-insensitive -d|--max-depth= --maxdepth= --max-filesize="
           " --no-ignore --ignore --no-ignore-dot --ignore-dot --no-ignore-exclude"
           " --ignore-exclude --no-ignore-files --ignore-files --no-ignore-global"
           " --ignore-global --no-ignore-parent --ignore-parent --no-ignore-vcs --ignore-vcs"
           " --no-require-git --require-git --one-file-system --no-one-file-system"
           " -t|--type= -T|--type-not= --type-add= --type-clear= -u|--unrestricted"
           " -A|--after-context= -B|--before-context= -C|--context= --block-buffered"
           " --no-block-buffered -b|--byte-offset --no-byte-offset --color= --colors="
           " --column --no-column --context-separator= --no-context-separator"
           " --field-context-separator= --field-match-separator= --heading --no-heading"
           " -h|--help --hostname-bin=:exec --hyperlink-format= --include-zero"
           " --no-include-zero --line-buffered --no-line-buffered -n|--line-number"
           " -N|--no-line-number -M|--max-columns= --max-columns-preview"
           " --no-max-columns-preview -0|--null -o|--only-matching --path-separator="
           " --passthru|--passthrough -p|--pretty -q|--quiet -r|--replace= --sort= --sortr="
           " --trim --no-trim --vimgrep -H|--with-filename -I|--no-filename --sort-files"
           " --no-sort-files -c|--count --count-matches -l|--files-with-matches"
           " --files-without-match --json --no-json --debug --trace --no-ignore-messages"
           " --ignore-messages --no-messages --messages --stats --no-stats"
           " --files:listing,pattern --type-list:pattern --no-config --pcre2-version:pattern"
           " -V|--version:pattern --generate=:pattern", "pattern"),
    "less": ("--help -a|--search-skip-screen -A|--SEARCH-SKIP-SCREEN -b|--buffers="
             " -B|--auto-buffers -c|--clear-screen -C|--CLEAR-SCREEN -d|--dumb -D|--color="
             " -e|--quit-at-eof -E|--QUIT-AT-EOF -f|--force -F|--quit-if-one-screen"
             " -g|--hilite-search -G|--HILITE-SEARCH -h|--max-back-scroll= -i|--ignore-case"
             " -I|--IGNORE-CASE -j|--jump-target= -J|--status-column -K|--quit-on-intr"
             " -L|--no-lessopen -m|--long-prompt -M|--LONG-PROMPT -n|--line-numbers"
             " -N|--LINE-NUMBERS -p|--pattern= -P|--prompt= -q|--quiet|--silent"
             " -Q|--QUIET|--SILENT -r|--raw-control-chars -R|--RAW-CONTROL-CHARS"
             " -s|--squeeze-blank-lines -S|--chop-long-lines -u|--underline-special"
             " -U|--UNDERLINE-SPECIAL -V|--version -w|--hilite-unread -W|--HILITE-UNREAD"
             " -x|--tabs= -X|--no-init -y|--max-forw-scroll= -z|--window= -~|--tilde"
             " --mouse --no-histdups --no-number-headers --no-search-headers --no-vbell"
             " --line-num-width= --status-col-width= --use-color --wheel-lines= --wordwrap"
             " --incsearch --exit-follow-on-close --follow-name --header= --redraw-on-quit"
             " --save-marks --search-options= --show-preproc-errors --use-backslash"
             " -k|--lesskey-file=:exec --lesskey-src=:exec --lesskey-content=:exec"
             " -o|--log-file=:write -O|--LOG-FILE=:write -t|--tag=:ask -T|--tag-file=:ask"
             " --rscroll= --intr= --file-size --quotes= #", "files"),
    "more": ("-d|--silent -l|--logical -f|--no-pause -p|--print-over -c|--clean-print"
             " -s|--squeeze -u|--plain -n|--lines= -h|--help -V|--version #", "files"),
    "file": ("--help -v|--version -m|--magic-file=:read -z|--uncompress"
             " -Z|--uncompress-noreport -b|--brief -c|--checking-printout -e|--exclude="
             " --exclude-quiet= -f|--files-from=:readlist -F|--separator= -i|--mime --apple"
             " --extension --mime-type --mime-encoding -k|--keep-going -l|--list"
             " -L|--dereference -h|--no-dereference -n|--no-buffer -N|--no-pad -0|--print0"
             " -p|--preserve-date -P|--parameter= -r|--raw -s|--special-files -S|--no-sandbox"
             " -C|--compile:write -d|--debug", "files"),
    "tree": ("-a -d -l:follow -f -x -L= -R -P= -I= --gitignore --gitfile=:read --ignore-case"
             " --matchdirs --metafirst --prune --info --infofile=:read --noreport --charset="
             " --filelimit= -o=:write -q -N -Q -p -u -g -s -h --si --du -D --timefmt= -F --inodes"
             " --device -v -t -c -U -r --dirsfirst --filesfirst --sort= -i -A -S -n -C -X -J"
             " -H=:write -T= --nolinks --hintro=:read --houtro=:read --fromfile:ask --fromtabfile:ask"
             " --fflinks --version --help", "names"),
    "lscpu": ("-a|--all -b|--online -B|--bytes -c|--offline -e|--extended? -J|--json"
              " -p|--parse? -s|--sysroot=:name -x|--hex -y|--physical --output-all -h|--help"
              " -V|--version", "none"),
    "lsof": ("-h -a -b -c= -C -d= -D= -e= -E -f -F= -g= -H -i? -K -l -L -n -N -o -O -p= -P"
             " -Q -r= -R -s? -S= -t -T? -u= -U -v -V -w -x= -X -z", "names"),
}

# Programs whose every option is an output selector and whose operands are not files.
ANY_ARGS_STRINGS = frozenset({"ps", "expr", "true", "false", ":", "ulimit", "type", "exit",
                              "help", "jobs", "dirs", "times", "yes", "return", "caller"})
# Builtins that only print when given no operands or just their "print" option.
PRINTING_BUILTINS: dict[str, frozenset[str]] = {
    "alias": frozenset({"-p"}), "history": frozenset(), "declare": frozenset({"-p"}),
    "typeset": frozenset({"-p"}), "export": frozenset({"-p"}), "readonly": frozenset({"-p"}),
    "shopt": frozenset({"-p", "-q"}), "hash": frozenset({"-l"}), "umask": frozenset({"-p", "-S"}),
    "complete": frozenset({"-p"}), "bind": frozenset({"-p", "-P",
                                                                                      "-l", "-v",
                                                                                      "-V", "-s",
                                                                                      "-S"}),
    "compgen": frozenset({"-a", "-b", "-c", "-d", "-e", "-f", "-g", "-j", "-k", "-s", "-u",
                          "-v"}),
}
