// bin/turndiff-hook under dash and bash, and the same cases through the hook client (bin/turndiff-hook-client,
// hooks/src/main/c: with no service socket every call goes on to the script beside it), then the client's own
// fast path over the service's Unix socket; against a stub of the service's hook side (a test double for these
// clients only; the end-to-end tests against the real service are the Java ITs).
// Run: node --test integrations/hook-script/
import test, { describe } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startStub, storeKey, writeDiscovery, processStartTicks, launcherStartingStub } from "../testing/stub-service.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.resolve(here, "../../bin/turndiff-hook");
const fixtures = path.resolve(here, "../fixtures");
const shells = ["dash", "bash"].filter((sh) => fs.existsSync(`/bin/${sh}`) || fs.existsSync(`/usr/bin/${sh}`));

/**
 * The hook client, built from its source by the build's own step (hooks/src/build/hook-client.sh) into a bin/ of
 * its own, beside a link to bin/turndiff-hook (the script it runs for every call it does not do itself); null when
 * the machine has no C compiler (the step says so, and the hooks use the script).
 */
function buildClient() {
  const bin = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tdclient-")), "bin");
  fs.mkdirSync(bin);
  const built = path.join(bin, "turndiff-hook-client");
  const step = spawnSync("sh", [path.resolve(here, "../../hooks/src/build/hook-client.sh"),
    path.resolve(here, "../../hooks/src/main/c/turndiff-hook-client.c"), built], { encoding: "utf8" });
  assert.equal(step.status, 0, step.stderr);
  fs.symlinkSync(script, path.join(bin, "turndiff-hook"));
  return fs.existsSync(built) ? built : null;
}
const client = buildClient();
const runners = [...shells, ...(client ? ["client"] : [])];

function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * What the script adds to every call's query: the runtime's process, which here is this test runner (the script's
 * parent, not a shell), with its start time in clock ticks (docs/runtime-hooks.md, "A turn whose runtime is gone").
 */
const runtimeQuery = `pid=${process.pid}&pid_start=${processStartTicks(process.pid)}`;

/** A home, a run dir and a store path of their own for each test. */
function sandbox() {
  const root = tempDir("tdhook-");
  const runtimeDir = path.join(root, "xdg-run");
  fs.mkdirSync(runtimeDir, { mode: 0o700 });
  const store = path.join(root, "store", "turndiff.db");
  return { root, runtimeDir, runDir: path.join(runtimeDir, "turndiff"), store, key: storeKey(store) };
}

/**
 * Runs the script in `shell`, or, for "client", the hook client beside it (the runtime's exec of the hook command);
 * resolves with its exit code, stdout, stderr and time.
 */
function runHook(shell, args, payload, env, cwd, scriptPath = script) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = shell === "client"
      ? spawn(scriptPath === script ? client : path.join(path.dirname(scriptPath), "turndiff-hook-client"), args,
        { env, cwd, stdio: ["pipe", "pipe", "pipe"] })
      : spawn(shell, [scriptPath, ...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => err.push(d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({
      code, signal, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(),
      ms: Number(process.hrtime.bigint() - started) / 1e6,
    }));
    child.stdin.on("error", () => {});
    child.stdin.end(payload);
  });
}

/**
 * Runs `executable` with `args` as a runtime would run its hook: `payload` on stdin; resolves with its exit code,
 * its pid and its start time in clock ticks, read while it runs (the script names it as the runtime).
 */
function runAsRuntime(executable, args, payload, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { env, stdio: ["pipe", "ignore", "ignore"] });
    const startTicks = processStartTicks(child.pid);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, pid: child.pid, startTicks }));
    child.stdin.on("error", () => {});
    child.stdin.end(payload);
  });
}

function baseEnv(box, extra = {}) {
  const env = { PATH: process.env.PATH, HOME: path.join(box.root, "home"), XDG_RUNTIME_DIR: box.runtimeDir,
    TURNDIFF_DB: box.store, TURNDIFF_HOOK_NO_START: "1", ...extra };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

const geminiPayload = fs.readFileSync(path.join(fixtures, "gemini/BeforeTool.write_file.json"));

/** The calls kept in the spool, oldest first (a name starting with a dot is one being written). */
function spooled(box) {
  const spool = path.join(box.runDir, `${box.key}.spool`);
  return fs.existsSync(spool) ? fs.readdirSync(spool).filter((name) => !name.startsWith(".")).sort() : [];
}

function hookLog(box, runDir = box.runDir) {
  const file = path.join(runDir, `${box.key}.hook.log`);
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}

// The runners' suites (dash, bash, the client, the client's fast path) run side by side, as many at once as the
// machine has cores (at least two), each one test after another: every test has a sandbox of its own (home, run
// directory, store) and its stub listens on port 0 or on a socket in that sandbox. One suite keeps about one core
// busy (the script forks curl, openssl and sha256sum for every call; dash's suite took 16.6 s of CPU), so on CI's two
// cores the four take about half as long as one after another (docs/build.md, "What CI costs").
describe("the hook script and client", { concurrency: Math.max(2, os.availableParallelism()) }, () => {
for (const shell of runners) describe(shell, { concurrency: 1 }, () => {
  test(`${shell}: a 200's body, the note for the model, goes to stdout as it is; any other answer's nowhere`, async () => {
    const note = 'turndiff (the tool) notes: "a\\u0007.txt" (too_large).\n';
    for (const [status, body, printed] of [[200, note, note], [200, '{"hookSpecificOutput":{}}', '{"hookSpecificOutput":{}}'],
      [204, undefined, ""], [400, "bad", ""], [500, "oops", ""]]) {
      const box = sandbox();
      const stub = await startStub({ runDir: box.runDir, store: box.store, status, body });
      try {
        const result = await runHook(shell, ["claude-code"], geminiPayload, baseEnv(box));
        assert.equal(result.code, 0);
        assert.equal(result.stdout, printed, `HTTP ${status}`);
        assert.equal(result.stderr, "");
      } finally {
        await stub.close();
      }
    }
  });

  test(`${shell}: forwards the payload byte for byte with the token, says nothing, exits 0`, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store });
    try {
      const payloadWithNewline = Buffer.concat([geminiPayload, Buffer.from("\n\n")]);
      for (const payload of [geminiPayload, payloadWithNewline]) {
        const result = await runHook(shell, ["gemini"], payload, baseEnv(box));
        assert.equal(result.code, 0);
        assert.equal(result.stdout, "");
        assert.equal(result.stderr, "");
      }
      const posts = stub.hookRequests();
      assert.equal(posts.length, 2);
      assert.equal(posts[0].method, "POST");
      assert.equal(posts[0].url, `/v1/hooks/gemini?${runtimeQuery}`);
      assert.equal(posts[0].headers.authorization, `Bearer ${stub.token}`);
      assert.equal(posts[0].headers["content-type"], "application/json");
      assert.equal(posts[0].headers.expect, undefined);
      assert.ok(posts[0].body.equals(geminiPayload), "the first body is the payload, byte for byte");
      assert.ok(posts[1].body.equals(Buffer.concat([geminiPayload, Buffer.from("\n\n")])), "trailing newlines kept");
      assert.equal(hookLog(box), "");
    } finally {
      await stub.close();
    }
  });

  test(`${shell}: challenges once per service instance, then sends with one request per call`, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store });
    try {
      for (let i = 0; i < 3; i++) {
        assert.equal((await runHook(shell, ["codex"], geminiPayload, baseEnv(box))).code, 0);
      }
      assert.equal(stub.challenges().length, 1, "one challenge for three calls");
      assert.equal(stub.hookRequests().length, 3);
      assert.equal(stub.challenges()[0].headers.authorization, undefined, "the challenge carries no token");
      const marker = fs.readFileSync(path.join(box.runDir, `${box.key}.verified`), "utf8");
      assert.equal(marker, `${stub.instance} ${process.pid} ${processStartTicks(process.pid)} ${stub.port}\n`);
      // A new instance on the same port (a restart) is challenged again.
      writeDiscovery({ runDir: box.runDir, store: box.store, token: stub.token, instance: "ab".repeat(16), port: stub.port });
      await runHook(shell, ["codex"], geminiPayload, baseEnv(box));
      assert.equal(stub.challenges().length, 2, "another instance id: challenged again");
    } finally {
      await stub.close();
    }
  });

  test(`${shell}: a process that cannot prove it holds the token gets no token and no payload`, async () => {
    for (const answer of ["wrong", "none"]) {
      const box = sandbox();
      const impostor = await startStub({ runDir: box.runDir, store: box.store, answer });
      try {
        const result = await runHook(shell, ["claude-code"], geminiPayload, baseEnv(box));
        assert.equal(result.code, 0);
        assert.equal(result.stdout + result.stderr, "");
        assert.equal(impostor.hookRequests().length, 0, `${answer}: nothing posted`);
        for (const r of impostor.requests) {
          assert.equal(r.headers.authorization, undefined);
          assert.ok(!r.url.includes(impostor.token));
        }
        assert.ok(!fs.existsSync(path.join(box.runDir, `${box.key}.verified`)));
        assert.match(hookLog(box), /did not prove it is the turndiff service; nothing sent/);
      } finally {
        await impostor.close();
      }
    }
  });

  test(`${shell}: a stale discovery file (dead pid, reused pid) is never trusted`, async () => {
    const dead = spawn("true");
    await new Promise((resolve) => dead.on("close", resolve));
    for (const claim of [{ pid: dead.pid, startTicks: 1 }, { pid: process.pid, startTicks: processStartTicks(process.pid) + 7 }]) {
      const box = sandbox();
      const listener = await startStub({ runDir: box.runDir, store: box.store, ...claim });
      try {
        const result = await runHook(shell, ["gemini"], geminiPayload, baseEnv(box));
        assert.equal(result.code, 0);
        assert.equal(listener.requests.length, 0, `pid ${claim.pid}: nothing at all sent to the recorded port`);
        assert.match(hookLog(box), /no service reached/);
      } finally {
        await listener.close();
      }
    }
  });

  test(`${shell}: starts the service when none runs and delivers once it is up`, async () => {
    const box = sandbox();
    const launcher = launcherStartingStub({ runDir: box.runDir, store: box.store });
    try {
      const result = await runHook(shell, ["gemini"], geminiPayload,
        baseEnv(box, { TURNDIFF_HOOK_NO_START: undefined, TURNDIFF_HOME: launcher.home, TURNDIFF_HOOK_START_WAIT: "10",
          ANTHROPIC_API_KEY: "sk-not-for-the-service", LC_TIME: "C" }));
      assert.equal(result.code, 0);
      assert.equal(result.stdout + result.stderr, "");
      // the daemon's JVM itself, one start (docs/service.md, "Cold start"), as DaemonLauncher starts it: from /,
      // with the environment a service keeps and not the runtime's keys
      assert.equal(fs.readFileSync(launcher.calls, "utf8"), `service daemon --db ${box.store}\n`);
      assert.equal(fs.readFileSync(launcher.cwd, "utf8"), "/\n");
      const environment = fs.readFileSync(launcher.environment, "utf8");
      assert.match(environment, /^LC_TIME=C$/m);
      assert.match(environment, new RegExp(`^XDG_RUNTIME_DIR=${box.runtimeDir}$`, "m"));
      assert.doesNotMatch(environment, /ANTHROPIC_API_KEY/);
      assert.equal(launcher.stub().hookRequests().length, 1);
      assert.ok(launcher.stub().hookRequests()[0].body.equals(geminiPayload));
      assert.ok(!fs.existsSync(path.join(box.runDir, `${box.key}.starting`)), "the start lock is gone");
      assert.equal(fs.statSync(box.runDir).mode & 0o777, 0o700);
    } finally {
      await launcher.close();
    }
  });

  test(`${shell}: in a release, starts the service through the bin/turndiff beside it (or under TURNDIFF_HOME)`, async () => {
    for (const named of [false, true]) {
      const box = sandbox();
      const launcher = launcherStartingStub({ runDir: box.runDir, store: box.store, release: true });
      const hook = path.join(launcher.home, "bin", "turndiff-hook");
      fs.copyFileSync(script, hook);
      fs.chmodSync(hook, 0o755);
      if (shell === "client") {
        fs.copyFileSync(client, path.join(launcher.home, "bin", "turndiff-hook-client"));
        fs.chmodSync(path.join(launcher.home, "bin", "turndiff-hook-client"), 0o755);
      }
      try {
        const env = baseEnv(box, { TURNDIFF_HOOK_NO_START: undefined, TURNDIFF_HOOK_START_WAIT: "10",
          TURNDIFF_HOME: named ? launcher.home : undefined });
        const result = await runHook(shell, ["gemini"], geminiPayload, env, undefined, hook);
        assert.equal(result.code, 0);
        assert.equal(fs.readFileSync(launcher.calls, "utf8"), `service daemon --db ${box.store}\n`, `TURNDIFF_HOME set: ${named}`);
        assert.equal(launcher.stub().hookRequests().length, 1);
      } finally {
        await launcher.close();
      }
    }
  });

  test(`${shell}: concurrent calls with no service start it once; a start lock whose starter died is taken over`, async () => {
    for (const staleLock of [false, true]) {
      const box = sandbox();
      if (staleLock) {
        const dead = spawn("true");
        await new Promise((resolve) => dead.on("close", resolve));
        fs.mkdirSync(path.join(box.runDir, `${box.key}.starting`), { recursive: true, mode: 0o700 });
        fs.chmodSync(box.runDir, 0o700);
        fs.writeFileSync(path.join(box.runDir, `${box.key}.starting`, "pid"), `${dead.pid}\n`);
      }
      const launcher = launcherStartingStub({ runDir: box.runDir, store: box.store });
      try {
        const env = baseEnv(box, { TURNDIFF_HOOK_NO_START: undefined, TURNDIFF_HOME: launcher.home, TURNDIFF_HOOK_START_WAIT: "10" });
        const results = await Promise.all(Array.from({ length: 5 }, () => runHook(shell, ["codex"], geminiPayload, env)));
        assert.deepEqual(results.map((r) => r.code), [0, 0, 0, 0, 0]);
        assert.equal(fs.readFileSync(launcher.calls, "utf8"), `service daemon --db ${box.store}\n`, `stale lock ${staleLock}: one start`);
        assert.equal(launcher.stub().hookRequests().length, 5, "every call delivered");
      } finally {
        await launcher.close();
      }
    }
  });

  test(`${shell}: a verified service that stopped listening: curl's complaint goes to the log, not to stderr`, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store });
    assert.equal((await runHook(shell, ["gemini"], geminiPayload, baseEnv(box))).code, 0);
    await stub.close();
    const result = await runHook(shell, ["gemini"], geminiPayload, baseEnv(box));
    assert.equal(result.code, 0);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, "");
    assert.match(hookLog(box), /delivery to port \d+ failed: HTTP 000, curl exit 7/);
  });

  test(`${shell}: no service and none may be started: exits 0 at once, the call kept in the spool`, async () => {
    const box = sandbox();
    fs.mkdirSync(box.runDir, { mode: 0o700 });
    const result = await runHook(shell, ["codex", "--git-root"], geminiPayload, baseEnv(box));
    assert.equal(result.code, 0);
    assert.equal(result.stdout + result.stderr, "");
    assert.ok(result.ms < 3000, `took ${result.ms} ms`);
    assert.match(hookLog(box), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ codex no service reached \(none started: TURNDIFF_HOOK_NO_START=1\); this call is kept in the spool/);
    const [kept] = spooled(box);
    assert.match(kept, /^\d{19}-\d+\.codex\.g\.hook$/);
  });

  test(`${shell}: a launcher that never brings the service up: bounded wait, exit 0, the call kept whole, 0600, in order`, async () => {
    const box = sandbox();
    const home = tempDir("tdhome-");
    fs.writeFileSync(path.join(home, "turndiff"), "#!/bin/sh\nsleep 3\n", { mode: 0o755 });
    const env = baseEnv(box, { TURNDIFF_HOOK_NO_START: undefined, TURNDIFF_HOME: home, TURNDIFF_HOOK_START_WAIT: "1" });
    const first = await runHook(shell, ["codex"], geminiPayload, env);
    const second = await runHook(shell, ["gemini", "--auto-track"], Buffer.from("{\"second\":true}"), env);
    for (const result of [first, second]) {
      assert.equal(result.code, 0);
      assert.equal(result.stdout + result.stderr, "");
      assert.ok(result.ms < 4000, `took ${result.ms} ms`);
    }
    assert.match(hookLog(box), /no service reached within 1 s; this call is kept in the spool/);
    const kept = spooled(box);
    assert.equal(kept.length, 2, kept.join(" "));
    assert.match(kept[0], /\.codex\.-\.hook$/);
    assert.match(kept[1], /\.gemini\.a\.hook$/);
    const spool = path.join(box.runDir, `${box.key}.spool`);
    assert.ok(fs.readFileSync(path.join(spool, kept[0])).equals(geminiPayload), "kept byte for byte");
    assert.equal(fs.statSync(spool).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(spool, kept[0])).mode & 0o777, 0o600);
  });

  test(`${shell}: a cold start slower than 5 s: the call waits within the runtime's hook timeout and is delivered, one start`, async () => {
    const box = sandbox();
    // issue 21: at load the service took 6-7 s; the script waited 5 s and dropped the call
    const launcher = launcherStartingStub({ runDir: box.runDir, store: box.store, delayMs: 6500 });
    try {
      const env = baseEnv(box, { TURNDIFF_HOOK_NO_START: undefined, TURNDIFF_HOME: launcher.home });
      const results = await Promise.all([
        runHook(shell, ["codex"], geminiPayload, env),
        new Promise((resolve) => setTimeout(resolve, 300)).then(() => runHook(shell, ["codex"], geminiPayload, env)),
      ]);
      assert.deepEqual(results.map((r) => r.code), [0, 0]);
      assert.equal(fs.readFileSync(launcher.calls, "utf8"), `service daemon --db ${box.store}\n`, "one start");
      assert.equal(launcher.stub().hookRequests().length, 2, hookLog(box));
      assert.ok(launcher.stub().hookRequests()[0].body.equals(geminiPayload));
      assert.deepEqual(spooled(box), [], "nothing left in the spool");
    } finally {
      await launcher.close();
    }
  });

  test(`${shell}: the token is on no command line`, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store });
    const bin = tempDir("tdbin-");
    const argvLog = path.join(bin, "argv");
    for (const tool of ["curl", "od", "sha256sum", "openssl", "mv", "date", "wc", "readlink", "setsid"]) {
      const real = ["/usr/bin", "/bin"].map((d) => path.join(d, tool)).find((p) => fs.existsSync(p));
      if (!real) continue;
      fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\nprintf '%s\\n' "${tool} $*" >> '${argvLog}'\nexec ${real} "$@"\n`, { mode: 0o755 });
    }
    try {
      const env = baseEnv(box, { PATH: `${bin}:${process.env.PATH}` });
      assert.equal((await runHook(shell, ["gemini"], geminiPayload, env)).code, 0);
      assert.equal(stub.hookRequests().length, 1, "delivered");
      assert.equal(stub.challenges().length, 1, "challenged");
      const argv = fs.readFileSync(argvLog, "utf8");
      assert.match(argv, /^curl /m);
      assert.match(argv, /^sha256sum/m);
      assert.ok(!argv.includes(stub.token), "no argv holds the token");
    } finally {
      await stub.close();
    }
  });

  test(`${shell}: a proxy in the environment is not used for the loopback service`, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store });
    const proxy = await startStub({ runDir: path.join(box.root, "unused"), store: "/unused", writeDiscovery: false });
    try {
      const env = baseEnv(box, { http_proxy: `http://127.0.0.1:${proxy.port}`, HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, all_proxy: `http://127.0.0.1:${proxy.port}` });
      assert.equal((await runHook(shell, ["gemini"], geminiPayload, env)).code, 0);
      assert.equal(stub.hookRequests().length, 1);
      assert.equal(proxy.requests.length, 0);
    } finally {
      await stub.close();
      await proxy.close();
    }
  });

  test(`${shell}: the store comes from TURNDIFF_DB (absolute or relative to the working directory) or the default`, async () => {
    const box = sandbox();
    const work = path.join(box.root, "work");
    fs.mkdirSync(work);
    const relative = path.join(fs.realpathSync(work), "rel.db");
    const home = path.join(box.root, "home");
    const xdgData = path.join(box.root, "data");
    const cases = [
      [{ TURNDIFF_DB: "rel.db" }, relative],
      [{ TURNDIFF_DB: undefined, XDG_DATA_HOME: xdgData }, path.join(xdgData, "turndiff/turndiff.db")],
      [{ TURNDIFF_DB: undefined, XDG_DATA_HOME: "relative-is-ignored" }, path.join(home, ".local/share/turndiff/turndiff.db")],
      [{ TURNDIFF_DB: undefined }, path.join(home, ".local/share/turndiff/turndiff.db")],
    ];
    for (const [extra, store] of cases) {
      const stub = await startStub({ runDir: box.runDir, store });
      try {
        assert.equal((await runHook(shell, ["gemini"], geminiPayload, baseEnv(box, extra), work)).code, 0);
        assert.equal(stub.hookRequests().length, 1, `${JSON.stringify(extra)} reaches the service of ${store}`);
      } finally {
        await stub.close();
      }
    }
  });

  test(`${shell}: the store's key is remembered in <run dir>/keys; a wrong line there is found and dropped`, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store });
    try {
      assert.equal((await runHook(shell, ["gemini"], geminiPayload, baseEnv(box))).code, 0);
      const keys = path.join(box.runDir, "keys");
      assert.equal(fs.readFileSync(keys, "utf8"), `${box.key} ${box.store}\n`);
      assert.equal((await runHook(shell, ["gemini"], geminiPayload, baseEnv(box))).code, 0);
      assert.equal(fs.readFileSync(keys, "utf8"), `${box.key} ${box.store}\n`, "read, not appended again");
      fs.writeFileSync(keys, `${"e".repeat(64)} ${box.store}\n`);
      assert.equal((await runHook(shell, ["gemini"], geminiPayload, baseEnv(box))).code, 0);
      assert.equal(stub.hookRequests().length, 3, "delivered despite the wrong line");
      assert.equal(fs.readFileSync(keys, "utf8"), `${box.key} ${box.store}\n`);
    } finally {
      await stub.close();
    }
  });

  test(`${shell}: without XDG_RUNTIME_DIR the run directory is .turndiff-run beside the store`, async () => {
    const box = sandbox();
    const runDir = path.join(path.dirname(box.store), ".turndiff-run");
    const stub = await startStub({ runDir, store: box.store });
    try {
      assert.equal((await runHook(shell, ["gemini"], geminiPayload, baseEnv(box, { XDG_RUNTIME_DIR: undefined }))).code, 0);
      assert.equal(stub.hookRequests().length, 1);
    } finally {
      await stub.close();
    }
  });

  test(`${shell}: a run directory that is a symlink is not used`, async () => {
    const box = sandbox();
    const real = path.join(box.root, "elsewhere");
    const stub = await startStub({ runDir: real, store: box.store });
    fs.symlinkSync(real, box.runDir);
    try {
      assert.equal((await runHook(shell, ["gemini"], geminiPayload, baseEnv(box))).code, 0);
      assert.equal(stub.requests.length, 0);
    } finally {
      await stub.close();
    }
  });

  test(`${shell}: a run directory open to others is not used; the undelivered call is recorded beside the store`, async () => {
    for (const mode of [0o777, 0o770, 0o750]) {
      const box = sandbox();
      const stub = await startStub({ runDir: box.runDir, store: box.store });
      fs.chmodSync(box.runDir, mode);
      fs.mkdirSync(path.dirname(box.store), { recursive: true, mode: 0o700 });
      try {
        const before = fs.readdirSync(box.runDir).sort();
        const result = await runHook(shell, ["gemini"], geminiPayload, baseEnv(box));
        assert.equal(result.code, 0);
        assert.equal(result.stdout + result.stderr, "");
        assert.equal(stub.requests.length, 0, `mode ${mode.toString(8)}: nothing sent, not even a challenge`);
        assert.deepEqual(fs.readdirSync(box.runDir).sort(), before, "nothing written into it");
        const recorded = fs.readFileSync(`${box.store}.hook.log`, "utf8");
        const dir = box.runDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        assert.match(recorded, new RegExp(`Z gemini the run directory ${dir} is mode d[rwx-]{9}, not drwx------; not using it, this hook call was not delivered`));
        assert.equal(fs.statSync(`${box.store}.hook.log`).mode & 0o777, 0o600);
      } finally {
        await stub.close();
      }
    }
  });

  test(`${shell}: another user's run directory is not used; the undelivered call is recorded beside the store`, { skip: process.getuid() !== 0 && "needs root to give a directory away" }, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store });
    fs.chownSync(box.runDir, 65534, 65534);
    fs.mkdirSync(path.dirname(box.store), { recursive: true, mode: 0o700 });
    try {
      const result = await runHook(shell, ["codex"], geminiPayload, baseEnv(box));
      assert.equal(result.code, 0);
      assert.equal(result.stdout + result.stderr, "");
      assert.equal(stub.requests.length, 0, "nothing sent, not even a challenge");
      assert.match(fs.readFileSync(`${box.store}.hook.log`, "utf8"), / codex the run directory \S+ is not yours; not using it, this hook call was not delivered/);
    } finally {
      fs.chownSync(box.runDir, 0, 0);
      await stub.close();
    }
  });

  test(`${shell}: a refused run directory with no safe place beside the store: nothing written anywhere, exit 0`, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store });
    fs.chmodSync(box.runDir, 0o777);
    fs.mkdirSync(path.dirname(box.store), { recursive: true });
    fs.chmodSync(path.dirname(box.store), 0o777);
    try {
      const result = await runHook(shell, ["gemini"], geminiPayload, baseEnv(box));
      assert.equal(result.code, 0);
      assert.equal(result.stdout + result.stderr, "");
      assert.equal(stub.requests.length, 0);
      assert.deepEqual(fs.readdirSync(path.dirname(box.store)), []);
    } finally {
      await stub.close();
    }
  });

  test(`${shell}: the runtime's version is read from its npm install beside its executable, once per process`, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store });
    try {
      // A native runtime as npm installs it: the executable (a copy of the shell, so that it is a real process
      // of its own that runs the hook) deep in its package, the package's package.json above it.
      const codexPackage = path.join(box.root, "lib", "node_modules", "@openai", "codex");
      const executable = path.join(codexPackage, "vendor", "x86_64-unknown-linux-musl", "codex", "codex");
      fs.mkdirSync(path.dirname(executable), { recursive: true });
      fs.copyFileSync(fs.realpathSync(`/bin/${shell === "client" ? shells[0] : shell}`), executable);
      // the runtime's `sh -c` runs the hook command: the script in a shell, or the client
      const [hook, run] = shell === "client" ? [client, `"$1"`] : [script, `${shell} "$1"`];
      fs.chmodSync(executable, 0o755);
      fs.writeFileSync(path.join(codexPackage, "package.json"),
        `{\n  "name": "@openai/codex",\n  "version": "0.171.0",\n  "bin": {"codex": "bin/codex.js"}\n}\n`);
      const runtime = await runAsRuntime(executable, ["-c", `${run} codex; :`, "codex", hook], geminiPayload, baseEnv(box));
      assert.equal(runtime.code, 0);
      const again = await runAsRuntime(executable, ["-c", `${run} codex; ${run} codex; :`, "codex", hook], geminiPayload, baseEnv(box));
      assert.equal(again.code, 0);
      const urls = stub.hookRequests().map((request) => request.url);
      assert.equal(urls[0], `/v1/hooks/codex?pid=${runtime.pid}&pid_start=${runtime.startTicks}&runtime_version=0.171.0`);
      assert.equal(urls[1], `/v1/hooks/codex?pid=${again.pid}&pid_start=${again.startTicks}&runtime_version=0.171.0`);
      assert.equal(urls[2], urls[1]);
      const versions = fs.readFileSync(path.join(box.runDir, `${box.key}.versions`), "utf8");
      assert.equal(versions, `${runtime.pid} ${runtime.startTicks} 0.171.0\n${again.pid} ${again.startTicks} 0.171.0\n`,
        "one look per runtime process");

      // A node runtime (Gemini CLI): node runs the package's script, which runs the hook; a version's build
      // metadata is not sent (its '+' would reach the service as a space).
      const geminiPackage = path.join(box.root, "lib", "node_modules", "@google", "gemini-cli");
      fs.mkdirSync(path.join(geminiPackage, "dist"), { recursive: true });
      fs.writeFileSync(path.join(geminiPackage, "package.json"), `{"name": "@google/gemini-cli", "version": "0.61.0+build.7"}\n`);
      const index = path.join(geminiPackage, "dist", "index.js");
      const [program, programArgs] = shell === "client" ? [client, ["gemini"]] : [shell, [script, "gemini"]];
      fs.writeFileSync(index, `require("node:child_process").spawnSync(${JSON.stringify(program)}, ${JSON.stringify(programArgs)}, { stdio: "inherit" });\n`);
      const gemini = await runAsRuntime(process.execPath, [index], geminiPayload, baseEnv(box));
      assert.equal(gemini.code, 0);
      assert.equal(stub.hookRequests()[3].url, `/v1/hooks/gemini?pid=${gemini.pid}&pid_start=${gemini.startTicks}&runtime_version=0.61.0`);

      // A package of another name says nothing of the version: nothing is sent.
      fs.writeFileSync(path.join(codexPackage, "package.json"), `{"name": "not-codex", "version": "6.6.6"}\n`);
      const stranger = await runAsRuntime(executable, ["-c", `${run} codex; :`, "codex", hook], geminiPayload, baseEnv(box));
      assert.equal(stub.hookRequests()[4].url, `/v1/hooks/codex?pid=${stranger.pid}&pid_start=${stranger.startTicks}`);
      assert.equal(hookLog(box), "");
    } finally {
      await stub.close();
    }
  });

  test(`${shell}: options become the query; unknown runtimes and failed deliveries still exit 0`, async () => {
    const box = sandbox();
    const stub = await startStub({ runDir: box.runDir, store: box.store, status: 500 });
    try {
      assert.equal((await runHook(shell, ["codex", "--git-root", "--auto-track", "--bogus"], geminiPayload, baseEnv(box))).code, 0);
      assert.equal(stub.hookRequests()[0].url, `/v1/hooks/codex?root=git&track=auto&${runtimeQuery}`);
      assert.match(hookLog(box), /delivery to port \d+ failed: HTTP 500/);
      for (const args of [[], ["opencode"], ["../x"]]) {
        const result = await runHook(shell, args, geminiPayload, baseEnv(box));
        assert.equal(result.code, 0);
        assert.equal(result.stdout + result.stderr, "");
      }
      assert.equal(stub.hookRequests().length, 1, "nothing posted for unknown runtimes");
    } finally {
      await stub.close();
    }
  });
});

describe("client: the fast path", { concurrency: 1 }, () => {
// The client's own fast path: the stub serves the service's Unix socket too, as the service does. A call the
// client delivers itself says so in its User-Agent; one the script delivers is curl's.
const clientTest = (name, options, body) => {
  if (body === undefined) [options, body] = [{}, options];
  test(`client: ${name}`, { skip: (!client && "no C compiler: the hook client is not built") || options.skip }, body);
};

/** A sandbox whose store's key is already remembered in <run dir>/keys (as the script leaves it after a call). */
function rememberedSandbox() {
  const box = sandbox();
  fs.mkdirSync(box.runDir, { mode: 0o700 });
  fs.writeFileSync(path.join(box.runDir, "keys"), `${box.key} ${box.store}\n`);
  return box;
}

/** Remembers this test runner, the client's parent here, as a runtime process of `version` ("-": none found). */
function rememberVersion(box, version) {
  fs.appendFileSync(path.join(box.runDir, `${box.key}.versions`), `${process.pid} ${processStartTicks(process.pid)} ${version}\n`);
}

const byClient = (request) => request.headers["user-agent"] === "turndiff-hook-client";

clientTest("the first call goes through the script, which remembers the key and the runtime; the next ones are one request over the socket", async () => {
  const box = sandbox();
  const stub = await startStub({ runDir: box.runDir, store: box.store, socket: true });
  try {
    const payloadWithNewline = Buffer.concat([geminiPayload, Buffer.from("\n\n")]);
    for (const [args, payload] of [[["gemini"], geminiPayload], [["gemini"], geminiPayload], [["gemini"], payloadWithNewline],
      [["codex", "--git-root", "--auto-track", "--bogus"], geminiPayload]]) {
      const result = await runHook("client", args, payload, baseEnv(box));
      assert.equal(result.code, 0);
      assert.equal(result.stdout + result.stderr, "");
    }
    const posts = stub.hookRequests();
    assert.deepEqual(posts.map((r) => r.via), ["socket", "socket", "socket", "socket"], "all over the socket");
    assert.match(posts[0].headers["user-agent"], /^curl\//, "the first by the script (no key remembered yet)");
    assert.deepEqual(posts.slice(1).map(byClient), [true, true, true], "the rest by the client alone");
    assert.equal(stub.challenges().length, 0, "no challenge on the socket");
    for (const post of posts.slice(1)) {
      assert.equal(post.method, "POST");
      assert.equal(post.headers.authorization, undefined, "no token on the socket");
      assert.equal(post.headers["content-type"], "application/json");
      assert.equal(post.headers.expect, undefined);
      assert.equal(post.headers.connection, "close");
    }
    assert.equal(posts[1].url, `/v1/hooks/gemini?${runtimeQuery}`);
    assert.equal(posts[1].url, posts[0].url, "the script's query, the same");
    assert.ok(posts[1].body.equals(geminiPayload), "the payload byte for byte");
    assert.ok(posts[2].body.equals(payloadWithNewline), "trailing newlines kept");
    assert.equal(posts[3].url, `/v1/hooks/codex?root=git&track=auto&${runtimeQuery}`);
    assert.equal(hookLog(box), "");
  } finally {
    await stub.close();
  }
});

clientTest("a 200's body, the note for the model, goes to stdout as it is (whole or chunked); any other answer's nowhere, a failure logged", async () => {
  const note = 'turndiff (the tool) notes: "a\\u0007.txt" (too_large).\n';
  for (const [options, printed, logged] of [[{ status: 200, body: note }, note, null],
    [{ status: 200, chunks: ["turndiff (the tool) ", "notes:\n", "", "x".repeat(70000)] }, `turndiff (the tool) notes:\n${"x".repeat(70000)}`, null],
    [{ status: 204 }, "", null], [{ status: 202, body: "accepted" }, "", null],
    [{ status: 400, body: "bad" }, "", /Z gemini delivery to the socket of port \d+ failed: HTTP 400\n$/],
    [{ status: 500, body: "oops" }, "", /Z gemini delivery to the socket of port \d+ failed: HTTP 500\n$/]]) {
    const box = rememberedSandbox();
    rememberVersion(box, "-");
    const stub = await startStub({ runDir: box.runDir, store: box.store, socket: true, ...options });
    try {
      const result = await runHook("client", ["gemini"], geminiPayload, baseEnv(box));
      assert.equal(result.code, 0);
      assert.equal(result.stdout, printed, JSON.stringify(options).slice(0, 80));
      assert.equal(result.stderr, "");
      assert.deepEqual(stub.hookRequests().map(byClient), [true], "delivered by the client, once");
      if (logged) {
        assert.match(hookLog(box), logged);
      } else {
        assert.equal(hookLog(box), "");
      }
    } finally {
      await stub.close();
    }
  }
});

clientTest("the runtime's version as remembered for its process is sent; a runtime not looked up yet goes to the script once", async () => {
  const box = rememberedSandbox();
  rememberVersion(box, "0.171.0");
  const stub = await startStub({ runDir: box.runDir, store: box.store, socket: true });
  try {
    assert.equal((await runHook("client", ["codex"], geminiPayload, baseEnv(box))).code, 0);
    const [post] = stub.hookRequests();
    assert.ok(byClient(post));
    assert.equal(post.url, `/v1/hooks/codex?${runtimeQuery}&runtime_version=0.171.0`);
    // another runtime process: not remembered, so the script looks (nothing to find here) and remembers it
    fs.writeFileSync(path.join(box.runDir, `${box.key}.versions`), `1 1 9.9.9\n`);
    assert.equal((await runHook("client", ["codex"], geminiPayload, baseEnv(box))).code, 0);
    assert.equal((await runHook("client", ["codex"], geminiPayload, baseEnv(box))).code, 0);
    const [, byScript, next] = stub.hookRequests();
    assert.match(byScript.headers["user-agent"], /^curl\//);
    assert.ok(byClient(next));
    assert.equal(next.url, `/v1/hooks/codex?${runtimeQuery}`);
    assert.equal(fs.readFileSync(path.join(box.runDir, `${box.key}.versions`), "utf8"),
      `1 1 9.9.9\n${process.pid} ${processStartTicks(process.pid)} -\n`);
  } finally {
    await stub.close();
  }
});

clientTest("service down (the socket of a killed service left behind, then no service at all): the script takes the call, logs it, keeps it in the spool", async () => {
  const box = rememberedSandbox();
  rememberVersion(box, "-");
  // a service killed with kill -9 leaves its socket and its discovery file; the discovery names a live process here
  const stub = await startStub({ runDir: box.runDir, store: box.store });
  const dead = spawn(process.execPath, ["-e", `require("node:net").createServer().listen(${JSON.stringify(path.join(box.runDir, `${box.key.slice(0, 16)}.sock`))}, () => console.log("up"))`]);
  await new Promise((resolve) => dead.stdout.once("data", resolve));
  dead.kill("SIGKILL");
  await new Promise((resolve) => dead.on("close", resolve));
  try {
    const result = await runHook("client", ["gemini"], geminiPayload, baseEnv(box));
    assert.equal(result.code, 0);
    assert.equal(result.stdout + result.stderr, "");
    assert.equal(stub.requests.length, 0, "nothing sent over TCP either: the script trusts the socket");
    assert.match(hookLog(box), /gemini delivery to the socket of port \d+ failed: HTTP 000, curl exit 7/, "the script's own line");
  } finally {
    await stub.close();
  }
  // the service is gone, discovery and all: the script keeps the call in the spool, byte for byte
  fs.rmSync(path.join(box.runDir, `${box.key}.json`));
  const result = await runHook("client", ["codex", "--git-root"], geminiPayload, baseEnv(box));
  assert.equal(result.code, 0);
  assert.equal(result.stdout + result.stderr, "");
  assert.match(hookLog(box), /codex no service reached \(none started: TURNDIFF_HOOK_NO_START=1\); this call is kept in the spool/);
  const [kept] = spooled(box);
  assert.match(kept, /\.codex\.g\.hook$/);
  assert.ok(fs.readFileSync(path.join(box.runDir, `${box.key}.spool`, kept)).equals(geminiPayload));
});

clientTest("a stale discovery file (dead pid, reused pid) is never trusted, not even with a socket that answers", async () => {
  const dead = spawn("true");
  await new Promise((resolve) => dead.on("close", resolve));
  for (const claim of [{ pid: dead.pid, startTicks: 1 }, { pid: process.pid, startTicks: processStartTicks(process.pid) + 7 }]) {
    const box = rememberedSandbox();
    rememberVersion(box, "-");
    const listener = await startStub({ runDir: box.runDir, store: box.store, socket: true, ...claim });
    try {
      assert.equal((await runHook("client", ["gemini"], geminiPayload, baseEnv(box))).code, 0);
      assert.equal(listener.requests.length, 0, `pid ${claim.pid}: nothing sent, over the socket or the port`);
      assert.match(hookLog(box), /no service reached/);
    } finally {
      await listener.close();
    }
  }
});

clientTest("a run directory open to others (its key and socket there) is refused as the script refuses it", async () => {
  for (const mode of [0o777, 0o750, 0o1700]) {
    const box = rememberedSandbox();
    rememberVersion(box, "-");
    const stub = await startStub({ runDir: box.runDir, store: box.store, socket: true });
    fs.chmodSync(box.runDir, mode);
    fs.mkdirSync(path.dirname(box.store), { recursive: true, mode: 0o700 });
    try {
      const result = await runHook("client", ["gemini"], geminiPayload, baseEnv(box));
      assert.equal(result.code, 0);
      assert.equal(result.stdout + result.stderr, "");
      assert.equal(stub.requests.length, 0, `mode ${mode.toString(8)}: nothing sent`);
      assert.match(fs.readFileSync(`${box.store}.hook.log`, "utf8"), /Z gemini the run directory \S+ is mode d\S+, not drwx------; not using it, this hook call was not delivered/);
    } finally {
      await stub.close();
    }
  }
});

clientTest("a socket that is not the user's own is not used: the script goes over the port, with the challenge", { skip: process.getuid() !== 0 && "needs root to give a socket away" }, async () => {
  const box = rememberedSandbox();
  rememberVersion(box, "-");
  const stub = await startStub({ runDir: box.runDir, store: box.store, socket: true });
  fs.chownSync(stub.socketFile, 65534, 65534);
  try {
    assert.equal((await runHook("client", ["gemini"], geminiPayload, baseEnv(box))).code, 0);
    assert.deepEqual(stub.hookRequests().map((r) => r.via), ["tcp"]);
    assert.equal(stub.challenges().length, 1);
  } finally {
    await stub.close();
  }
});
});
});
