// @vitest-environment happy-dom
/**
 * Hooks for modules (src/system/flows/hooks.ts) on the v13 test host: `fudge-wounds.preApplyWound`
 * (Hooks.call, may veto) and `fudge-wounds.applyWound` (Hooks.callAll, after the write), and the
 * same pair for Undo. They fire on the client that writes — the GM's for a player's relayed
 * click — with a frozen payload: a module can stop a wound, not change it.
 */
import { describe, expect, it } from "vitest";
import { attack, click, fixDice, levelOf, relayTable, warnings, type RelayTable } from "../foundry/relay-table";
import type { Client } from "./world";
import type { WoundHookPayload } from "../../src/system/flows";

/** Leroy (player 1) attacks the Goblin (the GM's) with ++++; the GM defends with −−−−: a wound. */
async function leroyHitsGoblin(t: RelayTable): Promise<string> {
  const id = await attack(t, t.p1, t.leroy, [t.tokens.goblin], [1, 1, 1, 1]);
  fixDice(t.gm, [-1, -1, -1, -1]);
  await click(t, t.gm, id, "defend", t.goblin);
  return id;
}

type Heard = { hook: string; client: string; payload: WoundHookPayload; level: string | null };

/** Registers a listener for every wound hook on `client` (a module's code on that client); `veto` answers the pre hooks. */
function listen(t: RelayTable, client: Client, heard: Heard[], veto: (hook: string) => boolean = () => false): void {
  for (const hook of [
    "fudge-wounds.preApplyWound",
    "fudge-wounds.applyWound",
    "fudge-wounds.preUndoWound",
    "fudge-wounds.undoWound",
  ])
    client.run(() =>
      Hooks.on(
        hook as never,
        ((payload: WoundHookPayload) => {
          heard.push({ hook, client: client.user.name, payload, level: levelOf(t, t.goblin) });
          return veto(hook) ? false : undefined;
        }) as never,
      ),
    );
}

describe("wound hooks for modules", () => {
  it("a player's relayed Apply and Undo: the hooks fire on the GM's client (the one that writes), pre before the write, the other after", async () => {
    const t = await relayTable();
    const heard: Heard[] = [];
    listen(t, t.gm, heard);
    listen(t, t.p1, heard);
    const id = await leroyHitsGoblin(t);
    await click(t, t.p1, id, "apply", t.goblin);
    const wounded = levelOf(t, t.goblin);
    expect(wounded).not.toBeNull();
    await click(t, t.p1, id, "undo", t.goblin);
    expect(levelOf(t, t.goblin)).toBeNull();
    expect(heard.map((h) => [h.hook, h.client])).toEqual([
      ["fudge-wounds.preApplyWound", "Gamemaster"],
      ["fudge-wounds.applyWound", "Gamemaster"],
      ["fudge-wounds.preUndoWound", "Gamemaster"],
      ["fudge-wounds.undoWound", "Gamemaster"],
    ]);
    // Before the write the track is unhurt; after it, wounded; the Undo's pair the other way round.
    expect(heard.map((h) => h.level)).toEqual([null, wounded, wounded, null]);
    const [pre, done] = heard.map((h) => h.payload);
    expect(pre).toEqual(done);
    expect(pre).toMatchObject({
      actorRef: `Actor.${t.goblin}`,
      actorName: "Goblin",
      messageId: id,
      userId: t.p1.user.id,
      relayed: true,
      outcome: "wound",
      fudgePointSpent: false,
    });
    expect(pre.before).toBeNull();
    expect(pre.after).not.toBeNull();
    expect(t.world.errors).toEqual([]);
  });

  it("a module cannot change the wound: the payload is frozen, and what is written is what the GM's client derived", async () => {
    const t = await relayTable();
    const id = await leroyHitsGoblin(t);
    let threw: unknown = null;
    t.gm.run(() =>
      Hooks.on(
        "fudge-wounds.preApplyWound" as never,
        ((p: WoundHookPayload) => {
          try {
            (p as { woundKey: string | null }).woundKey = "scratch";
            (p.after as Record<string, unknown>).dead = true;
          } catch (e) {
            threw = e;
          }
        }) as never,
      ),
    );
    const heard: Heard[] = [];
    listen(t, t.gm, heard);
    await click(t, t.gm, id, "apply", t.goblin);
    expect(threw).toBeInstanceOf(TypeError);
    const written = heard.find((h) => h.hook === "fudge-wounds.applyWound")!;
    expect(written.payload.woundKey).not.toBe("scratch");
    expect(levelOf(t, t.goblin)).toBe(written.payload.woundKey);
  });

  it("a veto on the GM's client stops a player's relayed Apply: nothing is written, the player reads why, no applyWound", async () => {
    const t = await relayTable();
    const heard: Heard[] = [];
    listen(t, t.gm, heard, (hook) => hook === "fudge-wounds.preApplyWound");
    const id = await leroyHitsGoblin(t);
    const writesBefore = t.world.server.journal.length;
    await click(t, t.p1, id, "apply", t.goblin);
    expect(levelOf(t, t.goblin)).toBeNull();
    expect(heard.map((h) => h.hook)).toEqual(["fudge-wounds.preApplyWound"]);
    // Neither the Goblin nor the card was written.
    const writes = t.world.server.journal
      .slice(writesBefore)
      .filter((j) => j.documentName === "Actor" || j.documentName === "ChatMessage");
    expect(writes).toEqual([]);
    expect(warnings(t.p1)).toEqual(["A module stopped the wound to Goblin: nothing was written."]);
    expect(t.world.errors).toEqual([]);
  });

  it("a veto of the Undo keeps the wound", async () => {
    const t = await relayTable();
    const heard: Heard[] = [];
    listen(t, t.gm, heard, (hook) => hook === "fudge-wounds.preUndoWound");
    const id = await leroyHitsGoblin(t);
    await click(t, t.gm, id, "apply", t.goblin);
    const wounded = levelOf(t, t.goblin);
    await click(t, t.gm, id, "undo", t.goblin);
    expect(levelOf(t, t.goblin)).toBe(wounded);
    expect(heard.map((h) => h.hook)).toEqual([
      "fudge-wounds.preApplyWound",
      "fudge-wounds.applyWound",
      "fudge-wounds.preUndoWound",
    ]);
    expect(warnings(t.gm)).toEqual(["A module stopped the undo on Goblin: nothing was written."]);
  });
});
