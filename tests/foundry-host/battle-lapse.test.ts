// @vitest-environment happy-dom
/**
 * Fudge §4.52 (4) "This can be temporary - until the battle is over": with the world setting, a
 * wound applied from a card is recorded at the Willpower-adjusted level, and when the GM ends the
 * combat his client moves it to the level it would have had (src/foundry/combat.ts).
 */
import { describe, expect, it } from "vitest";
import { forCore } from "../../src/system/updates";
import { updateOperators } from "../../src/foundry/v14";
import { applyWound, newTrack, parseTrack, trackStateKey, type Track } from "../../src/rules";
import { boxTrackConfig } from "../../src/rules/fudge";
import { woundLogOf } from "../../src/system/integrity";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { actorOn, table, type Table, armHero, openSheetOn } from "./table";

type Rec = Record<string, unknown>;
const stateOf = (t: Table, id: string) =>
  (actorOn(t.gm, id).toObject().system as { woundTrack: { state: unknown } }).woundTrack.state;

/** Leroy (player) hits Theodora (NPC) ++++ against −−−−, her Willpower roll `dc`; both in a combat. */
async function hit(willpowerAdjustment: string, dc: number[]) {
  const t = await table();
  await t.gm.run(() =>
    game.settings!.set(
      "fudge-wounds" as never,
      "fudge" as never,
      { ...worldRules().fudge, dcVariant: "willpower", willpowerAdjustment } as never,
    ),
  );
  const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
  const live = () => t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation;
  await t.gm.run(() =>
    live().createEmbeddedDocuments("Combatant", [
      { actorId: t.hero, tokenId: t.heroToken } as never,
      { actorId: t.foe, tokenId: t.foeToken } as never,
    ]),
  );
  await t.gm.run(() => live().startCombat());
  const weaponId = await armHero(t);
  const app = await openSheetOn(t.player, t.hero);
  t.world.dice.queue(1, 1, 1, 1, -1, -1, -1, -1, ...dc);
  t.world.answerDialogs("ok");
  t.player.click(app.element.querySelector(`[data-action="attack"][data-item-id="${weaponId}"]`));
  await t.world.settle();
  const msg = t.gm.game.messages.contents.at(-1)!;
  t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="defend"]'));
  await t.world.settle();
  const before = stateOf(t, t.foe);
  t.gm.click(t.gm.chatLog.get(msg.id)!.querySelector('[data-action="apply"]'));
  await t.world.settle();
  const target = (
    msg.system as unknown as {
      targets: { resolution: { woundKey: string; followUps: { type: string; params: Rec }[] } }[];
    }
  ).targets[0];
  return { t, live, before, msg, resolution: target.resolution };
}

/** The battle's-end notes (src/foundry/combat.ts), as the player's client has them. */
const battleEndNotes = (t: Table) =>
  t.player.game.messages.contents.filter(
    (m) => (m.flags as Rec)?.["fudge-wounds"] && ((m.flags as Rec)["fudge-wounds"] as Rec).battleEnd,
  );
/** A note's lines as the player's chat log draws them. */
const lineTexts = (t: Table, id: string) =>
  [...t.player.chatLog.get(id)!.querySelectorAll("[data-lapse-result]")].map((li) =>
    li.textContent!.replace(/\s+/g, " ").trim(),
  );

/** The NPC's standard track with this stored state (null: not yet written = unhurt). */
const track = (_t: Table, state: unknown): Track =>
  parseTrack({ config: newTrack(boxTrackConfig("standard")).config, state: state ?? undefined });

describe("Willpower adjustment until the battle is over (Fudge §4.52 (4)) on the v13 host", () => {
  it('"temporary - until the battle is over": recorded adjusted, and when the GM ends the combat the wound goes to its unadjusted level', async () => {
    const { t, live, before, resolution } = await hit("untilBattleEnds", [1, 1, 0, 0]);
    const lapse = resolution.followUps.find((f) => f.type === "battleLapse");
    expect(lapse?.params.from).toBe(resolution.woundKey);
    const to = String(lapse!.params.to);
    expect(to).not.toBe(resolution.woundKey);
    const log = woundLogOf(plainActor(actorOn(t.gm, t.foe)));
    expect(log.map((r) => r.lapses)).toEqual([[{ from: resolution.woundKey, to }]]);
    const during = stateOf(t, t.foe);
    expect(trackStateKey(track(t, during))).toBe(
      trackStateKey(applyWound(track(t, before), { level: resolution.woundKey }).track),
    );
    // The player's client ends nothing; the GM's "End Combat" deletes the combat.
    await t.gm.run(() => live().endCombat());
    await t.world.settle();
    const after = stateOf(t, t.foe);
    expect(trackStateKey(track(t, after))).toBe(trackStateKey(applyWound(track(t, before), { level: to }).track));
    expect(woundLogOf(plainActor(actorOn(t.gm, t.foe)))[0].lapsed).toBe(true);
    // The player's client sees the same track.
    expect((actorOn(t.player, t.foe).system as unknown as { woundTrack: { state: unknown } }).woundTrack.state).toEqual(
      after,
    );
    // One chat note for the combat's end, written by the GM, in the game's words.
    const notes = battleEndNotes(t);
    expect(notes).toHaveLength(1);
    expect(notes[0].author?.id).toBe(t.gm.user.id);
    // The header names who speaks (the combat), not the card's own title again.
    expect(notes[0].speaker?.alias).toBe("Combat");
    const names = { hurt: "Hurt", veryHurt: "Very Hurt", incapacitated: "Incapacitated", scratch: "Scratch" } as Record<
      string,
      string
    >;
    expect(lineTexts(t, notes[0].id)).toEqual([
      `Theodora: the Willpower adjustment lapses — ${names[resolution.woundKey]} becomes ${names[to]} (Fudge §4.52).`,
    ]);
    expect(t.world.errors).toEqual([]);
    expect(t.world.hooks.errors).toEqual([]);
  });

  it("a record the player wrote claiming more than one level is left as it is, and the note says so (Fudge §4.52: one level or one point)", async () => {
    const t = await table();
    const unhurt = track(t, null);
    const hurt = applyWound(unhurt, { level: "hurt" }).track;
    const record = {
      messageId: "forgedLapse00001",
      by: t.player.user.id,
      at: 1,
      before: unhurt.state,
      after: hurt.state,
      fudgePointSpent: false,
      undone: false,
      undoneBy: "",
      lapses: [{ from: "hurt", to: "nearDeath" }],
    };
    // The player owns Leroy: he may write Leroy's wound log himself.
    await t.player.run(() =>
      actorOn(t.player, t.hero).update(
        forCore(
          {
            system: { woundTrack: { "==state": hurt.state } },
            flags: { "fudge-wounds": { woundLog: { [record.messageId]: record } } },
          },
          updateOperators(),
        ) as never,
      ),
    );
    const combat = (await t.gm.run(() => Combat.create({ scene: t.scene } as never))) as unknown as { id: string };
    const live = () => t.gm.game.combats.get(combat.id) as unknown as Combat.Implementation;
    await t.gm.run(() =>
      live().createEmbeddedDocuments("Combatant", [{ actorId: t.hero, tokenId: t.heroToken } as never]),
    );
    await t.gm.run(() => live().endCombat());
    await t.world.settle();
    expect(trackStateKey(track(t, stateOf(t, t.hero)))).toBe(trackStateKey(hurt));
    expect(woundLogOf(plainActor(actorOn(t.gm, t.hero)))[0].lapsed).toBe(true);
    const notes = battleEndNotes(t);
    expect(notes).toHaveLength(1);
    expect(lineTexts(t, notes[0].id)).toEqual([
      "Leroy: a recorded lapse is left as it is. A wound recorded as Hurt cannot lapse to Near Death: the Willpower adjustment is one level or one damage point (Fudge §4.52).",
    ]);
    expect(t.world.errors).toEqual([]);
  });

  it('"or actually have a permanent affect" (the default): ending the combat leaves the wound as it is', async () => {
    const { t, live, resolution } = await hit("permanent", [1, 1, 0, 0]);
    expect(resolution.followUps.some((f) => f.type === "battleLapse")).toBe(false);
    const during = stateOf(t, t.foe);
    await t.gm.run(() => live().endCombat());
    await t.world.settle();
    // Scratches clear at combat end (a separate setting); the Hurt-or-worse wound stays.
    const after = track(t, stateOf(t, t.foe)).state as { marks: Record<string, unknown[]> };
    const was = during as { marks: Record<string, unknown[]> };
    for (const k of Object.keys(was.marks)) if (k !== "scratch") expect(after.marks[k]).toEqual(was.marks[k]);
    expect(battleEndNotes(t)).toEqual([]);
    expect(t.world.errors).toEqual([]);
  });
});
