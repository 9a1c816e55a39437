// @vitest-environment happy-dom
/**
 * Experience on the sheet (Fudge §5.2; src/system/experience.ts, src/system/flows/experience.ts),
 * through the playground's port: the GM awards EP, an owner spends them at the text's costs on an
 * attribute (× 3) or a skill (its item), the log says when, what and what it cost, the GM undoes an
 * entry; refused with a sentence and nothing written: a player's award or undo, EP one lacks, a
 * trait not used, an undo a later advance rests on, an award whose EP are spent, bad amounts.
 */
import { describe, expect, it } from "vitest";
import { Store, type PlaygroundState } from "../../playground/store";
import { sampleActors } from "../../playground/packs";
import { playgroundPort } from "../../playground/port";
import { parseDice } from "../../playground/dice";
import { rulesOf } from "../../playground/world";
import * as flows from "../../src/system/flows";
import { attributeTraitId, experienceOf, experienceView, skillTraitId } from "../../src/system/experience";
import { awardUpdate, raiseDialogContext, raiseUpdate, readAward, undoUpdate } from "../../src/system/advancement";
import { standardLadder } from "../../src/rules";
import type { ActorDoc, StoredExperience } from "../../src/system/data";
import { testPage } from "./playground-page";

const GM = { id: "pgGamemaster0001", isGM: true };
const PLAYER = { id: "pgPlayer00000001", isGM: false };
const OWNER = { id: "pgPlayer00000002", isGM: false };

function world(isGM: boolean, answers: Record<string, unknown>[] = []) {
  const actors = sampleActors();
  const leroy = actors.find((a) => a.name.startsWith("Leroy"))!;
  const state: PlaygroundState = {
    version: 1,
    preset: "fudge",
    theme: "light",
    settings: { preset: "fudge" },
    actors,
    messages: [],
    open: [leroy._id],
    targets: [],
    user: { id: isGM ? GM.id : PLAYER.id, name: isGM ? "Gamemaster" : "Player", isGM },
  };
  const store = new Store(() => state, null, 0);
  const queue = [...answers];
  const page = testPage(() => queue.shift() ?? null);
  return { store, id: leroy._id, page, port: playgroundPort(store, parseDice(""), page) };
}

const xpOf = (store: Store, id: string) =>
  (store.actor(id)!.system as { experience?: StoredExperience | null }).experience ?? null;
const epOf = (store: Store, id: string) => experienceOf(store.actor(id) as unknown as ActorDoc, rules()).ep;
const strength = (store: Store, id: string) =>
  (store.actor(id)!.system as { attributes: Record<string, number> }).attributes.strength;
const rules = () => rulesOf({ settings: { preset: "fudge" } } as unknown as PlaygroundState);

function leroyDoc(experience: StoredExperience | null, over: Partial<ActorDoc> = {}): ActorDoc {
  const a = sampleActors().find((x) => x.name.startsWith("Leroy"))! as unknown as ActorDoc;
  return { ...a, ownership: { [OWNER.id]: 3 }, system: { ...(a.system as object), experience } as never, ...over };
}

/** Leroy with `amount` EP awarded in the GM's record (and the actor's own log `spends`). */
const awardedLeroy = (amount: number, spends: StoredExperience | null = null): ActorDoc =>
  leroyDoc(spends, {
    gmRecords: {
      experience: { next: 1, earlier: 0, awards: [{ id: "aw0", at: "t", type: "award", amount, by: GM.id }] },
    },
  });

/** A doc with a write applied as the stores apply it: `system` merged, the GM's records replaced per key. */
function applied(
  doc: ActorDoc,
  w: { system?: unknown; gmRecords?: Record<string, unknown>; actor?: object },
): ActorDoc {
  const u = (w.actor ?? w) as { system?: Record<string, unknown>; gmRecords?: Record<string, unknown> };
  const d = doc.system as unknown as Record<string, unknown>;
  const sys = u.system ?? {};
  return {
    ...doc,
    system: {
      ...d,
      ...sys,
      attributes: { ...(d.attributes as object), ...((sys.attributes as object) ?? {}) },
    } as never,
    gmRecords: { ...(doc.gmRecords ?? {}), ...(u.gmRecords ?? {}) },
  };
}

describe("Experience Points on the sheet (Fudge §5.2)", () => {
  it("the GM awards EP into her own record, not the actor: the log says when, what and who; ids are never reused", () => {
    const doc = leroyDoc(null);
    const u = awardUpdate(doc, rules(), { amount: 3, note: "The dragon" }, GM, "2026-01-01T00:00:00.000Z");
    expect(u).toEqual({
      gmRecords: {
        experience: {
          next: 1,
          earlier: 0,
          awards: [
            { id: "aw0", at: "2026-01-01T00:00:00.000Z", type: "award", amount: 3, by: GM.id, note: "The dragon" },
          ],
        },
      },
    });
    expect(u).not.toHaveProperty("system");
    const after = applied(doc, u);
    expect(experienceOf(after, rules()).ep).toBe(3);
    // A spend log whose `next` lags behind its ids still gets a fresh id.
    const lagging = awardedLeroy(30, {
      next: 0,
      log: [{ id: "ep4", at: "t2", type: "raise", trait: "attr.strength", kind: "attribute", from: 0, to: 1, cost: 6 }],
    });
    expect(experienceOf(lagging, rules()).next).toBe(5);
  });

  it("an award entry an owner writes into his actor's data grants nothing: ignored, with a sentence", () => {
    const forged = leroyDoc({ next: 1, log: [{ id: "ep0", at: "t", type: "award", amount: 50, by: GM.id }] });
    expect(experienceOf(forged, rules()).ep).toBe(0);
    const v = experienceView(forged, rules(), standardLadder(), { gm: false, owner: true })!;
    expect(v).toMatchObject({ ep: 0, ignored: 1 });
    expect(v.rows).toEqual([]);
    expect(() =>
      raiseUpdate(forged, rules(), { trait: attributeTraitId("strength"), used: true }, PLAYER_OWNER(forged), "t2"),
    ).toThrow(/the character has 0/);
    // A stale `ep` count in the actor (the shape before data version 8) grants nothing either.
    const counted = leroyDoc({ ep: 40, next: 0, log: [] } as unknown as StoredExperience);
    expect(experienceOf(counted, rules()).ep).toBe(0);
  });

  it("a spend is priced again from its levels: a forged cheap entry counts at its price; spends past the awards are said", () => {
    const cheap = awardedLeroy(10, {
      next: 1,
      log: [{ id: "ep0", at: "t2", type: "raise", trait: "attr.strength", kind: "skill", from: 1, to: 2, cost: 0 }],
    });
    // Good → Great for an attribute: 4 × 3 = 12 EP (§5.2), more than the 10 awarded.
    const xp = experienceOf(cheap, rules());
    expect(xp).toMatchObject({ ep: 0, over: 2 });
    expect(experienceView(cheap, rules(), standardLadder(), { gm: true, owner: true })!.over).toBe(2);
  });

  it("a player's award is refused; bad amounts are refused with a sentence", () => {
    expect(() => awardUpdate(leroyDoc(null), rules(), { amount: 3 }, PLAYER, "t")).toThrow(/only a GM may award/);
    for (const bad of ["0", "-2", "1.5", "abc", "", "100001"])
      expect(() => readAward([["amount", bad]], [{ ref: "a", name: "A" }])).toThrow(/whole number 1 to 100000/);
    expect(() =>
      readAward(
        [
          ["amount", "2"],
          ["actor.0", false],
        ],
        [{ ref: "a", name: "A" }],
      ),
    ).toThrow(/no actor was chosen/);
  });

  it("raising an attribute costs three times a skill's step (§5.2); a skill's level is written on its item", () => {
    const doc = awardedLeroy(30);
    const w = raiseUpdate(doc, rules(), { trait: attributeTraitId("strength"), used: true }, PLAYER_OWNER(doc), "t2");
    const sys = w.actor.system as { experience: StoredExperience; attributes: Record<string, number> };
    const from = (doc.system as { attributes: Record<string, number> }).attributes.strength;
    expect(sys.attributes).toEqual({ strength: from + 1 });
    const cost = [2, 4, 8, 16, 30][from] * 3;
    expect(experienceOf(applied(doc, w), rules()).ep).toBe(30 - cost);
    expect(sys.experience.log).toHaveLength(1);
    expect(sys.experience.log[0]).toMatchObject({ type: "raise", trait: "attr.strength", from, to: from + 1, cost });
    const skill = doc.items.find((i) => i.type === "skill")!;
    const level = (skill.system as { level: number }).level;
    const s = raiseUpdate(doc, rules(), { trait: skillTraitId(skill._id), used: true }, PLAYER_OWNER(doc), "t2");
    expect(s.item).toEqual({ id: skill._id, update: { system: { level: level + 1 } } });
  });

  it("spending EP one does not have, or on a trait not used, is refused and writes nothing", () => {
    const doc = awardedLeroy(1);
    expect(() =>
      raiseUpdate(doc, rules(), { trait: attributeTraitId("strength"), used: true }, PLAYER_OWNER(doc), "t"),
    ).toThrow(/costs \d+ EP, the character has 1/);
    expect(() =>
      raiseUpdate(doc, rules(), { trait: attributeTraitId("strength"), used: false }, PLAYER_OWNER(doc), "t"),
    ).toThrow(/used significantly/);
    // Another player (not an owner) may not spend Leroy's EP.
    expect(() => raiseUpdate(doc, rules(), { trait: attributeTraitId("strength"), used: true }, PLAYER, "t")).toThrow();
  });

  it("an undo a later advance rests on is refused, naming it; undone in order, EP and levels come back", () => {
    let doc = leroyDoc(null);
    const at = "2026-01-01T00:00:00.000Z";
    const apply = (w: { system?: unknown; gmRecords?: Record<string, unknown>; actor?: object }) => {
      doc = applied(doc, w);
    };
    apply(awardUpdate(doc, rules(), { amount: 40 }, GM, at));
    const s0 = strength({ actor: () => doc } as unknown as Store, "");
    apply(raiseUpdate(doc, rules(), { trait: "attr.strength", used: true }, GM, at));
    apply(raiseUpdate(doc, rules(), { trait: "attr.strength", used: true }, GM, at));
    expect((doc.system as unknown as { attributes: { strength: number } }).attributes.strength).toBe(s0 + 2);
    expect(() => undoUpdate(doc, rules(), "ep0", GM)).toThrow(/later advance .* depends on this one: undo it first/);
    expect(() => undoUpdate(doc, rules(), "ep1", PLAYER)).toThrow(/only a GM may undo/);
    // The award's EP are spent: its undo waits for the advances'.
    expect(() => undoUpdate(doc, rules(), "aw0", GM)).toThrow(/EP awarded, only \d+ unspent/);
    const view = experienceView(doc, rules(), standardLadder(), { gm: true, owner: true })!;
    expect(view.rows.map((r) => [r.id, r.undoable])).toEqual([
      ["ep1", true],
      ["ep0", false],
      ["aw0", false],
    ]);
    apply(undoUpdate(doc, rules(), "ep1", GM));
    apply(undoUpdate(doc, rules(), "ep0", GM));
    const undoAward = undoUpdate(doc, rules(), "aw0", GM);
    expect(undoAward.actor).not.toHaveProperty("system");
    apply(undoAward);
    const xp = (doc.system as { experience: StoredExperience }).experience;
    expect(xp).toEqual({ next: 2, log: [], spentEarlier: 0 });
    expect(doc.gmRecords).toEqual({ experience: { next: 1, earlier: 0, awards: [] } });
    expect(experienceOf(doc, rules()).ep).toBe(0);
    expect((doc.system as unknown as { attributes: { strength: number } }).attributes.strength).toBe(s0);
  });

  it("a stored log that does not check is shown as a sentence on the sheet, not a broken sheet", () => {
    const doc = leroyDoc({ ep: -5, next: 0, log: "junk" } as unknown as StoredExperience);
    const v = experienceView(doc, rules(), standardLadder(), { gm: true, owner: true })!;
    expect(v.error?.key).toMatch(/^FUDGE\.Error\./);
    expect(v.rows).toEqual([]);
  });
});

/** A player who owns Leroy (leroyDoc's ownership). */
const PLAYER_OWNER = (doc: ActorDoc) => {
  void doc;
  return OWNER;
};

describe("the experience flows, run by the playground's port", () => {
  it("award, spend (attribute and skill), then undo from the log: the sheet's clicks", async () => {
    const skillAnswer = (store: Store, id: string) => ({
      trait: skillTraitId(store.actor(id)!.items!.find((i) => i.type === "skill")!._id),
      used: true,
    });
    const { store, id, port, page } = world(true, [{ amount: "20", note: "Session 1" }]);
    await flows.runSheetAction(port, { action: "awardExperience", doc: id, data: {} });
    expect(epOf(store, id)).toBe(20);
    expect(xpOf(store, id)).toBeNull();
    expect(page.said.at(-1)).toMatch(/20 EP awarded to Leroy/);
    const s0 = strength(store, id);
    await spend(port, id, { trait: "attr.strength", used: true });
    expect(strength(store, id)).toBe(s0 + 1);
    const skill = store.actor(id)!.items!.find((i) => i.type === "skill")!;
    const level = (skill.system as { level: number }).level;
    await spend(port, id, skillAnswer(store, id));
    expect((store.actor(id)!.items!.find((i) => i._id === skill._id)!.system as { level: number }).level).toBe(
      level + 1,
    );
    expect(xpOf(store, id)!.log.map((e) => e.type)).toEqual(["raise", "raise"]);
    await flows.runSheetAction(port, { action: "undoAdvance", doc: id, data: { entry: "ep0" } });
    expect(strength(store, id)).toBe(s0);
    expect(xpOf(store, id)!.log.map((e) => e.id)).toEqual(["ep1"]);
  });

  it("spending more EP than one has is refused and nothing changes", async () => {
    const { store, id, port } = world(true, [{ amount: "1" }]);
    await flows.runSheetAction(port, { action: "awardExperience", doc: id, data: {} });
    const before = JSON.stringify(store.actor(id));
    await expect(spend(port, id, { trait: "attr.strength", used: true })).rejects.toThrow(/costs \d+ EP/);
    expect(JSON.stringify(store.actor(id))).toBe(before);
  });

  it("the spend dialog prices each trait and follows the pick", () => {
    const doc = awardedLeroy(3);
    const ctx = raiseDialogContext(doc, rules(), standardLadder(), [["trait", "attr.strength"]]);
    const picked = ctx.traits.find((t) => t.selected)!;
    expect(picked.value).toBe("attr.strength");
    expect(ctx.cost).toBe(picked.cost);
    expect(ctx.short).toBe(picked.cost > 3);
    expect(ctx.traits.some((t) => t.value.startsWith("skill."))).toBe(true);
  });
});

async function spend(port: flows.HostPort, id: string, answer: Record<string, unknown>) {
  await flows.spendExperience(withDialog(port, answer), id);
}

/** The port with its dialog answered by `answer`. */
function withDialog(port: flows.HostPort, answer: Record<string, unknown>): flows.HostPort {
  return { ...port, dialog: async (spec) => spec.read(Object.entries(answer)) };
}

describe("awarding EP to several actors (the Actors directory's flow), by the playground's port", () => {
  it("offers every actor that gains EP, characters checked; each checked one gets the award in the GM's record", async () => {
    const { store, port, page } = world(true, [{ amount: "2", note: "Session 3" }]);
    await flows.awardExperienceToActors(port);
    const spec = page.dialogs.at(-1)!;
    const ctx = spec.context([]) as { actors: { name: string; checked: boolean }[] };
    const docs = store.state.actors as unknown as ActorDoc[];
    const gaining = docs.filter((a) => a.type === "character" || a.type === "npc");
    expect(ctx.actors.map((a) => a.name)).toEqual(gaining.map((a) => a.name).sort((a, b) => a.localeCompare(b)));
    for (const a of ctx.actors)
      expect(a.checked, a.name).toBe(gaining.find((g) => g.name === a.name)!.type === "character");
    for (const a of gaining) {
      const doc = store.actor(a._id) as unknown as ActorDoc;
      expect(experienceOf(doc, rules()).ep, a.name).toBe(a.type === "character" ? 2 : 0);
    }
    expect(page.said.at(-1)).toMatch(/^2 EP awarded to /);
  });

  it("opened for one actor, only that one is checked; a player is refused before the dialog", async () => {
    const { store, id, port } = world(true, [{ amount: "4" }]);
    await flows.awardExperienceToActors(port, id);
    const awarded = (store.state.actors as unknown as ActorDoc[]).filter(
      (a) => experienceOf(store.actor(a._id) as unknown as ActorDoc, rules()).ep > 0,
    );
    expect(awarded.map((a) => a._id)).toEqual([id]);
    const p = world(false, [{ amount: "4" }]);
    await expect(flows.awardExperienceToActors(p.port)).rejects.toThrow(/only a GM may award/);
    expect(p.page.dialogs).toHaveLength(0);
  });
});
