/**
 * The cases of the enumeration golden (tests/rules/enumeration-golden.test.ts): every preset's
 * sample requests under a spread of options, their exact odds (grouped and by every class) and,
 * for the opposed presets, their duel forecasts. `npx tsx tests/rules/enumeration-golden.cases.ts
 * --write` rewrote enumeration-golden.json from the exception-only enumeration before the
 * enumeration's fast paths (issue #10, lane 10e): the fast paths must reproduce it bit for bit.
 */
import { writeFileSync } from "node:fs";
import { resolveSamples } from "../../src/cli/samples";
import { duelForecast, exactOddsOf, pipelineFor } from "../../src/rules";

const CHARACTERS = ["Leroy", "Theodora"];
const MINIS = ["Brutas the Brute", "King Kingsley", "Knavely Knave", "Sir Knightly", "Yanni the Yeoman"];

export const FUDGE_OPTION_SETS: Array<Record<string, unknown>> = [
  {},
  { damageRoll: "dfNumber" },
  { damageRoll: "dfLevel" },
  { damageRoll: "evenOdd" },
  { damageRoll: "situational4dF", grazeDamageRoll: true },
  { woundMode: "minMidMax" },
  { woundMode: "gmJudgement", gmSituationalRoll: true },
  { dcVariant: "roll" },
  { dcVariant: "willpower" },
  { scaleDamageRoll: true },
  { criticalLetsPointThrough: true },
  { willpowerVsPenalty: { difficulty: 1 } },
  { doubleRd: true, lessLethal: true },
  { headBlowKnockout: true },
];

function safe<T>(f: () => T): T | { error: string } {
  try {
    return f();
  } catch (e) {
    return { error: (e as Error).message };
  }
}

export function goldenCases(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const odds = (
    preset: string,
    names: string[],
    optionSets: Array<Record<string, unknown> | undefined>,
    situations: Array<Record<string, unknown>>,
  ) => {
    const p = pipelineFor(preset);
    for (const a of names)
      for (const d of names)
        for (const options of optionSets)
          for (const situation of situations) {
            const key = `odds ${preset} ${a} → ${d} ${JSON.stringify(options ?? {})} ${JSON.stringify(situation)}`;
            out[key] = safe(() => {
              const req = p.parseRequest({
                ...resolveSamples({ preset, attacker: a, defender: d, options }),
                situation,
              });
              return { grouped: exactOddsOf(p, req), every: exactOddsOf(p, req, false) };
            });
          }
  };
  odds("fudge", CHARACTERS, FUDGE_OPTION_SETS, [{}, { headBlow: true, stun: true }]);
  odds("fate", CHARACTERS, [undefined], [{}]);
  odds("volt", CHARACTERS, [undefined], [{}]);
  odds("miniatures", MINIS, [undefined], [{}]);
  for (const options of FUDGE_OPTION_SETS)
    for (const [a, b] of [
      ["Leroy", "Theodora"],
      ["Theodora", "Leroy"],
      ["Leroy", "Leroy"],
    ]) {
      const key = `forecast fudge ${a} vs ${b} ${JSON.stringify(options)}`;
      out[key] = safe(() => duelForecast(resolveSamples({ preset: "fudge", a, b, options })));
    }
  out["forecast fate Leroy vs Theodora"] = safe(() =>
    duelForecast(resolveSamples({ preset: "fate", a: "Leroy", b: "Theodora" })),
  );
  return out;
}

if (process.argv.includes("--write"))
  writeFileSync(new URL("./enumeration-golden.json", import.meta.url), JSON.stringify(goldenCases(), null, 1) + "\n");
