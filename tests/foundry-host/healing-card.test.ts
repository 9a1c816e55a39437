// @vitest-environment happy-dom
/**
 * Healing and recovery post a chat card — who healed whom, the roll with its dice, the result — and
 * the healing roll's healer is picked, an actor and one of his skills, never a bare number (issue 30
 * item 2; Fudge §4.8: "the healer's skill … Good heals one level, Great two, Superb three").
 */
import { describe, expect, it } from "vitest";
import { applyWound } from "../../src/rules";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { trackFor } from "../../src/system/combatant";
import { actorOn, table, type Table } from "./table";

type Sheet = { render(o: object): Promise<{ element: HTMLElement }> };
const MARIA = "healMaria0000001";
const FIRST_AID = "healFirstAid0001";

async function healTable(): Promise<Table> {
  const t = await table({
    seed: (world, ids) => {
      world.server.seed("Actor", {
        _id: MARIA,
        name: "Maria",
        type: "character",
        ownership: { default: 0, [ids.player]: 3 },
        system: {},
        items: [{ _id: FIRST_AID, name: "First Aid", type: "skill", system: { level: 2 } }],
        effects: [],
      });
    },
  });
  await t.gm.run(async () => {
    const a = actorOn(t.gm, t.hero);
    let track = trackFor(plainActor(a), worldRules());
    track = applyWound(track, { level: "hurt" }).track;
    await updateActor(a, { system: { woundTrack: { "==state": track.state } } });
  });
  await t.world.settle();
  return t;
}

async function clickHeal(t: Table, heal: string) {
  const app = await t.player.run(() => (actorOn(t.player, t.hero).sheet as unknown as Sheet).render({ force: true }));
  t.player.click(app.element.querySelector(`[data-action="heal"][data-heal="${heal}"]`));
  await t.world.settle();
}

const levelKey = (t: Table) =>
  (actorOn(t.gm, t.hero).system as unknown as { derived: { status: { levelKey: string | null } } }).derived.status
    .levelKey;
const lastCard = (t: Table) => {
  const m = t.player.game.messages.contents.at(-1)!;
  return t.player.chatLog.get(m.id!)!.textContent!.replace(/\s+/g, " ");
};

describe("the healing roll's healer is picked", () => {
  it("Maria heals Leroy with her First Aid (Great): the card says who, with what, the dice and the result", async () => {
    const t = await healTable();
    t.world.dice.queue(1, 0, 0, 0);
    t.world.answerDialogs((req) => {
      const select = req.form.querySelector<HTMLSelectElement>('[name="healer"]')!;
      // Nothing is picked beforehand; each of the player's actors' skills, by healer.
      expect(select.value).toBe("");
      expect([...select.querySelectorAll("optgroup")].map((g) => g.label)).toContain("Maria");
      expect(req.form.querySelector('[name="skill"]')).toBeNull();
      select.value = `${MARIA}:${FIRST_AID}`;
      return "ok";
    });
    await clickHeal(t, "roll");
    expect(t.world.errors).toEqual([]);
    expect(levelKey(t)).toBeNull();
    const text = lastCard(t);
    expect(text).toContain("Maria heals Leroy with First Aid (Great (+2))");
    expect(text).toContain("Roll + 0 0 0: Superb (+3)");
    expect(text).toMatch(/Result: Leroy: .*Hurt/);
    // The roll rides on the message with its dice.
    const m = t.gm.game.messages.contents.at(-1)! as unknown as { rolls: { formula: string }[] };
    expect(m.rolls.map((r) => r.formula)).toEqual(["4dF"]);
  });

  it("with no healer picked nothing is rolled, and the player reads why", async () => {
    const t = await healTable();
    const messages = t.gm.game.messages.contents.length;
    t.world.answerDialogs("ok");
    await clickHeal(t, "roll");
    expect(t.world.rolls).toEqual([]);
    expect(t.gm.game.messages.contents.length).toBe(messages);
    expect(levelKey(t)).toBe("hurt");
    expect(t.player.notifications.map((n) => n.message).join(" ")).toContain("Choose who heals, with which skill.");
  });

  it("a heal without a roll posts its card too (natural healing: the weeks, the result)", async () => {
    const t = await healTable();
    t.world.answerDialogs("ok");
    await clickHeal(t, "natural");
    expect(levelKey(t)).toBeNull();
    expect(lastCard(t)).toContain("Natural healing");
    expect(lastCard(t)).toMatch(/Result: Leroy: /);
  });
});
