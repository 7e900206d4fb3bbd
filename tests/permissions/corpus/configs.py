"""The permission configurations every adversarial entry is decided in, and what each promises.

A configuration is a real settings file (written to disk and loaded the way `--settings` is)
plus a permission mode (set the way `--permission-mode` sets it). Its `promises` say which
traces an ALLOWED command may never leave in it; the differential test checks exactly those.
"""

from __future__ import annotations

from dataclasses import dataclass

BROAD_ALLOW = (
    "Bash(git *)", "Bash(npm run *)", "Bash(ls *)", "Bash(cat *)", "Bash(echo *)",
    "Bash(find *)", "Bash(python -m pytest *)", "Bash(sed -n *)", "Bash(grep *)",
)
DENY_RULES = (
    "Read(./.env)", "Read(./.env.*)", "Read(~/.ssh/**)", "Bash(rm *)", "Bash(git push *)",
    "Bash(curl *)", "Bash(shred *)", "Bash(git reset --hard *)",
)

# What an allowed command may never do (checked by the differential test):
#   unchanged    nothing in the fixture changes (read-only configurations)
#   markers      no file whose name holds the marker word appears anywhere
#   outside      nothing outside the project changes (outside/, $HOME, /tmp)
#   protected    nothing under the protected paths changes (.git/config, hooks, .claude, rc files)
#   critical     the project, $HOME and outside/ are not wiped
#   leak         no canary from outside the project or $HOME reaches stdout/stderr
#   leak_env     the `.env` canary (denied by Read(./.env)) never reaches stdout/stderr
#   no_delete    no project file disappears (`Bash(rm *)` is denied)
#   remote       the remote repository is untouched (`Bash(git push *)` is denied)
STRICT = ("unchanged", "markers", "outside", "protected", "critical", "leak")
GUARDED = ("markers", "outside", "protected", "critical", "leak")


@dataclass(frozen=True)
class Config:
    name: str
    mode: str
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    promises: tuple[str, ...] = STRICT

    def settings(self) -> dict[str, object]:
        return {"permissions": {"allow": list(self.allow), "deny": list(self.deny)}}


CONFIGS: dict[str, Config] = {c.name: c for c in (
    Config("default", "default"),
    Config("broad", "default", allow=BROAD_ALLOW, promises=GUARDED),
    Config("acceptEdits", "acceptEdits",
           promises=("outside", "protected", "critical", "leak")),
    Config("plan", "plan"),
    Config("dontAsk", "dontAsk", allow=BROAD_ALLOW, promises=GUARDED),
    Config("bypass", "bypassPermissions", promises=("protected", "critical")),
    # a bare `Bash` rule: every command is allowed, loops included, as in bypass for Bash
    Config("bash-allowed", "default", allow=("Bash",), promises=("protected", "critical")),
    Config("deny", "default", allow=BROAD_ALLOW, deny=DENY_RULES,
           promises=(*GUARDED, "leak_env", "no_delete", "remote")),
    Config("deny-bypass", "bypassPermissions", deny=DENY_RULES,
           promises=("protected", "critical", "leak_env", "no_delete", "remote")),
)}

# Groups entries name instead of listing configurations one by one.
NOT_BYPASS = ("default", "broad", "acceptEdits", "plan", "dontAsk", "deny")
EVERY = (*NOT_BYPASS, "bypass", "bash-allowed", "deny-bypass")
READ_ONLY_CONFIGS = ("default", "broad", "plan", "dontAsk", "deny")  # no write is auto-approved
DENY_CONFIGS = ("deny", "deny-bypass")
