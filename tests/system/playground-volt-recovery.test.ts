// @vitest-environment happy-dom
/**
 * Volt: Recovery in the browser playground's heal path (the heal flow through the playground's
 * port, as the page runs it): "Injury recovery roll (monthly by default; weekly or nightly per setting) uses the
 * highest Injury as the value … A successful medical Background roll lowers the value used for
 * that one recovery roll by its result." The medical Background is rolled before the recovery
 * roll; no Injury is refused before any die; the world's interval is named.
 */
import { describe, expect, it } from "vitest";
import type { Store } from "../../playground/store";
import { parseDice } from "../../playground/dice";
import { clickSheet, leroyWorld, testPage } from "./playground-page";
import { i18n } from "../../playground/i18n";
import { TEMPLATES } from "../../src/system/handlebars";
import { renderTemplate } from "../../playground/templates";

function world(recovery: string, marks: Record<string, string>): { store: Store; id: string } {
  const { store, id } = leroyWorld(true, "volt", { volt: { recovery } });
  const sys = store.actor(id)!.system as { woundTrack: { state: unknown }; volt: { strength: number } };
  sys.woundTrack.state = { marks };
  sys.volt.strength = 6;
  return { store, id };
}
/** The Injury recovery button with these dialog numbers; resolves to the roll note's lines (and the toast). */
async function heal(store: Store, id: string, faces: string, inputs: Record<string, number>): Promise<string> {
  const page = await clickSheet(
    store,
    id,
    "heal",
    { heal: "injuryRecovery" },
    { dice: faces, page: testPage(() => inputs) },
  );
  const note = store.state.messages.at(-1);
  const body = note?.type === "rollNote" ? (note.system as { titleKey: string; lines: string[] }) : null;
  return [i18n.localize(body?.titleKey ?? ""), ...(body?.lines ?? []), ...page.said].join(" ");
}
const marksOf = (store: Store, id: string) =>
  (store.actor(id)!.system as { woundTrack: { state: { marks: Record<string, string> } } }).woundTrack.state.marks;

describe("Volt injury recovery in the playground", () => {
  it("the medical Background (10) is rolled first: 4 and 15 → success 4 lowers the recovery roll to 8 − 4 = 4; 7 and 20 fail → the Injury drops five rows", async () => {
    const { store, id } = world("weekly", { "8": "injury" });
    const said = await heal(store, id, "4/20,15/20,7/20,20/20", { medicalValue: 10 });
    expect(marksOf(store, id)).toEqual({ "3": "injury" });
    expect(said).toContain("Injury recovery roll (weekly)");
    expect(said).toContain("Roll 4 and 15 against 10: success 4");
    expect(said).toContain("Injury 8 − 4 → recovery roll against 4");
    expect(said).toContain("Roll 7 and 20 against 4: failure (20)");
  });

  it("a failed medical roll lowers nothing (10 and 12 against 3): 7 and 20 against 8 → success 7, above Strength: no healing", async () => {
    const { store, id } = world("monthly", { "8": "injury" });
    const said = await heal(store, id, "10/20,12/20,7/20,20/20", { medicalValue: 3 });
    expect(marksOf(store, id)).toEqual({ "8": "injury" });
    expect(said).toContain("Medical care fails");
    expect(said).toContain("Roll 7 and 20 against 8: success 7");
  });

  it('"uses the highest Injury as the value": no Injury → refused before the dialog and before any die', async () => {
    const { store, id } = world("monthly", {});
    const dice = parseDice("4/20,15/20,7/20,20/20");
    const page = testPage(() => ({ medicalValue: 10 }));
    await expect(clickSheet(store, id, "heal", { heal: "injuryRecovery" }, { dice, page })).rejects.toMatchObject({
      key: "FUDGE.Volt.Error.NoInjuryToRecover",
    });
    expect(page.dialogs).toEqual([]);
    expect(dice.remaining()).toBe(4);
  });

  it("the dialog names the world's interval and asks for the medical Background's value", async () => {
    const { store, id } = world("nightly", { "8": "injury" });
    const page = testPage(() => null);
    await clickSheet(store, id, "heal", { heal: "injuryRecovery" }, { page });
    const spec = page.dialogs[0];
    expect(spec.template).toBe(TEMPLATES.healDialog);
    const html = renderTemplate(spec.template, spec.context(null));
    expect(html).toContain("Injury recovery roll (nightly)");
    expect(html).toContain("does not track time");
    expect(html).toContain('name="medicalValue"');
  });
});
