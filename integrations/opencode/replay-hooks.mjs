// Drives the OpenCode plugin against a running turndiff service, for the Java IT (OpenCodePluginIT, cli):
// loads integrations/opencode/turndiff.ts in plain Node as turndiff.test.mjs does, and calls its hooks
// with the calls recorded from OpenCode 1.18.33 (integrations/fixtures/opencode/recorded/), the recorded
// project directory replaced by WORKSPACE. The plugin finds the service itself (TURNDIFF_DB,
// XDG_RUNTIME_DIR), as it does inside OpenCode. Prints nothing; exits 0 when every hook returned normally.
// Not a test file of `node --test` (its name matches none of the test patterns).
//
// Usage: node replay-hooks.mjs [--install JSON] WORKSPACE FIXTURE...
//   --install JSON   what `turndiff hooks install` writes into the plugin's INSTALL, e.g. {"track":"auto"}
//   FIXTURE          a file name of integrations/fixtures/opencode/recorded/, e.g. chat.message.json
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const recorded = path.resolve(here, "../fixtures/opencode/recorded");
const RECORDED_DIRECTORY = "/tmp/oc/exp/ws";
const INSTALL_LINE = "const INSTALL = /* turndiff-install */ {};";

const args = process.argv.slice(2);
let install = null;
if (args[0] === "--install") {
  install = JSON.parse(args[1]);
  args.splice(0, 2);
}
const [workspace, ...fixtures] = args;
if (!workspace || !workspace.startsWith("/") || fixtures.length === 0) {
  process.stderr.write("usage: node replay-hooks.mjs [--install JSON] WORKSPACE FIXTURE...\n");
  process.exit(2);
}

/** OpenCode loads .ts with Bun; Node loads the same text as an ES module once named .mjs. */
async function loadPlugin() {
  let text = fs.readFileSync(path.join(here, "turndiff.ts"), "utf8");
  if (install) {
    if (!text.includes(INSTALL_LINE)) throw new Error("the install placeholder is missing");
    text = text.replace(INSTALL_LINE, `const INSTALL = /* turndiff-install */ ${JSON.stringify(install)};`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ocplugin-"));
  try {
    const file = path.join(dir, "turndiff.mjs");
    fs.writeFileSync(file, text);
    return (await import(pathToFileURL(file).href)).TurndiffPlugin;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The recorded call, its project directory (a JSON string's content) replaced by the workspace. */
function fixture(name) {
  const quoted = (text) => JSON.stringify(text).slice(1, -1);
  const text = fs.readFileSync(path.join(recorded, name), "utf8");
  return JSON.parse(text.split(quoted(RECORDED_DIRECTORY)).join(quoted(workspace)));
}

const plugin = await loadPlugin();
const hooks = await plugin({ directory: workspace, worktree: workspace,
  project: { id: "replay", worktree: workspace, vcs: "git" }, client: {},
  $: () => { throw new Error("$ is not used"); }, serverUrl: new URL("http://localhost:4096/"),
  experimental_workspace: { register() {} } });
for (const name of fixtures) {
  const call = fixture(name);
  const hook = hooks[call.hook];
  if (hook === undefined) continue; // a hook the plugin does not take, as in OpenCode
  if (call.hook === "event") await hook(call.input);
  else await hook(call.input, call.output);
}
