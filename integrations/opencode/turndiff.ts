/**
 * turndiff for OpenCode: captures every turn (edit tools and shell commands) in the turndiff store.
 *
 * Installed by `turndiff hooks install --runtime opencode` as .opencode/plugins/turndiff.ts (or in
 * ~/.config/opencode/plugins/); see docs/runtime-hooks.md, "OpenCode". It forwards three hooks to the
 * turndiff service as POST /v1/hooks/opencode, the body being what OpenCode gave the hook plus where the
 * project is:
 *   chat.message                          -> the service begins a turn (turn id: the user message id)
 *   tool.execute.before (edit/shell tools) -> the service snapshots the paths the tool names (filePath, or
 *                                            every path of an apply_patch patchText) before the tool runs
 *   event session.idle                    -> the service finishes the turn
 * It finds the service as bin/turndiff-hook does: the discovery file of the store named by $TURNDIFF_DB (else
 * the default store) in the run directory, used only when that directory is the user's, not a link, mode
 * 0700; then the service's Unix socket there when it has one (no token: the socket's mode and the peer's
 * uid decide), else its loopback port, after an identity challenge, before the token is ever sent; and
 * `turndiff service start` when no service runs. It never throws into OpenCode (a throw in tool.execute.before blocks the tool) and
 * every wait is bounded.
 *
 * This file is TypeScript that is also plain JavaScript (types are JSDoc only), so that Node can load it in
 * its tests and OpenCode (Bun) loads it as it is.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

/** Set by `turndiff hooks install`: {turndiffHome?: string, root?: "cwd" | "git", track?: "auto" | "no"}. */
const INSTALL = /* turndiff-install */ {};

const FORWARDED_TOOLS = new Set(["write", "edit", "multiedit", "patch", "apply_patch", "bash"]);
const CHALLENGE_PREFIX = "turndiff-health-v1";

/**
 * @typedef {{store: string, key: string, runDir: string, socket: string}} Place
 * @typedef {{instance: string, pid: number, startTicks: number | null, port: number}} Discovery
 */

/** @param {NodeJS.ProcessEnv} env @returns {Place | null} */
function place(env) {
  let store;
  if (env.TURNDIFF_DB) {
    // relative: against the physical working directory, as `pwd -P` gives it to bin/turndiff-hook
    store = env.TURNDIFF_DB.startsWith("/") ? env.TURNDIFF_DB : fs.realpathSync(process.cwd()) + "/" + env.TURNDIFF_DB;
  } else if (env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith("/")) {
    store = env.XDG_DATA_HOME + "/turndiff/turndiff.db";
  } else if (env.HOME) {
    store = env.HOME.replace(/\/$/, "") + "/.local/share/turndiff/turndiff.db";
  } else {
    return null;
  }
  const key = crypto.createHash("sha256").update(store, "utf8").digest("hex");
  const runDir = env.XDG_RUNTIME_DIR && env.XDG_RUNTIME_DIR.startsWith("/")
    ? env.XDG_RUNTIME_DIR.replace(/\/$/, "") + "/turndiff"
    : store.slice(0, store.lastIndexOf("/")) + "/.turndiff-run";
  // the service's socket: named by the key's first 16 hex digits, so that a deep run directory stays within
  // the 107 bytes a socket's name may hold
  return { store, key, runDir, socket: `${runDir}/${key.slice(0, 16)}.sock` };
}

/** @returns {number | null} */
const ownUid = () => (typeof process.getuid === "function" ? process.getuid() : null);

/**
 * What is wrong with the run directory, as bin/turndiff-hook words it, or null when it is usable: a
 * directory of ours, not a link, mode exactly 0700 (nothing in it can have been planted), or absent.
 * @param {string} dir @returns {string | null}
 */
function runDirProblem(dir) {
  let stat;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return null;
  }
  if (stat.isSymbolicLink()) return "a symbolic link";
  if (!stat.isDirectory()) return "not a directory";
  if (ownUid() !== null && stat.uid !== ownUid()) return "not yours";
  if ((stat.mode & 0o777) !== 0o700) {
    const bits = [...Array(9)].map((_, i) => (stat.mode & (0o400 >> i) ? "rwx"[i % 3] : "-")).join("");
    return `mode d${bits}, not drwx------`;
  }
  return null;
}

/** Only a directory of ours, not a link, mode 0700. @param {string} dir */
function runDirUsable(dir) {
  return fs.existsSync(dir) && runDirProblem(dir) === null;
}

/** The service's socket in the run directory, when it is one and ours. @param {Place} where */
function ownSocket(where) {
  try {
    const stat = fs.lstatSync(where.socket);
    return stat.isSocket() && (ownUid() === null || stat.uid === ownUid());
  } catch {
    return false;
  }
}

/** @param {string} file */
function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** @param {Place} where @returns {Discovery | null} */
function readDiscovery(where) {
  try {
    const fields = JSON.parse(fs.readFileSync(path.join(where.runDir, `${where.key}.json`), "utf8"));
    const valid = typeof fields.instance === "string" && /^[0-9a-f]+$/.test(fields.instance)
      && Number.isInteger(fields.pid) && Number.isInteger(fields.port)
      && (fields.proc_start_ticks === null || Number.isInteger(fields.proc_start_ticks));
    return valid ? { instance: fields.instance, pid: fields.pid, startTicks: fields.proc_start_ticks, port: fields.port } : null;
  } catch {
    return null;
  }
}

/** The process the discovery file names still runs: same pid, same start time. @param {Discovery} found */
function alive(found) {
  try {
    process.kill(found.pid, 0);
  } catch {
    return false;
  }
  if (found.startTicks === null || !fs.existsSync("/proc/self/stat")) return true;
  try {
    const stat = fs.readFileSync(`/proc/${found.pid}/stat`, "latin1");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]) === found.startTicks;
  } catch {
    return false;
  }
}

/**
 * One HTTP request to the service (node:http, never a proxy): over its Unix socket when `socket` is given, else
 * to its loopback port. Resolves {status, body}, never rejects.
 * @param {{port: number, socket?: string, method: string, path: string, headers?: Record<string, string>, body?: Buffer, timeoutMs: number}} req
 * @returns {Promise<{status: number, body: string}>}
 */
function request(req) {
  return new Promise((resolve) => {
    let settled = false;
    /** @param {number} status @param {string} body */
    const done = (status, body) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve({ status, body });
      }
    };
    const timer = setTimeout(() => {
      outgoing.destroy();
      done(0, "timed out");
    }, req.timeoutMs);
    const target = req.socket ? { socketPath: req.socket, host: "localhost" } : { host: "127.0.0.1", port: req.port };
    const outgoing = http.request({ ...target, method: req.method, path: req.path, headers: req.headers, agent: false }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => done(res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8")));
      res.on("error", (e) => done(0, String(e)));
    });
    outgoing.on("error", (e) => done(0, String(e && e.message)));
    outgoing.end(req.body);
  });
}

/** @param {Place} where @param {string} message */
function log(where, message) {
  try {
    const file = path.join(where.runDir, `${where.key}.hook.log`);
    if (!runDirUsable(where.runDir)) return;
    try {
      if (fs.statSync(file).size > 1048576) fs.renameSync(file, file + ".1");
    } catch {
      // no log yet
    }
    fs.appendFileSync(file, `${new Date().toISOString().replace(/\.\d+Z$/, "Z")} opencode ${message}\n`, { mode: 0o600 });
  } catch {
    // a hook never fails for its log
  }
}

/**
 * A run directory that is there but not ours alone is never used and nothing is written into it: the call
 * is not delivered, and that is said beside the store, in <store>.hook.log (which `turndiff service status`
 * shows), when the store's folder is a directory of ours that others cannot write and the log is no link
 * (bin/turndiff-hook's refuse_run_dir); else there is no safe place to write.
 * @param {Place} where @param {string} problem
 */
function refuseRunDir(where, problem) {
  try {
    const folder = fs.statSync(path.dirname(where.store));
    if (!folder.isDirectory() || (ownUid() !== null && folder.uid !== ownUid()) || (folder.mode & 0o022) !== 0) return;
    const file = where.store + ".hook.log";
    try {
      const stat = fs.lstatSync(file);
      if (!stat.isFile() || (ownUid() !== null && stat.uid !== ownUid())) return;
    } catch {
      // no log yet
    }
    fs.appendFileSync(file, `${new Date().toISOString().replace(/\.\d+Z$/, "Z")} opencode the run directory ${where.runDir} is ${problem}; `
      + "not using it, this hook call was not delivered (turndiff service status says what to do)\n", { mode: 0o600 });
  } catch {
    // a hook never fails for its log
  }
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string | undefined} value @param {number} fallback */
function seconds(value, fallback) {
  return value && /^[0-9]+$/.test(value) ? Number(value) : fallback;
}

/**
 * The environment the service keeps (DaemonLauncher.kept): a runtime's API keys stay out of a long-lived process.
 * @param {NodeJS.ProcessEnv} env @returns {NodeJS.ProcessEnv}
 */
function serviceEnvironment(env) {
  const kept = ["HOME", "USER", "LOGNAME", "PATH", "LANG", "TZ", "TMPDIR", "JAVA_HOME"];
  return Object.fromEntries(Object.entries(env).filter(([name]) =>
    kept.includes(name) || name.startsWith("LC_") || name.startsWith("XDG_") || name.startsWith("TURNDIFF_")));
}

/**
 * The plugin's connection to the service: discovery, identity (remembered per instance), start.
 * @param {NodeJS.ProcessEnv} env
 */
function connection(env) {
  /** @type {Set<string>} */
  const verified = new Set();
  /** @type {Promise<boolean> | null} */
  let starting = null;

  /** @param {Place} where @param {Discovery} found */
  async function prove(where, found) {
    const identity = `${found.instance} ${found.pid} ${found.startTicks} ${found.port}`;
    if (verified.has(identity)) return true;
    const token = fs.readFileSync(path.join(where.runDir, `${where.key}.token`), "utf8").replace(/\r?\n$/, "");
    const nonce = crypto.randomBytes(16).toString("hex");
    const answer = await request({ port: found.port, method: "GET", path: `/v1/health?challenge=${nonce}`, timeoutMs: 2000 });
    const expected = crypto.createHmac("sha256", Buffer.from(token, "utf8"))
      .update(`${CHALLENGE_PREFIX}\n${found.instance}\n${found.port}\n${nonce}`, "utf8").digest("hex");
    let parsed = null;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      // not the service
    }
    const ok = answer.status === 200 && parsed !== null && parsed.instance === found.instance
      && typeof parsed.proof === "string" && parsed.proof.length === expected.length
      && crypto.timingSafeEqual(Buffer.from(parsed.proof), Buffer.from(expected));
    if (ok) verified.add(identity);
    return ok;
  }

  /**
   * Starts the service unless another client is starting it (the <key>.starting lock of bin/turndiff-hook,
   * held with this process's pid until the wait ends) or it came up meanwhile. Returns the lock it holds,
   * "waiting" when another client holds it, or null when no start is possible.
   * @param {Place} where @returns {string | null}
   */
  function startService(where) {
    const home = env.TURNDIFF_HOME || INSTALL.turndiffHome;
    if (env.TURNDIFF_HOOK_NO_START === "1" || !home) return null;
    try {
      fs.mkdirSync(where.runDir, { recursive: true, mode: 0o700 });
      if (!runDirUsable(where.runDir)) return null;
      const lock = path.join(where.runDir, `${where.key}.starting`);
      try {
        fs.mkdirSync(lock);
      } catch {
        let holder = NaN;
        try {
          holder = Number(fs.readFileSync(path.join(lock, "pid"), "utf8"));
        } catch {
          return "waiting"; // a lock just made, its pid not written yet
        }
        try {
          process.kill(holder, 0);
          return "waiting";
        } catch {
          // its holder is gone: take it over, once (the takeover directory is per dead pid)
          const takeover = `${lock}.${holder}.takeover`;
          try {
            fs.mkdirSync(takeover);
          } catch {
            return "waiting";
          }
          try {
            if (Number(fs.readFileSync(path.join(lock, "pid"), "utf8")) !== holder) return "waiting";
            fs.rmSync(path.join(lock, "pid"), { force: true });
            fs.rmdirSync(lock);
            fs.mkdirSync(lock);
          } catch {
            return "waiting";
          } finally {
            fs.rmSync(takeover, { recursive: true, force: true });
          }
        }
      }
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      const running = readDiscovery(where);
      if (running && alive(running)) return lock; // started meanwhile: nothing to start
      // a release's bin/turndiff, else a checkout's turndiff (as bin/turndiff-hook finds it)
      const released = path.join(home, "bin", "turndiff");
      const launcher = isExecutable(released) ? released : path.join(home, "turndiff");
      // the daemon's JVM itself, one JVM on the cold path (docs/service.md, "Cold start"): it takes the start
      // lock, probes, takes the spool and publishes its discovery file last; as DaemonLauncher starts it
      const child = spawn(launcher, ["service", "daemon", "--db", where.store],
        { detached: true, stdio: "ignore", cwd: "/", env: serviceEnvironment(env) });
      child.on("error", (e) => log(where, `cannot run ${launcher}: ${e.message}`));
      child.unref();
      log(where, `no running service for ${where.store}: started one (${launcher} service daemon)`);
      return lock;
    } catch (e) {
      log(where, `cannot start the service: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }

  /**
   * A running service: its discovery and its socket when it has one of ours (nothing to prove there), else
   * one that proved its identity on its port; or null (with the reason logged).
   * @returns {Promise<{where: Place, found: Discovery, socket: string | null} | null>}
   */
  async function service() {
    const where = place(env);
    if (!where) return null;
    const problem = runDirProblem(where.runDir);
    if (problem !== null) {
      refuseRunDir(where, problem);
      return null;
    }
    const found = runDirUsable(where.runDir) ? readDiscovery(where) : null;
    if (found && alive(found)) {
      if (ownSocket(where)) return { where, found, socket: where.socket };
      if (await prove(where, found)) return { where, found, socket: null };
      log(where, `the process on port ${found.port} (pid ${found.pid}) did not prove it is the turndiff service; nothing sent`);
      return null;
    }
    starting ??= (async () => {
      const lock = startService(where);
      try {
        const deadline = Date.now() + 1000 * seconds(env.TURNDIFF_HOOK_START_WAIT, 5);
        while (lock !== null && Date.now() < deadline) {
          const next = readDiscovery(where);
          if (next && alive(next)) return true;
          await sleep(100);
        }
        return false;
      } finally {
        if (lock !== null && lock !== "waiting") fs.rmSync(lock, { recursive: true, force: true });
      }
    })().finally(() => {
      starting = null;
    });
    if (await starting) return service();
    log(where, `no service reached within ${seconds(env.TURNDIFF_HOOK_START_WAIT, 5)} s; this hook call was not delivered`);
    return null;
  }

  /** POST one body to /v1/hooks/opencode; resolves when the service answered (or gave up), never rejects. */
  return async function deliver(/** @type {object} */ body) {
    const reached = await service();
    if (!reached) return;
    const { where, found, socket } = reached;
    /** @type {Record<string, string>} */
    const headers = { "Content-Type": "application/json" };
    if (!socket) {
      // the port: only with the token, and only to the process that proved it holds it
      const token = fs.readFileSync(path.join(where.runDir, `${where.key}.token`), "utf8").replace(/\r?\n$/, "");
      headers.Authorization = `Bearer ${token}`;
    }
    const query = [INSTALL.root === "git" ? "root=git" : "", INSTALL.track === "auto" ? "track=auto" : ""]
      .filter(Boolean).join("&");
    const answer = await request({ port: found.port, socket: socket ?? undefined, method: "POST",
      path: `/v1/hooks/opencode${query ? "?" + query : ""}`, headers,
      body: Buffer.from(JSON.stringify(body), "utf8"), timeoutMs: 1000 * seconds(env.TURNDIFF_HOOK_TIMEOUT, 10) });
    if (answer.status < 200 || answer.status > 299) {
      const to = socket ? `the socket ${socket}` : `port ${found.port}`;
      log(where, `delivery to ${to} failed: HTTP ${answer.status || "none"} ${answer.status ? "" : answer.body}`.trim());
    }
  };
}

/**
 * The plugin: OpenCode calls it once per project with its PluginInput.
 * @param {{directory: string, worktree: string}} input
 */
export const TurndiffPlugin = async (input) => {
  const deliver = connection(process.env);
  const project = { directory: input.directory, worktree: input.worktree };

  /** Runs a delivery; whatever happens, OpenCode sees a hook that returned normally. @param {() => object | null} body */
  async function quietly(body) {
    try {
      const payload = body();
      if (payload) await deliver(payload);
    } catch {
      // never into OpenCode: a throw in tool.execute.before would block the tool
    }
  }

  return {
    /** @param {any} hookInput @param {any} output */
    "chat.message": (hookInput, output) => quietly(() => ({
      hook: "chat.message", ...project, input: hookInput,
      output: { message: output && output.message },
    })),
    /** @param {any} hookInput @param {any} output */
    "tool.execute.before": (hookInput, output) => quietly(() => hookInput && FORWARDED_TOOLS.has(hookInput.tool)
      ? { hook: "tool.execute.before", ...project, input: hookInput, output: { args: output && output.args } }
      : null),
    /** @param {any} hookInput */
    event: (hookInput) => quietly(() => hookInput && hookInput.event && hookInput.event.type === "session.idle"
      ? { hook: "event", ...project, input: { event: hookInput.event } }
      : null),
  };
};
