"""The resolver: every mode against every rule kind, hooks, the tool's own check, real tools."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from claude_harness.permissions.modes import next_mode
from claude_harness.permissions.resolver import resolve_permission, tool_denied_entirely
from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.permission_data import PermissionContext, PermissionDecision
from claude_harness.protocol.tool import ToolInput, ToolResult, build_tool
from claude_harness.tools.bash import TOOL as BASH
from claude_harness.tools.edit import TOOL as EDIT
from claude_harness.tools.read import TOOL as READ
from claude_harness.tools.write import TOOL as WRITE
from tests.permissions.perm_helpers import context, make_project

MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto", "bubble")


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = make_project(tmp_path / "proj")
    (root / ".git" / "hooks").mkdir(parents=True)
    (root / ".git" / "config").write_text("[core]\n")
    return root.resolve()


def ctx_for(perm: PermissionContext) -> ToolUseContext:
    return ToolUseContext(
        options=ToolUseOptions(), permission=perm, abort=AbortSignal(),
        read_file_state=FileStateCache(), shell=ShellState(perm.cwd),
    )


async def decide(tool, raw: dict, perm: PermissionContext,
                 hook: PermissionDecision | None = None) -> PermissionDecision:
    inp = tool.input_model.model_validate(raw)
    return await resolve_permission(tool, inp, ctx_for(perm), hook_decision=hook)


# expected decision per mode for: allow rule, ask rule, deny rule, no rule, safety path
EDIT_MATRIX = {
    "default": ("allow", "ask", "deny", "ask", "ask"),
    "acceptEdits": ("allow", "ask", "deny", "allow", "ask"),
    "plan": ("deny", "deny", "deny", "deny", "deny"),
    "bypassPermissions": ("allow", "ask", "deny", "allow", "ask"),
    "dontAsk": ("allow", "deny", "deny", "deny", "deny"),
    "auto": ("allow", "ask", "deny", "ask", "ask"),
    "bubble": ("allow", "ask", "deny", "ask", "ask"),
}
BASH_MATRIX = {
    "default": ("allow", "ask", "deny", "ask", "ask"),
    "acceptEdits": ("allow", "ask", "deny", "ask", "ask"),
    "plan": ("allow", "deny", "deny", "deny", "deny"),
    "bypassPermissions": ("allow", "ask", "deny", "allow", "ask"),
    "dontAsk": ("allow", "deny", "deny", "deny", "deny"),
    "auto": ("allow", "ask", "deny", "ask", "ask"),
    "bubble": ("allow", "ask", "deny", "ask", "ask"),
}
KINDS = ("allow", "ask", "deny", "none", "safety")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
async def test_edit_matrix(proj: Path, mode: str, kind: str) -> None:
    target = proj / ("src/main.py" if kind != "safety" else ".git/config")
    rule = ("Edit(src/**)",)
    perm = context(proj, mode=mode,  # type: ignore[arg-type]
                   allow=rule if kind == "allow" else (), ask=rule if kind == "ask" else (),
                   deny=rule if kind == "deny" else ())
    decision = await decide(EDIT, {"file_path": str(target), "old_string": "hi",
                                   "new_string": "ho"}, perm)
    expected = EDIT_MATRIX[mode][KINDS.index(kind)]
    assert decision.behavior == expected, decision.reason
    assert decision.reason or decision.behavior == "allow"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
async def test_bash_matrix(proj: Path, mode: str, kind: str) -> None:
    command = "npm test" if kind != "safety" else "echo x > .git/hooks/pre-commit"
    rule = ("Bash(npm test *)",)
    perm = context(proj, mode=mode,  # type: ignore[arg-type]
                   allow=rule if kind == "allow" else (), ask=rule if kind == "ask" else (),
                   deny=rule if kind == "deny" else ())
    decision = await decide(BASH, {"command": command}, perm)
    assert decision.behavior == BASH_MATRIX[mode][KINDS.index(kind)], decision.reason


async def test_reasons_are_readable(proj: Path) -> None:
    perm = context(proj, deny=("Bash(rm *)",))
    d = await decide(BASH, {"command": "ls && rm -rf src"}, perm)
    assert d.behavior == "deny"
    assert "Bash(rm *)" in d.reason and "rm -rf src" in d.reason
    d = await decide(BASH, {"command": "echo x > .git/hooks/pre-commit"}, context(proj))
    assert d.reason == "Bash command writes to .git/hooks/pre-commit (protected: .git/)"
    d = await decide(BASH, {"command": "echo x"}, context(proj, mode="dontAsk"))
    assert d.behavior == "allow"
    d = await decide(BASH, {"command": "make build"}, context(proj, mode="dontAsk"))
    assert d.behavior == "deny" and "dontAsk" in d.reason


async def test_never_passthrough_and_suggestion_on_ask(proj: Path) -> None:
    d = await decide(BASH, {"command": "npm run test --watch"}, context(proj))
    assert d.behavior == "ask" and d.suggestion == "Bash(npm run test *)"
    assert d.decided_by == "undecided"


async def test_hook_decisions(proj: Path) -> None:
    allow = PermissionDecision.allow("hook says yes")
    deny = PermissionDecision.deny("hook says no")
    cmd = {"command": "rm -rf build"}
    assert (await decide(BASH, cmd, context(proj), allow)).behavior == "allow"
    assert (await decide(BASH, cmd, context(proj, deny=("Bash(rm *)",)), allow)).behavior == "deny"
    assert (await decide(BASH, cmd, context(proj, ask=("Bash(rm *)",)), allow)).behavior == "ask"
    safety = {"command": "rm -rf ~"}
    assert (await decide(BASH, safety, context(proj), allow)).behavior == "ask"
    d = await decide(BASH, {"command": "ls"}, context(proj, allow=("Bash(ls *)",)), deny)
    assert d.behavior == "deny" and d.reason == "hook says no" and d.decided_by == "hook"
    edit = {"file_path": str(proj / ".claude" / "settings.json"), "content": "{}"}
    assert (await decide(WRITE, edit, context(proj, mode="bypassPermissions"), allow)).behavior == "ask"


def _fake_tool(own: PermissionDecision, *, name: str = "Deploy", read_only: bool = False):
    class Inp(ToolInput):
        target: str = "prod"

    async def call(inp, ctx, progress):
        return ToolResult("ok")

    async def check(inp, ctx):
        return own

    return build_tool(name=name, description="deploys", input_model=Inp, call=call,
                      check_permissions=check, is_read_only=lambda inp: read_only,
                      permission_subject=lambda inp: inp.target)


async def test_tool_own_check(proj: Path) -> None:
    asks = _fake_tool(PermissionDecision.ask("deploying to prod needs a human"))
    d = await decide(asks, {}, context(proj))
    assert d.behavior == "ask" and d.reason == "deploying to prod needs a human"
    assert (await decide(asks, {}, context(proj, mode="bypassPermissions"))).behavior == "allow"
    assert (await decide(asks, {}, context(proj, mode="dontAsk"))).behavior == "deny"
    denies = _fake_tool(PermissionDecision.deny("never on Fridays"))
    d = await decide(denies, {}, context(proj, allow=("Deploy",)))
    assert d.behavior == "deny" and d.decided_by == "tool"
    neutral = _fake_tool(PermissionDecision.passthrough())
    assert (await decide(neutral, {}, context(proj))).behavior == "ask"
    assert (await decide(neutral, {}, context(proj, allow=("Deploy(prod)",)))).behavior == "allow"
    assert (await decide(neutral, {}, context(proj, allow=("Deploy(staging)",)))).behavior == "ask"
    reader = _fake_tool(PermissionDecision.passthrough(), read_only=True)
    assert (await decide(reader, {}, context(proj))).behavior == "allow"


async def test_mcp_rules(proj: Path) -> None:
    tool = _fake_tool(PermissionDecision.passthrough(), name="mcp__github__create_issue")
    assert (await decide(tool, {}, context(proj, allow=("mcp__github",)))).behavior == "allow"
    assert (await decide(tool, {}, context(proj, deny=("mcp__github__create_issue",)))
            ).behavior == "deny"
    assert (await decide(tool, {}, context(proj, mode="plan"))).behavior == "deny"


async def test_reads_inside_and_outside(proj: Path, tmp_path: Path) -> None:
    evil = tmp_path / "proj-evil"
    evil.mkdir()
    (evil / "secret").write_text("s")
    perm = context(proj)
    assert (await decide(READ, {"file_path": str(proj / "README.md")}, perm)).behavior == "allow"
    d = await decide(READ, {"file_path": str(evil / "secret")}, perm)
    assert d.behavior == "ask" and "outside the working directories" in d.reason
    sneaky = str(proj / "src" / ".." / ".." / "proj-evil" / "secret")
    assert (await decide(READ, {"file_path": sneaky}, perm)).behavior == "ask"
    deny_env = context(proj, deny=("Read(./.env)",))
    (proj / ".env").write_text("K=1")
    assert (await decide(READ, {"file_path": str(proj / ".env")}, deny_env)).behavior == "deny"
    with_evil = context(proj, extra_dirs=(evil,))
    assert (await decide(READ, {"file_path": str(evil / "secret")}, with_evil)).behavior == "allow"


async def test_accept_edits_scope_and_symlinked_parent(proj: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, proj / "link")
    perm = context(proj, mode="acceptEdits")
    inside = {"file_path": str(proj / "src" / "new.py"), "content": "x"}
    assert (await decide(WRITE, inside, perm)).behavior == "allow"
    via_link = {"file_path": str(proj / "link" / "x.py"), "content": "x"}
    assert (await decide(WRITE, via_link, perm)).behavior == "ask"
    rc = {"file_path": str(proj / ".bashrc"), "content": "x"}
    assert (await decide(WRITE, rc, replace(perm, mode="bypassPermissions"))).behavior == "ask"
    worktree = {"file_path": str(proj / ".claude" / "worktrees" / "a" / "f.py"), "content": "x"}
    assert (await decide(WRITE, worktree, perm)).behavior == "allow"


async def test_bash_accept_edits_file_commands(proj: Path, tmp_path: Path) -> None:
    perm = context(proj, mode="acceptEdits")
    for command in ("mkdir -p build/out", "touch src/new.py", "cp README.md docs/",
                    "mv f.txt docs/f.txt", "rm src/main.py", "echo hi > notes.txt"):
        assert (await decide(BASH, {"command": command}, perm)).behavior == "allow", command
    for command in (f"cp README.md {tmp_path}/x", "rm -rf .", "touch .git/hooks/x",
                    "echo x > ../out.txt", "npm install"):
        assert (await decide(BASH, {"command": command}, perm)).behavior == "ask", command


async def test_bash_cd_then_git_and_redirect_after_cd(proj: Path) -> None:
    perm = context(proj, allow=("Bash(git *)", "Bash(echo *)"))
    # the same repository from a subdirectory: its config and hooks are the project's own
    assert (await decide(BASH, {"command": "cd src && git status"}, perm)).behavior == "allow"
    (proj / "src" / "sub" / ".git").mkdir(parents=True)  # a repository of its own (a clone)
    assert (await decide(BASH, {"command": "cd src/sub && git status"}, perm)).behavior == "ask"
    (proj / ".claude").mkdir()
    d = await decide(BASH, {"command": "cd .claude && echo x > settings.json"},
                     context(proj, mode="bypassPermissions"))
    assert d.behavior == "ask" and ".claude/settings.json" in d.reason


async def test_bypass_still_asks_for_critical_rm_and_unparseable(proj: Path) -> None:
    perm = context(proj, mode="bypassPermissions")
    for command in ("rm -rf ~", "rm -rf /", "rm -rf .", 'rm -rf "$DIR"/*', "rm -rf *",
                    "echo $(rm -rf ~)", "bash -c 'rm -rf /'", "echo $[ 1 ]", "ls\u200b"):
        assert (await decide(BASH, {"command": command}, perm)).behavior == "ask", command
    assert (await decide(BASH, {"command": "rm -rf build"}, perm)).behavior == "allow"


def test_tool_denied_entirely() -> None:
    perm = context(Path("/tmp"), deny=("Bash", "mcp__srv", "Read(./.env)", "Edit"))
    assert tool_denied_entirely("Bash", perm)
    assert tool_denied_entirely("mcp__srv__x", perm)
    assert tool_denied_entirely("Write", perm)
    assert not tool_denied_entirely("Read", perm)
    assert not tool_denied_entirely("mcp__other__x", perm)
    assert not tool_denied_entirely("Bash", context(Path("/tmp"), deny=("Bash(rm *)",)))


def test_next_mode_cycle() -> None:
    assert next_mode("default", False) == "acceptEdits"
    assert next_mode("acceptEdits", False) == "plan"
    assert next_mode("plan", False) == "default"
    assert next_mode("plan", True) == "bypassPermissions"
    assert next_mode("bypassPermissions", True) == "default"
    assert next_mode("dontAsk", False) == "default"


async def test_parameter_rules_on_secondary_fields(proj: Path) -> None:
    perm = context(proj, allow=("Bash(npm test *)",), deny=("Bash(run_in_background:true)",))
    d = await decide(BASH, {"command": "npm test", "run_in_background": True}, perm)
    assert d.behavior == "deny" and "run_in_background:true" in d.reason
    assert (await decide(BASH, {"command": "npm test"}, perm)).behavior == "allow"
    ask = context(proj, allow=("Bash(npm test *)",), ask=("Bash(timeout:6000*)",))
    assert (await decide(BASH, {"command": "npm test", "timeout": 600000}, ask)).behavior == "ask"
    assert (await decide(BASH, {"command": "npm test", "timeout": 1000}, ask)).behavior == "allow"


async def test_webfetch_internal_hosts_always_ask(proj: Path) -> None:
    class Inp(ToolInput):
        url: str

    async def call(inp, ctx, progress):
        return ToolResult("page")

    fetch = build_tool(name="WebFetch", description="fetch", input_model=Inp, call=call,
                       is_read_only=lambda inp: True, permission_subject=lambda inp: inp.url)
    allow_all = context(proj, allow=("WebFetch",), mode="bypassPermissions")
    for url in ("http://169.254.169.254/latest/meta-data/", "http://localhost:8080/admin",
                "http://10.0.0.5/", "http://[::1]/", "http://metadata.google.internal/x"):
        assert (await decide(fetch, {"url": url}, allow_all)).behavior == "ask", url
    assert (await decide(fetch, {"url": "https://docs.python.org/3/"}, allow_all)).behavior == "allow"
    scoped = context(proj, allow=("WebFetch(domain:*.python.org)",))
    assert (await decide(fetch, {"url": "https://docs.python.org/"}, scoped)).behavior == "allow"
    assert (await decide(fetch, {"url": "https://python.org.evil.net/"}, scoped)).behavior == "ask"
    # Naming the internal host exactly is consent (what "don't ask again" saves); a wildcard is not.
    exact = context(proj, allow=("WebFetch(domain:127.0.0.1)",))
    assert (await decide(fetch, {"url": "http://127.0.0.1:8000/x"}, exact)).behavior == "allow"
    assert (await decide(fetch, {"url": "http://localhost:8000/x"}, exact)).behavior == "ask"
    wildcard = context(proj, allow=("WebFetch(domain:127.0.0.*)",))
    assert (await decide(fetch, {"url": "http://127.0.0.1:8000/x"}, wildcard)).behavior == "ask"


async def test_mcp_read_only_hint_is_not_consent(proj: Path) -> None:
    tool = _fake_tool(PermissionDecision.passthrough(), name="mcp__srv__echo", read_only=True)
    assert (await decide(tool, {}, context(proj))).behavior == "ask"
    assert (await decide(tool, {}, context(proj, allow=("mcp__srv__echo",)))).behavior == "allow"


async def test_grep_over_a_tree_with_a_denied_file_runs(proj: Path) -> None:
    """The search runs unprompted and leaves the file out (tests/e2e/
    test_search_protected.py proves the leaving out)."""
    from claude_harness.permissions.resolver import is_read_denied
    from claude_harness.tools.grep import TOOL as GREP

    (proj / ".env").write_text("K=1")
    perm = context(proj, deny=("Read(./.env)",))
    d = await decide(GREP, {"pattern": "K", "path": str(proj)}, perm)
    assert d.behavior == "allow"
    assert (await decide(GREP, {"pattern": "K", "path": str(proj / ".env")}, perm)).behavior == "deny"
    assert (await decide(GREP, {"pattern": "K", "path": str(proj / "src")}, perm)).behavior == "allow"
    assert is_read_denied(str(proj / ".env"), perm)
    assert not is_read_denied(str(proj / "README.md"), perm)


async def test_a_hook_rewrite_is_judged_as_rewritten(proj: Path) -> None:
    perm = context(proj, deny=("Bash(rm *)",))
    sneaky = PermissionDecision.allow("hook", updated_input={"command": "rm -rf src"})
    d = await decide(BASH, {"command": "ls"}, perm, sneaky)
    assert d.behavior == "deny" and "Bash(rm *)" in d.reason
    tidy = PermissionDecision.allow("hook", updated_input={"command": "ls -la"})
    d = await decide(BASH, {"command": "rm -rf src"}, perm, tidy)
    assert d.behavior == "allow" and d.updated_input == {"command": "ls -la"}
    broken = PermissionDecision.allow("hook", updated_input={"command": 42})
    assert (await decide(BASH, {"command": "ls"}, perm, broken)).behavior == "deny"


async def test_bash_paths_resolve_where_the_shell_is(proj: Path, tmp_path: Path) -> None:
    """After an approved `cd` elsewhere, relative paths and git run outside the project."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "README.md").write_text("x")
    perm = context(proj, allow=("Bash(git *)",))
    ctx = replace(ctx_for(perm), shell=ShellState(elsewhere))
    inp = BASH.input_model.model_validate({"command": "cat README.md"})
    assert (await resolve_permission(BASH, inp, ctx)).behavior == "ask"
    inp = BASH.input_model.model_validate({"command": "git status"})
    assert (await resolve_permission(BASH, inp, ctx)).behavior == "ask"
    inside = replace(ctx_for(perm), shell=ShellState(proj / "src"))
    inp = BASH.input_model.model_validate({"command": "cat main.py"})
    assert (await resolve_permission(BASH, inp, inside)).behavior == "allow"
