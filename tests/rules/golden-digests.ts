/**
 * Golden digests: each case's text hashed and compared, in order, with a fixture written from the
 * code before a speed change. `UPDATE_GOLDEN=1` rewrites the fixture (only for a deliberate change).
 * On a mismatch the first differing case is shown with its text now, to compare with the commit before.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { expect } from "vitest";

const digest = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 16);

export function expectGoldenDigests(fixture: URL, cases: Array<{ label: string; text: string }>): void {
  const digests = cases.map((c) => digest(c.text));
  if (process.env.UPDATE_GOLDEN === "1")
    writeFileSync(fixture, `${JSON.stringify({ cases: digests.length, digests }, null, 0)}\n`);
  const want = JSON.parse(readFileSync(fixture, "utf8")) as { cases: number; digests: string[] };
  expect(digests.length).toBe(want.cases);
  const bad = digests.findIndex((x, i) => x !== want.digests[i]);
  expect(bad === -1 ? "all equal" : `${cases[bad].label}: ${cases[bad].text}`).toBe("all equal");
}
