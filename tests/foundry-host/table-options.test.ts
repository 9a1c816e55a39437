// @vitest-environment happy-dom
/**
 * World options of the Fudge track at the table (v13 host, the real sheet): the Constitution roll
 * of natural healing (RULES §2.5), the DC track's healing buttons (RULES §2.4 #4, §2.5) and the
 * Willpower roll against a wound penalty on a trait roll (RULES §1, §2.3). Each fails on the old
 * sheet: no Constitution roll, no DC healing buttons, a single die roll at the full penalty.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { actorOn, table, type Table } from "./table";

type App = { element: HTMLElement };
type Msg = {
  type: string;
  content: string;
  rolls: Roll[];
  flags: Record<string, { dice?: { formula: string; faces: number[] }[]; titleKey?: string }>;
  system: Record<string, unknown>;
};
const openSheet = (t: Table) =>
  t.player.run(() =>
    (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }),
  );
const lastMessage = (t: Table) => t.gm.game.messages.contents.at(-1) as unknown as Msg;
const state = (t: Table) =>
  (actorOn(t.gm, t.hero).system as unknown as { woundTrack: { state: unknown } }).woundTrack.state;
const levelKey = (t: Table) =>
  (actorOn(t.gm, t.hero).system as unknown as { derived: { status: { levelKey: string | null } } }).derived.status
    .levelKey;

async function setRules(t: Table, group: "fudge" | "fudgeTrack", patch: Record<string, unknown>) {
  await t.gm.run(() =>
    game.settings!.set("fudge-wounds" as never, group as never, { ...worldRules()[group], ...patch } as never),
  );
  await t.world.settle();
}
async function gmToggle(t: Table, ref: string) {
  await t.gm.run(async () => {
    const a = actorOn(t.gm, t.hero);
    await updateActor(a, actions.toggleWoundBox(plainActor(a), ref, worldRules(), userRef()));
  });
  await t.world.settle();
}
async function heal(t: Table, type: string, faces: number[], inputs: Record<string, string> = {}) {
  const app = await openSheet(t);
  t.world.dice.queue(...faces);
  t.world.answerDialogs((req) => {
    for (const [k, v] of Object.entries(inputs))
      (req.form.querySelector(`[name="${k}"]`) as HTMLInputElement).value = v;
    return "ok";
  });
  const button = app.element.querySelector(`[data-action="heal"][data-heal="${type}"]`);
  expect(button, type).not.toBeNull();
  t.player.click(button);
  await t.world.settle();
  expect(t.world.errors).toEqual([]);
}

describe("the Fudge track's world options at the table (v13 host)", () => {
  it('natural healing with "Constitution roll for natural healing" rolls 4dF for Damage Capacity and heals only when it makes the level (Good for Very Hurt)', async () => {
    const t = await table();
    await setRules(t, "fudgeTrack", { healingConstitutionRoll: true });
    await gmToggle(t, "veryHurt:0");
    expect(levelKey(t)).toBe("veryHurt");
    // Leroy's DC Fair (0): − 0 0 0 → Mediocre, short of Good: the week heals nothing.
    await heal(t, "natural", [-1, 0, 0, 0]);
    expect(levelKey(t)).toBe("veryHurt");
    let m = lastMessage(t);
    expect(m.rolls.map((r) => r.formula)).toEqual(["4dF"]);
    expect(m.flags["fudge-wounds"]).toMatchObject({
      titleKey: "FUDGE.Heal.ConstitutionRoll",
      dice: [{ formula: "4dF", faces: [-1, 0, 0, 0] }],
    });
    expect(m.content).toContain("Constitution (Damage Capacity Fair (0)) + dice − 0 0 0 = Mediocre (−1)");
    // + 0 0 0 → Good: Very Hurt heals to Hurt.
    await heal(t, "natural", [1, 0, 0, 0]);
    expect(levelKey(t)).toBe("hurt");
    m = lastMessage(t);
    expect(m.flags["fudge-wounds"].dice).toEqual([{ formula: "4dF", faces: [1, 0, 0, 0] }]);
    expect(t.world.rolls.map((r) => r.userId)).toEqual([t.ids.player, t.ids.player]);
  });

  it("the option off: natural healing rolls no die and heals a level a week", async () => {
    const t = await table();
    await gmToggle(t, "veryHurt:0");
    const before = t.gm.game.messages.contents.length;
    await heal(t, "natural", []);
    expect(levelKey(t)).toBe("hurt");
    // The heal's card, with no roll on it.
    expect(t.gm.game.messages.contents.length).toBe(before + 1);
    expect(lastMessage(t).rolls).toEqual([]);
    expect(t.world.rolls).toEqual([]);
  });

  it("Damage Capacity as the wound track: the sheet's healing buttons heal the DC, never above its start", async () => {
    const t = await table();
    await setRules(t, "fudge", { dcVariant: "track" });
    await gmToggle(t, "dc:-2"); // Fair DC → Poor (Very Hurt)
    expect(state(t)).toMatchObject({ dc: -2 });
    const app = await openSheet(t);
    expect([...app.element.querySelectorAll<HTMLElement>('[data-action="heal"]')].map((b) => b.dataset.heal)).toEqual([
      "scratches",
      "roll",
      "natural",
    ]);
    // Healing roll: Leroy's own Medicine Fair + 0 0 0 + → Good, one level.
    const [medicine] = await t.gm.run(() =>
      actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [
        { name: "Medicine", type: "skill", system: { level: 0 } } as never,
      ]),
    );
    await t.world.settle();
    await heal(t, "roll", [0, 0, 0, 1], { healer: `${t.hero}:${medicine.id}` });
    expect(state(t)).toMatchObject({ dc: -1 });
    await heal(t, "natural", [], { weeks: "4" });
    expect(state(t)).toMatchObject({ dc: 0 });
  });

  it('a wounded character\'s trait roll with "Willpower against penalties" rolls Willpower first, a second Roll, and the card shows the eased penalty', async () => {
    const t = await table();
    await setRules(t, "fudgeTrack", { willpowerVsPenalty: true, willpowerDifficulty: 0 });
    await gmToggle(t, "veryHurt:0"); // −2
    const app = await openSheet(t);
    t.world.dice.queue(1, 0, 0, 0, 0, 0, 0, 1);
    t.world.answerDialogs("ok");
    t.player.click(app.element.querySelector('[data-action="rollTrait"][data-trait="attributes.strength"]'));
    await t.world.settle();
    expect(t.world.errors).toEqual([]);
    const m = lastMessage(t);
    expect(m.type).toBe("rollCard");
    // Willpower Fair + (+ 0 0 0) = Good, meets Fair: the −2 is −1; Strength Fair + 1 − 1 = Fair.
    expect(m.system).toMatchObject({ willpowerDice: [1, 0, 0, 0], dice: [0, 0, 0, 1], penalty: -1, result: 0 });
    expect(m.rolls.map((r) => r.formula)).toEqual(["4dF", "4dF"]);
    expect(t.world.rolls.map((r) => r.faces)).toEqual([
      [1, 0, 0, 0],
      [0, 0, 0, 1],
    ]);
    const card = [...t.player.chatLog.values()].at(-1)!.textContent ?? "";
    expect(card).toContain("Willpower Fair + dice + 0 0 0 = Good against Fair: wound penalty −2 → −1");
  });
});
