/**
 * Golden parses: parsing + validating a request must keep giving, for every input, what it gave
 * when this fixture was written (before the parse's speed work): the same parsed request (same
 * JSON) or the same refusal (same field path, key, message and params). 4,000 inputs: the sample
 * requests of every preset, a Fudge request with every option set and tracks with levels of
 * their own, each with one to three fields changed anywhere in the tree — deleted, set to a value
 * of the wrong type or out of range, or an unknown field added. The fixture holds a digest of each
 * outcome (tests/fixtures/parse-golden.json). Regenerate only for a deliberate change of what a
 * parse accepts or says: `UPDATE_GOLDEN=1 npx vitest run tests/rules/parse-golden.test.ts`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveSamples } from "./text-traits";
import { RulesError, pipelineFor, parseTrack } from "../../src/rules";
import { expectGoldenDigests } from "./golden-digests";

const FIXTURE = new URL("../fixtures/parse-golden.json", import.meta.url);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const fudge = resolveSamples({ preset: "fudge", attacker: "Leroy", defender: "Theodora" }) as Record<string, Json>;
const customTrack = (): Json => {
  const t = JSON.parse(JSON.stringify((fudge.defender as Record<string, Json>).track)) as {
    config: { levels: Array<Record<string, Json>> };
    state: { marks: Record<string, Json[]> };
  };
  t.config.levels[1].label = "Bruised";
  t.config.levels.splice(2, 0, {
    key: "sore",
    boxes: 2,
    penalty: -1,
    effect: "penalty",
    min: 4,
    tag: "So",
    label: "Sore",
  });
  t.config.levels[3].min = 6;
  t.state.marks.sore = [{ level: "sore" }, null];
  t.state.marks.scratch = [{ level: "scratch" }, null, null];
  return t as unknown as Json;
};
const everyOption: Record<string, Json> = {
  ...JSON.parse(JSON.stringify(fudge)),
  options: {
    lessLethal: true,
    doubleRd: false,
    graze: {
      table: [
        { min: 0, level: "scratch" },
        { min: 4, level: "hurt" },
      ],
      scaleRaise: "perPoint",
    },
    damageRoll: "dfLevel",
    grazeDamageRoll: true,
    woundMode: "factors",
    minMidMax: {
      severeNegative: true,
      table: [
        { min: -1, die: "min", add: 0 },
        { min: 0, die: "mid", add: 0 },
        { min: 1, die: "max", add: 1 },
      ],
    },
    gmSituationalRoll: false,
    dcVariant: "roll",
    dcAdjust: "point",
    weaponShieldMismatch: true,
    scaleDamageRoll: true,
    criticalLetsPointThrough: true,
    headBlowKnockout: true,
    willpowerVsPenalty: { difficulty: 1 },
  },
  situation: {
    modifier: 1,
    defenderModifier: -1,
    allOutAttack: false,
    allOutDefense: false,
    stun: false,
    pullPunch: "veryHurt",
    beganRoundIncapacitated: false,
    spendFudgePoint: true,
    gmLevel: null,
    headBlow: false,
  },
};
const customTracks: Record<string, Json> = {
  ...JSON.parse(JSON.stringify(fudge)),
  defender: { ...(fudge.defender as Record<string, Json>), track: customTrack() },
};

const bases: Array<[string, Record<string, Json>]> = [
  ["fudge samples", fudge],
  ["fudge every option", everyOption],
  ["fudge custom levels", customTracks],
  [
    "miniatures",
    resolveSamples({ preset: "miniatures", attacker: "Brutas the Brute", defender: "Yanni the Yeoman" }) as Record<
      string,
      Json
    >,
  ],
  ["fate", resolveSamples({ preset: "fate", attacker: "Leroy", defender: "Theodora" }) as Record<string, Json>],
  ["volt", resolveSamples({ preset: "volt", attacker: "Leroy", defender: "Theodora" }) as Record<string, Json>],
];

/** Every path to an object or array in the tree (where a field can be changed, deleted or added). */
function containers(
  v: Json,
  path: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  if (v === null || typeof v !== "object") return out;
  out.push(path);
  if (Array.isArray(v)) v.forEach((c, i) => containers(c, [...path, i], out));
  else for (const [k, c] of Object.entries(v)) containers(c, [...path, k], out);
  return out;
}

const odd: Json[] = [
  null,
  0,
  -1,
  1,
  2,
  3,
  1.5,
  -0.5,
  11,
  -11,
  21,
  51,
  1000,
  "",
  "x",
  "box",
  "scratch",
  "hurt",
  "dead",
  "none",
  "fixed",
  "large",
  "evenOdd",
  "track",
  "S",
  true,
  false,
  [],
  {},
  [null],
  { level: "hurt" },
  "a".repeat(60),
  "b".repeat(61),
  "  Sore  ",
  "9x",
  "Ab_c-9",
  "abcd",
];

function outcome(input: Record<string, Json>, trackOnly: boolean): string {
  try {
    const parsed = trackOnly ? parseTrack(input, "track") : pipelineFor(input.preset).parseRequest(input);
    return `ok ${JSON.stringify(parsed)}`;
  } catch (e) {
    if (!(e instanceof RulesError)) throw e;
    return `error ${e.field} ${e.key} ${e.message} ${JSON.stringify(e.params)}`;
  }
}

function cases(): Array<{ label: string; out: string }> {
  const out: Array<{ label: string; out: string }> = [];
  const draws = fc.sample(
    fc.tuple(
      fc.nat(bases.length),
      fc.boolean(),
      fc.array(fc.tuple(fc.nat(10_000), fc.nat(10_000), fc.nat(odd.length + 1)), { minLength: 1, maxLength: 3 }),
    ),
    { seed: 1011, numRuns: 4000 },
  );
  for (const [b, trackOnly, changes] of draws) {
    const [name, base] = bases[b % bases.length];
    const whole = JSON.parse(JSON.stringify(base)) as Record<string, Json>;
    // Half the track-only cases parse the defender's track on its own (parseTrack).
    const input =
      trackOnly && b % 2 === 0 ? ((whole.defender as Record<string, Json>).track as Record<string, Json>) : whole;
    const asTrack = input !== whole;
    const done: string[] = [];
    for (const [pi, fi, vi] of changes) {
      const all = containers(input);
      const path = all[pi % all.length];
      let target = input as Json;
      for (const k of path) target = (target as Record<string, Json>)[k as string];
      const keys = Array.isArray(target) ? target.map((_, i) => i) : Object.keys(target as object);
      const field =
        keys.length === 0 || (vi === odd.length + 1 && !Array.isArray(target))
          ? Array.isArray(target)
            ? 0
            : "bogus"
          : keys[fi % keys.length];
      if (vi === odd.length) {
        if (Array.isArray(target))
          target.splice(field as number, 1); // JSON has no holes
        else delete (target as Record<string, Json>)[field as string];
      } else
        (target as Record<string, Json>)[field as string] =
          vi === odd.length + 1 ? 1 : (JSON.parse(JSON.stringify(odd[vi])) as Json);
      done.push(
        `${[...path, field].join(".")}=${vi === odd.length ? "(deleted)" : JSON.stringify(vi === odd.length + 1 ? 1 : odd[vi])}`,
      );
    }
    out.push({ label: `${name}${asTrack ? " (track)" : ""}: ${done.join(", ")}`, out: outcome(input, asTrack) });
  }
  // Every field of every level of the track with levels of its own, set to every odd value or deleted.
  const custom = (customTracks.defender as Record<string, Json>).track as {
    config: { levels: Array<Record<string, Json>> };
  };
  custom.config.levels.forEach((_, li) => {
    for (const field of ["key", "boxes", "penalty", "effect", "min", "tag", "label"]) {
      for (let vi = 0; vi <= odd.length; vi++) {
        const t = JSON.parse(JSON.stringify(custom)) as { config: { levels: Array<Record<string, Json>> } };
        if (vi === odd.length) delete t.config.levels[li][field];
        else t.config.levels[li][field] = JSON.parse(JSON.stringify(odd[vi])) as Json;
        out.push({
          label: `custom track: levels.${li}.${field}=${vi === odd.length ? "(deleted)" : JSON.stringify(odd[vi])}`,
          out: outcome(t as unknown as Record<string, Json>, true),
        });
      }
    }
  });
  return out;
}

describe("golden parses: the same parsed request or the same refusal as before the speed work", () => {
  it("4,000 requests and tracks with one to three fields changed, and every field of every custom level", () => {
    const got = cases();
    expectGoldenDigests(
      FIXTURE,
      got.map((c) => ({ label: c.label, text: c.out })),
    );
    // The changes reach both outcomes and many fields.
    const errors = got.filter((c) => c.out.startsWith("error"));
    expect(errors.length).toBeGreaterThan(1000);
    expect(got.length - errors.length).toBeGreaterThan(100);
    expect(new Set(errors.map((c) => c.out.split(" ")[1])).size).toBeGreaterThan(150);
  });
});
