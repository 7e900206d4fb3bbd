"""A sandbox decision for one Bash command: what the permission resolver and the tool need.

  sandboxed    it will run in the sandbox;
  auto_allow   ...and `autoAllowBashIfSandboxed` is on: a command that would ask may run
               without a prompt (deny rules and explicit ask rules still apply);
  must_ask     the model set `dangerouslyDisableSandbox`: always ask, whatever the rules say;
  refusal      the command must not run at all (say this instead);
  reason       why it is not sandboxed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SandboxDecision:
    sandboxed: bool
    reason: str = ""  # why not sandboxed
    auto_allow: bool = False
    must_ask: bool = False
    refusal: str = ""
