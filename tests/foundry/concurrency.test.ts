// @vitest-environment happy-dom
/**
 * Issue #8: writes to one actor run one after another (per-actor lanes on the GM's client and
 * locally), each from the actor as it is when its turn comes. On the v13 test host with server
 * latency, concurrent Apply / Undo / box clicks must end in a state some one-at-a-time order
 * gives (the serial oracle replays them with the pure functions), and keep every wound.
 */
import { describe, expect, it } from "vitest";
import {
  attack,
  cardsOn,
  click,
  fixDice,
  levelOf,
  outcomeOf,
  perform,
  plainOn,
  relayTable,
  rulesOn,
  serialOutcomes,
  type Op,
  type RelayTable,
} from "./relay-table";
import type { Client } from "../foundry-host";
import { woundLogOf } from "../../src/system/integrity";

/** Player 1's attacks on the Goblin, each defended by the GM: one card per set of attack dice. */
async function cards(t: RelayTable, attacks: number[][]): Promise<string[]> {
  const ids: string[] = [];
  for (const faces of attacks) {
    const id = await attack(t, t.p1, t.leroy, [t.tokens.goblin], faces);
    fixDice(t.gm, [-1, -1, 0, 0]);
    await click(t, t.gm, id, "defend", t.goblin);
    ids.push(id);
  }
  return ids;
}

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts every op (each after its own delay in ms, so that one's read falls inside another's
 * write), waits for all, and checks the result against the serial oracle.
 */
async function race(
  t: RelayTable,
  ids: string[],
  ops: [Client, Op, number?][],
): Promise<{ ok: boolean[]; outcome: string }> {
  const ctx = {
    cards: cardsOn(t, ids),
    attacker: plainOn(t.gm, t.leroy),
    author: { id: t.p1.user.id!, isGM: false },
    rules: rulesOn(t.gm),
  };
  const start = plainOn(t.gm, t.goblin);
  const ok = await Promise.all(
    ops.map(async ([who, op, delay]) => (await later(delay ?? 0), perform(t, who, op, t.goblin))),
  );
  await t.world.settle();
  const outcome = outcomeOf(plainOn(t.gm, t.goblin), ctx.rules);
  const done = ops.filter((_, i) => ok[i]).map(([, op]) => op);
  expect(serialOutcomes(start, done, ctx)).toContain(outcome);
  expect(t.world.errors).toEqual([]);
  return { ok, outcome };
}

describe("one write at a time per actor", () => {
  it("two cards applied to one target at the same moment keep both wounds (30 ms server latency)", async () => {
    const t = await relayTable({ latency: 30 });
    const [a, b] = await cards(t, [
      [1, 1, 0, 0],
      [1, 1, 1, 0],
    ]);
    // Both through the relay: the two queries reach the GM's client together.
    const { ok } = await race(
      t,
      [a, b],
      [
        [t.p1, { kind: "apply", messageId: a }],
        [t.p1, { kind: "apply", messageId: b }],
      ],
    );
    expect(ok).toEqual([true, true]);
    const log = woundLogOf(plainOn(t.gm, t.goblin));
    expect(
      log
        .filter((r) => !r.undone)
        .map((r) => r.messageId)
        .sort(),
    ).toEqual([a, b].sort());
    // Each record starts where the other ended: neither wound was written over.
    const [first, second] = log;
    expect(JSON.stringify(second.before)).toBe(JSON.stringify(first.after));
    // And card A's Undo does not conflict when it is the last one applied (or after B's undo).
    const lastApplied = second.messageId;
    expect(await perform(t, t.gm, { kind: "undo", messageId: lastApplied }, t.goblin)).toBe(true);
    expect(await perform(t, t.gm, { kind: "undo", messageId: first.messageId }, t.goblin)).toBe(true);
    expect(levelOf(t, t.goblin)).toBeNull();
  });

  it("Apply + Undo + Apply, fired together from two clients, end consistent", async () => {
    const t = await relayTable({ latency: (action) => (action === "query" ? 15 : 25) });
    const [a] = await cards(t, [[1, 1, 1, 0]]);
    // The relayed Apply reaches the GM's client at ~40 ms and writes until ~65 ms; the GM's own
    // Undo and Apply start inside that write.
    await race(
      t,
      [a],
      [
        [t.p1, { kind: "apply", messageId: a }],
        [t.gm, { kind: "undo", messageId: a }, 45],
        [t.gm, { kind: "apply", messageId: a }, 50],
      ],
    );
    const doc = plainOn(t.gm, t.goblin);
    const live = woundLogOf(doc).filter((r) => !r.undone);
    expect(live.length).toBeLessThanOrEqual(1); // never applied twice
  });

  it("a relayed Apply while the GM clicks a box on the same track: neither is lost", async () => {
    const t = await relayTable({ latency: 30 });
    const [a] = await cards(t, [[1, 1, 0, 0]]);
    // The relayed Apply reaches the GM's client at ~60 ms (flag write, then the query) and its
    // update is in flight until ~90 ms: the GM's click at 65 ms reads the track inside it.
    const { ok, outcome } = await race(
      t,
      [a],
      [
        [t.p1, { kind: "apply", messageId: a }],
        [t.gm, { kind: "toggle", ref: "scratch:0" }, 65],
      ],
    );
    expect(ok).toEqual([true, true]);
    expect(outcome).toContain(a); // the wound is live …
    const state = JSON.stringify(plainOn(t.gm, t.goblin).system.woundTrack.state);
    expect(state).toContain("scratch"); // … and so is the GM's box
  });
});
