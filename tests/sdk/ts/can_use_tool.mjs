// query() from the TypeScript Agent SDK with a canUseTool callback that allows the call with a
// rewritten input. Run by test_sdk_typescript.py:
//   node can_use_tool.mjs SDK_MODULE CLI_PATH PROJECT_DIR FILE_PATH
// Prints one JSON object: what the callback was asked, and every message the program read.
const [sdkModule, cliPath, cwd, filePath] = process.argv.slice(2);
const { query } = await import(sdkModule);

const asked = [];
const run = query({
  prompt: "save a note",
  options: {
    pathToClaudeCodeExecutable: cliPath,
    cwd,
    model: "claude-sonnet-5-5",
    canUseTool: async (toolName, input, { toolUseID }) => {
      asked.push({ toolName, input, toolUseID });
      return { behavior: "allow", updatedInput: { ...input, content: "from node\n" } };
    },
  },
});
const messages = [];
for await (const message of run) {
  messages.push(message);
}
process.stdout.write(JSON.stringify({ asked, messages, file: filePath }) + "\n");
