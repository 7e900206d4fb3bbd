"""The permission system: modes, rules from every settings source, the resolution chain.

Public entry points (import from the submodules; this package imports nothing heavy):

  resolver.resolve_permission(tool, inp, ctx, hook_decision=)  the chain for one call
  resolver.tool_denied_entirely(name, perm)    bare deny rule removes a tool from the pool
  resolver.is_read_denied(path, perm)          for search tools walking a tree
  bash_security.is_read_only_command(cmd, cwd) the Bash tool's read-only / concurrency hint
  bash_security.check_bash(cmd, perm)          the Bash chain on its own
  rules.parse_rule / format_rule / split_rules / rule_suggestion / save_local_rule
  modes.next_mode(mode, bypass_available)      Shift+Tab
  sed_sim.simulate_sed(cmd, perm)              preview of an in-place sed
  classifier.classify(tool, inp, ctx)          auto mode (passthrough when it must not decide)

Module map: bash_parse (string -> simple commands), bash_programs (per-program knowledge),
bash_security (analysis), bash_decision (Bash stages), paths / safety (resolved-path checks),
rules (syntax and matching), modes (per-mode policy), resolver (the chain).
"""
