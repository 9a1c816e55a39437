// @vitest-environment happy-dom
/**
 * Issue 28 on a Miniatures table: the owner's Check Guts (a Guts-state write from the player's
 * client) at the moment the GM's client runs Sir Knightly's Near Death turn (a track and Guts-state
 * write), with a random server latency. Each of 8 seeded trials must end as one of the two serial
 * orders of the same two clicks ends (each run on its own world, one after the other, no latency).
 * Sir Knightly is shaken (a failure by 1 in force) and, under "attack rolls only", his Near Death
 * roll of +2 recovers him to Very Hurt and clears his failures; the player's check rolls −4 and fails.
 * ONE_WRITER=off: every client writes its own clicks (the design before issue 28); the test then
 * reports how many trials fail instead of failing.
 */
import { describe, expect, it, vi } from "vitest";
import { findSample } from "../../src/cli/samples";
import { applyWound } from "../../src/rules";
import { trackFor } from "../../src/system/combatant";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { foundryPort } from "../../src/foundry/port";
import * as flows from "../../src/system/flows";
import type { ActorDoc } from "../../src/system/data";
import { table, actorOn, type Table } from "./table";
import type { Client } from "./world";

const OFF = process.env.ONE_WRITER === "off";
vi.mock("../../src/foundry/write-queue", async (load) => {
  const real = await load<typeof import("../../src/foundry/write-queue")>();
  return process.env.ONE_WRITER === "off" ? { ...real, writesHere: () => true } : real;
});

const KNIGHTLY = "miniKnightly0001";
const REF = `Actor.${KNIGHTLY}`;

/** This client's dice: the faces in order, again and again (+1, 0, −1 per die). */
function dice(c: Client, faces: number[]): void {
  let i = 0;
  c.CONFIG.Dice.randomUniform = () => {
    const f = faces[i++ % faces.length];
    return f > 0 ? 0.9 : f < 0 ? 0.1 : 0.5;
  };
}

async function knightlyWorld(latency: (() => number) | number): Promise<Table> {
  const t = await table({
    latency: typeof latency === "number" ? latency : () => latency(),
    seed: (world, ids) => {
      const { _key: _k, ...doc } = structuredClone(findSample("Sir Knightly", "name")) as unknown as Record<
        string,
        unknown
      >;
      const items = (doc.items as Record<string, unknown>[]).map(({ _key: _ik, ...i }) => i);
      world.server.seed("Actor", { ...doc, _id: KNIGHTLY, items, ownership: { default: 0, [ids.player]: 3 } });
    },
  });
  await t.gm.run(async () => {
    await game.settings!.set("fudge-wounds" as never, "preset" as never, "miniatures" as never);
    await game.settings!.set(
      "fudge-wounds" as never,
      "miniatures" as never,
      { ...worldRules().miniatures, gutsRollPenalty: "attackRolls" } as never,
    );
    const model = actorOn(t.gm, KNIGHTLY);
    const w = applyWound(trackFor(plainActor(model) as ActorDoc, worldRules()), { level: "nearDeath" });
    const shaken = {
      pending: [{ reason: "other", target: 5, sinceTurn: 1, bonus: 0, forfeitNext: 0, lastTurn: 1, effect: 1 }],
      effect: 1,
    };
    await foundryPort().writeActor(REF, (turn) =>
      turn.write({ system: { woundTrack: { "==state": w.track.state }, "==gutsState": shaken } }),
    );
  });
  await t.world.settle();
  dice(t.gm, [1, 1, 0, 0]);
  dice(t.player, [-1, -1, -1, -1]);
  return t;
}

const gutsCheck = (t: Table) => t.player.run(() => flows.gutsCheck(foundryPort(), REF));
const nearDeath = (t: Table) => t.gm.run(() => flows.nearDeathTurn(foundryPort(), REF));

/** What the two clicks leave: the track and the Guts state as the GM's client reads them. */
function outcome(t: Table): string {
  const doc = plainActor(actorOn(t.gm, KNIGHTLY));
  const g = (doc.system as { gutsState: { pending: { reason: string; target: number }[] } }).gutsState;
  return JSON.stringify({
    track: t.gm.run(() => trackFor(doc, worldRules()).state),
    pending: g.pending.map((p) => [p.reason, p.target]),
  });
}

async function serial(first: "guts" | "nearDeath"): Promise<string> {
  const t = await knightlyWorld(0);
  t.world.answerDialogs("ok");
  for (const step of first === "guts" ? [gutsCheck, nearDeath] : [nearDeath, gutsCheck]) {
    await step(t);
    await t.world.settle();
  }
  return outcome(t);
}

describe("the owner's Check Guts during the GM's Near Death turn: one writer", () => {
  it("8 seeded trials end as one of the two serial orders", async () => {
    const orders = new Set([await serial("guts"), await serial("nearDeath")]);
    expect(orders.size).toBe(2); // the order matters: a lost write would show
    const failed: string[] = [];
    for (let seed = 1; seed <= 8; seed++) {
      let x = seed * 7919;
      const next = () => ((x = (x * 48271) % 2147483647) % 40) + 2;
      const t = await knightlyWorld(next);
      t.world.answerDialogs("ok");
      const offset = next();
      await Promise.all([
        gutsCheck(t),
        new Promise<void>((res) => setTimeout(() => void nearDeath(t).then(() => res()), offset)),
      ]);
      await t.world.settle();
      const end = outcome(t);
      if (!orders.has(end)) failed.push(`seed ${seed}: ${end}`);
      if (!OFF) expect(t.world.errors).toEqual([]);
    }
    if (OFF) console.log(`ONE_WRITER=off: ${failed.length} of 8 Guts/Near Death trials fail\n${failed.join("\n")}`);
    else expect(failed).toEqual([]);
  }, 300_000);
});
