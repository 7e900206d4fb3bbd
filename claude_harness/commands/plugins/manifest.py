"""One plugin folder: its manifest and the parts it contributes.

    my-plugin/
      .claude-plugin/plugin.json   {"name", "version", "description", and optional paths:
                                    "commands", "agents", "skills" (a path or a list, added to
                                    the default folders), "hooks" (a path or an object),
                                    "mcpServers" (a path or an object)}
      commands/**/*.md             /my-plugin:name
      agents/*.md                  subagent_type my-plugin:name
      skills/<name>/SKILL.md       /my-plugin:name and the Skill tool
      hooks/hooks.json             {"hooks": {...}} in the settings format
      .mcp.json                    {"mcpServers": {...}}

A folder without a manifest is still a plugin named by the folder (Claude Code loads it so).
`${CLAUDE_PLUGIN_ROOT}` in hook commands and MCP server fields becomes the plugin's folder.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.commands.custom import iter_command_files, iter_skill_files

MANIFEST = Path(".claude-plugin") / "plugin.json"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class PluginError(ValueError):
    """A folder that cannot be loaded as a plugin (the message says why)."""


@dataclass
class Plugin:
    """A loaded plugin. `source` is `name@inline` for --plugin-dir, `name@marketplace` else."""

    name: str
    root: Path
    source: str
    version: str | None = None
    description: str = ""
    command_paths: list[Path] = field(default_factory=list)
    agent_paths: list[Path] = field(default_factory=list)
    skill_paths: list[Path] = field(default_factory=list)
    hooks: dict[str, Any] | None = None
    hooks_path: Path | None = None
    mcp_servers: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def init_info(self) -> dict[str, str]:
        """The plugin's entry in system/init `plugins`."""
        info = {"name": self.name, "path": str(self.root), "source": self.source}
        if self.version:
            info["version"] = self.version
        return info

    def expand_root(self, value: Any) -> Any:
        """`${CLAUDE_PLUGIN_ROOT}` replaced in every string of a JSON value."""
        if isinstance(value, str):
            return value.replace("${CLAUDE_PLUGIN_ROOT}", str(self.root))
        if isinstance(value, list):
            return [self.expand_root(v) for v in value]
        if isinstance(value, dict):
            return {k: self.expand_root(v) for k, v in value.items()}
        return value

    # -- contributions, called by the command and agent collectors --------------------------

    def add_commands(self, found: Any) -> None:
        for folder in self.command_paths:
            files = ([(folder, folder.stem, "command")] if folder.is_file()
                     else iter_command_files(folder) if folder.is_dir() else [])
            for path, name, kind in files:
                found.add_file(path, f"{self.name}:{name}", "plugin", kind, plugin=self.name)
        for folder in self.skill_paths:
            skills = ([(folder / "SKILL.md", folder.name)] if (folder / "SKILL.md").is_file()
                      else iter_skill_files(folder))
            for path, name in skills:
                found.add_file(path, f"{self.name}:{name}", "plugin", "skill", plugin=self.name)

    def add_agents(self, found: Any) -> None:
        for folder in self.agent_paths:
            files = [folder] if folder.is_file() else sorted(folder.glob("*.md"))
            for path in files:
                if path.is_file():
                    found.add_file(path, "plugin", plugin=self.name)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise PluginError(f"{path}: invalid JSON at line {exc.lineno} ({exc.msg})") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise PluginError(f"{path}: cannot be read ({exc})") from exc


def _paths(root: Path, value: Any, key: str, warnings: list[str]) -> list[Path]:
    """A manifest path field: a string or a list of strings relative to the plugin root."""
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if items is None or not all(isinstance(v, str) for v in items):
        warnings.append(f"{root / MANIFEST}: `{key}` must be a path or a list of paths; ignored")
        return []
    out = []
    for item in items:
        path = (root / item).resolve()
        if not path.is_relative_to(root.resolve()):
            warnings.append(f"{root / MANIFEST}: `{key}` path {item!r} leaves the plugin "
                            "folder; ignored")
            continue
        out.append(path)
    return out


def load_plugin(root: Path, *, source_suffix: str = "inline") -> Plugin:
    """Read a plugin folder; raises PluginError when it cannot be used at all."""
    root = Path(root).expanduser().resolve()
    if not root.is_dir():
        raise PluginError(f"{root}: not a folder")
    manifest: dict[str, Any] = {}
    if (root / MANIFEST).is_file():
        data = _read_json(root / MANIFEST)
        if not isinstance(data, dict):
            raise PluginError(f"{root / MANIFEST}: must be a JSON object")
        manifest = data
    name = manifest.get("name", root.name)
    if not isinstance(name, str) or not _NAME.match(name):
        raise PluginError(f"{root / MANIFEST}: `name` {name!r} must be letters, digits, `.`, "
                          "`_` or `-`")
    version = manifest.get("version")
    plugin = Plugin(name=name, root=root, source=f"{name}@{source_suffix}",
                    version=version if isinstance(version, str) else None,
                    description=str(manifest.get("description") or ""))
    for key, default, target in (("commands", "commands", plugin.command_paths),
                                 ("agents", "agents", plugin.agent_paths),
                                 ("skills", "skills", plugin.skill_paths)):
        if (root / default).is_dir():
            target.append(root / default)
        if key in manifest:
            target.extend(p for p in _paths(root, manifest[key], key, plugin.warnings)
                          if p not in target)
    _load_hooks(plugin, manifest)
    _load_mcp(plugin, manifest)
    return plugin


def _load_hooks(plugin: Plugin, manifest: dict[str, Any]) -> None:
    value = manifest.get("hooks")
    path = plugin.root / "hooks" / "hooks.json"
    if isinstance(value, str):
        found = _paths(plugin.root, value, "hooks", plugin.warnings)
        path = found[0] if found else path
    elif isinstance(value, dict):
        plugin.hooks = plugin.expand_root(value.get("hooks", value))
        plugin.hooks_path = plugin.root / MANIFEST
        return
    if not path.is_file():
        return
    try:
        data = _read_json(path)
    except PluginError as exc:
        plugin.warnings.append(str(exc))
        return
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        plugin.warnings.append(f"{path}: must be an object with a `hooks` object; ignored")
        return
    plugin.hooks, plugin.hooks_path = plugin.expand_root(hooks), path


def _load_mcp(plugin: Plugin, manifest: dict[str, Any]) -> None:
    value = manifest.get("mcpServers")
    servers: Any = None
    if isinstance(value, dict):
        servers = value
    else:
        path = plugin.root / ".mcp.json"
        if isinstance(value, str):
            found = _paths(plugin.root, value, "mcpServers", plugin.warnings)
            path = found[0] if found else path
        if not path.is_file():
            return
        try:
            data = _read_json(path)
        except PluginError as exc:
            plugin.warnings.append(str(exc))
            return
        servers = data.get("mcpServers", data) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        plugin.warnings.append(f"{plugin.root}: `mcpServers` must be an object; ignored")
        return
    plugin.mcp_servers = {str(k): plugin.expand_root(v) for k, v in servers.items()
                          if isinstance(v, dict)}
