/**
 * `npm start` (tools/start.mjs): serves the playground at once from the sources (no build first),
 * says clearly when a port is taken, and stops on SIGTERM and when its parent — npm, which runs
 * it through `sh -c` — is killed, so no server is left holding the port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { choosePort, portFree } from "../../tools/start.mjs";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const spawned: ChildProcess[] = [];
afterEach(() => {
  for (const p of spawned.splice(0)) if (p.exitCode === null && p.pid) p.kill("SIGKILL");
});

function occupy(): Promise<{ port: number; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen({ port: 0, host: "127.0.0.1" }, () =>
      resolve({ port: (srv.address() as net.AddressInfo).port, close: () => new Promise((r) => srv.close(() => r())) }),
    );
  });
}

async function freePort(): Promise<number> {
  const o = await occupy();
  await o.close();
  return o.port;
}

/** Collects a process's output until `pattern` appears. */
function waitFor(p: ChildProcess, pattern: RegExp, ms = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}: ${out}`)), ms);
    const on = (d: Buffer) => {
      out += d.toString();
      if (pattern.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    };
    p.stdout?.on("data", on);
    p.stderr?.on("data", on);
  });
}

async function until(f: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await f()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe("npm start", () => {
  it("runs the playground server directly, with no build before it", () => {
    expect(pkg.scripts.start).toBe("node tools/start.mjs");
  });

  it("chooses the next free port only when none was asked for", async () => {
    const held = await occupy();
    try {
      expect(await portFree(held.port)).toBe(false);
      expect(await choosePort(held.port, { explicit: true })).toEqual({ port: null, taken: true });
      const next = await choosePort(held.port, { explicit: false });
      expect(next.taken).toBe(true);
      expect(next.port).toBeGreaterThan(held.port);
    } finally {
      await held.close();
    }
  });

  it("names a taken --port and exits 1", async () => {
    const held = await occupy();
    try {
      const p = spawn(process.execPath, ["tools/start.mjs", "--port", String(held.port)], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      spawned.push(p);
      const out = await waitFor(p, /taken/);
      expect(out).toContain(`Port ${held.port} on 127.0.0.1 is taken by another process`);
      const code = await new Promise((r) => p.on("exit", r));
      expect(code).toBe(1);
    } finally {
      await held.close();
    }
  });

  it("serves at once and stops on SIGTERM, freeing the port", async () => {
    const port = await freePort();
    const p = spawn(process.execPath, ["tools/start.mjs", "--port", String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    spawned.push(p);
    await waitFor(p, new RegExp(`http://127\\.0\\.0\\.1:${port}/`));
    const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(html).toContain("stand-in host, not Foundry");
    const exited = new Promise((r) => p.on("exit", r));
    p.kill("SIGTERM");
    // Vite's own SIGTERM handler may win the race and exit 143 (128 + SIGTERM): either way it has exited.
    expect([0, 143]).toContain(await exited);
    expect(await until(() => portFree(port))).toBe(true);
  });

  it("stops when npm (its grandparent, through sh -c) is killed outright", async () => {
    const port = await freePort();
    // A stand-in for npm: it runs the script through `sh -c` as npm does, then is SIGKILLed.
    const npm = spawn(
      process.execPath,
      [
        "-e",
        `require("child_process").spawn("sh", ["-c", "exec 3>&-; node tools/start.mjs --port ${port}; true"], { stdio: "inherit" }); setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_lifecycle_event: "start" } },
    );
    spawned.push(npm);
    await waitFor(npm, new RegExp(`http://127\\.0\\.0\\.1:${port}/`));
    expect(await portFree(port)).toBe(false);
    npm.kill("SIGKILL");
    expect(await until(() => portFree(port))).toBe(true);
  });
});
