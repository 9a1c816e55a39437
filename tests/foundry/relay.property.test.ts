// @vitest-environment happy-dom
/**
 * Property (issue #8): random interleavings of Apply / Undo / heal / box toggles from several
 * users, over the v13 test host with a random latency on every server round trip, never lose
 * or duplicate a wound — the end state is one that some one-at-a-time order of the operations
 * that succeeded gives (the serial oracle) — and never change an actor the requester may not
 * change. fast-check's seed is fixed in tests/setup.ts (FC_SEED / FC_RUNS explore more).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { woundLogOf } from "../../src/system/integrity";
import {
  attack,
  cardsOn,
  click,
  fixDice,
  outcomeOf,
  perform,
  plainOn,
  relayTable,
  rulesOn,
  serialOutcomes,
  type Op,
} from "./relay-table";

const RUNS = Number(process.env.FC_RUNS ?? 10);

const opArb = fc.record({
  who: fc.oneof({ arbitrary: fc.constantFrom("gm", "p1"), weight: 4 }, { arbitrary: fc.constant("p3"), weight: 1 }),
  kind: fc.oneof(
    { arbitrary: fc.constantFrom("apply", "toggle"), weight: 3 },
    { arbitrary: fc.constantFrom("undo", "heal"), weight: 2 },
  ),
  card: fc.integer({ min: 0, max: 1 }),
  ref: fc.constantFrom("scratch:0", "scratch:1", "hurt:0"),
  delay: fc.integer({ min: 0, max: 70 }),
});

describe("relay property: random interleavings over random latency", () => {
  it("never lose or duplicate a wound, never change what the requester may not", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 5, max: 30 }), { minLength: 1, maxLength: 16 }),
        fc.array(opArb, { minLength: 3, maxLength: 6 }),
        async (latencies, spec) => {
          let n = 0;
          const t = await relayTable({ latency: () => latencies[n++ % latencies.length] });
          const ids: string[] = [];
          for (const faces of [
            [1, 1, 0, 0],
            [1, 1, 1, 0],
          ]) {
            const id = await attack(t, t.p1, t.leroy, [t.tokens.goblin], faces);
            fixDice(t.gm, [-1, -1, 0, 0]);
            await click(t, t.gm, id, "defend", t.goblin);
            ids.push(id);
          }
          const clients = { gm: t.gm, p1: t.p1, p3: t.p3 };
          const ops: [keyof typeof clients, Op, number][] = spec.map((s) => [
            s.who as keyof typeof clients,
            s.kind === "apply" || s.kind === "undo"
              ? { kind: s.kind, messageId: ids[s.card] }
              : s.kind === "toggle"
                ? { kind: "toggle", ref: s.ref }
                : { kind: "heal" },
            s.delay,
          ]);
          const ctx = {
            cards: cardsOn(t, ids),
            attacker: plainOn(t.gm, t.leroy),
            author: { id: t.p1.user.id!, isGM: false },
            rules: rulesOn(t.gm),
          };
          const start = plainOn(t.gm, t.goblin);
          const others = JSON.stringify([t.leroy, t.theodora].map((id) => t.world.server.db.Actor.get(id)));
          const ok = await Promise.all(
            ops.map(
              async ([who, op, delay]) => (
                await new Promise((r) => setTimeout(r, delay)),
                perform(t, clients[who], op, t.goblin)
              ),
            ),
          );
          await t.world.settle();

          // Player 3 owns nothing and applied nothing; player 1 may reach the Goblin only through his card.
          ops.forEach(([who, op], i) => {
            if (who === "p3" || (who === "p1" && (op.kind === "toggle" || op.kind === "heal")))
              expect(ok[i], `${who} ${op.kind}`).toBe(false);
          });
          expect(JSON.stringify([t.leroy, t.theodora].map((id) => t.world.server.db.Actor.get(id)))).toBe(others);
          // Serialisable: some one-at-a-time order of what succeeded gives exactly this end state.
          const end = plainOn(t.gm, t.goblin);
          const done = ops.filter((_, i) => ok[i]).map(([, op]) => op);
          expect(serialOutcomes(start, done, ctx), JSON.stringify({ done, spec })).toContain(outcomeOf(end, ctx.rules));
          // A card's wound is live at most once.
          const live = woundLogOf(end)
            .filter((r) => !r.undone)
            .map((r) => r.messageId);
          expect(new Set(live).size).toBe(live.length);
          expect(t.world.errors).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);
});
