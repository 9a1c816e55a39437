// @vitest-environment happy-dom
/**
 * Volt: Recovery at the table (v13 host, the real src/foundry modules): "Injury recovery roll
 * (monthly by default; weekly or nightly per setting) uses the highest Injury as the value … A
 * successful medical Background roll lowers the value used for that one recovery roll by its
 * result." The medical Background is rolled (a second Foundry Roll, before the recovery roll);
 * no Injury → refused before any die; the world's interval is shown where the roll is made.
 */
import { describe, expect, it } from "vitest";
import * as actions from "../../src/system/actions";
import { plainActor, updateActor, worldRules } from "../../src/foundry/bridge";
import { userRef } from "../../src/foundry/foundry-util";
import { actorOn, table, type Table } from "./table";

type App = { element: HTMLElement };
type Msg = {
  content: string;
  rolls: Roll[];
  flags: Record<string, { dice?: { formula: string; faces: number[] }[]; titleKey?: string }>;
};
const openSheet = (t: Table) =>
  t.player.run(() =>
    (actorOn(t.player, t.hero).sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }),
  );
const lastMessage = (t: Table) => t.gm.game.messages.contents.at(-1) as unknown as Msg;
const marks = (t: Table) =>
  (actorOn(t.gm, t.hero).system as unknown as { woundTrack: { state: { marks: Record<string, string> } } }).woundTrack
    .state?.marks ?? {};

async function voltWorld(recovery: string): Promise<Table> {
  const t = await table();
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "volt" as never));
  await t.gm.run(() =>
    game.settings!.set("fudge-wounds" as never, "volt" as never, { ...worldRules().volt, recovery } as never),
  );
  await t.gm.run(() =>
    updateActor(actorOn(t.gm, t.hero), actions.resetTrack(plainActor(actorOn(t.gm, t.hero)), userRef())),
  );
  await t.world.settle();
  return t;
}
/** An Injury on a row, as the GM marks it on the sheet (empty → Stun → Injury). */
async function injure(t: Table, row: number) {
  for (let i = 0; i < 2; i++)
    await t.gm.run(async () => {
      const a = actorOn(t.gm, t.hero);
      await updateActor(a, actions.toggleWoundBox(plainActor(a), `row-${row}`, worldRules(), userRef()));
    });
  await t.world.settle();
}
async function recoverInjury(t: Table, faces: number[], medicalValue: string, dialogs: string[] = []) {
  const app = await openSheet(t);
  t.world.dice.queue(...faces);
  t.world.answerDialogs((req) => {
    dialogs.push(req.form.textContent ?? "");
    (req.form.querySelector('[name="medicalValue"]') as HTMLInputElement).value = medicalValue;
    return "ok";
  });
  t.player.click(app.element.querySelector('[data-action="heal"][data-heal="injuryRecovery"]'));
  await t.world.settle();
}

describe("Volt injury recovery at the table", () => {
  it('"A successful medical Background roll lowers the value used for that one recovery roll by its result": two Rolls, medical first', async () => {
    const t = await voltWorld("weekly");
    await injure(t, 8);
    // Medical Background 10: 4 and 15 → success 4. Recovery against 8 − 4 = 4: 7 and 20 fail → the Injury drops five rows.
    const dialogs: string[] = [];
    await recoverInjury(t, [4, 15, 7, 20], "10", dialogs);
    expect(t.world.errors).toEqual([]);
    // The dialog names the world's interval and asks for the medical Background's value.
    expect(dialogs).toHaveLength(1);
    expect(dialogs[0]).toContain("Injury recovery roll (weekly)");
    expect(dialogs[0]).toContain("once a week");
    expect(dialogs[0]).toContain("medical Background");
    expect(marks(t)).toEqual({ "3": "injury" });
    const m = lastMessage(t);
    expect(m.rolls.map((r) => r.formula)).toEqual(["2d20", "2d20"]);
    expect(m.flags["fudge-wounds"].dice).toEqual([
      { formula: "2d20", faces: [4, 15] },
      { formula: "2d20", faces: [7, 20] },
    ]);
    expect(t.world.rolls.map((r) => r.userId)).toEqual([t.ids.player, t.ids.player]);
    expect(m.content).toContain("Injury recovery roll (weekly)");
    expect(m.content).toContain("Medical Background roll against 10");
    expect(m.content).toContain("Roll 4 and 15 against 10: success 4");
    expect(m.content).toContain("lowered by 4");
    expect(m.content).toContain("Injury 8 − 4 → recovery roll against 4");
    expect(m.content).toContain("Roll 7 and 20 against 4: failure (20)");
  });

  it("a failed medical Background roll lowers nothing: the same recovery dice against the full Injury (success 7 above Strength 6: no healing)", async () => {
    const t = await voltWorld("monthly");
    await injure(t, 8);
    await recoverInjury(t, [10, 12, 7, 20], "3");
    expect(t.world.errors).toEqual([]);
    expect(marks(t)).toEqual({ "8": "injury" });
    const m = lastMessage(t);
    expect(m.rolls.map((r) => r.formula)).toEqual(["2d20", "2d20"]);
    expect(m.content).toContain("Medical care fails");
    expect(m.content).toContain("Roll 7 and 20 against 8: success 7");
    expect(m.flags["fudge-wounds"].titleKey).toBe("FUDGE.Heal.InjuryRecoveryEvery.monthly");
  });

  it("no medical care (0): one roll, against the highest Injury", async () => {
    const t = await voltWorld("monthly");
    await injure(t, 8);
    await recoverInjury(t, [7, 20], "0");
    expect(t.world.errors).toEqual([]);
    expect(lastMessage(t).rolls.map((r) => r.formula)).toEqual(["2d20"]);
    expect(lastMessage(t).content).not.toContain("Medical");
  });

  it('"uses the highest Injury as the value": with no Injury it is refused before any die is rolled, no card posted', async () => {
    const t = await voltWorld("monthly");
    const rolled = t.world.rolls.length;
    const posted = t.gm.game.messages.contents.length;
    const dialogs: string[] = [];
    // The precondition (canHeal) disables the button and says why, before any click.
    const button = (await openSheet(t)).element.querySelector<HTMLButtonElement>(
      '[data-action="heal"][data-heal="injuryRecovery"]',
    )!;
    expect(button.disabled).toBe(true);
    expect(button.closest("[data-tooltip]")?.getAttribute("data-tooltip")).toContain("no Injury to recover from");
    await recoverInjury(t, [4, 15, 7, 20], "10", dialogs);
    expect(dialogs).toEqual([]);
    expect(t.world.rolls.length).toBe(rolled);
    expect(t.gm.game.messages.contents.length).toBe(posted);
  });

  it("\"monthly by default; weekly or nightly per setting\": the sheet's button names the world's interval, its tooltip says the system does not track time", async () => {
    for (const [recovery, label] of [
      ["monthly", "Injury recovery roll (monthly)"],
      ["nightly", "Injury recovery roll (nightly)"],
    ]) {
      const t = await voltWorld(recovery);
      await injure(t, 8);
      const button = (await openSheet(t)).element.querySelector('[data-action="heal"][data-heal="injuryRecovery"]')!;
      expect(button.textContent).toBe(label);
      expect(button.getAttribute("data-tooltip")).toContain("does not track time");
    }
  });
});
