// @vitest-environment happy-dom
/**
 * Issue #25 (4): "applied once" survives the wound log's eviction, in every preset. The target's
 * log keeps the last 40 records; once a card's record (and, where the preset rolls a defence, its
 * defence record) has been pushed out by 40 newer cards, that card is neither applied nor
 * defended a second time — whatever its author writes on it — while a newer card still applies.
 */
import { describe, expect, it } from "vitest";
import { table, actorOn, type Table } from "./table";
import type { Client } from "./world";
import { WOUND_LOG_LIMIT, defenceLogOf, woundLogOf } from "../../src/system/actor-logs";
import { plainActor } from "../../src/foundry/bridge";
import type { PresetId } from "../../src/rules";

/** src/foundry/chat.ts after the host's globals (as in Foundry). */
let chat: typeof import("../../src/foundry/chat");

type CardTarget = { defend: string; resolution: { wound: unknown } | null };
type Card = { targets: CardTarget[] };

const DEFENDS: Partial<Record<PresetId, boolean>> = { fudge: true, fate: true };

/** Leroy (the player's) against Theodora (the GM's), in `preset`; miniatures in Miniatures. */
async function presetTable(preset: PresetId): Promise<Table & { weapon: string }> {
  const t = await table({
    seed: (world) => {
      if (preset !== "miniatures") return;
      for (const a of world.server.db.Actor.values()) {
        a.type = "miniature";
        a.system = {};
      }
    },
  });
  chat ??= await import("../../src/foundry/chat");
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, preset as never));
  const [weapon] = await t.gm.run(() =>
    actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [
      {
        name: "Broadsword",
        type: "weapon",
        system: { equipped: true, size: "large", sharp: true, volt: { attack: 18, pierce: 5, damage: 15 } },
      } as never,
    ]),
  );
  await t.world.settle();
  return { ...t, weapon: String(weapon.id) };
}

const cardOf = (c: Client, id: string): Card =>
  (c.game.messages.get(id)!.system as unknown as { toObject(): Card }).toObject();

/** The player attacks Theodora until a card wounds her (the GM rolls her defence at its worst); returns the card's id. */
async function woundingCard(t: Table & { weapon: string }, preset: PresetId): Promise<string> {
  t.player.target(t.player.game.scenes.get(t.scene)!.tokens.get(t.foeToken)!);
  for (let tries = 0; tries < 40; tries++) {
    const before = new Set(t.gm.game.messages.contents.map((m) => m.id));
    // FATE: the mildest wound the dice give (attack faces from all − up), so that a random blow
    // never takes Theodora out (a taken-out defender can neither defend nor be wounded again).
    if (preset === "fate")
      t.world.dice.queue(...[0, 1, 2, 3].map((i) => (tries >= 8 ? 1 : i < tries - 4 ? 1 : i < tries ? 0 : -1)));
    await t.player.run(() => chat.startAttackFlow(actorOn(t.player, t.hero), t.weapon, { fastForward: true }));
    await t.world.settle();
    const id = t.gm.game.messages.contents.find((m) => !before.has(m.id) && m.type === "attackCard")!.id!;
    if (DEFENDS[preset] && cardOf(t.gm, id).targets[0].defend === "pending") {
      t.world.dice.queue(-1, -1, -1, -1);
      await click(t, t.gm, id, "defend");
    }
    const res = cardOf(t.gm, id).targets[0].resolution;
    if (res && res.wound !== null && res.wound !== undefined) return id;
  }
  throw new Error(
    `no wounding card in ${preset}: ${[...t.gm.notifications, ...t.player.notifications].map((n) => n.message).join(" | ")}`,
  );
}

async function click(t: Table, c: Client, id: string, action: "defend" | "apply") {
  await c.run(() => chat.clickCardAction(c.game.messages.get(id) as never, action, `Actor.${t.foe}`, false, false));
  await t.world.settle();
}

/** 39 more cards' records on Theodora, each newer than every record she has (the GM writes them, as his Applies would). */
async function fillLogs(t: Table, preset: PresetId) {
  const foe = actorOn(t.gm, t.foe);
  const doc = t.gm.run(() => plainActor(foe));
  const newest = Math.max(0, ...woundLogOf(doc).map((r) => r.at));
  const posted = Math.max(0, ...woundLogOf(doc).map((r) => r.posted ?? r.at));
  const woundLog: Record<string, unknown> = {};
  const defenceLog: Record<string, unknown> = {};
  for (let i = 1; i < WOUND_LOG_LIMIT; i++) {
    const messageId = `filler${String(i).padStart(10, "0")}`;
    const at = newest + i;
    woundLog[messageId] = {
      messageId,
      by: t.ids.gm,
      at,
      posted: posted + i,
      before: null,
      after: null,
      fudgePointSpent: false,
      undone: true,
      undoneBy: t.ids.gm,
    };
    defenceLog[messageId] = { messageId, by: t.ids.gm, at, posted: posted + i, faces: [0, 0, 0, 0] };
  }
  const logs = DEFENDS[preset] ? { woundLog, defenceLog } : { woundLog };
  await t.gm.run(() => foe.update({ flags: { "fudge-wounds": logs } } as never));
  await t.world.settle();
}

const trackOnServer = (t: Table) =>
  JSON.stringify((t.world.server.db.Actor.get(t.foe)!.system as { woundTrack: { state: unknown } }).woundTrack.state);

describe.each(["fudge", "fate", "miniatures", "volt"] as PresetId[])(
  "%s: a card whose record 40 newer cards pushed out of the log",
  (preset) => {
    it("is applied once: its author's forged reset, a second Defend and a second Apply change nothing", async () => {
      const t = await presetTable(preset);
      const first = await woundingCard(t, preset);
      await click(t, t.player, first, "apply"); // relayed: the GM's client writes the wound and its record
      const foeDoc = () => t.gm.run(() => plainActor(actorOn(t.gm, t.foe)));
      expect(woundLogOf(foeDoc()).map((r) => r.messageId)).toContain(first);
      await fillLogs(t, preset);
      // One more real card: the log holds 40, so the first card's record (the oldest) goes.
      const next = await woundingCard(t, preset);
      await click(t, t.player, next, "apply");
      expect(woundLogOf(foeDoc()).map((r) => r.messageId)).not.toContain(first);
      expect(woundLogOf(foeDoc())).toHaveLength(WOUND_LOG_LIMIT);
      if (DEFENDS[preset]) expect(defenceLogOf(foeDoc()).map((r) => r.messageId)).not.toContain(first);
      const track = trackOnServer(t);
      const notes = t.player.notifications.length;
      // The author rewrites his own card as if nothing had been applied, and waiting for a defence.
      const forged = cardOf(t.player, first);
      for (const target of forged.targets as (CardTarget & { applied: unknown[] })[]) {
        target.applied = [];
        if (DEFENDS[preset]) target.defend = "pending";
      }
      await t.player.run(() => t.player.game.messages.get(first)!.update({ system: forged } as never));
      await t.world.settle();
      if (DEFENDS[preset]) {
        const gmNotes = t.gm.notifications.length;
        t.world.dice.queue(-1, -1, -1, -1);
        await click(t, t.gm, first, "defend");
        expect(t.gm.notifications.slice(gmNotes).map((n) => n.message)).toEqual([
          expect.stringContaining("older than what Theodora's record keeps"),
        ]);
      }
      await click(t, t.player, first, "apply");
      expect(trackOnServer(t)).toBe(track);
      expect(
        t.player.notifications
          .slice(notes)
          .map((n) => n.message)
          .join(" "),
      ).toMatch(DEFENDS[preset] ? /Theodora/ : /older than what Theodora's record keeps/);
      expect(t.world.errors).toEqual([]);
    });
  },
);

describe("a newer card is not caught by the horizon", () => {
  it("Volt: a card posted after the evicted one, never applied, still applies", async () => {
    const t = await presetTable("volt");
    const first = await woundingCard(t, "volt");
    const second = await woundingCard(t, "volt");
    await click(t, t.player, first, "apply");
    await fillLogs(t, "volt");
    const third = await woundingCard(t, "volt");
    await click(t, t.player, third, "apply");
    const log = () => woundLogOf(t.gm.run(() => plainActor(actorOn(t.gm, t.foe)))).map((r) => r.messageId);
    expect(log()).not.toContain(first);
    await click(t, t.player, second, "apply");
    expect(log()).toContain(second);
  });
});
