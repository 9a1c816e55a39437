/** src/foundry/write-queue.ts: one lane per key — tasks on a key run one after another, a failure does not stop the lane, keys run side by side. */
import { describe, expect, it } from "vitest";
import { serialQueue } from "../../src/foundry/write-queue";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("serialQueue", () => {
  it("runs the tasks of one key in order, each after the previous ended", async () => {
    const q = serialQueue();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`${name}+`);
      await tick(ms);
      log.push(`${name}-`);
      return name;
    };
    const results = await Promise.all([q("a", task("1", 20)), q("a", task("2", 1)), q("a", task("3", 5))]);
    expect(results).toEqual(["1", "2", "3"]);
    expect(log).toEqual(["1+", "1-", "2+", "2-", "3+", "3-"]);
  });

  it("a failed task rejects its own caller only; the lane goes on", async () => {
    const q = serialQueue();
    const failed = q("a", async () => {
      throw new Error("boom");
    });
    const next = q("a", () => "after");
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe("after");
  });

  it("different keys do not wait for each other", async () => {
    const q = serialQueue();
    const log: string[] = [];
    const slow = q("a", async () => {
      await tick(30);
      log.push("a");
    });
    const fast = q("b", async () => {
      log.push("b");
    });
    await Promise.all([slow, fast]);
    expect(log).toEqual(["b", "a"]);
  });
});
