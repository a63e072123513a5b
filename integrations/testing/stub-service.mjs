// A test double of the turndiff service's hook side, for the JavaScript tests of the hook clients only
// (bin/turndiff-hook and the OpenCode plugin): it writes a discovery file as the daemon does
// (docs/runtime-hooks.md, "The discovery file"), answers the identity challenge on /v1/health, and records
// every request. The end-to-end tests against the real Java service are separate.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

/** The key of a store: SHA-256 (hex) of its absolute path as a string. */
export function storeKey(store) {
  return crypto.createHash("sha256").update(store, "utf8").digest("hex");
}

/** The proof the service gives for a nonce: HMAC-SHA256(token, "turndiff-health-v1\n<instance>\n<port>\n<nonce>"). */
export function proof(token, instance, port, nonce) {
  return crypto.createHmac("sha256", Buffer.from(token, "utf8"))
    .update(`turndiff-health-v1\n${instance}\n${port}\n${nonce}`, "utf8").digest("hex");
}

/** Field 22 of /proc/<pid>/stat: the process start time in clock ticks since boot. */
export function processStartTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
}

/** The discovery file's text, one member per line in the documented order. */
export function discoveryText(fields) {
  const order = ["format", "instance", "pid", "proc_start_ticks", "port", "url", "store", "token_file",
    "header_file", "log_file", "version", "started_at"];
  const lines = order.filter((k) => k in fields).map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(fields[k])}`);
  return "{\n" + lines.join(",\n") + "\n}\n";
}

/**
 * Starts a stub on 127.0.0.1 (a free port) and, unless {writeDiscovery: false}, writes its discovery, token
 * and header files for `store` into `runDir` (made 0700).
 * Options: token, instance, answer ("proof" | "wrong" | "none"), status (hook response status), body (its body),
 * chunks (a body sent in these pieces: chunked), pid / startTicks (what the discovery file claims), writeDiscovery,
 * socket (also serve the service's Unix socket in `runDir`; each request records `via`: "tcp" or "socket").
 */
export async function startStub(options) {
  const token = options.token ?? crypto.randomBytes(32).toString("base64url");
  const instance = options.instance ?? crypto.randomBytes(16).toString("hex");
  const answer = options.answer ?? "proof";
  const requests = [];
  const handler = (via) => (req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method, url: req.url, headers: req.headers, body, via });
      const url = new URL(req.url, "http://127.0.0.1");
      if (url.pathname === "/v1/health" && url.searchParams.has("challenge")) {
        if (answer === "none") {
          res.writeHead(404).end();
          return;
        }
        const nonce = url.searchParams.get("challenge");
        const given = answer === "proof" ? proof(token, instance, port, nonce) : "0".repeat(64);
        res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ ok: true, instance, pid: process.pid, proof: given }));
        return;
      }
      if (url.pathname.startsWith("/v1/hooks/") && options.chunks) {
        // a body of unknown length, sent in pieces: chunked transfer encoding
        res.writeHead(options.status ?? 200, { "turndiff-hook-outcome": "recorded" });
        for (const chunk of options.chunks) res.write(chunk);
        res.end();
        return;
      }
      if (url.pathname.startsWith("/v1/hooks/")) {
        res.writeHead(options.status ?? 204, { "turndiff-hook-outcome": "recorded" }).end(options.body);
        return;
      }
      res.writeHead(404).end();
    });
  };
  const server = http.createServer(handler("tcp"));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = server.address().port;
  const servers = [server];
  const stub = {
    token, instance, port, requests, server,
    hookRequests: () => requests.filter((r) => r.url.startsWith("/v1/hooks/")),
    challenges: () => requests.filter((r) => r.url.startsWith("/v1/health")),
    close: () => Promise.all(servers.map((s) => new Promise((resolve) => { s.closeAllConnections?.(); s.close(resolve); }))),
  };
  if (options.writeDiscovery !== false) {
    writeDiscovery({ ...options, token, instance, port });
  }
  if (options.socket) {
    // the service's Unix socket in the run directory, <first 16 of the key>.sock, mode 0600 (docs/service.md)
    fs.mkdirSync(options.runDir, { recursive: true, mode: 0o700 });
    const socketServer = http.createServer(handler("socket"));
    stub.socketFile = path.join(options.runDir, `${storeKey(options.store).slice(0, 16)}.sock`);
    await new Promise((resolve) => socketServer.listen(stub.socketFile, resolve));
    fs.chmodSync(stub.socketFile, 0o600);
    servers.push(socketServer);
  }
  return stub;
}

/** Writes the files a daemon writes for `store` into `runDir`: <key>.token, <key>.header, then <key>.json. */
export function writeDiscovery({ runDir, store, token, instance, port, pid, startTicks }) {
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(runDir, 0o700);
  const key = storeKey(store);
  const tokenFile = path.join(runDir, `${key}.token`);
  const headerFile = path.join(runDir, `${key}.header`);
  fs.writeFileSync(tokenFile, token + "\n", { mode: 0o600 });
  fs.writeFileSync(headerFile, `Authorization: Bearer ${token}\r\n`, { mode: 0o600 });
  const ownPid = pid ?? process.pid;
  const discovery = discoveryText({
    format: 1, instance, pid: ownPid,
    proc_start_ticks: startTicks ?? processStartTicks(ownPid), port, url: `http://127.0.0.1:${port}`,
    store, token_file: tokenFile, header_file: headerFile, log_file: store + ".service.log",
    version: "test", started_at: new Date().toISOString(),
  });
  const file = path.join(runDir, `${key}.json`);
  fs.writeFileSync(file + ".tmp", discovery, { mode: 0o600 });
  fs.renameSync(file + ".tmp", file);
  return { key, file, tokenFile, headerFile };
}

/**
 * A stand-in for the `turndiff` launcher in a TURNDIFF_HOME of its own: it records each call's arguments
 * (one line each in `calls`; its working directory in `cwd`, its environment in `environment`), and the first call
 * brings up a stub service for `store` in `runDir`, as `turndiff service daemon` would. `stub()` is that stub once it is up; `close()` ends it.
 */
export function launcherStartingStub({ runDir, store, release = false, delayMs = 0 }) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "tdlauncher-"));
  const calls = path.join(home, "calls");
  // a checkout keeps its launcher at the top, a release in bin/ (beside bin/turndiff-hook)
  const launcher = release ? path.join(home, "bin", "turndiff") : path.join(home, "turndiff");
  fs.mkdirSync(path.dirname(launcher), { recursive: true });
  // the launcher names itself last (a file apart from `calls`, which tests compare whole): the service comes up
  // only once that launcher has ended, so a test's hook never sees the service up while the start it launched
  // is still running (on a loaded machine the shell could sit between its printf and its exit for longer than
  // the hook's 0.1 s poll, and the hook then rightly left the start lock naming the running start)
  const launcherPid = path.join(home, "launcher.pid");
  // its working directory and environment, as the service it stands for would have them
  const cwd = path.join(home, "cwd");
  const environment = path.join(home, "environment");
  fs.writeFileSync(launcher,
    `#!/bin/sh\npwd > '${cwd}'\nenv > '${environment}'\nprintf '%s\\n' "$*" >> '${calls}'\nprintf '%s\\n' $$ > '${launcherPid}'\n`,
    { mode: 0o755 });
  const launcherEnded = () => {
    const pid = fs.existsSync(launcherPid) ? fs.readFileSync(launcherPid, "utf8").trim() : "";
    return pid !== "" && !fs.existsSync(`/proc/${pid}`);
  };
  let stub = null;
  const watcher = setInterval(async () => {
    if (stub === null && fs.existsSync(calls) && launcherEnded()) {
      stub = "starting";
      // a cold start on a loaded machine: the service comes up delayMs after it was started
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      stub = await startStub({ runDir, store });
    }
  }, 20);
  return {
    home, calls, cwd, environment,
    stub: () => (stub === "starting" ? null : stub),
    close: async () => {
      clearInterval(watcher);
      if (stub && stub !== "starting") await stub.close();
    },
  };
}
