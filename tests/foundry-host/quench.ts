/**
 * A small Mocha stand-in for running the system's Quench batches on the host: describe / it /
 * before / after, run in order, Chai's assert (vitest ships Chai). Quench itself runs Mocha in a
 * live world; this checks the batches' logic against the host before anyone runs them there.
 */
import { assert } from "vitest";
import type { QuenchBatchContext, QuenchLike } from "../../src/foundry/quench/index";

interface Suite {
  title: string;
  before: (() => unknown)[];
  after: (() => unknown)[];
  tests: { title: string; fn: () => unknown }[];
  suites: Suite[];
}
export interface TestResult {
  title: string;
  error: unknown;
}

export function collectBatches(): { quench: QuenchLike; batches: Map<string, (c: QuenchBatchContext) => void> } {
  const batches = new Map<string, (c: QuenchBatchContext) => void>();
  return { batches, quench: { registerBatch: (key, fn) => void batches.set(key, fn) } };
}

export async function runBatch(fn: (c: QuenchBatchContext) => void): Promise<TestResult[]> {
  const root: Suite = { title: "", before: [], after: [], tests: [], suites: [] };
  let cur = root;
  fn({
    describe(title, body) {
      const s: Suite = { title, before: [], after: [], tests: [], suites: [] };
      cur.suites.push(s);
      const prev = cur;
      cur = s;
      body();
      cur = prev;
    },
    it: (title, f) => void cur.tests.push({ title, fn: f }),
    before: (f) => void cur.before.push(f),
    after: (f) => void cur.after.push(f),
    assert: assert as unknown as QuenchBatchContext["assert"],
  });
  const results: TestResult[] = [];
  const run = async (s: Suite, prefix: string): Promise<void> => {
    const name = prefix ? `${prefix} › ${s.title}` : s.title;
    try {
      for (const b of s.before) await b();
      for (const t of s.tests) {
        try {
          await t.fn();
          results.push({ title: `${name} › ${t.title}`, error: null });
        } catch (error) {
          results.push({ title: `${name} › ${t.title}`, error });
        }
      }
      for (const sub of s.suites) await run(sub, name);
    } catch (error) {
      results.push({ title: `${name} (before)`, error });
    } finally {
      for (const a of s.after) await a();
    }
  };
  await run(root, "");
  return results;
}
