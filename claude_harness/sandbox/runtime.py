"""The session's sandbox: whether a Bash command runs in it, and the wrapper that puts it there.

One runtime per harness process, built from the settings (`runtime_from_settings`), made current
with `current.configure()`, read by the Bash tool, shown and toggled by /sandbox (`status()`,
`set_enabled()`). `decide()` answers what the permission resolver needs (decision.py).

When the sandbox was asked for but cannot run here, commands are not sandboxed, never
auto-allowed, and the decision's `reason` says why (or, with `failIfUnavailable`, they are
refused): nothing silently runs unsandboxed.
"""

from __future__ import annotations

import fnmatch
import os
import re
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness.sandbox.availability import Availability, check_availability
from claude_harness.sandbox.bwrap import NetworkBridge, bwrap_argv
from claude_harness.sandbox.decision import SandboxDecision
from claude_harness.sandbox.domains import DomainPolicy
from claude_harness.sandbox.paths import FilesystemPlan, protected_under, rule_paths, within
from claude_harness.sandbox.proxy import DomainProxy
from claude_harness.sandbox.sockets import plan_sockets
from claude_harness.sandbox.tempdir import session_temp_dir

if TYPE_CHECKING:
    from claude_harness.sandbox.settings import SandboxSettings

_SUBCOMMAND_SPLIT = re.compile(r"&&|\|\||[;&|\n]")


@dataclass
class SandboxStatus:
    """What /sandbox shows."""

    enabled: bool
    available: bool
    reason: str
    auto_allow: bool
    allow_unsandboxed: bool
    writable: list[Path] = field(default_factory=list)
    allowed_domains: list[str] = field(default_factory=list)
    excluded_commands: list[str] = field(default_factory=list)
    network_note: str = ""

    def lines(self) -> list[str]:
        if not self.enabled:
            state = "off"
        elif self.available:
            state = "on"
        else:
            state = f"on, but it cannot run here: {self.reason}"
        out = [f"Sandbox: {state}"]
        if not self.enabled:
            if not self.available:
                out.append(f"It could not run here anyway: {self.reason}")
            return out
        mode = "auto-allow (sandboxed commands run without asking)" if self.auto_allow \
            else "regular permissions (sandboxed commands still ask)"
        out.append(f"Mode: {mode}")
        out.append("Commands that fail in the sandbox may be retried outside it (with a prompt)"
                   if self.allow_unsandboxed else "Commands never run outside the sandbox")
        out.append("Writable: " + ", ".join(str(p) for p in self.writable))
        out.append("Network: " + (", ".join(self.allowed_domains) or "none"))
        if self.network_note:
            out.append(f"Network note: {self.network_note}")
        if self.excluded_commands:
            out.append("Excluded commands: " + ", ".join(self.excluded_commands))
        return out


class SandboxRuntime:
    def __init__(self, settings: SandboxSettings, temp_dir: Path,
                 availability: Availability | None = None) -> None:
        self.settings = settings
        self.temp_dir = temp_dir
        self._availability = availability
        self._proxy: DomainProxy | None = None
        self._proxy_lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.settings.enabled

    @property
    def availability(self) -> Availability:
        """Checked on first need (a trial run of bwrap, once per process)."""
        if self._availability is None:
            self._availability = check_availability(self.settings.bwrap_path,
                                                    self.settings.socat_path)
        return self._availability

    def set_enabled(self, enabled: bool) -> None:
        """/sandbox's toggle for this session (saving it is the caller's choice)."""
        self.settings = replace(self.settings, enabled=enabled)

    # -- deciding --------------------------------------------------------------------------

    def decide(self, command: str, *, disable_sandbox: bool = False) -> SandboxDecision:
        s = self.settings
        if not s.enabled:
            return SandboxDecision(False, "the sandbox is off")
        if disable_sandbox:
            if not s.allow_unsandboxed_commands:
                return SandboxDecision(False, refusal=(
                    "This command asked to run outside the sandbox (dangerouslyDisableSandbox), "
                    "but sandbox.allowUnsandboxedCommands is false: commands only run sandboxed."))
            return SandboxDecision(False, "dangerouslyDisableSandbox was set", must_ask=True)
        excluded = self.excluded_by(command)
        if excluded:
            return SandboxDecision(False, f"excluded by sandbox.excludedCommands ({excluded})")
        if not self.availability.available:
            reason = self.availability.reason
            if s.fail_if_unavailable:
                return SandboxDecision(False, reason, refusal=(
                    "The sandbox is required (sandbox.failIfUnavailable) but cannot run here: "
                    f"{reason}."))
            return SandboxDecision(False, f"the sandbox cannot run here: {reason}")
        return SandboxDecision(True, auto_allow=s.auto_allow_bash)

    def excluded_by(self, command: str) -> str:
        """The excludedCommands pattern one of the command's parts matches, or ""."""
        for part in _SUBCOMMAND_SPLIT.split(command):
            words = part.strip()
            if not words:
                continue
            for pattern in self.settings.excluded_commands:
                if _command_matches(pattern, words):
                    return pattern
        return ""

    # -- wrapping --------------------------------------------------------------------------

    def wrap(self, permission: Any, cwd: Path) -> tuple[list[str], FilesystemPlan]:
        """The bwrap wrapper for a sandboxed command started in `cwd` (see bwrap.py), and the
        file system plan it enforces.

        `permission` is the PermissionContext: its working directories are writable, its
        Read/Edit rules add hidden, protected and writable paths.
        """
        available = self.availability
        assert available.bwrap is not None
        bridge = self._bridge()
        plan = self.filesystem_plan(permission,
                                    keep_socket=bridge.socket_path if bridge else None)
        argv = bwrap_argv(available.bwrap, plan, cwd, self.temp_dir, bridge,
                          disable_userns=available.disable_userns)
        return argv, plan

    def filesystem_plan(self, permission: Any, keep_socket: Path | None = None
                        ) -> FilesystemPlan:
        """What the command may write, must not write and must not see; `keep_socket` is the
        relay's socket, the one the host's sockets hidden from the command (sockets.py) keep."""
        s = self.settings
        project = Path(permission.cwd)
        rules = tuple(getattr(permission, "rules", ()))
        edit_allowed, _ = rule_paths(rules, "Edit", "allow", project)
        edit_denied, edit_unenforced = rule_paths(rules, "Edit", "deny", project)
        read_denied, read_unenforced = rule_paths(rules, "Read", "deny", project)
        plan = FilesystemPlan(unenforced=[*edit_unenforced, *read_unenforced])
        shared_temp = session_temp_dir()  # the Bash cwd files live there
        for path in [project, *permission.additional_dirs, self.temp_dir, shared_temp,
                     *s.allow_write, *edit_allowed]:
            if path.is_dir() and path not in plan.writable:
                plan.writable.append(path)
        for root in plan.writable:
            if root in (self.temp_dir, shared_temp):
                continue
            existing, blocked = protected_under(root)
            plan.read_only += existing
            plan.blocked_dirs += blocked
        plan.read_only += [p for p in [*s.deny_write, *edit_denied]
                           if os.path.lexists(p) and within(p, plan.writable)]
        plan.hidden = [p for p in dict.fromkeys([*s.deny_read, *read_denied]) if p.exists()]
        plan.readable = list(s.allow_read)
        plan.sockets = plan_sockets(os.environ, plan.writable, keep_socket)
        return plan

    def _bridge(self) -> NetworkBridge | None:
        """The relay to the proxy (started on first need), or None: no network at all."""
        if not self.settings.allowed_domains or self.availability.socat is None:
            return None
        with self._proxy_lock:
            if self._proxy is None:
                policy = DomainPolicy(tuple(self.settings.allowed_domains),
                                      tuple(self.settings.denied_domains))
                proxy = DomainProxy(policy, self.temp_dir / f"proxy-{os.getpid()}.sock")
                proxy.start()
                self._proxy = proxy
        return NetworkBridge(self.availability.socat, self._proxy.socket_path)

    @property
    def proxy_refusals(self) -> int:
        """How many requests the proxy has refused so far (a command compares before/after)."""
        return self._proxy.refusal_count if self._proxy is not None else 0

    # -- reporting -------------------------------------------------------------------------

    def status(self, permission: Any | None = None) -> SandboxStatus:
        s = self.settings
        writable = self.filesystem_plan(permission).writable if permission is not None else []
        network_note = self.availability.network_reason if s.allowed_domains else ""
        return SandboxStatus(s.enabled, self.availability.available, self.availability.reason,
                             s.auto_allow_bash, s.allow_unsandboxed_commands, writable,
                             list(s.allowed_domains), list(s.excluded_commands), network_note)

    def startup_notice(self) -> str:
        """One line for the start-up screen when the sandbox was asked for but cannot run
        (checks availability only when the sandbox is enabled)."""
        if not self.enabled or self.availability.available:
            return ""
        consequence = ("Bash commands will not run" if self.settings.fail_if_unavailable
                       else "Bash commands run unsandboxed, with the usual permission prompts")
        return f"Sandbox enabled but unavailable: {self.availability.reason}. {consequence}."

    def close(self) -> None:
        with self._proxy_lock:
            if self._proxy is not None:
                self._proxy.close()
                self._proxy = None


def _command_matches(pattern: str, command: str) -> bool:
    """`docker` matches `docker` and `docker ps`; `npm run *` (or the legacy `npm run:*`)
    matches `npm run build`."""
    pattern = pattern.strip()
    if pattern.endswith(":*"):  # legacy prefix form, as in permission rules
        pattern = pattern[:-2] + " *"
    if command == pattern or command.startswith(pattern + " "):
        return True
    return "*" in pattern and fnmatch.fnmatchcase(command, pattern)


def runtime_from_settings(loaded: Any) -> tuple[SandboxRuntime, list[str]]:
    """A runtime for the loaded settings, and the warnings to show at start-up (invalid sandbox
    settings; the sandbox asked for but unavailable). Checks availability only when enabled."""
    # pydantic models cost ~10 ms to build: only configuring the sandbox pays for them
    from claude_harness.sandbox.settings import sandbox_settings_from

    settings, warnings = sandbox_settings_from(loaded)
    runtime = SandboxRuntime(settings, session_temp_dir())
    notice = runtime.startup_notice()
    return runtime, [*warnings, *([notice] if notice else [])]
