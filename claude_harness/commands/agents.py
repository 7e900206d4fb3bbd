"""Sub-agent definitions: built-in ones, `.claude/agents/**/*.md`, plugin agents, `--agents JSON`.

    ---
    name: Code Reviewer.v2                  required, any text: capitals, dots, spaces as written
    description: Reviews diffs for bugs     required: tells the model when to delegate
    tools: Read, Grep, Bash(git *)          optional allowlist (string or YAML list); a rule form
                                            gives the tool, limited to that rule; MCP names work;
                                            omitted or `*` = every tool the parent has
    disallowedTools: Write                  optional denylist
    model: haiku                            alias, full id, or `inherit` (= the parent's model)
    permissionMode: acceptEdits             the child's permission mode
    maxTurns: 20                            the child's turn limit
    hooks: {...}                            hooks active while this agent runs (settings format)
    color: blue                             how front ends tag its output
    ---
    You are a careful reviewer...           the body is the agent's system prompt

Where they come from, highest precedence first (Claude Code's order): `--agents` JSON, project
(`.claude/agents/` in the cwd and each parent up to the repository root, nearest first, any
depth), user (`~/.claude/agents/`), plugins (`plugin:name`), built-ins. A project or user file
without a name or description is skipped and reported (Claude Code skips it too); a plugin agent
falls back to its file name and "Agent from <plugin> plugin", as Claude Code does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from claude_harness.commands.custom import SkippedFile
from claude_harness.config.frontmatter import FrontMatter, parse_front_matter
from claude_harness.config.paths import project_roots

Scope = Literal["built-in", "plugin", "user", "project", "flag"]
PERMISSION_MODES = frozenset({"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk",
                              "auto"})
READ_ONLY_EXCLUDED = ("Agent", "ExitPlanMode", "Edit", "Write", "NotebookEdit")


@dataclass(frozen=True)
class AgentDefinition:
    """One agent type, with everything the sub-agent runner must apply."""

    name: str
    description: str
    system_prompt: str
    path: Path | None
    scope: Scope
    tools: tuple[str, ...] | None = None  # tool names; None = every tool the parent has
    tool_rules: tuple[str, ...] = ()  # entries written as rules (`Bash(git *)`): allow only these
    disallowed_tools: tuple[str, ...] = ()
    model: str | None = None  # None = inherit the parent's model
    permission_mode: str | None = None
    max_turns: int | None = None
    color: str | None = None
    hooks: dict[str, Any] | None = None
    skills: tuple[str, ...] = ()
    plugin: str | None = None
    warnings: tuple[str, ...] = field(default=(), compare=False)

    def allows_tool(self, tool_name: str) -> bool:
        """Whether the child gets this tool (by name; rule forms keep their tool)."""
        from claude_harness.permissions.tool_names import mcp_rule_matches  # (server, tool)

        if tool_name in self.disallowed_tools:
            return False
        if tool_name.startswith("mcp__") and any(
                mcp_rule_matches(d, tool_name) for d in self.disallowed_tools):
            return False
        return self.tools is None or tool_name in self.tools or any(
            mcp_rule_matches(t, tool_name) for t in self.tools)

    @property
    def tools_summary(self) -> str:
        if self.tools is None and not self.disallowed_tools:
            return "All tools"
        if self.tools is None:
            return "All tools except " + ", ".join(self.disallowed_tools)
        return ", ".join(self.tool_rules or self.tools)


class AgentFileError(ValueError):
    """A definition that cannot be used (the message says why)."""


GENERAL_PROMPT = """\
You are a sub-agent of a coding assistant, working on one task in the user's repository. Work \
on your own with the tools you have: search, read, and (when the task asks for it) change files \
or run commands. You cannot ask questions. When you are done, answer with one final message \
that is your report: what you found or did, with file paths and line numbers, concise and \
complete. That message is all the requester will see."""

EXPLORE_PROMPT = """\
You are a read-only search sub-agent. Find what the task asks for by searching and reading the \
repository (Glob, Grep, Read, read-only shell commands); you cannot change files. Search broadly \
first, then narrow. Answer with one final message: the relevant files with line numbers and \
what each shows, concise. That message is all the requester will see."""

PLAN_PROMPT = """\
You are a planning sub-agent, a software architect. Study the repository (read-only: you cannot \
change files) and design how to carry out the task: the files to change, the order of the \
steps, the risks and trade-offs, how to verify the result. Answer with one final message: a \
step-by-step plan naming the critical files. That message is all the requester will see."""

BUILTIN_AGENTS: tuple[AgentDefinition, ...] = (
    AgentDefinition(
        "general-purpose",
        "A general agent for researching complex questions, searching code and carrying out "
        "multi-step tasks; use it when a search may take several tries.",
        GENERAL_PROMPT, None, "built-in"),
    AgentDefinition(
        "Explore",
        "A fast read-only search agent for sweeping many files, folders or naming conventions "
        "when only the conclusion is needed. Say how thorough: \"quick\", \"medium\" or "
        "\"very thorough\".",
        EXPLORE_PROMPT, None, "built-in", disallowed_tools=READ_ONLY_EXCLUDED, model="haiku"),
    AgentDefinition(
        "Plan",
        "A software architect agent for designing an implementation plan: the steps, the "
        "critical files, the trade-offs.",
        PLAN_PROMPT, None, "built-in", disallowed_tools=READ_ONLY_EXCLUDED),
)
GENERAL_PURPOSE = BUILTIN_AGENTS[0]


def user_agents_dir() -> Path:
    from claude_harness.config.paths import user_config_dir

    return user_config_dir() / "agents"


def agent_dirs(cwd: Path) -> list[tuple[Path, Scope]]:
    """Folders of agent files, highest precedence first."""
    dirs: list[tuple[Path, Scope]] = [(r / ".claude" / "agents", "project")
                                      for r in project_roots(Path(cwd))]
    dirs.append((user_agents_dir(), "user"))
    return dirs


def _split_tools(entries: list[str] | None) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """(tool names, rule-form entries) of a `tools` field; None names = every tool."""
    if entries is None:
        return None, ()
    entries = [e for e in entries if e]
    if not entries or entries == ["*"]:
        return None, ()
    names: list[str] = []
    rules: list[str] = []
    for entry in entries:
        base = entry.split("(", 1)[0].strip()
        if "(" in entry:
            rules.append(entry)
        if base and base not in names:
            names.append("Agent" if base == "Task" else base)
    return tuple(names), tuple(rules)


def _positive_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    text = str(value).strip() if value is not None else ""
    return int(text) if text.isdigit() and int(text) > 0 else None


def definition_from_fields(
    fields: FrontMatter, *, name: str, description: str, prompt: str, path: Path | None,
    scope: Scope, plugin: str | None = None,
) -> AgentDefinition:
    """The optional fields shared by files and `--agents` JSON, with problems as warnings."""
    where = str(path) if path is not None else f"--agents {name}"
    warnings = [f"{where}: {w}" for w in fields.warnings]
    tools, rules = _split_tools(fields.items("tools"))
    model = fields.text("model").strip() or None
    mode = fields.text("permissionMode").strip() or None
    if mode is not None and mode not in PERMISSION_MODES:
        warnings.append(f"{where}: permissionMode {mode!r} is not a mode; ignored")
        mode = None
    hooks = fields.data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        warnings.append(f"{where}: hooks must be a mapping of events; ignored")
        hooks = None
    max_turns = _positive_int(fields.data.get("maxTurns"))
    if fields.data.get("maxTurns") is not None and max_turns is None:
        warnings.append(f"{where}: maxTurns must be a positive whole number; ignored")
    return AgentDefinition(
        name=name,
        description=description,
        system_prompt=prompt.strip(),
        path=path,
        scope=scope,
        tools=tools,
        tool_rules=rules,
        disallowed_tools=tuple("Agent" if t == "Task" else t
                               for t in fields.items("disallowedTools") or ()),
        model=None if model == "inherit" else model,
        permission_mode=mode,
        max_turns=max_turns,
        color=fields.text("color").strip() or None,
        hooks=hooks,
        skills=tuple(fields.items("skills") or ()),
        plugin=plugin,
        warnings=tuple(warnings),
    )


def parse_agent(path: Path, scope: Scope, *, plugin: str | None = None) -> AgentDefinition:
    """One agent file. Raises AgentFileError (unusable) or OSError/UnicodeDecodeError."""
    fm = parse_front_matter(path.read_text(encoding="utf-8"))
    name = fm.text("name").strip()
    description = fm.text("description").strip()
    if plugin is not None:
        name = f"{plugin}:{name or path.stem}"
        description = description or f"Agent from {plugin} plugin"
    elif fm.error:
        raise AgentFileError(f"{path}: {fm.error}; the agent is skipped")
    elif not name:
        raise AgentFileError(f"{path}: missing `name` in the front matter; the agent is skipped")
    elif not description:
        raise AgentFileError(f"{path}: missing `description` in the front matter; "
                             "the agent is skipped")
    return definition_from_fields(fm, name=name, description=description, prompt=fm.body,
                                  path=path, scope=scope, plugin=plugin)


def parse_agents_json(text: str) -> tuple[list[AgentDefinition], list[str]]:
    """`--agents '{"reviewer": {"description": ..., "prompt": ..., "tools": [...]}}'`."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        return [], [f"--agents: not valid JSON ({exc.msg} at column {exc.colno})"]
    if not isinstance(raw, dict):
        return [], ["--agents: must be a JSON object mapping agent names to definitions"]
    found: list[AgentDefinition] = []
    problems: list[str] = []
    for name, spec in raw.items():
        if not isinstance(spec, dict):
            problems.append(f"--agents {name}: must be an object; skipped")
            continue
        description, prompt = spec.get("description"), spec.get("prompt")
        if not isinstance(description, str) or not description.strip():
            problems.append(f"--agents {name}: missing `description`; skipped")
            continue
        if not isinstance(prompt, str):
            problems.append(f"--agents {name}: missing `prompt`; skipped")
            continue
        fields = FrontMatter(data=dict(spec), body=prompt, present=True)
        agent = definition_from_fields(fields, name=str(name), description=description.strip(),
                                       prompt=prompt, path=None, scope="flag")
        problems.extend(agent.warnings)
        found.append(agent)
    return found, problems


@dataclass
class AgentSet:
    """Agents found so far; the first definition of a name wins (sources go highest first)."""

    found: dict[str, AgentDefinition] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)

    def add(self, agent: AgentDefinition) -> None:
        self.warnings.extend(agent.warnings)
        if agent.name in self.found:
            first = self.found[agent.name]
            if first.scope == agent.scope and first.path is not None:
                self.warnings.append(f"{agent.path}: agent {agent.name!r} is also defined in "
                                     f"{first.path}; that one is used")
            return
        self.found[agent.name] = agent

    def add_file(self, path: Path, scope: Scope, plugin: str | None = None) -> None:
        try:
            self.add(parse_agent(path, scope, plugin=plugin))
        except AgentFileError as exc:
            self.warnings.append(str(exc))
            self.skipped.append(SkippedFile("agent", path, str(exc).split(": ", 1)[-1]))
        except (OSError, UnicodeDecodeError) as exc:
            reason = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
            self.warnings.append(f"Could not read agent {path}: {reason}")
            self.skipped.append(SkippedFile("agent", path, f"cannot be read ({reason})"))

    def ordered(self) -> list[AgentDefinition]:
        return [self.found[n] for n in sorted(self.found, key=str.lower)]


def collect_agents(cwd: Path, *, plugins: Iterable[object] = (),
                   flag_agents: Iterable[AgentDefinition] = (),
                   builtins: bool = True, locked_note: str | None = None) -> AgentSet:
    """`locked_note` (strictPluginOnlyCustomization locks agents): the user's and the
    project's agent files are skipped with that reason; plugin agents and `--agents` (a
    command-line flag, not a customization folder) still load."""
    found = AgentSet()
    for agent in flag_agents:
        found.add(agent)
    for folder, scope in agent_dirs(Path(cwd)):
        if folder.is_dir():
            for path in sorted(folder.rglob("*.md")):
                if path.is_file() and locked_note:
                    found.skipped.append(SkippedFile("agent", path, locked_note))
                elif path.is_file():
                    found.add_file(path, scope)
    for plugin in plugins:
        add_agents = getattr(plugin, "add_agents", None)
        if add_agents is not None:
            add_agents(found)
    if builtins:
        for agent in BUILTIN_AGENTS:
            found.add(agent)
    return found


def load_agents(cwd: Path, warnings: list[str] | None = None, *,
                plugins: Iterable[object] = (), builtins: bool = False) -> list[AgentDefinition]:
    """Custom agents visible from `cwd` (and built-ins when asked), sorted by name; unusable
    files are skipped and described in `warnings`."""
    found = collect_agents(cwd, plugins=plugins, builtins=builtins)
    if warnings is not None:
        warnings.extend(found.warnings)
    return found.ordered()


def find_agent(agents: list[AgentDefinition], name: str) -> AgentDefinition | None:
    return next((a for a in agents if a.name == name), None)


def unknown_tools(agent: AgentDefinition, known: Iterable[str]) -> list[str]:
    """Tools an agent names that this harness does not have (MCP names are checked at run
    time, when the servers are connected)."""
    have = set(known)
    named = [*(agent.tools or ()), *agent.disallowed_tools]
    return [t for t in named if t not in have and not t.startswith("mcp__")]
