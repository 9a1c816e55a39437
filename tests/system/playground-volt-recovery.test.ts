// @vitest-environment happy-dom
/**
 * Volt: Recovery in the browser playground's heal path (playground/ui.ts dispatch, as the page
 * runs it): "Injury recovery roll (monthly by default; weekly or nightly per setting) uses the
 * highest Injury as the value … A successful medical Background roll lowers the value used for
 * that one recovery roll by its result." The medical Background is rolled before the recovery
 * roll; no Injury is refused before any die; the world's interval is named.
 */
import { describe, expect, it } from "vitest";
import * as ui from "../../playground/ui";
import { Store, type PlaygroundState } from "../../playground/store";
import { sampleActors } from "../../playground/packs";
import { parseDice } from "../../playground/dice";

function world(recovery: string, marks: Record<string, string>): { store: Store; id: string } {
  const actors = sampleActors();
  const leroy = actors.find((a) => a.name.startsWith("Leroy"))!;
  const state: PlaygroundState = {
    version: 1,
    preset: "volt",
    theme: "light",
    settings: { preset: "volt", volt: { recovery } },
    actors,
    messages: [],
    open: [leroy._id],
    targets: [],
    user: { id: "pgGamemaster0001", name: "Gamemaster", isGM: true },
  };
  const store = new Store(() => state, null, 0);
  const sys = store.actor(leroy._id)!.system as { woundTrack: { state: unknown }; volt: { strength: number } };
  sys.woundTrack.state = { marks };
  sys.volt.strength = 6;
  return { store, id: leroy._id };
}
const button = () => {
  const el = document.createElement("button");
  el.dataset.action = "heal";
  el.dataset.heal = "injuryRecovery";
  return el;
};
const heal = (store: Store, id: string, faces: string, inputs: Record<string, number>) =>
  ui.dispatch(store, parseDice(faces), {
    action: "heal",
    target: button(),
    doc: { kind: "actor", id },
    event: new Event("click"),
    inputs,
  });
const marksOf = (store: Store, id: string) =>
  (store.actor(id)!.system as { woundTrack: { state: { marks: Record<string, string> } } }).woundTrack.state.marks;

describe("Volt injury recovery in the playground", () => {
  it("the medical Background (10) is rolled first: 4 and 15 → success 4 lowers the recovery roll to 8 − 4 = 4; 7 and 20 fail → the Injury drops five rows", () => {
    const { store, id } = world("weekly", { "8": "injury" });
    const said = heal(store, id, "4/20,15/20,7/20,20/20", { medicalValue: 10 }) as string;
    expect(marksOf(store, id)).toEqual({ "3": "injury" });
    expect(said).toContain("Injury recovery roll (weekly)");
    expect(said).toContain("Roll 4 and 15 against 10: success 4");
    expect(said).toContain("Injury 8 − 4 → recovery roll against 4");
    expect(said).toContain("Roll 7 and 20 against 4: failure (20)");
  });

  it("a failed medical roll lowers nothing (10 and 12 against 3): 7 and 20 against 8 → success 7, above Strength: no healing", () => {
    const { store, id } = world("monthly", { "8": "injury" });
    const said = heal(store, id, "10/20,12/20,7/20,20/20", { medicalValue: 3 }) as string;
    expect(marksOf(store, id)).toEqual({ "8": "injury" });
    expect(said).toContain("Medical care fails");
    expect(said).toContain("Roll 7 and 20 against 8: success 7");
  });

  it('"uses the highest Injury as the value": no Injury → refused before the dialog and before any die', () => {
    const { store, id } = world("monthly", {});
    expect(() => ui.renderHealDialog(store, id, button())).toThrow(
      expect.objectContaining({ key: "FUDGE.Volt.Error.NoInjuryToRecover" }),
    );
    const dice = parseDice("4/20,15/20,7/20,20/20");
    expect(() =>
      ui.dispatch(store, dice, {
        action: "heal",
        target: button(),
        doc: { kind: "actor", id },
        event: new Event("click"),
        inputs: { medicalValue: 10 },
      }),
    ).toThrow(expect.objectContaining({ key: "FUDGE.Volt.Error.NoInjuryToRecover" }));
    expect(dice.remaining()).toBe(4);
  });

  it("the dialog names the world's interval and asks for the medical Background's value", () => {
    const { store, id } = world("nightly", { "8": "injury" });
    const html = ui.renderHealDialog(store, id, button())!;
    expect(html).toContain("Injury recovery roll (nightly)");
    expect(html).toContain("does not track time");
    expect(html).toContain('name="medicalValue"');
  });
});
