"""Marketplaces and installed plugins, kept in the files Claude Code keeps them in, so a plugin
installed by either tool is installed and enabled in both:

  ~/.claude/plugins/known_marketplaces.json  {name: {"source": {...}, "installLocation", ...}}
  ~/.claude/plugins/marketplaces/<name>/     a git marketplace's clone
  ~/.claude/plugins/installed_plugins.json   {"version": 2, "plugins": {"p@m": [{"scope",
                                             "installPath", "version", "installedAt", ...}]}}
  ~/.claude/plugins/cache/<m>/<p>/<version>/ the installed copy
  ~/.claude/settings.json                    "enabledPlugins": {"p@m": true|false} and
                                             "extraKnownMarketplaces": {name: {"source": {...}}}

Every change goes through settings_write.update_json_file (locked, atomic). Errors are
StoreError with a one-line message; nothing is half-written on failure.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from claude_harness.commands.plugins.discovery import plugins_dir
from claude_harness.commands.plugins.manifest import PluginError, load_plugin
from claude_harness.config.paths import user_settings_path
from claude_harness.config.settings_write import update_json_file

MARKETPLACE_FILE = Path(".claude-plugin") / "marketplace.json"
_GITHUB_SHORTHAND = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_GIT_TIMEOUT_SECONDS = 120


class StoreError(Exception):
    """A plugin or marketplace operation that cannot be done (the message says why)."""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + \
        f"{datetime.now(UTC).microsecond // 1000:03d}Z"


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StoreError(f"{path} cannot be read ({exc})") from exc


def known_marketplaces() -> dict[str, Any]:
    data = _read(plugins_dir() / "known_marketplaces.json")
    return data if isinstance(data, dict) else {}


def installed_plugins() -> dict[str, list[dict[str, Any]]]:
    data = _read(plugins_dir() / "installed_plugins.json")
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, dict):
        return {}
    return {k: v if isinstance(v, list) else [v] for k, v in plugins.items()
            if isinstance(v, list | dict)}


def enabled_plugins() -> dict[str, Any]:
    data = _read(user_settings_path())
    value = data.get("enabledPlugins") if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class MarketplaceSource:
    """Where a marketplace comes from, in Claude Code's `source` shape."""

    data: dict[str, Any]
    local: Path | None = None  # a folder read in place
    clone_url: str | None = None  # a git repository to clone


def parse_source(text: str, cwd: Path) -> MarketplaceSource:
    """A folder, a git URL (https://, ssh, file://, a path ending in .git) or `owner/repo`."""
    path = Path(text).expanduser()
    path = path if path.is_absolute() else cwd / path
    if path.is_dir() and (path / MARKETPLACE_FILE).is_file():
        path = path.resolve()
        return MarketplaceSource({"source": "directory", "path": str(path)}, local=path)
    if path.is_dir() and ((path / "HEAD").is_file() or (path / ".git").exists()):
        url = str(path.resolve())
        return MarketplaceSource({"source": "git", "url": url}, clone_url=url)
    if text.startswith(("https://", "http://", "git@", "ssh://", "file://")) or \
            text.endswith(".git"):
        return MarketplaceSource({"source": "git", "url": text}, clone_url=text)
    if _GITHUB_SHORTHAND.match(text) and not path.exists():
        return MarketplaceSource({"source": "github", "repo": text},
                                 clone_url=f"https://github.com/{text}.git")
    if path.is_dir():
        raise StoreError(f"{path} has no {MARKETPLACE_FILE}; not a marketplace")
    raise StoreError(f"{text!r} is not a marketplace: give a folder, a git URL or owner/repo")


def _clone(url: str, target: Path) -> None:
    tmp = target.with_name(target.name + ".clone")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.parent.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(["git", "clone", "--depth", "1", "-q", url, str(tmp)],
                              capture_output=True, text=True, timeout=_GIT_TIMEOUT_SECONDS,
                              env=_git_env())
    except (OSError, subprocess.TimeoutExpired) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise StoreError(f"cannot clone {url}: {exc}") from exc
    if done.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        lines = [x for x in done.stderr.strip().splitlines() if x.startswith("fatal:")]
        why = (lines or done.stderr.strip().splitlines() or ["git clone failed"])[-1]
        raise StoreError(f"cannot clone {url}: {why.removeprefix('fatal: ')}")
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)


def _git_env() -> dict[str, str]:
    import os

    return {**os.environ, "GIT_TERMINAL_PROMPT": "0"}


def _listing(root: Path) -> dict[str, Any]:
    data = _read(root / MARKETPLACE_FILE)
    if not isinstance(data, dict) or not isinstance(data.get("plugins"), list):
        raise StoreError(f"{root / MARKETPLACE_FILE} is not a marketplace listing "
                         "(an object with a \"plugins\" list)")
    name = data.get("name")
    if not isinstance(name, str) or not re.match(r"^[A-Za-z0-9][\w.-]*$", name):
        raise StoreError(f"{root / MARKETPLACE_FILE} has no valid \"name\"")
    return data


def _managed_list(cwd: Path, key: str) -> list[Any] | None:
    """A list of the managed settings (`strictKnownMarketplaces`: the only sources that may be
    added, `blockedMarketplaces`: sources that may not; None: not set)."""
    from claude_harness.config.settings import load_settings

    for src in load_settings(cwd).sources:
        if src.source == "policySettings":
            value = src.settings.model_dump(exclude_unset=True).get(key)
            if isinstance(value, list):
                return value
    return None


def _blocks(entry: Any, source: dict[str, Any]) -> bool:
    """Does a `blockedMarketplaces` entry name `source`? Exact, except `"repo": "owner/*"`
    (every repository of that owner), as Claude Code matches them."""
    if not isinstance(entry, dict) or not entry:
        return False
    for key, value in entry.items():
        given = source.get(key)
        if key == "repo" and isinstance(value, str) and value.endswith("/*"):
            if not (isinstance(given, str) and given.lower().startswith(value[:-1].lower())):
                return False
        elif key == "path" and isinstance(value, str) and isinstance(given, str):
            if Path(value).expanduser().resolve() != Path(given).resolve():
                return False
        elif given != value:
            return False
    return True


def _allowed_by_policy(source: dict[str, Any], cwd: Path) -> None:
    """Checked before anything is fetched, as Claude Code checks: a blocked source never
    touches the disk."""
    if any(_blocks(entry, source) for entry in _managed_list(cwd, "blockedMarketplaces") or ()):
        raise StoreError(f"{json.dumps(source)} is blocked by your organization's "
                         "blockedMarketplaces")
    allow = _managed_list(cwd, "strictKnownMarketplaces")
    if allow is None:
        return
    for entry in allow:
        if isinstance(entry, dict) and entry and all(source.get(k) == v for k, v in entry.items()):
            return
    raise StoreError(f"{json.dumps(source)} is not allowed by your organization's "
                     "strictKnownMarketplaces")


def _known_source(name: str) -> dict[str, Any]:
    entry = known_marketplaces().get(name)
    given = entry.get("source") if isinstance(entry, dict) else None
    return given if isinstance(given, dict) else {}


def add_marketplace(text: str, cwd: Path) -> str:
    """Add a marketplace; returns its name (the one its listing declares)."""
    source = parse_source(text, cwd)
    _allowed_by_policy(source.data, cwd)
    if source.local is not None:
        root, name = source.local, _listing(source.local)["name"]
    else:
        assert source.clone_url is not None
        staging = plugins_dir() / "marketplaces" / ".adding"
        _clone(source.clone_url, staging)
        try:
            name = _listing(staging)["name"]
        except StoreError:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        root = plugins_dir() / "marketplaces" / name
        shutil.rmtree(root, ignore_errors=True)
        staging.rename(root)
    _record_marketplace(name, source.data, root)
    return name


def _record_marketplace(name: str, source: dict[str, Any], root: Path) -> None:
    def known(data: dict[str, Any]) -> None:
        data[name] = {"source": source, "installLocation": str(root), "lastUpdated": _now()}

    def settings(data: dict[str, Any]) -> None:
        extra = data.setdefault("extraKnownMarketplaces", {})
        if isinstance(extra, dict):
            extra[name] = {"source": source}

    update_json_file(plugins_dir() / "known_marketplaces.json", known)
    update_json_file(user_settings_path(), settings)


def marketplace_root(name: str) -> Path:
    entry = known_marketplaces().get(name)
    location = entry.get("installLocation") if isinstance(entry, dict) else None
    if not isinstance(location, str):
        raise StoreError(f"marketplace {name!r} is not known (add it with "
                         "`claude-harness plugin marketplace add`)")
    return Path(location).expanduser()


def remove_marketplace(name: str) -> None:
    root = marketplace_root(name)

    def known(data: dict[str, Any]) -> None:
        data.pop(name, None)

    def settings(data: dict[str, Any]) -> None:
        extra = data.get("extraKnownMarketplaces")
        if isinstance(extra, dict):
            extra.pop(name, None)
        enabled = data.get("enabledPlugins")
        if isinstance(enabled, dict):
            for key in [k for k in enabled if k.endswith(f"@{name}")]:
                del enabled[key]

    update_json_file(plugins_dir() / "known_marketplaces.json", known)
    update_json_file(user_settings_path(), settings)
    if root.is_relative_to(plugins_dir() / "marketplaces"):
        shutil.rmtree(root, ignore_errors=True)


def update_marketplace(name: str) -> None:
    """Fetch a git marketplace again (a folder is read in place: nothing to fetch)."""
    entry = known_marketplaces().get(name)
    if not isinstance(entry, dict):
        raise StoreError(f"marketplace {name!r} is not known")
    source = _known_source(name)
    _allowed_by_policy(source, Path.cwd())  # a policy made after it was added still holds
    url = source.get("url") or (f"https://github.com/{source['repo']}.git"
                                if source.get("repo") else None)
    if source.get("source") in ("git", "github") and isinstance(url, str):
        _clone(url, plugins_dir() / "marketplaces" / name)
    _listing(marketplace_root(name))
    _record_marketplace(name, source, marketplace_root(name))


def _split_id(plugin_id: str) -> tuple[str, str]:
    name, _, market = plugin_id.partition("@")
    if not name or not market:
        raise StoreError(f"{plugin_id!r}: name a plugin as NAME@MARKETPLACE")
    return name, market


def _plugin_folder(name: str, market: str) -> Path:
    root = marketplace_root(market)
    for item in _listing(root)["plugins"]:
        if isinstance(item, dict) and item.get("name") == name:
            source = item.get("source")
            if isinstance(source, str) and not source.startswith(("http:", "https:")):
                folder = (root / source).resolve()
                if not folder.is_relative_to(root.resolve()):
                    raise StoreError(f"plugin {name!r}: its source leaves the marketplace")
                return folder
            raise StoreError(f"plugin {name!r}: only plugins inside the marketplace's own "
                             "folder can be installed here (its source is remote)")
    raise StoreError(f"plugin {name!r} not found in marketplace {market!r}")


def install_plugin(plugin_id: str) -> Path:
    """Copy the plugin into the cache, record it and enable it (user scope)."""
    name, market = _split_id(plugin_id)
    if known := _known_source(market):  # added before the policy came: it still holds
        _allowed_by_policy(known, Path.cwd())
    folder = _plugin_folder(name, market)
    try:
        plugin = load_plugin(folder)
    except PluginError as exc:
        raise StoreError(f"plugin {plugin_id}: {exc}") from exc
    version = plugin.version or "unknown"
    target = plugins_dir() / "cache" / market / name / version
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(folder, target, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    stamp = _now()

    def record(data: dict[str, Any]) -> None:
        data["version"] = 2
        plugins = data.setdefault("plugins", {})
        plugins[plugin_id] = [{"scope": "user", "installPath": str(target), "version": version,
                               "installedAt": stamp, "lastUpdated": stamp}]

    update_json_file(plugins_dir() / "installed_plugins.json", record)
    set_enabled(plugin_id, True, require_installed=False)
    return target


def uninstall_plugin(plugin_id: str) -> None:
    _split_id(plugin_id)
    entries = installed_plugins().get(plugin_id)
    if not entries:
        raise StoreError(f"plugin {plugin_id} is not installed")

    def record(data: dict[str, Any]) -> None:
        data.get("plugins", {}).pop(plugin_id, None)

    def settings(data: dict[str, Any]) -> None:
        enabled = data.get("enabledPlugins")
        if isinstance(enabled, dict):
            enabled.pop(plugin_id, None)

    update_json_file(plugins_dir() / "installed_plugins.json", record)
    update_json_file(user_settings_path(), settings)
    cache = plugins_dir() / "cache"
    for entry in entries:
        path = Path(str(entry.get("installPath", ""))).expanduser()
        if path.is_relative_to(cache) and path != cache:
            shutil.rmtree(path, ignore_errors=True)


def set_enabled(plugin_id: str, on: bool, *, require_installed: bool = True) -> None:
    _split_id(plugin_id)
    if require_installed and plugin_id not in installed_plugins():
        raise StoreError(f"plugin {plugin_id} is not installed")

    def settings(data: dict[str, Any]) -> None:
        enabled = data.setdefault("enabledPlugins", {})
        if not isinstance(enabled, dict):
            raise ValueError("enabledPlugins in settings.json is not an object")
        enabled[plugin_id] = on

    try:
        update_json_file(user_settings_path(), settings)
    except ValueError as exc:
        raise StoreError(str(exc)) from exc
