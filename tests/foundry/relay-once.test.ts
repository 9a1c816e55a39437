// @vitest-environment happy-dom
/**
 * Issue #25 (3): a relay request runs once, durably. The GM's client removes a request from its
 * requester's User flags before it runs it, refuses one older than the expiry, and keeps nothing
 * that matters in memory: a left-over copy sent again — after any number of other requests, or
 * by someone else — finds nothing to run.
 */
import { describe, expect, it } from "vitest";
import { QUERIES } from "../../src/system/registry";
import { RELAY_EXPIRY_MS, RELAY_REQUEST_LIMIT } from "../../src/system/relay";
import { actorOn, attack, click, fixDice, forgeQuery, levelOf, relayTable, type RelayTable } from "./relay-table";
import type { Client } from "../foundry-host";

async function leroyHitsGoblin(t: RelayTable): Promise<string> {
  const id = await attack(t, t.p1, t.leroy, [t.tokens.goblin], [1, 1, 1, 1]);
  fixDice(t.gm, [-1, -1, -1, -1]);
  await click(t, t.gm, id, "defend", t.goblin);
  return id;
}

const requestsOf = (t: RelayTable, userId: string): Record<string, unknown> =>
  ((t.world.server.db.User.get(userId)!.flags as Record<string, Record<string, Record<string, unknown>>>)?.[
    "fudge-wounds"
  ]?.relayRequests ?? {}) as Record<string, unknown>;

/** A query as a modified client sends it: no flag of its own written, the payload given whole. */
async function replay(t: RelayTable, from: Client, payload: Record<string, unknown>) {
  const reply = await from.run(() =>
    (from.game.users.activeGM as unknown as { query(n: string, d: unknown, o: object): Promise<unknown> }).query(
      QUERIES[payload.action as "apply"],
      payload,
      { timeout: 10_000 },
    ),
  );
  await t.world.settle();
  return reply as { ok: boolean; key?: string };
}

describe("a relay request runs once", () => {
  it("the GM's client removes the request from its requester's flags as it runs it", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    // A client that writes its request and never removes it (a crash, a modified client).
    const reply = await forgeQuery(t, t.p1, "apply", { messageId: id, targetId: `Actor.${t.goblin}` });
    expect(reply.ok).toBe(true);
    expect(levelOf(t, t.goblin)).not.toBeNull();
    expect(requestsOf(t, t.p1.user.id!)).toEqual({});
    // The removal is written in the running core's terms (v14: no legacy `-=` key).
    expect(t.world.deprecations).toEqual([]);
  });

  it("a left-over request sent again after 600 other requests does not apply a wound a second time", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    const requestId = "leftOverRequest1";
    const payload = {
      messageId: id,
      action: "apply",
      targetId: `Actor.${t.goblin}`,
      force: false,
      spendFudgePoint: false,
      requestId,
      userId: t.p1.user.id,
    };
    await forgeQuery(t, t.p1, "apply", payload);
    expect(levelOf(t, t.goblin)).not.toBeNull();
    // The GM takes the wound back.
    await click(t, t.gm, id, "undo", t.goblin);
    expect(levelOf(t, t.goblin)).toBeNull();
    // Player 3 sends 600 requests of his own (each written into his flags, as his client would).
    for (let i = 0; i < 600; i++)
      await forgeQuery(t, t.p3, "undo", {
        messageId: `nothingHere${String(i).padStart(5, "0")}`,
        targetId: `Actor.${t.goblin}`,
      });
    // Then the left-over copy again, by player 3 (it reads player 1's flags) and by player 1.
    expect((await replay(t, t.p3, payload)).ok).toBe(false);
    expect((await replay(t, t.p1, payload)).ok).toBe(false);
    expect(levelOf(t, t.goblin)).toBeNull();
  }, 120_000);

  it("a request older than the expiry is refused and removed; so is one stamped in the future", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    const old = await forgeQuery(t, t.p1, "apply", {
      messageId: id,
      targetId: `Actor.${t.goblin}`,
      at: Date.now() - RELAY_EXPIRY_MS - 1_000,
    });
    expect(old).toMatchObject({ ok: false, key: "FUDGE.Error.Relay.Expired" });
    const future = await forgeQuery(t, t.p1, "apply", {
      messageId: id,
      targetId: `Actor.${t.goblin}`,
      at: Date.now() + RELAY_EXPIRY_MS + 60_000,
    });
    expect(future).toMatchObject({ ok: false, key: "FUDGE.Error.Relay.Expired" });
    expect(levelOf(t, t.goblin)).toBeNull();
    expect(requestsOf(t, t.p1.user.id!)).toEqual({});
    // The honest click still works.
    await click(t, t.p1, id, "apply", t.goblin);
    expect(levelOf(t, t.goblin)).not.toBeNull();
  });

  it("a user's flags hold a bounded list: stale and surplus requests go with his next click", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    const stale: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++)
      stale[`staleRequest${String(i).padStart(4, "0")}`] = {
        messageId: id,
        action: "undo",
        targetId: `Actor.${t.goblin}`,
        force: false,
        spendFudgePoint: false,
        at: Date.now() - 10 * RELAY_EXPIRY_MS,
      };
    await t.p1.run(() =>
      (t.p1.game.user as unknown as { update(d: object): Promise<unknown> }).update({
        flags: { "fudge-wounds": { relayRequests: stale } },
      }),
    );
    await t.world.settle();
    expect(Object.keys(requestsOf(t, t.p1.user.id!))).toHaveLength(200);
    await click(t, t.p1, id, "apply", t.goblin);
    expect(levelOf(t, t.goblin)).not.toBeNull();
    expect(Object.keys(requestsOf(t, t.p1.user.id!)).length).toBeLessThanOrEqual(RELAY_REQUEST_LIMIT);
    expect(requestsOf(t, t.p1.user.id!)).toEqual({});
    expect(actorOn(t.gm, t.goblin)).toBeTruthy();
  });
});
