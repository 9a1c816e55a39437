/**
 * What prepareDerivedData stores on an actor (bridge.deriveFromDoc), computed from the pack
 * sources: penalty, condition, the token bar's open boxes and the damage factors.
 */
import { describe, expect, it } from "vitest";
import { deriveFromDoc, openBoxesOf } from "../../src/foundry/bridge";
// @ts-expect-error plain .mjs tool without types
import { readSources } from "../../tools/packs.mjs";
import { defaultWorldRules, type ActorDoc } from "../../src/system/data";
import { applyWound, renderTrack } from "../../src/rules";
import { trackFor } from "../../src/system/combatant";

const doc = (pack: string, name: string): ActorDoc =>
  readSources(pack).find((s: { doc: ActorDoc }) => s.doc.name === name)!.doc;
const rules = defaultWorldRules();

describe("derived data of an actor", () => {
  it("Leroy, unhurt: ODF +4 (broadsword), DDF +4, no penalty, all 7 boxes open (Fudge §4.55, §4.57)", () => {
    const d = deriveFromDoc(doc("characters", "Leroy"), rules);
    expect(d.factors).toMatchObject({ odf: 4, ddf: 4 });
    expect(d.penalty).toBe(0);
    expect(d.condition).toBe("able");
    expect(d.openBoxes).toEqual({ value: 7, max: 7 });
    expect(d.error).toBeNull();
  });

  it("Theodora Hurt: −1, one box fewer open", () => {
    const theo = doc("characters", "Theodora");
    const marked = applyWound(trackFor(theo, rules), { level: "hurt" });
    const d = deriveFromDoc(
      {
        ...theo,
        system: { ...theo.system, woundTrack: { ...(theo.system as any).woundTrack, state: marked.track.state } },
      } as ActorDoc,
      rules,
    );
    expect(d.penalty).toBe(-1);
    expect(d.factors).toMatchObject({ odf: 7, ddf: 2 });
    expect(d.openBoxes).toEqual({ value: 6, max: 7 });
  });

  it("Yanni the Yeoman: MODF +0, RODF +3, DDF +4, HDDF +1 (seed 004)", () => {
    const d = deriveFromDoc(doc("miniatures", "Yanni the Yeoman"), { ...rules, preset: "miniatures" });
    expect(d.factors).toEqual({ odf: null, ddf: 4, modf: 0, rodf: 3, hddf: 1 });
    // Scratch 2, Hurt, Very Hurt, Near Death (and whatever else the rules render as markable): all open.
    expect(d.openBoxes.max).toBeGreaterThanOrEqual(5);
    expect(d.openBoxes.value).toBe(d.openBoxes.max);
  });

  it("a stored state that does not fit the track becomes an error, not a crash", () => {
    const leroy = doc("characters", "Leroy");
    const broken = {
      ...leroy,
      system: { ...leroy.system, woundTrack: { ...(leroy.system as any).woundTrack, state: { marks: "nonsense" } } },
    } as ActorDoc;
    const d = deriveFromDoc(broken, rules);
    expect(d.error?.key).toMatch(/^FUDGE\.Error\./);
    expect(d.penalty).toBe(0);
  });

  it("open boxes skip blacked-out circles", () => {
    const r = renderTrack(trackFor(doc("characters", "Leroy"), rules));
    const withDisabled = {
      ...r,
      rows: [...r.rows, { ...r.rows[0], boxes: r.rows[0].boxes.map((b) => ({ ...b, disabled: true })) }],
    };
    expect(openBoxesOf(withDisabled)).toEqual(openBoxesOf(r));
  });
});
