/**
 * Attacks thrown with the world's dice option (Fudge §3.21–3.22): the opposed roll's dice slots
 * roll the option, a card's recorded throws re-derive, and the exact odds and duel forecasts use
 * the option's distribution — checked against brute force over every raw throw of both rolls.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveSamples } from "../../src/cli/samples";
import {
  DICE_OPTION_IDS,
  duelForecast,
  exactOdds,
  exactOddsOf,
  parseDiceOption,
  pipelineFor,
  prepareExchange,
  readDiceOption,
  recordedDice,
  rollingDice,
  seededRng,
  type AttackOdds,
  type DiceOption,
} from "../../src/rules";

const p = pipelineFor("fudge");
const sample = resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" });
const withDice = (dice: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...sample,
  options: { ...((sample.options as Record<string, unknown>) ?? {}), ...extra, dice },
});

/** Every standing raw throw of an option (a throw its table rolls again is thrown again: left out). */
function standingThrows(option: DiceOption): number[][] {
  const lowest = option.id === "4dF" ? -1 : 1;
  const out: number[][] = [];
  for (let i = 0; i < option.sides ** option.count; i++) {
    const faces: number[] = [];
    for (let d = 0, x = i; d < option.count; d++, x = Math.floor(x / option.sides))
      faces.push(lowest + (x % option.sides));
    if (readDiceOption(option, faces) !== null) out.push(faces);
  }
  return out;
}

/** Brute force: every standing throw of the attack against every one of the defence, resolved from the record. */
function bruteOdds(input: Record<string, unknown>, option: DiceOption): Record<string, number> {
  const req = p.parseRequest(input);
  const throws = standingThrows(option);
  // Counted in integers, divided once: 1,296² pairs of 4d6 would add up rounding errors.
  const count: Record<string, number> = {};
  for (const a of throws)
    for (const d of throws) {
      const r = p.resolve(req, recordedDice({ attack: a, defense: d }, p.slots(req)), { explain: false });
      count[`outcome:${r.outcome}`] = (count[`outcome:${r.outcome}`] ?? 0) + 1;
      count[`wound:${r.woundKey ?? "none"}`] = (count[`wound:${r.woundKey ?? "none"}`] ?? 0) + 1;
    }
  const all = throws.length * throws.length;
  return Object.fromEntries(Object.entries(count).map(([k, n]) => [k, n / all]));
}

function flat(o: AttackOdds): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(o.outcomes)) out[`outcome:${k}`] = v;
  for (const [k, v] of Object.entries(o.woundLevels)) out[`wound:${k}`] = v;
  return out;
}

function expectSame(a: Record<string, number>, b: Record<string, number>, where: string): void {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
    expect(a[k] ?? 0, `${where}: ${k}`).toBeCloseTo(b[k] ?? 0, 12);
}

/** A GM's d% table that rolls 90–00 again, and reads ±5 at the ends (results beyond 4dF's). */
const CUSTOM_PERCENT = {
  id: "d%",
  table: [
    { from: 1, to: 5, result: -5 },
    { from: 6, to: 30, result: -1 },
    { from: 31, to: 60, result: 0 },
    { from: 61, to: 84, result: 1 },
    { from: 85, to: 89, result: 5 },
    { from: 90, to: 100, result: "reroll" },
  ],
};

const OPTIONS: unknown[] = [...DICE_OPTION_IDS.filter((id) => id !== "4dF"), CUSTOM_PERCENT];

describe("Fudge §3.21–3.22: attacks under the world's dice option", () => {
  it("the opposed roll's slots roll the option's formula; 4dF stays the default and leaves the request as before", () => {
    const plain = p.parseRequest(sample);
    expect(p.slots(plain).map((s) => s.formula)).toEqual(["4dF", "4dF"]);
    expect(JSON.stringify(plain)).not.toContain('"dice"');
    expect(JSON.stringify(p.parseRequest(withDice("4dF")))).toBe(JSON.stringify(plain));
    const formulas = (dice: string) => p.slots(p.parseRequest(withDice(dice))).map((s) => s.formula);
    expect(formulas("4d6F")).toEqual(["4ds", "4ds"]);
    expect(formulas("d6-d6")).toEqual(["1d6 - 1d6", "1d6 - 1d6"]);
    expect(formulas("3d6")).toEqual(["3d6", "3d6"]);
    expect(formulas("d%")).toEqual(["1d100", "1d100"]);
    // Labelled without "(4dF)", each label a text of lang/en.json.
    const lang = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8")) as Record<
      string,
      string
    >;
    for (const s of p.slots(
      p.parseRequest(withDice("3d6", { dcVariant: "roll", willpowerVsPenalty: { difficulty: 0 } })),
    ))
      if (s.formula === "3d6") expect(lang[s.labelKey], s.labelKey).toMatch(/^[^(]+$/);
    // Every four-dice roll of the attack takes the option; the 1dF damage roll stays 1dF.
    const dc = p.slots(p.parseRequest(withDice("3d6", { dcVariant: "roll", damageRoll: "dfNumber" })));
    expect(Object.fromEntries(dc.map((s) => [s.id, s.formula]))).toEqual({
      attack: "3d6",
      defense: "3d6",
      damage: "1dF",
      dc: "3d6",
    });
  });

  it("refuses an unknown option, a table on d6−d6, and a recorded throw the table rolls again", () => {
    expect(() => p.parseRequest(withDice("2d10"))).toThrow(/options\.dice\.id/);
    expect(() => p.parseRequest(withDice({ id: "d6-d6", table: [] }))).toThrow(/options\.dice\.table/);
    const req = p.parseRequest(withDice("d%"));
    expect(() => recordedDice({ attack: [95], defense: [40] }, p.slots(req))).toThrow(/dice\.attack/);
    expect(() => recordedDice({ attack: [0], defense: [40] }, p.slots(req))).toThrow(/dice\.attack/);
  });

  it("a rolled attack records the standing throw, and the record re-derives the same resolution", () => {
    for (const dice of OPTIONS) {
      const req = p.parseRequest(withDice(dice));
      const option = parseDiceOption(dice);
      const rng = seededRng(7);
      for (let i = 0; i < 40; i++) {
        const record: Record<string, number[]> = {};
        const live = p.resolve(req, rollingDice(p.slots(req), rng, record));
        expect(readDiceOption(option, record.attack)).not.toBeNull();
        const again = p.resolve(req, recordedDice(JSON.parse(JSON.stringify(record)), p.slots(req)));
        expect(again.numbers).toEqual(live.numbers);
        expect(again.woundKey).toBe(live.woundKey);
        expect(again.numbers.attackerTotal - req.attacker.skill).toBeGreaterThanOrEqual(-20);
      }
    }
  });

  it("a prepared exchange (a simulated fight) throws the option as the pipeline does, table or no table", () => {
    for (const dice of OPTIONS) {
      const input = withDice(dice);
      const ex = prepareExchange(input);
      const req = p.parseRequest(input);
      for (let i = 0; i < 30; i++) {
        const record: Record<string, number[]> = {};
        const full = p.resolve(req, rollingDice(p.slots(req), seededRng(i), record), { explain: false });
        const r = ex.resolution(ex.run(0, 0, seededRng(i)));
        expect(ex.lastDice(), JSON.stringify(dice)).toEqual(record);
        expect([r.outcome, r.woundKey, r.numbers]).toEqual([full.outcome, full.woundKey, full.numbers]);
      }
    }
  });

  for (const dice of OPTIONS)
    it(`exact odds equal brute force over every pair of raw throws: ${JSON.stringify(dice)}`, () => {
      const option = parseDiceOption(dice);
      const input = withDice(dice);
      const brute = bruteOdds(input, option);
      const req = p.parseRequest(input);
      expectSame(flat(exactOddsOf(p, req, true)), brute, "grouped");
      expectSame(flat(exactOddsOf(p, req, false)), brute, "every class");
      // And with a situation that moves the relative degree, and §4.58's critical success (a roll read on its own).
      if (option.id === "4d6F") return; // 1,296 throws a roll: one brute force is enough
      const moved = {
        ...withDice(dice, { criticalLetsPointThrough: true }),
        situation: { modifier: 2, defenderModifier: -1 },
      };
      expectSame(flat(exactOdds(moved)), bruteOdds(moved, option), "modifiers");
    });

  it("the option changes the odds: d6−d6 reaches results 4dF cannot", () => {
    const fourDF = exactOdds(sample);
    const d6d6 = exactOdds(withDice("d6-d6"));
    expect(d6d6.hit).not.toBeCloseTo(fourDF.hit, 3);
    // 4d6 read as Fudge dice are the same dice (§3.21): the same odds.
    const fourD6 = exactOdds(withDice("4d6F"));
    expect(fourD6.hit).toBeCloseTo(fourDF.hit, 12);
    expectSame(flat(fourD6), flat(fourDF), "4d6F = 4dF");
  });
});

// FATE is a Fudge derivative: its world takes the same dice option (docs/foundry.md).
for (const [preset, options] of [
  ["fudge", ["d6-d6", "3d6", CUSTOM_PERCENT]],
  ["fate", ["d6-d6", "3d6"]],
] as const)
  describe(`Fudge §3.21–3.22: ${preset} duel forecasts under the world's dice option`, () => {
    const duel = resolveSamples({ preset, a: "Leroy", b: "Theodora" });
    for (const dice of options)
      it(`the folded forecast equals the enumeration of both rolls' every class: ${JSON.stringify(dice)}`, () => {
        const request = { ...duel, options: { dice } };
        const fast = duelForecast(request);
        const full = duelForecast({ ...request, foldDice: false });
        expect(fast.aOut).toBeCloseTo(full.aOut, 12);
        expect(fast.bOut).toBeCloseTo(full.bOut, 12);
        expect(fast.states).toBe(full.states);
      });

    it("the forecast follows the option: 4d6 read as Fudge dice as 4dF, d6−d6 otherwise", () => {
      const four = duelForecast({ ...duel, options: {} });
      expect(duelForecast({ ...duel, options: { dice: "4d6F" } }).aOut).toBeCloseTo(four.aOut, 12);
      expect(duelForecast({ ...duel, options: { dice: "d6-d6" } }).aOut).not.toBeCloseTo(four.aOut, 4);
    });
  });
