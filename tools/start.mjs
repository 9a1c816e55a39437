/**
 * `npm start`: serves the playground (playground/, a stand-in host for the system's own sheets
 * and chat cards — not Foundry) with Vite's dev server and prints its URL.
 *
 *   node tools/start.mjs              dev server (templates, styles, lang and packs reload live)
 *   node tools/start.mjs --build      static build into dist-playground/ (serve it with any web server)
 *   node tools/start.mjs --preview    build, then serve dist-playground/
 *   --port N  --host H                where to listen (default 127.0.0.1, port 5173 or the next free one)
 *
 * The other tools import `buildPlayground` and `servePlayground` from here.
 */
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

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
export async function servePlayground({ mode = "dev", port, host = "127.0.0.1", build: doBuild = true, quiet = false, strictPort = false } = {}) {
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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = arg("--port") ? Number(arg("--port")) : undefined;
  const host = arg("--host") ?? "127.0.0.1";
  if (process.argv.includes("--build")) {
    const out = await buildPlayground();
    console.log(`Playground built into ${out} (static files; serve the folder with any web server).`);
  } else {
    const mode = process.argv.includes("--preview") ? "preview" : "dev";
    const { url } = await servePlayground({ mode, port, host });
    console.log("");
    console.log("  Fudge Combat & Wounds — playground (a stand-in host for the system's sheets and chat cards, not Foundry VTT)");
    console.log(`  ${url}`);
    console.log(`  Reproducible dice: ${url}?dice=seed:42   Fixed faces: ${url}?dice=1,1,0,-1,0,0,-1,-1`);
    console.log("  Ctrl+C to stop.");
    console.log("");
  }
}
