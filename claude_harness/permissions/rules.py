"""Permission rules: parse `Tool` / `Tool(specifier)`, decide whether a rule covers a call.

Why one module: the matcher and the "Yes, and don't ask again" suggestion must read the same
normalised form of a call, or a saved rule would not match the call it was saved for. The
Bash suggestion therefore comes from the Bash analysis too (bash/suggest.py).

Rule kinds (interfaces.md):
  Bash(pattern)      `*` matches anything incl. spaces; trailing ` *` = word boundary;
                     legacy `npm:*` == `npm *`
  Read/Edit(path)    gitignore style: `//abs`, `~/home`, `/settings-root`, `./cwd`, bare (any depth)
  WebFetch(domain:host)   case-insensitive, `*.x.com` = subdomains only, `*` never crosses a dot
  mcp__server / mcp__server__tool / globs with `*`
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from claude_harness.protocol.permission_data import PermissionRule, RuleBehavior, RuleValue


def path_pattern(pattern: str) -> Any:
    """A gitignore-style matcher for a rule's path pattern (`.match_file(path)`), as the rules
    match paths; raises on a malformed pattern."""
    return _pattern_class()(pattern)


@functools.cache
def _pattern_class() -> type:
    """pathspec's gitignore pattern, imported at the first path rule matched (not at start:
    most runs, and every `-p` run without path rules, never need it)."""
    try:  # pathspec >= 0.12.2 names the gitignore flavour explicitly
        from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern
        return GitIgnoreSpecPattern
    except ImportError:  # pragma: no cover - older pathspec
        from pathspec.patterns.gitwildmatch import GitWildMatchPattern
        return GitWildMatchPattern


EDIT_TOOLS = frozenset({"Edit", "Write", "NotebookEdit"})
READ_TOOLS = frozenset({"Read", "Grep", "Glob"})
_FAMILIES = {"Edit": EDIT_TOOLS, "Read": READ_TOOLS}
_ALIASES = {"Task": "Agent", "Agent": "Task"}
_TOOL_NAME = re.compile(r"^[A-Za-z0-9_*.-]+$")


class RuleSyntaxError(ValueError):
    """A rule string that is not `Tool` or `Tool(specifier)`."""


def parse_rule(text: str) -> RuleValue:
    """`Bash(git *)` -> RuleValue("Bash", "git *"); `\\(` and `\\)` escape parentheses."""
    text = text.strip()
    if not text:
        raise RuleSyntaxError("empty rule")
    open_at = _first_unescaped(text, "(")
    if open_at < 0:
        if not _TOOL_NAME.match(text):
            raise RuleSyntaxError(f"invalid tool name in rule {text!r}")
        return RuleValue(text)
    if not text.endswith(")") or text.endswith("\\)"):
        raise RuleSyntaxError(f"rule {text!r} has no closing parenthesis")
    name = text[:open_at].strip()
    if not _TOOL_NAME.match(name):
        raise RuleSyntaxError(f"invalid tool name in rule {text!r}")
    content = text[open_at + 1 : -1].replace("\\(", "(").replace("\\)", ")")
    if content in {"", "*"}:
        return RuleValue(name)
    return RuleValue(name, content)


def format_rule(value: RuleValue) -> str:
    if value.rule_content is None:
        return value.tool_name
    content = value.rule_content.replace("(", "\\(").replace(")", "\\)")
    return f"{value.tool_name}({content})"


def _first_unescaped(text: str, ch: str) -> int:
    i = 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == ch:
            return i
        i += 1
    return -1


def split_rules(text: str) -> list[str]:
    """Split "A(x, y), B" on top-level commas: several suggestions travel as one string."""
    out: list[str] = []
    depth = 0
    cur = ""
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            cur += text[i : i + 2]
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return [r for r in out if r]


def tool_matches(rule_tool: str, tool_name: str) -> bool:
    """Does a rule naming `rule_tool` cover calls of `tool_name`?"""
    if rule_tool == tool_name or _ALIASES.get(rule_tool) == tool_name:
        return True
    if tool_name in _FAMILIES.get(rule_tool, ()):
        return True
    if rule_tool.startswith("mcp__") and tool_name.startswith("mcp__"):
        from claude_harness.permissions.tool_names import mcp_rule_matches

        return mcp_rule_matches(rule_tool, tool_name)  # (server, tool) segments, not a prefix
    if "*" in rule_tool:
        return fnmatch.fnmatchcase(tool_name, rule_tool)
    return False


# ---------------------------------------------------------------- Bash patterns


PRIMARY_FIELDS = frozenset({"command", "file_path", "notebook_path", "url"})
_PARAM_RULE = re.compile(r"^([a-z_][a-z0-9_]*):(?!\*$)(.+)$")


def param_rule(content: str | None) -> tuple[str, str] | None:
    """`run_in_background:true` -> ("run_in_background", "true"); legacy `npm:*` is not one."""
    if content is None:
        return None
    m = _PARAM_RULE.match(content)
    if not m or m.group(1) == "domain":
        return None
    return m.group(1), m.group(2)


def param_rule_matches(content: str | None, inp: object) -> bool:
    """A deny/ask parameter rule: the input field equals (or glob-matches) the value."""
    parsed = param_rule(content)
    if parsed is None:
        return False
    key, value = parsed
    if key in PRIMARY_FIELDS or not hasattr(inp, key):
        return False
    actual = getattr(inp, key)
    if isinstance(actual, bool):
        actual = "true" if actual else "false"
    return actual is not None and fnmatch.fnmatchcase(str(actual).lower(), value.lower())


def normalise_bash_pattern(pattern: str) -> str:
    pattern = " ".join(pattern.split())
    if pattern.endswith(":*"):
        pattern = pattern[:-2].rstrip() + " *"
    return pattern


def match_bash_pattern(pattern: str, command: str) -> bool:
    """Match one simple command's normalised text against a Bash rule pattern."""
    pattern = normalise_bash_pattern(pattern)
    cmd = " ".join(command.split())
    if pattern in {"", "*"}:
        return True
    if "*" not in pattern:
        return cmd == pattern
    tail = ""
    core = pattern
    if core.endswith(" *"):
        core = core[:-2]
        tail = r"(?: .*)?"
    regex = ".*".join(re.escape(piece) for piece in core.split("*")) + tail
    return re.fullmatch(regex, cmd, re.DOTALL) is not None


# ---------------------------------------------------------------- path patterns


def _anchor(content: str, cwd: Path, root: Path | None) -> tuple[Path, str]:
    """Where a path pattern is rooted and the gitignore pattern relative to that root."""
    if content.startswith("//"):
        return Path("/"), content[1:]
    if content == "~" or content.startswith("~/"):
        return Path.home(), "/" + content[2:] if len(content) > 2 else "/**"
    if content.startswith("/"):
        return (root or cwd), content
    if content.startswith("./"):
        return cwd, "/" + content[2:]
    return cwd, content


def _relative(path: Path, base: Path) -> str | None:
    try:
        rel = os.path.relpath(path, base)
    except ValueError:
        return None
    if rel == ".." or rel.startswith("../") or os.path.isabs(rel):
        return None
    return "" if rel == "." else rel


def _match_form(path: Path, base: Path, pattern: str, is_dir: Callable[[], bool]) -> bool:
    rel = _relative(path, base)
    if rel is None:
        return False
    if rel == "":
        return pattern in {"/**", "**", "/"}
    try:
        compiled = path_pattern(pattern)
        if compiled.match_file(rel):
            return True
        # a directory (the subject of Grep/Glob) is covered when everything inside it is
        return is_dir() and bool(compiled.match_file(f"{rel}/__any_child__"))
    except Exception:  # a malformed pattern matches nothing rather than crashing a check
        return False


def match_path_rule(
    content: str, path: str | Path, cwd: Path, root: Path | None, behavior: RuleBehavior,
    *, fold_case: bool | None = None,
) -> bool:
    """Gitignore-style match, symlink-aware: allow needs the link AND its target to match,
    deny/ask fire on either.

    A deny or ask rule matches however the path is spelled: rule and path are compared in
    Unicode NFC, and case-folded where the file's folder folds case (`fold_case`, detected when
    None; see paths.py). An allow rule matches the spelling exactly (the file tools decide on
    the stored spelling, see tools/file_common.target_path), so no look-alike widens it."""
    from claude_harness.permissions.paths import comparable, expand, folds_case, real

    base, pattern = _anchor(content, cwd, root)
    named = expand(path, cwd)
    target = real(path, cwd)
    is_dir = functools.cache(target.is_dir)  # asked only when a pattern needs it
    loose = behavior != "allow"
    fold = loose and (folds_case(target) if fold_case is None else fold_case)

    def same(p: Path | str) -> Path:
        return Path(comparable(str(p), fold)) if loose else Path(p)

    pattern = comparable(pattern, fold) if loose else pattern
    named_hit = _match_form(same(named), same(os.path.normpath(base)), pattern, is_dir)
    target_hit = _match_form(same(target), same(os.path.realpath(base)), pattern, is_dir) or \
        _match_form(same(target), same(os.path.normpath(base)), pattern, is_dir)
    if named == target:
        return named_hit or target_hit
    if behavior == "allow":
        return named_hit and target_hit
    return named_hit or target_hit


def path_rule_may_cover_tree(content: str, directory: Path, cwd: Path, root: Path | None) -> bool:
    """Could a path rule match some file inside `directory`? (for recursive searches)

    Anchored patterns are compared by their literal prefix; an unanchored name (`.env`,
    `**/secret`) may sit at any depth, so any overlap with the rule's base counts.
    """
    base, pattern = _anchor(content, cwd, root)
    base = Path(os.path.realpath(base))
    directory = Path(os.path.realpath(directory))
    stripped = pattern.lstrip("/")
    anchored = pattern.startswith("/") or "/" in stripped.rstrip("/")
    if anchored:
        literal = re.split(r"[*?\[]", stripped, maxsplit=1)[0].rsplit("/", 1)[0]
        target = Path(os.path.normpath(base / literal)) if literal else base
    else:
        target = base
    return target == directory or directory in target.parents or target in directory.parents


# ---------------------------------------------------------------- domains


def url_host(url: str) -> str | None:
    """The canonical host of a URL (sandbox/hosts.py: what the client connects to), or None
    when the URL has no host that reads one single way."""
    from claude_harness.sandbox.hosts import host_or_none

    try:
        raw = urlparse(url.strip()).hostname
    except ValueError:
        return None
    return host_or_none(raw) if raw else None


def match_domain_rule(content: str, url: str, behavior: RuleBehavior = "allow") -> bool:
    """`domain:` rules compare canonical hosts (so `evil。test` is `evil.test`); a URL whose
    host cannot be read is covered by every deny and ask rule and by no allow rule."""
    if not content.startswith("domain:"):
        return fnmatch.fnmatchcase(url, content)
    from claude_harness.sandbox.hosts import canonical_pattern

    host = url_host(url)
    if host is None:
        return behavior != "allow"
    pattern = canonical_pattern(content[len("domain:") :])
    if pattern.startswith("*."):
        suffix = pattern[1:]
        inner = suffix[1:]
        return host.endswith(suffix) and host != inner and "*" not in inner
    regex = "[^.]*".join(re.escape(p) for p in pattern.split("*"))
    return re.fullmatch(regex, host) is not None


def names_host_exactly(rules: Iterable[PermissionRule], url: str) -> bool:
    """An allow rule naming exactly this URL's host, `WebFetch(domain:localhost)` (no
    wildcard, not a bare `WebFetch`): the person's explicit consent to reach an internal
    address through it."""
    from claude_harness.sandbox.hosts import canonical_pattern

    host = url_host(url)
    if host is None:
        return False
    for rule in rules:
        content = rule.value.rule_content or ""
        if (rule.behavior == "allow" and rule.value.tool_name == "WebFetch"
                and content.startswith("domain:") and "*" not in content
                and canonical_pattern(content[len("domain:"):]) == host):
            return True
    return False


# ---------------------------------------------------------------- generic


def rule_matches(
    rule: PermissionRule, tool_name: str, subject: str | None, cwd: Path
) -> bool:
    """Whether `rule` covers a non-Bash call of `tool_name` with this subject.

    Bash content rules are matched per program by bash/decision.py; here a Bash content rule
    matches the whole command text only.
    """
    if not tool_matches(rule.value.tool_name, tool_name):
        return False
    content = rule.value.rule_content
    if content is None:
        return True
    if subject is None:
        return False
    family = rule.value.tool_name
    if family in _FAMILIES or tool_name in EDIT_TOOLS | READ_TOOLS:
        return match_path_rule(content, subject, cwd, rule.root, rule.behavior)
    if tool_name == "Bash":
        return match_bash_pattern(content, subject)
    if tool_name == "WebFetch":
        return match_domain_rule(content, subject, rule.behavior)
    return fnmatch.fnmatchcase(subject, content)


def describe_rule(rule: PermissionRule) -> str:
    """"rule Bash(rm *) from .claude/settings.json": the provenance a user can act on."""
    where = {
        "policySettings": "managed settings",
        "cliArg": "command-line flags",
        "localSettings": ".claude/settings.local.json",
        "projectSettings": ".claude/settings.json",
        "userSettings": "user settings",
        "flagSettings": "--settings",
        "session": "this session",
    }.get(rule.source, rule.source)
    return f"rule {format_rule(rule.value)} from {where}"


# ---------------------------------------------------------------- "don't ask again"

# Programs whose second word is the real action: `git status`, `npm test`, `cargo build`.
MULTI_WORD_TOOLS = frozenset({
    "git", "npm", "pnpm", "yarn", "bun", "cargo", "go", "docker", "kubectl", "pip", "pip3",
    "poetry", "uv", "make", "gh", "dotnet", "mvn", "gradle", "./gradlew", "brew", "apt",
    "apt-get", "systemctl", "terraform", "helm", "rustup", "conda", "deno", "npx", "pytest",
})
_RUNNERS = {"npm": {"run", "run-script"}, "pnpm": {"run"}, "yarn": {"run"}, "bun": {"run"},
            "uv": {"run"}, "poetry": {"run"}}
MAX_SUGGESTED_RULES = 5


def command_prefix(argv: list[str]) -> str | None:
    """`git status -s` -> `git status`; `npm run build` -> `npm run build`: the rule prefix."""
    words: list[str] = []
    for word in argv:
        if any(c in word for c in "*()\\,") or not word.strip() or " " in word:
            break
        words.append(word)
    if not words:
        return None
    n = 1
    if words[0] in MULTI_WORD_TOOLS and len(words) > 1 and not words[1].startswith("-"):
        n = 2
        if words[1] in _RUNNERS.get(words[0], ()) and len(words) > 2:
            n = 3
    return " ".join(words[:n])


def rule_suggestion(
    tool_name: str,
    subject: str | None,
    *,
    cwd: Path | None = None,
) -> str | None:
    """The rule text "Yes, and don't ask again" saves for a non-Bash call (Bash suggestions
    come from its analysis: bash/suggest.py)."""
    base = cwd or Path.cwd()
    if subject is None:
        return tool_name
    if tool_name in EDIT_TOOLS | READ_TOOLS:
        from claude_harness.permissions.paths import expand

        family = "Edit" if tool_name in EDIT_TOOLS else "Read"
        path = expand(subject, base)
        directory = path if path.is_dir() else path.parent
        rel = _relative(directory, base)
        if rel is None:
            return f"{family}(/{directory}/**)"
        return f"{family}(/{rel}/**)" if rel else f"{family}(/**)"
    if tool_name == "WebFetch":
        host = url_host(subject)
        return f"WebFetch(domain:{host})" if host else "WebFetch"
    return tool_name


def path_rule(family: str, path: Path, base: Path, *, tree: bool) -> str:
    """`Read(/rel/**)` / `Edit(/rel)`: a path rule anchored at the settings root `base`."""
    rel = _relative(path, base)
    where = f"/{rel}" if rel is not None else f"/{path}"
    if rel == "":
        where = ""
    return f"{family}({where}/**)" if tree else f"{family}({where})"


def allow_rules(texts: Iterable[str], source: str = "session") -> tuple[PermissionRule, ...]:
    """`allowed-tools` entries (a command's, a skill's, an agent's rule-form `tools`) as allow
    rules; an entry that is not a rule is left out."""
    rules = []
    for text in texts:
        try:
            rules.append(PermissionRule(source, "allow", parse_rule(text)))  # type: ignore[arg-type]
        except RuleSyntaxError:
            continue
    return tuple(rules)
