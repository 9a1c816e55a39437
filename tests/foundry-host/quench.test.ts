// @vitest-environment happy-dom
/** The system's Quench batches, registered on `quenchReady`, run on the host and clean up after themselves. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { collectBatches, runBatch } from "./quench";
import { gmAndPlayer } from "./index";
import { ROOT } from "./world";

describe("Quench batches", () => {
  it("register on quenchReady and pass on the host, leaving no scratch documents", async () => {
    const { world, gm } = await gmAndPlayer();
    const { QUENCH_BATCHES } = await import("../../src/foundry/quench/index");
    const { quench, batches } = collectBatches();
    gm.run(() =>
      (Hooks as unknown as { callAll(name: string, ...args: unknown[]): void }).callAll("quenchReady", quench),
    );
    // The batches are their own chunk, registered once it is loaded.
    await vi.waitFor(() => expect([...batches.keys()]).toEqual(QUENCH_BATCHES));
    const count = () => [
      world.server.db.Actor.size,
      world.server.db.Item.size,
      world.server.db.Scene.size,
      world.server.db.Combat.size,
      world.server.db.ChatMessage.size,
    ];
    const before = count();
    for (const [key, fn] of batches) {
      const results = await gm.run(() => runBatch(fn));
      await world.settle();
      const failed = results.filter((r) => r.error);
      expect(failed.map((r) => `${r.title}: ${String((r.error as Error)?.message ?? r.error)}`).join("\n"), key).toBe(
        "",
      );
      expect(results.length, key).toBeGreaterThan(0);
    }
    expect(count()).toEqual(before);
    expect(world.errors).toEqual([]);
  });

  it("docs/foundry.md names as many batches as are registered", async () => {
    const { QUENCH_BATCHES } = await import("../../src/foundry/quench/index");
    const words = [
      "zero",
      "one",
      "two",
      "three",
      "four",
      "five",
      "six",
      "seven",
      "eight",
      "nine",
      "ten",
      "eleven",
      "twelve",
      "thirteen",
      "fourteen",
      "fifteen",
      "sixteen",
      "seventeen",
      "eighteen",
      "nineteen",
      "twenty",
      "twenty-one",
      "twenty-two",
    ];
    const doc = readFileSync(join(ROOT, "docs", "foundry.md"), "utf8").replace(/\s+/g, " ");
    expect(doc.match(/the system registers ([\w-]+) test batches/)?.[1]).toBe(words[QUENCH_BATCHES.length]);
  });
});
