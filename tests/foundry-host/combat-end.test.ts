// @vitest-environment happy-dom
/**
 * Ending a combat ends the turn in progress (issue 29, fix 4). v13 core deletes the combat
 * without `_onEndTurn` for the current combatant (Combat#_onDelete runs only `_onExit`), so a
 * stun or a Clipped counted on that turn would keep counting after the fight.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { trackFor } from "../../src/system/combatant";
import { applyWound } from "../../src/rules";
import { actorOn, table, type Table } from "./table";
import type { Client } from "./world";

type Rec = Record<string, unknown>;
const stateOf = (c: Client, id: string) =>
  (actorOn(c, id).toObject().system as { woundTrack: { state: { stun: unknown; marks?: Rec } | null } }).woundTrack
    .state;

/** Scratches (and stun marks with them) are not cleared at the combat's end: only the turn's end acts. */
async function keepScratches(t: Table) {
  await t.gm.run(() =>
    game.settings!.set("fudge-wounds" as never, "clearScratchesAtCombatEnd" as never, false as never),
  );
}

async function bridge() {
  return { ...(await import("../../src/foundry/bridge")), ...(await import("../../src/foundry/foundry-util")) };
}

/** A started combat: Leroy (initiative 10) first, Theodora (5) second; Leroy's turn. */
async function fight(t: Table) {
  const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as Combat.Implementation;
  await t.gm.run(() =>
    combat.createEmbeddedDocuments("Combatant", [
      { actorId: t.hero, tokenId: t.heroToken, initiative: 10 } as never,
      { actorId: t.foe, tokenId: t.foeToken, initiative: 5 } as never,
    ]),
  );
  await t.gm.run(() => combat.startCombat());
  await t.world.settle();
  return () => t.gm.game.combats.get(combat.id!) as unknown as Combat.Implementation;
}

async function endCombat(t: Table, live: () => Combat.Implementation) {
  await t.gm.run(() => live().endCombat());
  await t.world.settle();
  expect(t.gm.game.combats.size).toBe(0);
}

describe("the combat's end is the end of the turn in progress", () => {
  it("Fudge §4.62: Leroy, Stunned as his turn began, is no longer stunned once the GM ends the combat in his turn", async () => {
    const t = await table();
    await keepScratches(t);
    const { plainActor, updateActor, worldRules } = await bridge();
    await t.gm.run(async () => {
      const a = actorOn(t.gm, t.hero);
      await updateActor(a, {
        system: {
          woundTrack: {
            "==state": applyWound(trackFor(plainActor(a), worldRules()), { level: "hurt", stun: true }).track.state,
          },
        },
      });
    });
    await t.world.settle();
    const live = await fight(t);
    expect(stateOf(t.gm, t.hero)?.stun).toEqual({ effect: "stunned", rounds: 1 });
    await endCombat(t, live);
    expect(stateOf(t.player, t.hero)?.stun).toBeNull();
    expect([...actorOn(t.player, t.hero).statuses]).not.toContain("fudge-wounds.stunned");
    // The confirmation core asks for, answered Yes.
    expect(t.world.dialogs.map((d) => d.kind)).toEqual(["confirm"]);
    expect(t.world.errors).toEqual([]);
    expect(t.world.hooks.errors).toEqual([]);
  });

  it("Fudge §4.62: Theodora, stunned in Leroy's turn, is still stunned after a combat that ended before her turn came", async () => {
    const t = await table();
    await keepScratches(t);
    const { plainActor, updateActor, worldRules } = await bridge();
    const live = await fight(t);
    await t.gm.run(async () => {
      const a = actorOn(t.gm, t.foe);
      await updateActor(a, {
        system: {
          woundTrack: {
            "==state": applyWound(trackFor(plainActor(a), worldRules()), { level: "hurt", stun: true }).track.state,
          },
        },
      });
    });
    await t.world.settle();
    await endCombat(t, live);
    expect(stateOf(t.gm, t.foe)?.stun).toEqual({ effect: "stunned", rounds: 1 });
  });

  it("FATE: Clipped as his turn began burns off when the combat ends in that turn", async () => {
    const t = await table();
    const { plainActor, updateActor, worldRules, userRef } = await bridge();
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "fate" as never));
    await t.gm.run(async () => {
      const a = actorOn(t.gm, t.hero);
      await updateActor(a, actions.toggleWoundBox(plainActor(a), "clipped:0", worldRules(), userRef()));
    });
    await t.world.settle();
    const clipped = () =>
      ((stateOf(t.player, t.hero)?.marks as Record<string, unknown[]> | undefined)?.clipped ?? []).filter(
        (m) => m !== null,
      ).length;
    const live = await fight(t);
    expect(clipped()).toBe(1);
    await endCombat(t, live);
    expect(clipped()).toBe(0);
    expect(t.world.errors).toEqual([]);
  });

  it("a combat ended before it started ends no turn", async () => {
    const t = await table();
    const { plainActor, updateActor, worldRules, userRef } = await bridge();
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "fate" as never));
    await t.gm.run(async () => {
      const a = actorOn(t.gm, t.hero);
      await updateActor(a, actions.toggleWoundBox(plainActor(a), "clipped:0", worldRules(), userRef()));
    });
    const combat = (await t.gm.run(() =>
      Combat.create({ scene: t.scene } as never),
    )) as unknown as Combat.Implementation;
    await t.gm.run(() =>
      combat.createEmbeddedDocuments("Combatant", [{ actorId: t.hero, tokenId: t.heroToken, initiative: 10 } as never]),
    );
    await t.world.settle();
    const before = JSON.stringify(stateOf(t.gm, t.hero));
    await endCombat(t, () => t.gm.game.combats.get(combat.id!) as unknown as Combat.Implementation);
    expect(JSON.stringify(stateOf(t.gm, t.hero))).toBe(before);
  });
});
