// The cost of one bin/turndiff-hook call against the stub service serving the service's socket (the script's own
// overhead: shell, key, discovery, one curl), or with "client" of one call of the hook client the build made
// (bin/turndiff-hook-client: its start, its checks, one request), as p50/p99 over N sequential calls. The real
// figure, with the Java service doing the work, is `turndiff bench hooks` (docs/runtime-hooks.md, "Cost").
// Run: node integrations/hook-script/bench.mjs [N] [dash | bash | client]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startStub } from "../testing/stub-service.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.resolve(here, "../../bin/turndiff-hook");
const client = path.resolve(here, "../../bin/turndiff-hook-client");
const payload = fs.readFileSync(path.resolve(here, "../fixtures/codex/PreToolUse.apply_patch.update.json"));
const calls = Number(process.argv[2] ?? 200);
const shell = process.argv[3] ?? "dash";
const root = fs.mkdtempSync(path.join(os.tmpdir(), "tdbench-"));
const store = path.join(root, "turndiff.db");
const runDir = path.join(root, "run", "turndiff");
fs.mkdirSync(path.dirname(runDir), { mode: 0o700 });
const stub = await startStub({ runDir, store, socket: true });
const env = { PATH: process.env.PATH, HOME: root, XDG_RUNTIME_DIR: path.dirname(runDir), TURNDIFF_DB: store, TURNDIFF_HOOK_NO_START: "1" };
const once = () => new Promise((resolve) => {
  const t = process.hrtime.bigint();
  const child = shell === "client"
    ? spawn(client, ["codex"], { env, stdio: ["pipe", "ignore", "ignore"] })
    : spawn(shell, [script, "codex"], { env, stdio: ["pipe", "ignore", "ignore"] });
  child.on("close", () => resolve(Number(process.hrtime.bigint() - t) / 1e6));
  child.stdin.end(payload);
});
await once();
const times = [];
for (let i = 0; i < calls; i++) times.push(await once());
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
const byClient = stub.hookRequests().filter((r) => r.headers["user-agent"] === "turndiff-hook-client").length;
console.log(`${shell}: ${calls} calls, p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, delivered ${stub.hookRequests().length} (${byClient} by the client alone), challenges ${stub.challenges().length}`);
await stub.close();
