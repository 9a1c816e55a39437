import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/** Test files that run on the Foundry test host (they import it, or a helper of tests/foundry that does). */
function hostTests(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory() && e.name !== "browser") walk(p);
      else if (
        e.name.endsWith(".test.ts") &&
        (dir.endsWith("foundry-host") || /foundry-host|relay-table/.test(readFileSync(p, "utf8")))
      )
        out.push(p.split("\\").join("/"));
    }
  };
  walk("tests");
  return out.sort();
}

const host = hostTests();
const base = {
  exclude: ["tests/browser/**", "node_modules/**"],
  pool: "threads" as const,
  setupFiles: ["tests/setup.ts"],
  testTimeout: 60_000,
};

/**
 * Three projects: the tests that need no Foundry, and the host suite run twice — as Foundry
 * generation 13 and as 14 (FUDGE_FOUNDRY_GENERATION, read by tests/foundry-host/world.ts).
 */
export default defineConfig({
  test: {
    ...base,
    projects: [
      { test: { ...base, name: "unit", include: ["tests/**/*.test.ts"], exclude: [...base.exclude, ...host] } },
      { test: { ...base, name: "host-v13", include: host, env: { FUDGE_FOUNDRY_GENERATION: "13" } } },
      {
        test: {
          ...base,
          name: "host-v14",
          include: host,
          setupFiles: [...base.setupFiles, "tests/foundry-host/guard.ts"],
          env: { FUDGE_FOUNDRY_GENERATION: "14" },
        },
      },
    ],
  },
});
