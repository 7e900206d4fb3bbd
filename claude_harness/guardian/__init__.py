"""The process guardian: every process the harness starts for the user (Bash commands, hooks,
MCP stdio servers, the status line command, apiKeyHelper) is its child, so none outlives the
harness, even after a `kill -9`. The one exception is $EDITOR (Ctrl+G, /memory): an
interactive editor needs the terminal as its controlling terminal, which a process in a
session of the guardian's cannot have; it runs in the foreground while the harness waits.

client.py  the harness's side: start the guardian, ask it to spawn, learn how children exited
main.py    the guardian itself (a child subreaper, standard library only, run by path)
spawn.py   start a process under the guardian (or directly where it cannot run)
run.py     run a configured command to completion under it, output captured (apiKeyHelper)
"""
