"""The permission system: modes, rules from every settings source, the resolution chain.

Public entry points (import from the submodules; this package imports nothing heavy):

  resolver.resolve_permission(tool, inp, ctx, hook_decision=)  the chain for one call
  resolver.tool_denied_entirely(name, perm)    bare deny rule removes a tool from the pool
  resolver.is_read_denied(path, perm)          for search tools walking a tree
  bash.decision.is_read_only_command(cmd, cwd) the Bash tool's read-only / concurrency hint
  rules.parse_rule / format_rule / split_rules / rule_suggestion (config.local_rules writes settings.local.json)
  modes.next_mode(mode, bypass_available)      Shift+Tab
  sed_sim.simulate_sed(analysis, perm)         preview of an in-place sed
  classifier.classify(tool, inp, ctx)          auto mode (passthrough when it must not decide)

Layers (each imports only from the ones above it):
  types, rule_lists            plain data
  paths                        resolved-path helpers
  rules, safety, modes         rule syntax and matching, protected / critical paths, mode policy
  bash/                        the Bash checker: words, parse, expand, options, effects, the
                               per-program tables and handlers, analysis, decision, suggest
  sed_sim                      the sed -i preview (reads the Bash analysis)
  resolver                     the chain for every tool; Bash goes through bash.decision
  classifier                   auto mode, on top of the resolver
"""
