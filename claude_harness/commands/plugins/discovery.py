"""Which plugins a session loads: `--plugin-dir` folders and the `enabledPlugins` setting.

`enabledPlugins` names plugins as `name@marketplace` (`{"formatter@team-tools": true}`). They
are found where Claude Code installs them, read-only:
  ~/.claude/plugins/installed_plugins.json   {"plugins": {"name@mkt": [{"installPath": ...}]}}
                                             (version 1: {"plugins": {"name@mkt": {...}}})
  ~/.claude/plugins/known_marketplaces.json  a marketplace with a local `installLocation`, whose
                                             `.claude-plugin/marketplace.json` lists the plugin
                                             with a relative `source`
A plugin enabled but found in neither is reported, not guessed at: installing from a remote
marketplace is not done here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.commands.plugins.manifest import Plugin, PluginError, load_plugin


@dataclass
class PluginLoad:
    """The plugins a session uses, and the ones it could not load (with the reason)."""

    plugins: list[Plugin] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (plugin or folder, reason)
    disabled: list[str] = field(default_factory=list)  # enabledPlugins entries set to false

    @property
    def warnings(self) -> list[str]:
        out = [f"plugin {who}: {why}" for who, why in self.errors]
        for plugin in self.plugins:
            out.extend(f"plugin {plugin.name}: {w}" for w in plugin.warnings)
        return out


def plugins_dir() -> Path:
    from claude_harness.config.paths import user_config_dir

    return user_config_dir() / "plugins"


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def _installed_path(key: str) -> Path | None:
    data = _json(plugins_dir() / "installed_plugins.json")
    entry = data.get("plugins", {}).get(key) if isinstance(data, dict) else None
    if isinstance(entry, list):
        entry = entry[0] if entry else None
    if isinstance(entry, dict) and isinstance(entry.get("installPath"), str):
        return Path(entry["installPath"]).expanduser()
    return None


def _marketplace_path(name: str, marketplace: str) -> Path | None:
    known = _json(plugins_dir() / "known_marketplaces.json")
    entry = known.get(marketplace) if isinstance(known, dict) else None
    location = entry.get("installLocation") if isinstance(entry, dict) else None
    if not isinstance(location, str):
        return None
    root = Path(location).expanduser()
    listing = _json(root / ".claude-plugin" / "marketplace.json")
    for item in listing.get("plugins", []) if isinstance(listing, dict) else []:
        if isinstance(item, dict) and item.get("name") == name:
            source = item.get("source")
            if isinstance(source, str) and not source.startswith(("http:", "https:")):
                return (root / source).resolve()
    return None


def resolve_enabled(key: str) -> Path | None:
    """The local folder of an `enabledPlugins` entry, or None when it is not installed here."""
    name, _, marketplace = key.partition("@")
    return _installed_path(key) or (_marketplace_path(name, marketplace) if marketplace
                                    else None)


def discover_plugins(
    plugin_dirs: Iterable[str | Path] = (),
    enabled: Mapping[str, Any] | None = None,
    *,
    cwd: Path | None = None,
) -> PluginLoad:
    """Load `--plugin-dir` folders first, then enabled plugins; a name loads once."""
    result = PluginLoad()
    seen: set[str] = set()

    def add(root: Path, label: str, suffix: str) -> None:
        try:
            plugin = load_plugin(root, source_suffix=suffix)
        except PluginError as exc:
            result.errors.append((label, str(exc)))
            return
        if plugin.name in seen:
            result.errors.append((label, f"a plugin named {plugin.name!r} is already loaded; "
                                         "this one is skipped"))
            return
        seen.add(plugin.name)
        result.plugins.append(plugin)

    for folder in plugin_dirs:
        path = Path(folder).expanduser()
        if not path.is_absolute() and cwd is not None:
            path = cwd / path
        add(path, str(folder), "inline")
    for key, on in (enabled or {}).items():
        if on is not True:
            result.disabled.append(key)
            continue
        root = resolve_enabled(key)
        if root is None:
            result.errors.append((key, "enabled in settings but not installed here (install it "
                                       "with Claude Code, or pass its folder with --plugin-dir)"))
            continue
        add(root, key, key.partition("@")[2] or "local")
    return result
