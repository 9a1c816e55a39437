/**
 * Session 9 (lane 10v), docs/rules-api/volt.md "Measured in session 9: monotone sandwich bounds":
 * a sandwich bound on the Volt duel needs a monotone coupling — with the same dice, a worse
 * attacker must never leave the defender's sheet worse than a better attacker does. It does not
 * exist: a weaker blow can push a mark higher than a stronger one. This pins the counterexample
 * found by the exhaustive check (/work/issues/s9/10v/closure2.ts), through the real pipeline and
 * the duel's integer sheets.
 */
import { describe, expect, it } from "vitest";
import { resolveSamples } from "../../src/cli/samples";
import { pipelineFor, trackKind } from "../../src/rules";
import type { VoltWound } from "../../src/rules/volt";
import { voltApplyWounds, voltSheetModel, voltSheetOf, voltSheetPenalty } from "../../src/rules/volt";

describe("Volt duel: the same-dice coupling is not monotone (why no sandwich bound)", () => {
  const { a: theodora, b: leroy } = resolveSamples({ preset: "volt", a: "Theodora", b: "Leroy" }) as Record<
    string,
    any
  >;
  const p = pipelineFor("volt");
  /** Theodora's wound on Leroy with the given dice, her sheet giving her penalty. */
  const woundAt = (attackerMarks: Record<string, string>): VoltWound[] => {
    const req = p.parseRequest({
      preset: "volt",
      attacker: { ...theodora, track: { config: theodora.track.config, state: { marks: attackerMarks } } },
      defender: leroy,
    });
    // Attack dice 8 and 9 against Guard 7; damage dice 5 and 1 (both succeed against 10 and 20: row 5).
    const r = p.resolve(req, (id: string) => (id === "attack" ? [8, 9] : [5, 1]), { preview: false });
    return trackKind("volt").parseWound(leroy.track.config, r.wound, "wound") as VoltWound[];
  };

  it("Theodora at −4 only Hits (a Stun through Leroy's armor, Volt: Armor), at 0 she Full-Hits (+2 Pierce passes it: an Injury) — and the weaker blow leaves Leroy the worse penalty", () => {
    const better = woundAt({}); // no mark: penalty 0, both dice 8 and 9 hit (Volt: Full hit)
    const worse = woundAt({ "8": "stun" }); // row 8: penalty −4, only the 8 hits
    expect(better).toEqual([{ row: 5, type: "injury" }]);
    expect(worse).toEqual([{ row: 5, type: "stun" }]);
    const m = voltSheetModel(leroy.track.config);
    const sheet = voltSheetOf(m, { marks: { "5": "stun" } });
    // Volt: Marking Wounds — an Injury on a Stun replaces it ("+"); a Stun on a Stun goes to the nearest empty row, the higher first.
    const afterBetter = voltApplyWounds(m, sheet, better);
    const afterWorse = voltApplyWounds(m, sheet, worse);
    expect(voltSheetPenalty(m, afterBetter)).toBe(0);
    expect(voltSheetPenalty(m, afterWorse)).toBe(3);
  });
});
