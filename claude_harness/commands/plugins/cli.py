"""`claude-harness plugin ...`: manage marketplaces and plugins from the command line, in the
files Claude Code uses (see store.py), so `claude plugin list` and ours agree.

    claude-harness plugin marketplace add SOURCE | list [--json] | remove NAME | update [NAME]
    claude-harness plugin install|uninstall|enable|disable NAME@MARKETPLACE
    claude-harness plugin list [--json]
    claude-harness plugin validate PATH|NAME@MARKETPLACE

Each failure is one line on stderr and exit code 1; nothing is changed by a failed command.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from claude_harness.commands.plugins import store
from claude_harness.commands.plugins.manifest import PluginError, load_plugin


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="claude-harness plugin",
                                     description="Manage plugins and marketplaces.")
    sub = parser.add_subparsers(dest="command", required=True)
    market = sub.add_parser("marketplace", help="manage marketplaces")
    msub = market.add_subparsers(dest="action", required=True)
    msub.add_parser("add").add_argument("source")
    msub.add_parser("list").add_argument("--json", action="store_true")
    for verb in ("remove", "rm"):
        msub.add_parser(verb).add_argument("name")
    msub.add_parser("update").add_argument("name", nargs="?")
    for verb in ("install", "i", "uninstall", "remove", "enable", "disable"):
        sub.add_parser(verb).add_argument("plugin")
    sub.add_parser("list").add_argument("--json", action="store_true")
    sub.add_parser("validate").add_argument("target")
    return parser


def main(argv: list[str], cwd: Path | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "marketplace":
            return _marketplace(args, cwd or Path.cwd())
        return _plugin(args)
    except store.StoreError as exc:
        sys.stderr.write(f"claude-harness plugin: {exc}\n")
        return 1


def _marketplace(args: argparse.Namespace, cwd: Path) -> int:
    if args.action == "add":
        name = store.add_marketplace(args.source, cwd)
        print(f"Added marketplace {name}")
    elif args.action == "list":
        known = store.known_marketplaces()
        if args.json:
            print(json.dumps([{"name": k, **v} for k, v in known.items()
                              if isinstance(v, dict)], indent=2))
        for name, entry in known.items() if not args.json else ():
            print(f"{name}  {_describe_source(entry.get('source') or {})}")
        if not known and not args.json:
            print("No marketplaces configured.")
    elif args.action in ("remove", "rm"):
        store.remove_marketplace(args.name)
        print(f"Removed marketplace {args.name}")
    else:
        names = [args.name] if args.name else list(store.known_marketplaces())
        for name in names:
            store.update_marketplace(name)
            print(f"Updated marketplace {name}")
    return 0


def _describe_source(source: dict[str, Any]) -> str:
    kind = source.get("source")
    if kind == "directory":
        return f"folder {source.get('path')}"
    if kind == "github":
        return f"GitHub {source.get('repo')}"
    return f"git {source.get('url')}" if kind == "git" else json.dumps(source)


def _plugin(args: argparse.Namespace) -> int:
    command = {"i": "install", "remove": "uninstall"}.get(args.command, args.command)
    if command == "install":
        path = store.install_plugin(args.plugin)
        print(f"Installed plugin {args.plugin} (scope: user) in {path}")
    elif command == "uninstall":
        store.uninstall_plugin(args.plugin)
        print(f"Uninstalled plugin {args.plugin}")
    elif command in ("enable", "disable"):
        store.set_enabled(args.plugin, command == "enable")
        print(f"{command.capitalize()}d plugin {args.plugin}")
    elif command == "list":
        return _list(args.json)
    else:
        return _validate(args.target)
    return 0


def _list(as_json: bool) -> int:
    enabled = store.enabled_plugins()
    rows = [{"id": key, "version": entries[0].get("version"), "scope": entries[0].get("scope"),
             "enabled": enabled.get(key) is True, "installPath": entries[0].get("installPath")}
            for key, entries in store.installed_plugins().items() if entries]
    if as_json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print("No plugins installed.")
    for row in rows:
        state = "enabled" if row["enabled"] else "disabled"
        print(f"{row['id']}  {row['version'] or ''}  {state}  ({row['installPath']})")
    return 0


def _validate(target: str) -> int:
    path = Path(target).expanduser()
    if not path.exists() and "@" in target:
        name, _, market = target.partition("@")
        path = store._plugin_folder(name, market)  # noqa: SLF001 - same package
    if (path / store.MARKETPLACE_FILE).is_file():
        listing = store._listing(path)  # noqa: SLF001
        print(f"Valid marketplace {listing['name']}: {len(listing['plugins'])} plugins")
        return 0
    try:
        plugin = load_plugin(path)
    except PluginError as exc:
        raise store.StoreError(f"{path}: {exc}") from exc
    for warning in plugin.warnings:
        print(f"warning: {warning}")
    print(f"Valid plugin {plugin.name} {plugin.version or ''}".rstrip())
    return 0
