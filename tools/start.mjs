/**
 * `npm start`: serves the playground (playground/, a stand-in host for the system's own sheets
 * and chat cards — not Foundry) with Vite's dev server at once and prints its URL. Nothing is
 * built first: the dev server reads the sources (templates, styles, lang, packs) and reloads them.
 *
 *   node tools/start.mjs              dev server (templates, styles, lang and packs reload live)
 *   node tools/start.mjs --build      static build into dist-playground/ (serve it with any web server)
 *   node tools/start.mjs --preview    build, then serve dist-playground/
 *   --port N  --host H                where to listen (default 127.0.0.1:5173; when 5173 is taken the
 *                                     next free port, and it says so; an explicit --port that is
 *                                     taken is an error naming the port)
 *
 * The server stops on SIGTERM, SIGINT and SIGHUP, and when its parent process (npm) goes away,
 * so stopping `npm start` by its process id never leaves a server holding the port.
 *
 * The other tools import `buildPlayground` and `servePlayground` from here.
 */
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import fs from "node:fs";
import net from "node:net";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const PLAYGROUND_CONFIG = resolve(repo, "playground/vite.config.ts");
export const PLAYGROUND_DIST = resolve(repo, "dist-playground");

/** Static build into dist-playground/. */
export async function buildPlayground({ quiet = false } = {}) {
  const { build } = await import("vite");
  await build({ configFile: PLAYGROUND_CONFIG, logLevel: quiet ? "error" : "warn" });
  return PLAYGROUND_DIST;
}

/**
 * Serves the playground: `mode` "dev" (Vite dev server) or "preview" (the static build, built
 * first unless `build: false`). Returns `{ url, close }`.
 */
export async function servePlayground({
  mode = "dev",
  port,
  host = "127.0.0.1",
  build: doBuild = true,
  quiet = false,
  strictPort = false,
} = {}) {
  const vite = await import("vite");
  if (mode === "preview") {
    if (doBuild) await buildPlayground({ quiet });
    const server = await vite.preview({
      configFile: PLAYGROUND_CONFIG,
      logLevel: quiet ? "error" : "warn",
      preview: { host, port: port ?? 0, strictPort, open: false },
    });
    const url = server.resolvedUrls?.local?.[0] ?? `http://${host}:${server.httpServer.address().port}/`;
    return { url, close: () => new Promise((r) => server.httpServer.close(() => r())) };
  }
  const server = await vite.createServer({
    configFile: PLAYGROUND_CONFIG,
    logLevel: quiet ? "error" : "info",
    server: { host, port: port ?? 5173, strictPort, open: false },
  });
  await server.listen();
  const url = server.resolvedUrls?.local?.[0] ?? `http://${host}:${server.config.server.port}/`;
  return { url, close: () => server.close(), server };
}

function arg(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Whether host:port can be listened on now (false when another process holds it). */
export function portFree(port, host = "127.0.0.1") {
  return new Promise((resolvePort) => {
    const probe = net.createServer();
    probe.once("error", () => resolvePort(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolvePort(true)));
  });
}

/** The port to serve on: the wanted one, else (only when it was not asked for) the next free one. */
export async function choosePort(wanted, { explicit, host = "127.0.0.1", tries = 20 } = {}) {
  if (wanted === 0 || (await portFree(wanted, host))) return { port: wanted, taken: false };
  if (explicit) return { port: null, taken: true };
  for (let p = wanted + 1; p < wanted + tries; p++) if (await portFree(p, host)) return { port: p, taken: true };
  return { port: null, taken: true };
}

/** The parent of a process on Linux (/proc), or null where that cannot be read. */
function parentOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
  } catch {
    return null;
  }
}

/**
 * The processes whose exit should stop the server: the parent, and under `npm start` also the
 * grandparent — npm runs scripts through `sh -c`, and when npm itself is killed that shell stays
 * alive, waiting for us.
 */
export function watchedAncestors(env = process.env) {
  const out = [process.ppid];
  if (env.npm_lifecycle_event) {
    const grand = parentOf(process.ppid);
    if (grand) out.push(grand);
  }
  return out;
}

/**
 * Stops `close` once on SIGTERM/SIGINT/SIGHUP or when a watched ancestor (see watchedAncestors)
 * has exited, then exits.
 */
export function stopWithParent(close, { ancestors = watchedAncestors(), everyMs = 500 } = {}) {
  let stopping = false;
  const parentPid = process.ppid;
  const stop = async (why) => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    try {
      await Promise.race([close(), new Promise((r) => setTimeout(r, 3000))]);
    } finally {
      if (why) console.log(`  playground stopped (${why}).`);
      process.exit(0);
    }
  };
  for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"])
    process.on(sig, () => {
      stop(sig).catch((e) => console.error(e)); // a signal handler cannot wait: a failed stop is logged
    });
  const gone = (pid) => {
    try {
      process.kill(pid, 0);
      return false;
    } catch (e) {
      return e.code === "ESRCH";
    }
  };
  const timer = setInterval(() => {
    if (process.ppid !== parentPid || ancestors.some(gone))
      stop("its parent process exited").catch((e) => console.error(e)); // a timer cannot wait
  }, everyMs);
  timer.unref();
  return stop;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const explicit = arg("--port") !== undefined;
  const wanted = explicit ? Number(arg("--port")) : 5173;
  const host = arg("--host") ?? "127.0.0.1";
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) {
    console.error(`--port ${arg("--port")}: not a port number (0–65535)`);
    process.exit(2);
  }
  if (process.argv.includes("--build")) {
    const out = await buildPlayground();
    console.log(`Playground built into ${out} (static files; serve the folder with any web server).`);
  } else {
    const { port, taken } = await choosePort(wanted, { explicit, host });
    if (port === null) {
      console.error(
        explicit
          ? `Port ${wanted} on ${host} is taken by another process. Stop it, or choose another port: npm start -- --port ${wanted + 1}`
          : `Ports ${wanted}–${wanted + 19} on ${host} are all taken. Choose a free one: npm start -- --port N`,
      );
      process.exit(1);
    }
    if (taken) console.log(`  Port ${wanted} is taken by another process; using port ${port} instead.`);
    const mode = process.argv.includes("--preview") ? "preview" : "dev";
    const { url, close } = await servePlayground({ mode, port, host, strictPort: true });
    stopWithParent(close);
    console.log("");
    console.log(
      "  Fudge Combat & Wounds — playground (a stand-in host for the system's sheets and chat cards, not Foundry VTT)",
    );
    console.log(`  ${url}`);
    console.log(`  Reproducible dice: ${url}?dice=seed:42   Fixed faces: ${url}?dice=1,1,0,-1,0,0,-1,-1`);
    console.log("  Ctrl+C to stop.");
    console.log("");
  }
}
