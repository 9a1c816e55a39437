import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type AttackResolution, pipelineFor, resolveAttack, newTrack } from "../../src/rules";
import type { Step } from "../../src/rules";
import {
  boxTrackConfig,
  dcTrackConfig,
  DC_VARIANTS,
  MMM_DICE,
  SCALE_PIERCING,
  SHIELDS,
  WEAPON_SIZES,
  unopposedRoll,
  unopposedRollWithDice,
  willpowerEasedPenalty,
} from "../../src/rules/fudge";

const lang = JSON.parse(readFileSync("lang/en.json", "utf8")) as Record<string, string>;
const allParts = lang;

const sources = readdirSync("src/rules/fudge").map((f) => readFileSync(`src/rules/fudge/${f}`, "utf8"));

describe("fudge i18n keys", () => {
  it("every FUDGE.*.Fudge.* key in the code has English text in lang/en.json", () => {
    const used = new Set(
      sources.flatMap((s) => [...s.matchAll(/"(FUDGE\.(?:Step|Error|Dice)\.Fudge\.[A-Za-z]+)"/g)].map((m) => m[1])),
    );
    expect(used.size).toBeGreaterThan(50);
    for (const k of used) expect(lang[k], k).toBeTypeOf("string");
  });
  it("templated parameter keys exist for every value", () => {
    for (const v of WEAPON_SIZES) expect(lang[`FUDGE.Fudge.Size.${v}`]).toBeTypeOf("string");
    for (const v of SHIELDS) expect(lang[`FUDGE.Fudge.Shield.${v}`]).toBeTypeOf("string");
    for (const v of SCALE_PIERCING) expect(lang[`FUDGE.Fudge.ScalePiercing.${v}`]).toBeTypeOf("string");
    for (const v of DC_VARIANTS) expect(lang[`FUDGE.Fudge.DcVariant.${v}`]).toBeTypeOf("string");
    for (const v of MMM_DICE) expect(lang[`FUDGE.Fudge.Mmm.${v}`]).toBeTypeOf("string");
  });

  it("every placeholder of a step's text is filled by its params", () => {
    const weapon = {
      name: "Mace",
      kind: "muscle",
      size: "large",
      sharp: false,
      heavyBlunt: true,
      stunCapable: true,
      scalePiercing: "halve",
    };
    const fighter = (over: Record<string, unknown> = {}) => ({
      name: "F",
      skill: 1,
      strength: 1,
      weapon,
      armor: { value: 2, magic: 1 },
      shield: "medium",
      toughHide: 1,
      massScale: 2,
      willpower: 1,
      dcGift: "fragile",
      track: newTrack(boxTrackConfig("standard")),
      ...over,
    });
    const hurt = { config: boxTrackConfig("standard"), state: { marks: { hurt: [{ level: "hurt" }] } } };
    const req = (
      options: Record<string, unknown>,
      situation: Record<string, unknown> = {},
      def: Record<string, unknown> = {},
    ) => ({
      preset: "fudge",
      attacker: fighter({ track: hurt, strengthScale: 3 }),
      defender: fighter(def),
      options,
      situation,
    });
    const runs: AttackResolution[] = [];
    // One set of dice for every option: each request gets the slots it can roll (a slot it cannot roll is refused).
    const resolveRolled = (input: Record<string, unknown>, d: Record<string, number[]>) => {
      const p = pipelineFor("fudge");
      const ids = new Set(p.slots(p.parseRequest(input)).map((s) => s.id));
      return resolveAttack(input, Object.fromEntries(Object.entries(d).filter(([k]) => ids.has(k))));
    };
    const dice = (atk: number[], def: number[]) => ({
      attack: atk,
      defense: def,
      damage: [1, 0, 0, 0],
      dc: [-1, -1, 0, 0],
      situational: [1, 1, 1, 0],
    });
    const hit = dice([1, 1, 1, 1], [-1, -1, -1, 0]);
    const graze = dice([0, 0, 0, 0], [-1, -1, 0, 0]);
    const miss = dice([-1, 0, 0, 0], [1, 1, 0, 0]);
    const d1 = (d: Record<string, number[]>) => ({ ...d, damage: [1] });
    const d3 = (d: Record<string, number[]>) => ({ ...d, damage: [2, 5, 3] });
    runs.push(
      resolveRolled(
        req(
          { lessLethal: true, doubleRd: true },
          { modifier: 1, defenderModifier: -1, allOutAttack: true, stun: true, pullPunch: "incapacitated" },
        ),
        hit,
      ),
    );
    runs.push(resolveRolled(req({}, { allOutAttack: true, allOutDefense: true }), miss));
    runs.push(resolveRolled(req({}, { attackerFudgePoint: 1, defenderFudgePoint: -1 }), miss));
    runs.push(resolveRolled(req({ damageRoll: "evenOdd", grazeDamageRoll: true }), graze));
    runs.push(resolveRolled(req({ damageRoll: "dfNumber" }), d1(hit)));
    runs.push(resolveRolled(req({ damageRoll: "dfLevel", grazeDamageRoll: true }), d1(graze)));
    runs.push(resolveRolled(req({ damageRoll: "dfLevel" }), d1(hit)));
    runs.push(resolveRolled(req({ damageRoll: "situational4dF", dcVariant: "roll", dcAdjust: "point" }), hit));
    runs.push(resolveRolled(req({ woundMode: "minMidMax", dcVariant: "gift" }), d3(hit)));
    runs.push(resolveRolled(req({ woundMode: "gmJudgement", gmSituationalRoll: true }, { gmLevel: "hurt" }), hit));
    runs.push(
      resolveRolled(req({ woundMode: "gmJudgement", gmSituationalRoll: true }, { gmLevel: "hurt" }), {
        ...hit,
        situational: [1, 1, 0, 0],
      }),
    );
    runs.push(resolveRolled(req({ woundMode: "gmJudgement" }), hit));
    runs.push(resolveRolled(req({ dcVariant: "willpower" }, {}, { dcGift: "damageResistant" }), hit));
    runs.push(resolveRolled(req({ dcVariant: "gift" }, {}, { dcGift: "damageResistant" }), hit));
    runs.push(resolveRolled(req({ dcVariant: "track" }, { stun: true }, { track: newTrack(dcTrackConfig(1)) }), hit));
    runs.push(
      resolveRolled(
        { ...req({}, { stun: true }), attacker: fighter({ weapon: { ...weapon, sharp: true, stunCapable: false } }) },
        hit,
      ),
    );
    runs.push(resolveRolled(req({}), dice([0, 0, 0, 0], [-1, 0, 0, 0])));
    // Issue #10 options: magic weapon, weapon + shield mismatch, critical point, Scale damage roll, head blow, Willpower vs penalty.
    const plain = (over: Record<string, unknown> = {}) => ({
      name: "P",
      skill: 1,
      weapon: { name: "Knife", kind: "muscle", size: "small", magic: 1 },
      track: newTrack(boxTrackConfig("standard")),
      ...over,
    });
    runs.push(
      resolveRolled(
        {
          preset: "fudge",
          attacker: plain(),
          defender: plain({ weapon: { name: "Greatsword", kind: "muscle", size: "twoHanded", sharp: true } }),
          options: { weaponShieldMismatch: true },
        },
        hit,
      ),
    );
    runs.push(
      resolveRolled(
        {
          preset: "fudge",
          attacker: plain({ weapon: { name: "Greatsword", kind: "muscle", size: "twoHanded", sharp: true } }),
          defender: plain(),
          options: { weaponShieldMismatch: true },
        },
        hit,
      ),
    );
    runs.push(
      resolveRolled(
        {
          preset: "fudge",
          attacker: plain(),
          defender: plain({ armor: { value: 20 } }),
          options: { criticalLetsPointThrough: true },
        },
        hit,
      ),
    );
    runs.push(
      resolveRolled(
        {
          preset: "fudge",
          attacker: plain(),
          defender: plain({ massScale: 3, armor: { value: 6 } }),
          options: { scaleDamageRoll: true },
        },
        { ...hit, scale: [1] },
      ),
    );
    runs.push(
      resolveRolled(
        {
          preset: "fudge",
          attacker: plain({ weapon: { ...weapon, magic: 0 } }),
          defender: plain(),
          options: { headBlowKnockout: true },
          situation: { stun: true, headBlow: true },
        },
        graze,
      ),
    );
    runs.push(
      resolveRolled(
        {
          preset: "fudge",
          attacker: plain({ willpower: 2, track: hurt }),
          defender: plain(),
          options: { willpowerVsPenalty: { difficulty: 1 } },
        },
        { ...hit, attackerWill: [0, 0, 0, 0] },
      ),
    );
    runs.push(
      resolveRolled(
        req(
          {},
          {},
          {
            track: {
              config: boxTrackConfig("standard"),
              state: { marks: { hurt: [{ level: "hurt", stun: true }] }, stun: { effect: "stunned", rounds: 1 } },
            },
          },
        ),
        hit,
      ),
    );
    // Fudge §4.52 (4): the Willpower adjustment "temporary - until the battle is over".
    runs.push(
      resolveRolled(
        {
          preset: "fudge",
          attacker: plain(),
          defender: plain({ willpower: 0 }),
          options: { dcVariant: "willpower", willpowerAdjustment: "untilBattleEnds" },
        },
        { ...hit, dc: [1, 1, 0, 0] },
      ),
    );
    // Fudge §4.54: "If the defender has Mass other than Fair … it should also be figured in."
    runs.push(resolveRolled(req({}, {}, { mass: 1 }), hit));
    runs.push(resolveRolled(req({}, {}, { armor: { value: 20 } }), hit));
    runs.push(resolveRolled(req({}, {}, { armor: { value: 12 } }), graze));
    runs.push(
      resolveRolled(
        { ...req({}), attacker: fighter({ weapon: { kind: "fixed", strength: 2 }, strengthScale: 2 }) },
        hit,
      ),
    );
    // Fudge §4.52 (1): Damage Capacity without a roll against this weapon.
    runs.push(
      resolveRolled(
        { ...req({ dcVariant: "roll" }), attacker: fighter({ weapon: { ...weapon, dcWithoutRoll: true } }) },
        hit,
      ),
    );
    const steps: Step[] = runs.flatMap((r) => [...r.steps, ...r.followUps.flatMap((f) => f.steps)]);
    steps.push(
      ...unopposedRoll(1, [0, 0, 0, 1], 2, -1).steps,
      ...unopposedRoll(1, [0, 0, 0, 1]).steps,
      ...unopposedRoll(1, [0, 0, 0, 1], 0, 0, undefined, true).steps,
      // Fudge §3.22: a trait roll with another of the text's dice.
      ...unopposedRollWithDice("d6-d6", 1, [[5, 1]], 2).steps,
    );
    // Fudge §4.51: the Willpower roll that eases a trait roll's wound penalty.
    steps.push(willpowerEasedPenalty(1, [0, 0, 0, 1], 0, -2).step);
    const seen = new Set<string>();
    for (const s of steps) {
      if (!s.key.includes(".Fudge.")) continue;
      seen.add(s.key);
      const text = lang[s.key];
      expect(text, s.key).toBeTypeOf("string");
      for (const [, name] of text.matchAll(/\{(\w+)\}/g)) expect(s.params?.[name], `${s.key} {${name}}`).toBeDefined();
      // Parameters that are i18n keys must have text somewhere.
      for (const v of Object.values(s.params ?? {}))
        if (typeof v === "string" && v.startsWith("FUDGE.")) expect(allParts[v], `${s.key}: ${v}`).toBeTypeOf("string");
    }
    const stepKeys = Object.keys(lang).filter((k) => k.startsWith("FUDGE.Step.Fudge."));
    const unseen = stepKeys.filter((k) => !seen.has(k));
    expect(unseen).toEqual([]);
  });
});
