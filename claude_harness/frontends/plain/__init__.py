"""The plain line-mode REPL: prompt-toolkit input, Rich output into the terminal's own scrollback.

A second front end on the same session event stream as the Textual app. It never runs tools or
decides permissions itself: it renders events and answers PermissionRequest futures.
"""
