// One session through @anthropic-ai/claude-agent-sdk (TypeScript), with pi-claude as its CLI.
// Usage: node smoke.mjs <folder holding node_modules/@anthropic-ai/claude-agent-sdk> <pi-claude> <cwd>
// Prints every message the SDK yields as one JSON line; exits 0 when a result arrived.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [sdkFolder, piClaude, cwd] = process.argv.slice(2);
const require = createRequire(path.join(sdkFolder, "package.json"));
const sdk = await import(pathToFileURL(require.resolve("@anthropic-ai/claude-agent-sdk")).href);

let result = null;
const asked = [];
for await (const message of sdk.query({
  prompt: "run echo through bash",
  options: {
    pathToClaudeCodeExecutable: piClaude,
    cwd,
    canUseTool: async (toolName, input) => {
      asked.push(toolName);
      return { behavior: "allow", updatedInput: input };
    },
    stderr: (data) => process.stderr.write(data),
  },
})) {
  console.log(JSON.stringify(message));
  if (message.type === "result") result = message;
}
console.log(JSON.stringify({ type: "smoke_summary", asked, ok: result !== null }));
process.exit(result === null ? 1 : 0);
