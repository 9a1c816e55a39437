/**
 * Issue #10, second check: Volt 4.0 Stun and Injury (seed 001, RULES.md §5) against its text, case
 * by case, through the CLI's own command function (`runCommand`, what `fudge-rules` runs) and once
 * through the real binary. Each expected value is read from the sentence quoted in the test's name
 * (the seed's, or RULES.md §5 for the roll and the sheet, which the seed does not hold).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/run";

type Marks = Record<string, "injury" | "stun" | "injuryOnStun">;
interface TrackJson {
  config: Record<string, unknown>;
  state: { marks: Marks };
}
interface Status {
  penalty: number;
  condition: string;
  canAct: boolean;
  levelKey: string | null;
  effects: string[];
}
interface Resolution {
  outcome: string;
  hit: boolean;
  woundKey: string | null;
  wound: unknown;
  numbers: Record<string, number>;
  defenderAfter: { track: TrackJson; status: Status; ended: boolean } | null;
}

const sheet = (marks: Marks = {}, willpower = 6, extra: Record<string, unknown> = {}): TrackJson => ({
  config: { kind: "volt", willpower, ...extra },
  state: { marks },
});
const status = (track: TrackJson): Status => (runCommand("status", { track }) as { status: Status }).status;
const glyphs = (track: TrackJson): Record<string, string> => {
  const rows = (runCommand("status", { track }) as { render: { rows: { key: string; boxes: { mark: string }[] }[] } })
    .render.rows;
  return Object.fromEntries(rows.filter((r) => r.boxes[0].mark !== "").map((r) => [r.key.slice(4), r.boxes[0].mark]));
};

interface Attack {
  attack?: number;
  damage?: number;
  pierce?: number;
  stun?: boolean;
  ranged?: boolean;
  distance?: number;
  guard?: number;
  armor?: { coverage: number; protection: [number, number] };
  marks?: Marks;
  dice: Record<string, number[]>;
}
const attack = (o: Attack): Resolution =>
  runCommand("resolve", {
    preset: "volt",
    attacker: {
      name: "Ana",
      track: sheet(),
      weapon: {
        attack: o.attack ?? 14,
        damage: o.damage ?? 15,
        pierce: o.pierce ?? 5,
        stun: o.stun ?? false,
        ranged: o.ranged ?? false,
      },
    },
    defender: { name: "Bo", track: sheet(o.marks ?? {}), guard: o.guard ?? 8, armor: o.armor ?? null },
    situation: o.distance === undefined ? {} : { distance: o.distance },
    dice: o.dice,
  }) as Resolution;
const marksAfter = (r: Resolution): Marks => r.defenderAfter!.track.state.marks;

/** A Hit whose damage roll marks `row` (rows 1–20), through `resolve`: the defender's sheet afterwards. */
const hit = (
  track: TrackJson,
  wound: { row: number; type: "injury" | "stun" },
): { track: TrackJson; status: Status; ended: boolean } =>
  // one die hits (black 10 over Guard 8, white 1 not), Damage = the row, damage dice [row, row]: the result is the row
  (
    runCommand("resolve", {
      preset: "volt",
      attacker: { name: "Ana", track: sheet(), weapon: { attack: 14, damage: wound.row, stun: wound.type === "stun" } },
      defender: { name: "Bo", track, guard: 8 },
      dice: { attack: [10, 1], damage: [wound.row, wound.row] },
    }) as Resolution
  ).defenderAfter!;

describe("Volt: the rolls", () => {
  it('"if your attack has Damage 15 and you roll 9 and 13, the target suffers an Injury of 13"', () => {
    const r = attack({ damage: 15, dice: { attack: [10, 1], damage: [9, 13] } });
    expect([r.numbers.damageResult, r.woundKey]).toEqual([13, "injury"]);
    expect(marksAfter(r)).toEqual({ 13: "injury" });
  });
  it('"damages above 20 can score results higher than 20": Damage 25, dice 3 and 18 → 23 (3 + 20 still succeeds)', () => {
    const r = attack({ damage: 25, dice: { attack: [10, 1], damage: [3, 18] } });
    expect([r.numbers.damageSuccess, r.numbers.damageResult]).toEqual([1, 23]);
  });
  it("RULES §5: value 22, dice 16 and 1 → 16 and 21 → success of 21", () => {
    const r = attack({ damage: 22, dice: { attack: [10, 1], damage: [16, 1] } });
    expect(r.numbers.damageResult).toBe(21);
  });
  it("RULES §5: one success is enough; the result is the highest successful die (Damage 10, dice 4 and 15 → 4)", () => {
    expect(attack({ damage: 10, dice: { attack: [10, 1], damage: [4, 15] } }).numbers.damageResult).toBe(4);
  });
});

describe("Volt: the attack roll", () => {
  it('"A die is a hit if it\'s above Guard": a die equal to Guard 8 misses', () => {
    expect(attack({ dice: { attack: [8, 2], damage: [9, 13] } }).outcome).toBe("miss");
  });
  it('"… but no higher than the value that was used": 15 against Attack 14 misses, 14 hits', () => {
    expect(attack({ dice: { attack: [15, 2], damage: [9, 13] } }).outcome).toBe("miss");
    expect(attack({ dice: { attack: [14, 2], damage: [9, 13] } }).numbers.hits).toBe(1);
  });
  it("\"If only one die hits, the attack is a 'Hit'\": Damage stays 15", () => {
    const r = attack({ dice: { attack: [10, 2], damage: [9, 13] } });
    expect([r.numbers.hits, r.numbers.damageValue, r.numbers.pierce]).toEqual([1, 15, 5]);
  });
  it("\"If both dice hit, it's a 'Full Hit'\" — \"This increases the attack's Pierce by +2 and the damage by +5\"", () => {
    const r = attack({ dice: { attack: [10, 12], damage: [19, 20] } });
    expect([r.numbers.hits, r.numbers.damageValue, r.numbers.pierce]).toEqual([2, 20, 7]);
    expect(marksAfter(r)).toEqual({ 20: "injury" }); // 20 succeeds against 20, not against 15
  });
  it('"(or distance, for ranged attacks)": a die above the distance hits, one equal to it misses', () => {
    expect(attack({ ranged: true, distance: 12, dice: { attack: [13, 12], damage: [9, 13] } }).numbers.hits).toBe(1);
    expect(attack({ ranged: true, distance: 12, dice: { attack: [12, 5], damage: [9, 13] } }).outcome).toBe("miss");
  });
  it('"Unarmed attacks … inflict Stun": a Hit with a * weapon is a Stun ("−")', () => {
    const r = attack({ stun: true, damage: 10, dice: { attack: [10, 2], damage: [7, 20] } });
    expect([r.woundKey, marksAfter(r)]).toEqual(["stun", { 7: "stun" }]);
  });
  it('"Weapons that normally cause Stun will … also inflict Injury in a Full hit. Make a separate Injury roll as with a regular Hit"', () => {
    // Stun roll at 10 + 5 = 15 (dice 14, 20 → 14); Injury roll at the regular 10 (dice 6, 20 → 6)
    const r = attack({ stun: true, damage: 10, dice: { attack: [10, 12], damage: [14, 20], injuryDamage: [6, 20] } });
    expect([r.woundKey, r.numbers.damageValue, r.numbers.injuryDamageValue]).toEqual(["stun+injury", 15, 10]);
    expect(marksAfter(r)).toEqual({ 14: "stun", 6: "injury" });
  });
  it('"If the damage roll fails, mark the lowest unmarked Wound"', () => {
    const r = attack({ damage: 15, marks: { 1: "injury" }, dice: { attack: [10, 2], damage: [16, 18] } });
    expect(marksAfter(r)).toEqual({ 1: "injury", 2: "injury" });
  });
  it('"If the lowest unmarked row is higher than the attack\'s Damage, nothing happens": Damage 3, rows 1–3 marked', () => {
    const r = attack({
      damage: 3,
      marks: { 1: "injury", 2: "stun", 3: "injury" },
      dice: { attack: [10, 2], damage: [4, 5] },
    });
    expect(marksAfter(r)).toEqual({ 1: "injury", 2: "stun", 3: "injury" });
  });
  it("… and a lowest unmarked row equal to the Damage is marked (Damage 3, rows 1–2 marked → row 3)", () => {
    const r = attack({ damage: 3, marks: { 1: "injury", 2: "injury" }, dice: { attack: [10, 2], damage: [4, 5] } });
    expect(marksAfter(r)["3"]).toBe("injury");
  });
  it('"mark the lowest unmarked Wound": a row holding a Stun is marked, so a failed Injury roll goes above it', () => {
    const r = attack({ damage: 15, marks: { 1: "stun" }, dice: { attack: [10, 2], damage: [16, 18] } });
    expect(marksAfter(r)).toEqual({ 1: "stun", 2: "injury" });
  });
});

describe("Volt: armor", () => {
  const armor = (coverage: number): { coverage: number; protection: [number, number] } => ({
    coverage,
    protection: [4, 11],
  });
  it('"An armor with Coverage 20 is completely sealed; all attacks will strike armor" (white die 20)', () => {
    const r = attack({ armor: armor(20), pierce: 5, dice: { attack: [10, 20], damage: [7, 20] } });
    expect([r.woundKey, r.numbers.damageValue]).toEqual(["stun", 10]);
  });
  it('"If the white die is higher, the attack bypasses the armor completely. The white die does not have to be successful to count."', () => {
    // white 16 misses (above Attack 14) but is above Coverage 12: the black die's Hit ignores the armor
    const r = attack({ armor: armor(12), pierce: 5, dice: { attack: [10, 16], damage: [13, 20] } });
    expect([r.woundKey, r.numbers.damageValue, marksAfter(r)]).toEqual(["injury", 15, { 13: "injury" }]);
  });
  it("a white die equal to the Coverage is not higher: the armor is struck", () => {
    expect(attack({ armor: armor(12), pierce: 5, dice: { attack: [10, 12], damage: [7, 20] } }).woundKey).toBe("stun");
  });
  it('"all attacks with a Pierce below 4 are deflected and deal no damage at all"', () => {
    const r = attack({ armor: armor(20), pierce: 3, dice: { attack: [10, 2], damage: [7, 20] } });
    expect([r.outcome, r.defenderAfter]).toEqual(["noDamage", null]);
  });
  it.each([4, 11])(
    '"Pierce within the interval, in this case 4-11 … Damage is lowered by -5, and it\'s marked as Stun": Pierce %i',
    (pierce) => {
      const r = attack({ armor: armor(20), pierce, dice: { attack: [10, 2], damage: [10, 20] } });
      expect([r.numbers.damageValue, marksAfter(r)]).toEqual([10, { 10: "stun" }]);
    },
  );
  it('"Attacks with a Pierce above 11 go straight through the armor, dealing damage like it wasn\'t there"', () => {
    const r = attack({ armor: armor(20), pierce: 12, dice: { attack: [10, 2], damage: [13, 20] } });
    expect([r.numbers.damageValue, marksAfter(r)]).toEqual([15, { 13: "injury" }]);
  });
  it("a Full Hit's +2 Pierce can carry an attack through (Pierce 10 + 2 = 12 > 11)", () => {
    const r = attack({ armor: armor(20), pierce: 10, dice: { attack: [10, 12], damage: [18, 20] } });
    expect([r.numbers.pierce, r.numbers.damageValue, marksAfter(r)]).toEqual([12, 20, { 20: "injury" }]);
  });
});

describe("Volt: marking wounds", () => {
  it('"A character that receives Damage 12 marks Wounds row number 12" — "Injury is marked with a vertical line"', () => {
    expect(glyphs(hit(sheet(), { row: 12, type: "injury" }).track)).toEqual({ 12: "|" });
  });
  it('"For *10 Damage, draw a - through the circle of Wounds 10"', () => {
    expect(glyphs(hit(sheet(), { row: 10, type: "stun" }).track)).toEqual({ 10: "\u2212" });
  });
  it('"If the circle is already filled from a previous Injury, mark the nearest empty circle. If two circles are equally close, mark the higher number."', () => {
    expect(hit(sheet({ 8: "injury" }), { row: 8, type: "injury" }).track.state.marks).toEqual({
      8: "injury",
      9: "injury",
    });
  });
  it("… the nearest empty circle, below when the one above is taken (8 full, 9 full → 7)", () => {
    expect(hit(sheet({ 8: "injury", 9: "stun" }), { row: 8, type: "injury" }).track.state.marks["7"]).toBe("injury");
  });
  it("… nearer beats higher (a wound on 8 with 8, 9, 10 full → 7, one away, not 11, three away)", () => {
    expect(
      hit(sheet({ 8: "injury", 9: "injury", 10: "injury" }), { row: 8, type: "injury" }).track.state.marks,
    ).toEqual({ 7: "injury", 8: "injury", 9: "injury", 10: "injury" });
  });
  it("… and equally close after a run of full rows, the higher (a wound on 9 with 8, 9, 10 full → 11, not 7)", () => {
    expect(
      hit(sheet({ 8: "injury", 9: "injury", 10: "injury" }), { row: 9, type: "injury" }).track.state.marks["11"],
    ).toBe("injury");
  });
  it('"If the circle is already filled from Stun, an incoming Injury replaces it (just draw a +; it counts as Injury)"', () => {
    const t = hit(sheet({ 6: "stun" }), { row: 6, type: "injury" }).track;
    expect([t.state.marks, glyphs(t)]).toEqual([{ 6: "injuryOnStun" }, { 6: "+" }]);
  });
  it('"An incoming Stun moves to a different row, as described above" (Stun on Stun 6 → 7)', () => {
    expect(hit(sheet({ 6: "stun" }), { row: 6, type: "stun" }).track.state.marks).toEqual({ 6: "stun", 7: "stun" });
  });
  it("a Stun on an Injury row moves the same way", () => {
    expect(hit(sheet({ 6: "injury" }), { row: 6, type: "stun" }).track.state.marks).toEqual({ 6: "injury", 7: "stun" });
  });
  it('an Injury on a "+" row moves: the "+" "counts as Injury"', () => {
    expect(hit(sheet({ 6: "injuryOnStun" }), { row: 6, type: "injury" }).track.state.marks).toEqual({
      6: "injuryOnStun",
      7: "injury",
    });
  });
});

describe("Volt: the wound rows (RULES §5)", () => {
  const penalties = (willpower: number): Record<string, number | string> => {
    const rows = (
      runCommand("status", { track: sheet({}, willpower) }) as {
        render: { rows: { key: string; penalty: number | null; effectKey: string }[] };
      }
    ).render.rows;
    const out: Record<string, number | string> = {};
    for (const r of rows) {
      const row = r.key.slice(4);
      if (r.effectKey === "FUDGE.Volt.Effect.CannotAct") out[row] = "x";
      else if (r.penalty) out[row] = r.penalty;
    }
    return out;
  };
  it.each([
    [0, { 10: "x", 9: "x", 8: -5, 7: -5, 6: -4, 5: -4, 4: -3, 3: -3, 2: -2, 1: -2 }],
    [4, { 10: "x", 9: -5, 8: -5, 7: -4, 6: -4, 5: -3 }],
    [6, { 10: -5, 9: -5, 8: -4, 7: -4, 6: -3 }],
    [8, { 10: -5, 9: -4, 8: -3, 7: -3 }],
    [9, { 10: -4, 9: -4, 8: -3, 7: -2 }],
    [10, { 10: -4, 9: -3, 8: -3 }],
    [11, { 10: -4, 9: -2, 8: -2 }],
    [12, { 10: -4, 9: -2 }],
    [15, { 10: -4, 9: -2 }],
  ])("Willpower %i: the table written downward from row 10", (will, expected) => {
    expect(penalties(will as number)).toEqual(expected);
  });
  it("Tough raises the top row and blacks out a circle at the bottom per step: a wound landing there is ignored", () => {
    const t = sheet({}, 6, { tough: 2 });
    expect(penalties(6)).not.toEqual({}); // the human sheet for comparison
    const after = hit(t, { row: 2, type: "injury" }).track;
    expect(after.state.marks).toEqual({});
    expect(status(sheet({ 12: "injury" }, 6, { tough: 2 })).penalty).toBe(-5);
  });
});

describe("Volt: the immediate effects", () => {
  it('"if you take 5 Damage and your Wounds 5 row has "3" written on it, you suffer -3" (Willpower 4: row 5 carries 3)', () => {
    expect(status(hit(sheet({}, 4), { row: 5, type: "injury" }).track).penalty).toBe(-3);
  });
  it('"suffer the penalty of the highest Wound you\'ve sustained": rows 6 (−3) and 8 (−4) → −4', () => {
    expect(status(sheet({ 6: "injury", 8: "stun" })).penalty).toBe(-4);
  });
  it("rows below the penalty rows carry no penalty (Will 6, row 5)", () => {
    const s = status(sheet({ 5: "injury" }));
    expect([s.penalty, s.canAct, s.condition]).toEqual([0, true, "able"]);
  });
  it('"If you mark any Wound higher up than your worst penalty, you\'re unable to act": a Stun on row 11', () => {
    const s = status(sheet({ 11: "stun" }));
    expect([s.canAct, s.condition]).toEqual([false, "cannotAct"]);
  });
  it('"An Injury above the highest wound penalty means the character is dying": Injury on row 11', () => {
    const s = status(sheet({ 11: "injury" }));
    expect([s.condition, s.canAct]).toEqual(["dying", false]);
  });
  it('"If an Injury is more than 5 rows above the highest wound penalty, the character is dead": row 15 dying, row 16 dead', () => {
    expect(status(sheet({ 15: "injury" })).condition).toBe("dying");
    expect(status(sheet({ 16: "injury" })).condition).toBe("dead");
  });
  it.each([9, 7])(
    '"Injuries in the second and fourth wound rows … mean the character is dying, but remains capable of action for half an hour": row %i',
    (row) => {
      const s = status(sheet({ [row]: "injury" }));
      expect([s.condition, s.canAct, s.effects]).toEqual(["dying", true, ["dyingCanAct"]]);
    },
  );
  it("an Injury on row 8 (not circled) is not dying; a Stun on circled row 9 is not either", () => {
    expect(status(sheet({ 8: "injury" })).condition).toBe("able");
    expect(status(sheet({ 9: "stun" })).condition).toBe("able");
  });
  it('a "+" on a circled row is dying: it "counts as Injury"', () => {
    expect(status(hit(sheet({ 9: "stun" }), { row: 9, type: "injury" }).track).condition).toBe("dying");
  });
  it('"Too much Stun knocks your character out, and too much Injury kills": Stuns alone never kill', () => {
    const s = status(sheet({ 19: "stun", 20: "stun" }));
    expect([s.condition, s.canAct]).toEqual(["cannotAct", false]);
  });
  it("an attacker who is unable to act cannot attack", () => {
    const e = spawnSync(process.execPath, ["bin/fudge-rules.mjs", "resolve"], {
      input: JSON.stringify({
        preset: "volt",
        attacker: { name: "Ana", track: sheet({ 11: "stun" }), weapon: { attack: 14, damage: 15 } },
        defender: { name: "Bo", track: sheet(), guard: 8 },
        dice: { attack: [10, 2], damage: [9, 13] },
      }),
      encoding: "utf8",
    });
    expect(e.status).toBe(2);
    expect(JSON.parse(e.stderr)).toMatchObject({ field: "attacker.track", key: "FUDGE.Volt.Error.CannotAct" });
  });
});

describe("Volt: recovery", () => {
  const recover = (request: object): { track: TrackJson; roll?: { success: boolean; value: number } | null } =>
    runCommand("recover", request) as { track: TrackJson };
  it('"The Action "Recover" requires your character be able to act"', () => {
    const r = recover({ track: sheet({ 11: "stun" }), willpower: 6, dice: [1, 1] });
    expect([r.roll, r.track.state.marks]).toEqual([null, { 11: "stun" }]);
  });
  it('"Roll Willpower, taking your penalties into account. A success clears your highest Stun." (Will 6, −3 → value 3)', () => {
    const ok = recover({ track: sheet({ 6: "stun", 2: "stun" }), willpower: 6, dice: [3, 20] });
    expect([ok.roll!.value, ok.track.state.marks]).toEqual([3, { 2: "stun" }]);
    const no = recover({ track: sheet({ 6: "stun", 2: "stun" }), willpower: 6, dice: [4, 20] });
    expect([no.roll!.success, no.track.state.marks]).toEqual([false, { 6: "stun", 2: "stun" }]);
  });
  it('"A success clears your highest Stun": not an Injury above it', () => {
    expect(recover({ track: sheet({ 4: "stun", 5: "injury" }), willpower: 6, dice: [1, 1] }).track.state.marks).toEqual(
      { 5: "injury" },
    );
  });
  it('"If you rest for a minute, all Stun clears" (even one above the top row; Injuries stay)', () => {
    expect(
      recover({ track: sheet({ 2: "stun", 5: "injury", 11: "stun" }), recover: "rest" }).track.state.marks,
    ).toEqual({ 5: "injury" });
  });
  const injury = (marks: Marks, strength: number, dice: number[], medical?: number): Marks =>
    recover({ track: sheet(marks), recover: "injury", strength, dice, ...(medical === undefined ? {} : { medical }) })
      .track.state.marks;
  it('"your highest Injury is lowered five steps. Any Injuries along the way are also healed." (12 → 7; 9 heals; a Stun stays)', () => {
    expect(injury({ 12: "injury", 9: "injury", 10: "stun" }, 10, [5, 20])).toEqual({ 7: "injury", 10: "stun" });
  });
  it('"If the result is equal to an Injury you already have, the wound is infected. Mark the result as a new Injury, as per the usual rules. You do not heal this time."', () => {
    // result 5 = the Injury on row 5: a new Injury on the nearest empty circle (4 and 6 tie → 6)
    expect(injury({ 12: "injury", 5: "injury" }, 10, [5, 20])).toEqual({ 12: "injury", 5: "injury", 6: "injury" });
  });
  it("… the highest Injury itself counts (result 12 = the Injury on 12 → infected, new Injury on 13)", () => {
    expect(injury({ 12: "injury" }, 20, [12, 20])).toEqual({ 12: "injury", 13: "injury" });
  });
  it('"If the result is a "success" higher than your Strength, you do not heal this time." (11 > 8)', () => {
    expect(injury({ 12: "injury" }, 8, [11, 20])).toEqual({ 12: "injury" });
  });
  it("a success equal to Strength is not higher: the Injury heals (11, Strength 11)", () => {
    expect(injury({ 12: "injury" }, 11, [11, 20])).toEqual({ 7: "injury" });
  });
  it('"Recovery rolls are made using the highest Injury sustained, as if it was an Attribute": a failed roll is neither case, so it heals', () => {
    expect(injury({ 12: "injury" }, 8, [13, 20])).toEqual({ 7: "injury" });
  });
  it('"A successful roll using a suitable medical Background reduces the Injury with its result for this particular roll": 12 − 4 = 8, dice 10 fail → heals', () => {
    expect(injury({ 12: "injury" }, 8, [10, 20], 4)).toEqual({ 7: "injury" });
    expect(injury({ 12: "injury" }, 8, [10, 20])).toEqual({ 12: "injury" }); // without it: 10 > Strength 8
  });
  it("an Injury lowered five steps below row 1 is gone (row 4)", () => {
    expect(injury({ 4: "injury" }, 10, [1, 20])).toEqual({});
  });
});

describe("Volt: exact odds of one attack (Attack 14 against Guard 8, Damage 15, no armor)", () => {
  const odds = () =>
    runCommand("odds", {
      preset: "volt",
      attacker: { name: "A", track: sheet(), weapon: { attack: 14, damage: 15 } },
      defender: { name: "D", guard: 8, track: sheet() },
    }) as {
      hit: number;
      death: number;
    };
  it('"A die is a hit if it\'s above Guard … but no higher than the value": 6 faces of 20 (9–14); no hit (14/20)² → hit 0.51', () => {
    expect(odds().hit).toBeCloseTo(1 - (14 / 20) ** 2, 12);
  });
  it('"more than 5 rows above … dead": only a Full Hit (0.3², Damage 20) reaches row 16: 0.09 × (1 − (15/20)²)', () => {
    expect(odds().death).toBeCloseTo(0.09 * (1 - (15 / 20) ** 2), 12);
  });
});

describe("Volt: choices where the seed is silent (docs/rules-api/volt.md, Choices)", () => {
  it("Tough 2: a failed damage roll's lowest unmarked row is the lowest row above the blacked-out circles (Damage 10 → row 3; Damage 2 → nothing)", () => {
    const fail = (damage: number): Marks =>
      (
        runCommand("resolve", {
          preset: "volt",
          attacker: { name: "Ana", track: sheet(), weapon: { attack: 14, damage } },
          defender: { name: "Bo", track: sheet({}, 6, { tough: 2 }), guard: 8 },
          dice: { attack: [10, 1], damage: [20, 20] },
        }) as Resolution
      ).defenderAfter!.track.state.marks;
    expect(fail(10)).toEqual({ 3: "injury" });
    expect(fail(2)).toEqual({});
  });
});
