/**
 * Fudge §4.51: "maybe a Light Wound causes no penalty during combat (you don't notice such a slight
 * wound in the heat of battle), but after combat the character will be at -1 to all skills until
 * it's healed" — the sheet's custom level column, the trait roll and the sheet's penalty (pure).
 */
import { describe, expect, test } from "vitest";
import { rollTrait, setActorField, toggleWoundBox, updatedState } from "../../src/system/actions";
import { characterSheetContext } from "../../src/system/sheet";
import { inStartedCombat } from "../../src/system/combat";
import type { ActorDoc, CustomWoundLevel } from "../../src/system/data";
import { errorText } from "../../src/system/error-text";
import { dictionaryI18n } from "../../src/system/i18n";
import { GM, leroy, loadLang, rulesFor } from "./fixtures";
import { makeRenderer } from "./render";

const rules = rulesFor("fudge");
const levels: CustomWoundLevel[] = [
  { key: "scratch", label: "", boxes: 3, penalty: 0, threshold: 1, effect: "" },
  { key: "lightWound", label: "Light Wound", boxes: 1, penalty: 0, threshold: 3, effect: "", afterCombatPenalty: -1 },
  { key: "moderateWound", label: "Moderate <Wound>", boxes: 1, penalty: -1, threshold: 5, effect: "" },
  { key: "incapacitated", label: "", boxes: 1, penalty: -2, threshold: 7, effect: "cannotAct" },
];
function withTrack(ls: CustomWoundLevel[], mark?: string): ActorDoc<"character"> {
  const a = leroy();
  a.system.woundTrack = { ...a.system.woundTrack, preset: "custom", customLevels: structuredClone(ls), state: null };
  if (mark) a.system.woundTrack.state = updatedState(toggleWoundBox(a, mark, rules, GM));
  return a;
}
const customLevelsOf = (u: { system: Record<string, unknown> }) =>
  (u.system.woundTrack as { customLevels: CustomWoundLevel[] }).customLevels;

describe("the custom level's After combat column (setActorField)", () => {
  const a = withTrack(levels);
  test("a number in −10..0 is stored; blank is none (null); out of range or not a number is refused, naming the field", () => {
    expect(
      customLevelsOf(setActorField(a, "woundTrack.customLevels.0.afterCombatPenalty", "\u22121", GM))[0]
        .afterCombatPenalty,
    ).toBe(-1);
    expect(
      customLevelsOf(setActorField(a, "woundTrack.customLevels.1.afterCombatPenalty", " ", GM))[1].afterCombatPenalty,
    ).toBeNull();
    for (const bad of ["1", "-11", "lots"]) {
      const e = (() => {
        try {
          setActorField(a, "woundTrack.customLevels.1.afterCombatPenalty", bad, GM);
        } catch (err) {
          return err as { field: string; key: string };
        }
        throw new Error(`accepted ${bad}`);
      })();
      expect(e.field).toBe("system.woundTrack.customLevels.1.afterCombatPenalty");
      expect(["FUDGE.Error.OutOfRange", "FUDGE.Error.NotInteger"]).toContain(e.key);
    }
    const range = (() => {
      try {
        setActorField(a, "woundTrack.customLevels.1.afterCombatPenalty", "1", GM);
      } catch (err) {
        return err;
      }
    })();
    expect(errorText(range, dictionaryI18n(loadLang()), "Leroy")).toBe(
      "Leroy: the penalty after combat of custom wound level 2 must be between -10 and 0.",
    );
  });
});

describe("trait rolls: penaltyFor(status, inCombat)", () => {
  const hurt = withTrack(levels, "lightWound:0");
  test("a Light Wound: −1 outside combat (with the step saying why), 0 in a started combat", () => {
    const out = rollTrait(hurt, "attributes.strength", [0, 0, 0, 0], rules);
    expect(out.penalty).toBe(-1);
    expect(out.steps[0]).toMatchObject({ key: "FUDGE.Step.Box.AfterCombat", rule: "Fudge §4.51", value: -1 });
    const inside = rollTrait(hurt, "attributes.strength", [0, 0, 0, 0], rules, { inCombat: true });
    expect(inside.penalty).toBe(0);
    expect(inside.steps.map((s) => s.key)).not.toContain("FUDGE.Step.Box.AfterCombat");
    expect(rollTrait(hurt, "attributes.strength", [0, 0, 0, 0], rules, { inCombat: false, modifier: -1 }).penalty).toBe(
      -2,
    );
  });
  test("a Moderate Wound over it is −1 in and out of combat (only the highest marked level counts, §4.57)", () => {
    const worse = withTrack(levels, "moderateWound:0");
    expect(
      [false, true].map(
        (inCombat) => rollTrait(worse, "attributes.strength", [0, 0, 0, 0], rules, { inCombat }).penalty,
      ),
    ).toEqual([-1, -1]);
  });
});

describe("the sheet's penalty", () => {
  const hurt = withTrack(levels, "lightWound:0");
  test("outside combat the after-combat penalty, with the combat one beside it; in combat the other way round", () => {
    const out = characterSheetContext(hurt, rules, { editable: true, owner: true }).track;
    expect([out.penaltyText, out.penaltyNote]).toEqual([
      "\u22121",
      { key: "FUDGE.Track.PenaltyInCombat", params: { penalty: "0" } },
    ]);
    const inside = characterSheetContext(hurt, rules, { editable: true, owner: true, inCombat: true }).track;
    expect([inside.penaltyText, inside.penaltyNote]).toEqual([
      "0",
      { key: "FUDGE.Track.PenaltyAfterCombat", params: { penalty: "\u22121" } },
    ]);
    const plain = characterSheetContext(withTrack(levels, "moderateWound:0"), rules, {
      editable: true,
      owner: true,
    }).track;
    expect([plain.penaltyText, plain.penaltyNote]).toEqual(["\u22121", null]);
  });
  test("rendered: the column (blank = none, the combat penalty as placeholder), the note, names escaped, no key missing", () => {
    const r = makeRenderer();
    const html = r.render("character", characterSheetContext(hurt, rules, { editable: true, owner: true }));
    expect(html).toMatch(/name="system\.woundTrack\.customLevels\.1\.afterCombatPenalty" value="-1"/);
    expect(html).toMatch(/name="system\.woundTrack\.customLevels\.0\.afterCombatPenalty" value="" placeholder="0"/);
    expect(html).toContain("After combat");
    expect(html).toContain('<span class="note">0 in combat</span>');
    expect(html).toContain("Moderate &lt;Wound&gt;");
    expect([...r.missing]).toEqual([]);
  });
});

describe("inStartedCombat (the Foundry sheet's plain-data question)", () => {
  const world = { id: "leroy", tokenId: null };
  const token = { id: "leroy", tokenId: "tok1" };
  const c = (
    started: boolean,
    ...combatants: { actorId: string | null; tokenId: string | null; linked: boolean }[]
  ) => ({ started, combatants });
  test("a started combat with a combatant for the actor: yes; not started, or not in it: no", () => {
    expect(inStartedCombat(world, [c(true, { actorId: "leroy", tokenId: "tokL", linked: true })])).toBe(true);
    expect(inStartedCombat(world, [c(false, { actorId: "leroy", tokenId: "tokL", linked: true })])).toBe(false);
    expect(inStartedCombat(world, [c(true, { actorId: "theodora", tokenId: "tokT", linked: true })])).toBe(false);
    expect(inStartedCombat(world, [])).toBe(false);
  });
  test("an unlinked token's combatant is its token's actor, not the world actor", () => {
    const unlinked = c(true, { actorId: "leroy", tokenId: "tok1", linked: false });
    expect(inStartedCombat(token, [unlinked])).toBe(true);
    expect(inStartedCombat(world, [unlinked])).toBe(false);
    expect(inStartedCombat({ id: "leroy", tokenId: "tok2" }, [unlinked])).toBe(false);
  });
});
