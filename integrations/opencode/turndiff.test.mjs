// The OpenCode plugin loaded in plain Node, fed the hook calls recorded from OpenCode 1.18.33, against a stub
// of the service's hook side (a test double for this client only; the end-to-end test against the real
// service is a Java IT). The bodies it posts are integrations/fixtures/opencode/posted/*.json, which the Java
// tests of POST /v1/hooks/opencode read: `UPDATE_FIXTURES=1 node --test integrations/opencode/` rewrites them.
// Run: node --test integrations/opencode/
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startStub, storeKey, launcherStartingStub } from "../testing/stub-service.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const recorded = path.resolve(here, "../fixtures/opencode/recorded");
const posted = path.resolve(here, "../fixtures/opencode/posted");
const pluginSource = path.join(here, "turndiff.ts");
const DIRECTORY = "/tmp/oc/exp/ws"; // the project directory of the recording

/** OpenCode loads .ts with Bun; Node 20 loads the same text as an ES module once named .mjs. */
async function loadPlugin(install = null) {
  let text = fs.readFileSync(pluginSource, "utf8");
  if (install) {
    const line = "const INSTALL = /* turndiff-install */ {};";
    assert.ok(text.includes(line), "the install placeholder is there");
    text = text.replace(line, `const INSTALL = /* turndiff-install */ ${JSON.stringify(install)};`);
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ocplugin-")), "turndiff.mjs");
  fs.writeFileSync(file, text);
  const module = await import(pathToFileURL(file).href);
  assert.deepEqual(Object.keys(module), ["TurndiffPlugin"], "one export: OpenCode calls every export as a plugin");
  return module.TurndiffPlugin;
}

function pluginInput(directory) {
  return { directory, worktree: directory, project: { id: "test", worktree: directory, vcs: "git" }, client: {},
    $: () => { throw new Error("$ is not used"); }, serverUrl: new URL("http://localhost:4096/"),
    experimental_workspace: { register() {} } };
}

function sandbox() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ocsvc-"));
  const runtimeDir = path.join(root, "xdg-run");
  fs.mkdirSync(runtimeDir, { mode: 0o700 });
  const store = path.join(root, "turndiff.db");
  return { root, runtimeDir, runDir: path.join(runtimeDir, "turndiff"), store, key: storeKey(store) };
}

/** The plugin reads its environment when it is created: each test sets it first. */
function useEnvironment(box, extra = {}) {
  for (const k of ["TURNDIFF_DB", "XDG_RUNTIME_DIR", "TURNDIFF_HOME", "TURNDIFF_HOOK_NO_START", "TURNDIFF_HOOK_START_WAIT", "TURNDIFF_HOOK_TIMEOUT"]) {
    delete process.env[k];
  }
  Object.assign(process.env, { TURNDIFF_DB: box.store, XDG_RUNTIME_DIR: box.runtimeDir, TURNDIFF_HOOK_NO_START: "1" }, extra);
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete process.env[k];
}

const fixtureNames = fs.readdirSync(recorded).filter((f) => f.endsWith(".json")).sort();
const readFixture = (name) => JSON.parse(fs.readFileSync(path.join(recorded, name), "utf8"));

/** Calls the hook a recorded fixture names, as OpenCode would (nothing when the plugin has no such hook). */
async function replay(hooks, fixture) {
  const fn = hooks[fixture.hook];
  if (fn === undefined) return undefined;
  assert.equal(typeof fn, "function", `the plugin's ${fixture.hook} hook is a function`);
  return fixture.hook === "event" ? fn(structuredClone(fixture.input)) : fn(structuredClone(fixture.input), structuredClone(fixture.output));
}

const forwarded = (name) => /^chat\.message|^tool\.execute\.before\.|^event\.session\.idle\./.test(name);

test("each recorded hook call is forwarded as its documented body, or not at all; one challenge for all", async () => {
  const box = sandbox();
  useEnvironment(box);
  const stub = await startStub({ runDir: box.runDir, store: box.store });
  try {
    const hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
    assert.deepEqual(Object.keys(hooks).sort(), ["chat.message", "event", "tool.execute.before"]);
    if (process.env.UPDATE_FIXTURES === "1") fs.mkdirSync(posted, { recursive: true });
    for (const name of fixtureNames) {
      const before = stub.hookRequests().length;
      assert.equal(await replay(hooks, readFixture(name)), undefined, `${name}: the hook returns nothing`);
      const sent = stub.hookRequests().slice(before);
      if (!forwarded(name)) {
        assert.equal(sent.length, 0, `${name} is not forwarded`);
        continue;
      }
      assert.equal(sent.length, 1, `${name}: one POST, finished before the hook returned`);
      const [post] = sent;
      assert.equal(post.method, "POST");
      assert.equal(post.url, "/v1/hooks/opencode");
      assert.equal(post.headers.authorization, `Bearer ${stub.token}`);
      assert.equal(post.headers["content-type"], "application/json");
      const expectedFile = path.join(posted, name);
      if (process.env.UPDATE_FIXTURES === "1") fs.writeFileSync(expectedFile, post.body);
      assert.equal(post.body.toString("utf8"), fs.readFileSync(expectedFile, "utf8"), `${name}: the posted body`);
      const body = JSON.parse(post.body.toString("utf8"));
      const fixture = readFixture(name);
      assert.equal(body.hook, fixture.hook);
      assert.equal(body.directory, DIRECTORY);
      assert.equal(body.worktree, DIRECTORY);
      assert.deepEqual(body.input, fixture.input, `${name}: the hook input unchanged`);
      if (fixture.hook === "tool.execute.before") assert.deepEqual(body.output, { args: fixture.output.args });
      if (fixture.hook === "chat.message") assert.deepEqual(body.output, { message: fixture.output.message });
    }
    assert.deepEqual(fs.readdirSync(posted).sort(), fixtureNames.filter(forwarded), "a posted body for each forwarded fixture, no other");
    assert.equal(stub.challenges().length, 1, "the identity was proven once");
    assert.equal(stub.challenges()[0].headers.authorization, undefined);
  } finally {
    await stub.close();
  }
});

test("tool.execute.before leaves the tool's arguments as they were and waits for the service", async () => {
  const box = sandbox();
  useEnvironment(box);
  const stub = await startStub({ runDir: box.runDir, store: box.store });
  try {
    const hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
    for (const name of ["tool.execute.before.write.json", "tool.execute.before.apply_patch.json", "tool.execute.before.bash.sed.json"]) {
      const fixture = readFixture(name);
      const output = structuredClone(fixture.output);
      let answered = false;
      const pending = hooks["tool.execute.before"](structuredClone(fixture.input), output).then(() => { answered = true; });
      assert.equal(answered, false);
      await pending;
      assert.ok(stub.hookRequests().some((r) => JSON.parse(r.body).input.callID === fixture.input.callID), `${name} delivered before the hook returned`);
      assert.deepEqual(output, fixture.output, `${name}: args untouched`);
    }
  } finally {
    await stub.close();
  }
});

test("install options become the query", async () => {
  const box = sandbox();
  useEnvironment(box);
  const stub = await startStub({ runDir: box.runDir, store: box.store });
  try {
    const hooks = await (await loadPlugin({ root: "git", track: "auto" }))(pluginInput(DIRECTORY));
    await replay(hooks, readFixture("chat.message.json"));
    assert.equal(stub.hookRequests()[0].url, "/v1/hooks/opencode?root=git&track=auto");
  } finally {
    await stub.close();
  }
});

test("over the service's Unix socket when it has one: no challenge, no token, nothing on the port", async () => {
  const box = sandbox();
  useEnvironment(box);
  const stub = await startStub({ runDir: box.runDir, store: box.store, socket: true });
  try {
    const hooks = await (await loadPlugin({ root: "git" }))(pluginInput(DIRECTORY));
    for (const name of ["chat.message.json", "tool.execute.before.write.json"]) await replay(hooks, readFixture(name));
    assert.equal(stub.socketFile, path.join(box.runDir, `${box.key.slice(0, 16)}.sock`));
    assert.deepEqual(stub.requests.map((r) => [r.via, r.method, r.url]), [
      ["socket", "POST", "/v1/hooks/opencode?root=git"], ["socket", "POST", "/v1/hooks/opencode?root=git"]]);
    for (const r of stub.requests) assert.equal(r.headers.authorization, undefined, "the token stays home");
    assert.equal(JSON.parse(stub.requests[1].body).input.callID, readFixture("tool.execute.before.write.json").input.callID);
  } finally {
    await stub.close();
  }
});

test("no socket of ours at the socket's name (a plain file): the port, after the challenge, with the token", async () => {
  const box = sandbox();
  useEnvironment(box);
  const stub = await startStub({ runDir: box.runDir, store: box.store });
  try {
    fs.writeFileSync(path.join(box.runDir, `${box.key.slice(0, 16)}.sock`), "", { mode: 0o600 });
    const hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
    await replay(hooks, readFixture("tool.execute.before.write.json"));
    assert.deepEqual(stub.requests.map((r) => r.via), ["tcp", "tcp"]);
    assert.equal(stub.challenges().length, 1);
    assert.equal(stub.hookRequests()[0].headers.authorization, `Bearer ${stub.token}`);
  } finally {
    await stub.close();
  }
});

test("a run directory open to others is not used: nothing sent, not even a challenge; said beside the store", async () => {
  for (const [mode, said] of [[0o755, "mode drwxr-xr-x, not drwx------"], [0o777, "mode drwxrwxrwx, not drwx------"]]) {
    const box = sandbox();
    useEnvironment(box);
    const stub = await startStub({ runDir: box.runDir, store: box.store, socket: true });
    try {
      fs.chmodSync(box.runDir, mode);
      const hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
      await replay(hooks, readFixture("tool.execute.before.write.json"));
      assert.equal(stub.requests.length, 0, "nothing sent to what a planted discovery file could name");
      assert.ok(!fs.existsSync(path.join(box.runDir, `${box.key}.hook.log`)), "nothing written into it");
      assert.match(fs.readFileSync(box.store + ".hook.log", "utf8"),
        new RegExp(`^\\S+Z opencode the run directory ${box.runDir} is ${said}; not using it, this hook call was not delivered`));
    } finally {
      await stub.close();
    }
  }
});

test("never throws into OpenCode: failing service, no service, impostor, odd input", async () => {
  const write = readFixture("tool.execute.before.write.json");
  // a service that fails every hook
  let box = sandbox();
  useEnvironment(box);
  const failing = await startStub({ runDir: box.runDir, store: box.store, status: 500 });
  try {
    const hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
    assert.equal(await replay(hooks, write), undefined);
    assert.match(fs.readFileSync(path.join(box.runDir, `${box.key}.hook.log`), "utf8"), /opencode delivery to port \d+ failed: HTTP 500/);
  } finally {
    await failing.close();
  }
  // no service, none may be started
  box = sandbox();
  useEnvironment(box);
  let hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
  const started = Date.now();
  assert.equal(await replay(hooks, write), undefined);
  assert.ok(Date.now() - started < 2000);
  // a process that cannot prove it is the service
  box = sandbox();
  useEnvironment(box);
  const impostor = await startStub({ runDir: box.runDir, store: box.store, answer: "wrong" });
  try {
    hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
    assert.equal(await replay(hooks, write), undefined);
    assert.equal(impostor.hookRequests().length, 0);
    for (const r of impostor.requests) assert.equal(r.headers.authorization, undefined);
    assert.match(fs.readFileSync(path.join(box.runDir, `${box.key}.hook.log`), "utf8"), /did not prove it is the turndiff service/);
  } finally {
    await impostor.close();
  }
  // a discovery file whose token file is gone
  box = sandbox();
  useEnvironment(box);
  const tokenless = await startStub({ runDir: box.runDir, store: box.store });
  try {
    fs.rmSync(path.join(box.runDir, `${box.key}.token`));
    hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
    assert.equal(await replay(hooks, write), undefined);
    assert.equal(tokenless.hookRequests().length, 0);
  } finally {
    await tokenless.close();
  }
  // inputs OpenCode should never give
  for (const [hook, args] of [["tool.execute.before", [null, null]], ["tool.execute.before", [{ tool: "write" }, undefined]],
    ["chat.message", [undefined, undefined]], ["event", [undefined]], ["event", [{ event: null }]]]) {
    assert.equal(await hooks[hook](...args), undefined, `${hook} with ${JSON.stringify(args)}`);
  }
});

test("starts the service when none runs, once, and delivers when it is up", async () => {
  const box = sandbox();
  const launcher = launcherStartingStub({ runDir: box.runDir, store: box.store });
  useEnvironment(box, { TURNDIFF_HOOK_NO_START: undefined, TURNDIFF_HOME: launcher.home, TURNDIFF_HOOK_START_WAIT: "10",
    ANTHROPIC_API_KEY: "sk-not-for-the-service" });
  try {
    const hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
    await Promise.all([replay(hooks, readFixture("chat.message.json")), replay(hooks, readFixture("tool.execute.before.write.json"))]);
    // the daemon's JVM itself, from /, without the runtime's keys (docs/service.md, "Cold start")
    assert.equal(fs.readFileSync(launcher.calls, "utf8"), `service daemon --db ${box.store}\n`, "started once for two calls");
    assert.equal(fs.readFileSync(launcher.cwd, "utf8"), "/\n");
    assert.doesNotMatch(fs.readFileSync(launcher.environment, "utf8"), /ANTHROPIC_API_KEY/);
    assert.match(fs.readFileSync(launcher.environment, "utf8"), /^TURNDIFF_DB=/m);
    assert.equal(launcher.stub().hookRequests().length, 2);
    assert.equal(fs.statSync(box.runDir).mode & 0o777, 0o700);
    assert.ok(!fs.existsSync(path.join(box.runDir, `${box.key}.starting`)), "the start lock is released");
  } finally {
    delete process.env.ANTHROPIC_API_KEY;
    await launcher.close();
  }
});

test("a release's TURNDIFF_HOME: the service is started through its bin/turndiff", async () => {
  const box = sandbox();
  const launcher = launcherStartingStub({ runDir: box.runDir, store: box.store, release: true });
  useEnvironment(box, { TURNDIFF_HOOK_NO_START: undefined, TURNDIFF_HOME: launcher.home, TURNDIFF_HOOK_START_WAIT: "10" });
  try {
    const hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
    await replay(hooks, readFixture("tool.execute.before.write.json"));
    assert.equal(fs.readFileSync(launcher.calls, "utf8"), `service daemon --db ${box.store}\n`);
    assert.equal(launcher.stub().hookRequests().length, 1);
  } finally {
    await launcher.close();
  }
});

test("a start under way in another client (its lock held by a live process): waits for it, starts nothing", async () => {
  const box = sandbox();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "ochome-"));
  const calls = path.join(home, "calls");
  fs.writeFileSync(path.join(home, "turndiff"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${calls}'\n`, { mode: 0o755 });
  const holder = spawn("sleep", ["5"]);
  const lock = path.join(box.runDir, `${box.key}.starting`);
  fs.mkdirSync(lock, { recursive: true });
  fs.chmodSync(box.runDir, 0o700);
  fs.writeFileSync(path.join(lock, "pid"), `${holder.pid}\n`);
  useEnvironment(box, { TURNDIFF_HOOK_NO_START: undefined, TURNDIFF_HOME: home, TURNDIFF_HOOK_START_WAIT: "10" });
  let stub = null;
  const later = setTimeout(async () => { stub = await startStub({ runDir: box.runDir, store: box.store }); }, 300);
  try {
    const hooks = await (await loadPlugin())(pluginInput(DIRECTORY));
    await replay(hooks, readFixture("tool.execute.before.write.json"));
    assert.ok(!fs.existsSync(calls), "nothing started");
    assert.equal(stub.hookRequests().length, 1, "delivered once the other start brought the service up");
    assert.ok(fs.existsSync(lock), "the other client's lock is left to it");
  } finally {
    clearTimeout(later);
    holder.kill();
    if (stub) await stub.close();
  }
});
