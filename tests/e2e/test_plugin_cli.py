"""`claude-harness plugin ...` against Claude Code 2.1.332 with the same HOME: a plugin our
command installs is listed enabled by `claude plugin list`, one Claude Code installs is listed
by ours and its command runs in our session; git marketplaces (a local bare repository), the
GitHub shorthand without network, and bad names fail in one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import ndjson, run_cli

CLAUDE = Path("/opt/cc/node_modules/.bin/claude")
needs_claude = pytest.mark.skipif(not CLAUDE.exists(), reason="Claude Code is not installed")


def make_marketplace(root: Path, name: str = "localmkt") -> Path:
    """A marketplace folder listing one plugin `hello` with a `greet` command."""
    plugin = root / "plugins" / "hello"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / "commands").mkdir()
    (plugin / ".claude-plugin" / "plugin.json").write_text(
        json.dumps({"name": "hello", "version": "1.0.0", "description": "greets"}))
    (plugin / "commands" / "greet.md").write_text(
        "---\ndescription: say hi\n---\nSay hi to $ARGUMENTS in one word.\n")
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "marketplace.json").write_text(json.dumps({
        "name": name, "owner": {"name": "tests"},
        "plugins": [{"name": "hello", "source": "./plugins/hello", "description": "greets"}]}))
    return root


def claude(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ANTHROPIC_API_KEY": "dummy", "DISABLE_AUTOUPDATER": "1"}
    return subprocess.run([str(CLAUDE), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env=env)


def ours(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_cli(["plugin", *args], cwd)


def cc_plugins(cwd: Path) -> dict[str, Any]:
    proc = claude(["plugin", "list", "--json"], cwd)
    assert proc.returncode == 0, proc.stderr
    return {row["id"]: row for row in json.loads(proc.stdout)}


@needs_claude
def test_ours_installs_and_claude_code_lists_it_enabled(tmp_path: Path, home: Path) -> None:
    market = make_marketplace(tmp_path / "mkt")
    assert ours(["marketplace", "add", str(market)], tmp_path).returncode == 0
    proc = ours(["install", "hello@localmkt"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    row = cc_plugins(tmp_path)["hello@localmkt"]
    assert row["enabled"] is True and row["version"] == "1.0.0"
    assert "localmkt" in claude(["plugin", "marketplace", "list"], tmp_path).stdout

    assert ours(["disable", "hello@localmkt"], tmp_path).returncode == 0
    assert cc_plugins(tmp_path)["hello@localmkt"]["enabled"] is False
    assert ours(["enable", "hello@localmkt"], tmp_path).returncode == 0
    assert cc_plugins(tmp_path)["hello@localmkt"]["enabled"] is True

    assert ours(["uninstall", "hello@localmkt"], tmp_path).returncode == 0
    assert "hello@localmkt" not in cc_plugins(tmp_path)
    assert ours(["marketplace", "remove", "localmkt"], tmp_path).returncode == 0
    assert "localmkt" not in claude(["plugin", "marketplace", "list"], tmp_path).stdout


@needs_claude
def test_claude_code_installs_and_our_session_runs_its_command(tmp_path: Path, home: Path,
                                                               api: Any) -> None:
    market = make_marketplace(tmp_path / "mkt")
    assert claude(["plugin", "marketplace", "add", str(market)], tmp_path).returncode == 0
    proc = claude(["plugin", "install", "hello@localmkt"], tmp_path)
    assert proc.returncode == 0, proc.stderr + proc.stdout

    listing = ours(["list", "--json"], tmp_path)
    assert listing.returncode == 0, listing.stderr
    assert [(r["id"], r["enabled"]) for r in json.loads(listing.stdout)] == [
        ("hello@localmkt", True)]
    assert "localmkt" in ours(["marketplace", "list"], tmp_path).stdout

    server = api([{"content": [{"type": "text", "text": "Hi"}]}])
    run = run_cli(["-p", "/hello:greet Ana", "--output-format", "stream-json", "--verbose"],
                  tmp_path)
    assert run.returncode == 0, run.stderr
    init = ndjson(run.stdout)[0]
    assert "hello:greet" in init["slash_commands"]
    assert [p["name"] for p in init["plugins"]] == ["hello"]
    sent = json.dumps(server.requests[-1]["messages"])
    assert "Say hi to Ana in one word." in sent

    assert claude(["plugin", "disable", "hello@localmkt"], tmp_path).returncode == 0
    again = ours(["list", "--json"], tmp_path)
    assert json.loads(again.stdout)[0]["enabled"] is False


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_marketplace_from_a_bare_repository(tmp_path: Path, home: Path) -> None:
    source = make_marketplace(tmp_path / "src", name="gitmkt")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=source, check=True)
    subprocess.run([*git, "add", "-A"], cwd=source, check=True)
    subprocess.run([*git, "commit", "-qm", "m"], cwd=source, check=True)
    bare = tmp_path / "market.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(source), str(bare)], check=True)

    assert ours(["marketplace", "add", str(bare)], tmp_path).returncode == 0
    clone = home / ".claude" / "plugins" / "marketplaces" / "gitmkt"
    assert (clone / ".claude-plugin" / "marketplace.json").is_file()
    assert ours(["install", "hello@gitmkt"], tmp_path).returncode == 0
    cached = home / ".claude" / "plugins" / "cache" / "gitmkt" / "hello" / "1.0.0"
    assert (cached / "commands" / "greet.md").is_file()

    # a new commit reaches the clone with `update`
    (source / "plugins" / "hello" / "commands" / "wave.md").write_text("Wave.\n")
    subprocess.run([*git, "add", "-A"], cwd=source, check=True)
    subprocess.run([*git, "commit", "-qm", "wave"], cwd=source, check=True)
    subprocess.run(["git", "push", "-q", str(bare), "HEAD:refs/heads/master",
                    "HEAD:refs/heads/main"], cwd=source, capture_output=True)
    assert ours(["marketplace", "update", "gitmkt"], tmp_path).returncode == 0
    assert (clone / "plugins" / "hello" / "commands" / "wave.md").is_file()
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    assert settings["extraKnownMarketplaces"]["gitmkt"]["source"] == {
        "source": "git", "url": str(bare)}


@pytest.mark.parametrize("args, says", [
    (["marketplace", "add", "nobody-xyz/none-xyz"], "cannot clone https://github.com/"),
    (["install", "hello"], "NAME@MARKETPLACE"),
    (["install", "hello@nowhere"], "marketplace 'nowhere' is not known"),
    (["enable", "hello@nowhere"], "is not installed"),
])
def test_failures_are_one_line(tmp_path: Path, home: Path, args: list[str], says: str) -> None:
    env_proxy = {"GIT_ALLOW_PROTOCOL": "file"}  # no network: https is refused at once
    os.environ.update(env_proxy)
    try:
        proc = ours(args, tmp_path)
    finally:
        for key in env_proxy:
            os.environ.pop(key, None)
    assert proc.returncode == 1
    assert says in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not (home / ".claude" / "settings.json").exists()


def test_validate_names_a_broken_manifest(tmp_path: Path, home: Path) -> None:
    bad = tmp_path / "bad"
    (bad / ".claude-plugin").mkdir(parents=True)
    (bad / ".claude-plugin" / "plugin.json").write_text('{"name": "no spaces allowed"}')
    proc = ours(["validate", str(bad)], tmp_path)
    assert proc.returncode == 1 and "`name`" in proc.stderr
    good = ours(["validate", str(make_marketplace(tmp_path / "mkt"))], tmp_path)
    assert good.returncode == 0 and "Valid marketplace localmkt: 1 plugins" in good.stdout
