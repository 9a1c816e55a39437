/**
 * Recorded dice are a claim (a chat card's data, a CLI request): every recorded slot must be one
 * the request's pipeline can roll, with faces its dice can show, whether or not this resolution
 * reads it (issue #10, "Hard budgets, clean refusals"; docs/rules-api.md "Hostile input").
 */
import { describe, expect, it } from "vitest";
import { seededRng, RulesError, checkRecordedDice, pipelineFor, resolveAttack, rollAttack } from "../../src/rules";
import { resolveSamples } from "../../src/cli/samples";
import { caught } from "./errors";

const sample = (preset: string, attacker: string, defender: string, extra: Record<string, unknown> = {}) =>
  resolveSamples({ preset, attacker, defender, ...extra });

/** Every preset, and the Fudge options that add a slot (each damage roll, the DC roll, the situational roll, Scale, Willpower). */
const REQUESTS: Array<[string, Record<string, unknown>]> = [
  ["fudge", sample("fudge", "Leroy", "Theodora")],
  [
    "fudge dfNumber + DC roll + scale roll",
    sample("fudge", "Leroy", "Theodora", {
      options: { damageRoll: "dfNumber", dcVariant: "roll", scaleDamageRoll: true },
    }),
  ],
  ["fudge dfLevel", sample("fudge", "Leroy", "Theodora", { options: { damageRoll: "dfLevel" } })],
  [
    "fudge situational4dF + DC willpower",
    sample("fudge", "Leroy", "Theodora", { options: { damageRoll: "situational4dF", dcVariant: "willpower" } }),
  ],
  [
    "fudge Min-Mid-Max + Willpower vs penalty",
    sample("fudge", "Leroy", "Theodora", {
      options: { woundMode: "minMidMax", willpowerVsPenalty: { difficulty: 0 } },
    }),
  ],
  [
    "fudge GM judgement with its roll",
    sample("fudge", "Leroy", "Theodora", {
      options: { woundMode: "gmJudgement", gmSituationalRoll: true },
      situation: { gmLevel: "hurt" },
    }),
  ],
  ["fate", sample("fate", "Leroy", "Theodora")],
  ["volt", sample("volt", "Leroy", "Theodora")],
  ["miniatures", sample("miniatures", "Yanni", "Knavely")],
];

const slotsOf = (input: Record<string, unknown>) => {
  const p = pipelineFor(input.preset);
  return p.slots(p.parseRequest(input));
};

/** Faces no die of the slot can show, or the wrong count: each must be refused naming `dice.<slot>`. */
const BAD_FACES: Array<[string, (faces: number[], sides: { lowest: number; highest: number }) => unknown]> = [
  ["one face too many", (f) => [...f, f[0]]],
  ["one face too few", (f) => f.slice(0, -1)],
  ["a face above the highest", (f, s) => [s.highest + 1, ...f.slice(1)]],
  ["a face below the lowest", (f, s) => [...f.slice(0, -1), s.lowest - 1]],
  ["a fraction", (f) => [0.5, ...f.slice(1)]],
  ["text", (f) => ["1", ...f.slice(1)]],
  ["not a list", () => 3],
  ["null", () => null],
];

describe("recorded dice: each slot known, its faces valid, read or not", () => {
  it("a misspelt slot is refused by name (dice.damge), listing the slots the attack rolls", () => {
    const input = REQUESTS[1][1];
    const e = caught(() => resolveAttack(input, { attack: [1, 1, 0, 0], defense: [0, 0, 0, 0], damge: [1] }));
    expect(e.key).toBe("FUDGE.Error.UnknownDiceSlot");
    expect(e.field).toBe("dice.damge");
    expect(e.params.known).toBe("attack, defense, damage, dc, scale");
  });

  it("a slot of another option is refused: damage dice with no damage roll (Fudge default)", () => {
    const e = caught(() => resolveAttack(REQUESTS[0][1], { attack: [1, 1, 0, 0], defense: [0, 0, 0, 0], damage: [1] }));
    expect([e.key, e.field]).toEqual(["FUDGE.Error.UnknownDiceSlot", "dice.damage"]);
  });

  it("unread dice are still checked: Min-Mid-Max damage of [7, 1, 1] with a miss", () => {
    const input = sample("fudge", "Leroy", "Theodora", { options: { woundMode: "minMidMax" } });
    const miss = { attack: [-1, -1, -1, -1], defense: [1, 1, 1, 1] };
    expect(resolveAttack(input, { ...miss, damage: [1, 2, 3] }).outcome).toBe("miss");
    expect(resolveAttack(input, { ...miss, damage: [1, 2, 3] }).dice).toEqual(miss); // accepted, not read
    const e = caught(() => resolveAttack(input, { ...miss, damage: [7, 1, 1] }));
    expect([e.key, e.field]).toEqual(["FUDGE.Error.OutOfRange", "dice.damage[0]"]);
  });

  it("Volt: injuryDamage on a plain Hit (not read) stays accepted; bad faces or a weapon without Stun are refused", () => {
    const input = sample("volt", "Leroy", "Theodora");
    const stun = {
      ...input,
      attacker: {
        ...(input.attacker as object),
        weapon: { ...(input.attacker as { weapon: object }).weapon, stun: true },
      },
    };
    const ids = slotsOf(stun).map((s) => s.id);
    expect(ids).toEqual(["attack", "damage", "injuryDamage"]);
    // Whatever the attack roll, a recorded injury roll of valid faces is accepted (a chat card rolls it before it knows).
    for (const attack of [
      [1, 1],
      [20, 20],
      [10, 11],
    ])
      expect(() => resolveAttack(stun, { attack, damage: [5, 6], injuryDamage: [3, 3] })).not.toThrow();
    expect(caught(() => resolveAttack(stun, { attack: [20, 20], damage: [5, 6], injuryDamage: [21, 3] })).field).toBe(
      "dice.injuryDamage[0]",
    );
    expect(caught(() => resolveAttack(stun, { attack: [20, 20], damage: [5, 6], injuryDamage: [3, 3, 3] })).field).toBe(
      "dice.injuryDamage",
    );
    const plain = {
      ...input,
      attacker: {
        ...(input.attacker as object),
        weapon: { ...(input.attacker as { weapon: object }).weapon, stun: false },
      },
    };
    expect(caught(() => resolveAttack(plain, { attack: [20, 20], damage: [5, 6], injuryDamage: [3, 3] })).key).toBe(
      "FUDGE.Error.UnknownDiceSlot",
    );
  });

  it("Miniatures: the crash roll is checked as a Legendary roll even when not read (four + needs its re-roll)", () => {
    const input = REQUESTS[8][1];
    const atk = { attack: [1, 0, 0, 0] };
    expect(() => resolveAttack(input, { ...atk, crash: [1, 1, 1, 1, 0, 0, 0, 0] })).not.toThrow();
    const e = caught(() => resolveAttack(input, { ...atk, crash: [1, 1, 1, 1] }));
    expect([e.key, e.field]).toEqual(["FUDGE.Error.Miniatures.LegendaryMissing", "dice.crash"]);
  });

  it("a __proto__ or constructor slot is an unknown slot, and nothing is polluted", () => {
    const input = REQUESTS[6][1];
    const dice = JSON.parse('{"attack":[0,0,0,0],"defense":[0,0,0,0],"__proto__":{"polluted":1}}') as Record<
      string,
      unknown
    >;
    expect(caught(() => resolveAttack(input, dice)).field).toBe("dice.__proto__");
    expect(
      caught(() => resolveAttack(input, { attack: [0, 0, 0, 0], defense: [0, 0, 0, 0], constructor: [1] })).field,
    ).toBe("dice.constructor");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  // Property pass: for every preset and option set, 40 seeded rolls of every slot resolve; each
  // slot's faces broken eight ways are refused naming that slot, whether the resolution reads it or not.
  for (const [label, input] of REQUESTS)
    it(`property: ${label} — every rolled record resolves, every broken slot is refused by name`, () => {
      const slots = slotsOf(input);
      const rng = seededRng(label.length * 7919);
      let refusedUnread = 0;
      for (let n = 0; n < 40; n++) {
        const record: Record<string, number[]> = {};
        for (const s of slots) record[s.id] = s.roll(rng);
        const r = resolveAttack(input, record);
        // What a resolution reads is a subset of the record, and re-derives alike from itself.
        for (const [id, faces] of Object.entries(r.dice)) expect(faces).toEqual(record[id]);
        expect(resolveAttack(input, r.dice).outcome).toBe(r.outcome);
        for (const s of slots) {
          const lowest = s.uniform?.lowest ?? -1;
          const highest = s.uniform ? s.uniform.lowest + s.uniform.sides - 1 : 1;
          for (const [what, broken] of BAD_FACES) {
            const e = caught(() =>
              resolveAttack(input, { ...record, [s.id]: broken(record[s.id], { lowest, highest }) as number[] }),
            );
            expect(e, `${s.id}: ${what}`).toBeInstanceOf(RulesError);
            expect(
              e.field === `dice.${s.id}` || e.field.startsWith(`dice.${s.id}[`),
              `${s.id}: ${what} → ${e.field}`,
            ).toBe(true);
            if (!(s.id in r.dice)) refusedUnread++;
          }
        }
        expect(caught(() => resolveAttack(input, { ...record, zzUnknown: [0] })).key).toBe(
          "FUDGE.Error.UnknownDiceSlot",
        );
      }
      // Where some slot goes unread (every option with a later roll), its broken faces were refused too.
      if (slots.length > 2) expect(refusedUnread).toBeGreaterThan(0);
    });

  it("every live roll's record passes the check (what a chat card writes, it can re-derive)", () => {
    for (const [, input] of REQUESTS) {
      const rng = seededRng(5);
      for (let n = 0; n < 50; n++) {
        const r = rollAttack(input, rng);
        expect(() => checkRecordedDice(r.dice, slotsOf(input))).not.toThrow();
      }
    }
  });
});
