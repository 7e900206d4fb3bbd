"""`claude-harness doctor`: the load report of this folder's configuration, for people and
scripts (stdout, exit code 0; `--json` for the data).

    claude-harness doctor [--plugin-dir DIR]... [--agents JSON] [--settings FILE|JSON] [--json]

`build_report()` is what `/doctor` shows and what the start-up notice summarises.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path

from claude_harness.config.load_report import LoadReport


def build_report(cwd: Path, *, plugin_dirs: Iterable[str | Path] = (),
                 agents_json: str | None = None, settings_arg: str | None = None,
                 trusted: bool = True) -> LoadReport:
    """Everything the configuration of `cwd` loads, skips or does not support."""
    from claude_harness.commands.catalog import load_catalog
    from claude_harness.config.plugin_only import locked_surfaces
    from claude_harness.config.settings import CliSettings, load_settings
    from claude_harness.hooks.config import hook_config_from_settings
    from claude_harness.mcp.status import _policy
    from claude_harness.session.services.config_report import configuration_report
    from claude_harness.tools.registry import get_all_base_tools

    cwd = Path(cwd).resolve()
    loaded = load_settings(cwd, cli=CliSettings(settings=settings_arg), trusted=trusted)
    enabled = loaded.value("enabledPlugins")
    known = [name for tool in get_all_base_tools() for name in (tool.name, *tool.aliases)]
    catalog = load_catalog(cwd, plugin_dirs=plugin_dirs, agents_json=agents_json,
                           enabled_plugins=enabled if isinstance(enabled, dict) else None,
                           known_tools=known,
                           locked=locked_surfaces(loaded))
    hooks = hook_config_from_settings(loaded, trusted=trusted,
                                      plugin_sources=catalog.hook_sources(),
                                      plugin_roots=catalog.plugin_roots())
    return configuration_report(cwd, loaded, catalog, hooks, _policy(cwd))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="claude-harness doctor",
                                     description="Show what this folder's configuration loads.")
    parser.add_argument("--plugin-dir", action="append", default=[], metavar="DIR")
    parser.add_argument("--agents", metavar="JSON")
    parser.add_argument("--settings", metavar="FILE_OR_JSON")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = build_report(Path.cwd(), plugin_dirs=args.plugin_dir, agents_json=args.agents,
                          settings_arg=args.settings)
    print(json.dumps(report.as_data(), indent=1) if args.json else report.format())
    return 0
