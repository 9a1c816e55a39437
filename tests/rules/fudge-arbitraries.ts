/** fast-check arbitraries for Fudge requests over every option (shared by the exchange and odds property tests). */
import fc from "fast-check";
import { pipelineFor, newTrack, type Track } from "../../src/rules";
import { boxTrackConfig, dcTrackConfig } from "../../src/rules/fudge";

const sizes = ["none", "martialArt", "small", "medium", "large", "twoHanded"];
export const fighter = fc.record({
  skill: fc.integer({ min: -2, max: 3 }),
  strength: fc.integer({ min: -2, max: 3 }),
  strengthScale: fc.integer({ min: 0, max: 3 }),
  massScale: fc.integer({ min: 0, max: 3 }),
  damageCapacity: fc.integer({ min: -2, max: 2 }),
  willpower: fc.integer({ min: -2, max: 2 }),
  armor: fc.integer({ min: 0, max: 3 }),
  size: fc.constantFrom(...sizes),
  sharp: fc.boolean(),
  stunCapable: fc.boolean(),
  shield: fc.constantFrom("none", "small", "medium", "large"),
  dcGift: fc.constantFrom("none", "damageResistant", "fragile"),
});
export type F = typeof fighter extends fc.Arbitrary<infer T> ? T : never;

export const fudgeOptions = fc.record({
  doubleRd: fc.boolean(),
  woundMode: fc.constantFrom("factors", "minMidMax", "gmJudgement"),
  damageRoll: fc.constantFrom("none", "dfNumber", "dfLevel", "evenOdd", "situational4dF"),
  grazeDamageRoll: fc.boolean(),
  gmSituationalRoll: fc.boolean(),
  dcVariant: fc.constantFrom("factor", "roll", "gift", "track", "willpower"),
  dcAdjust: fc.constantFrom("level", "point"),
  weaponShieldMismatch: fc.boolean(),
  scaleDamageRoll: fc.boolean(),
  criticalLetsPointThrough: fc.boolean(),
  headBlowKnockout: fc.boolean(),
  lessLethal: fc.boolean(),
  willpower: fc.boolean(),
  scaleRaise: fc.constantFrom("perPoint", "one", "none"),
  trackPreset: fc.constantFrom("standard", "cinematic", "pawn"),
  safeguards: fc.boolean(),
});
export const fudgeSituation = fc.record({
  modifier: fc.integer({ min: -2, max: 2 }),
  allOutAttack: fc.boolean(),
  stun: fc.boolean(),
  headBlow: fc.boolean(),
  pullPunch: fc.constantFrom(null, "hurt"),
  gmLevel: fc.constantFrom(null, "none", "scratch", "veryHurt"),
});

export function fudgeRequest(
  a: F,
  d: F,
  o: typeof fudgeOptions extends fc.Arbitrary<infer T> ? T : never,
  s: typeof fudgeSituation extends fc.Arbitrary<infer T> ? T : never,
) {
  const track = (): Track =>
    o.dcVariant === "track"
      ? newTrack(dcTrackConfig(2, { doubleRd: o.doubleRd }))
      : newTrack(
          boxTrackConfig(o.trackPreset, {
            doubleRd: o.doubleRd,
            safeguards: o.safeguards ? { maxThreeLevels: true, nearDeathNeedsIncapacitated: true } : {},
          }),
        );
  const combatant = ({ armor, size, sharp, stunCapable, ...traits }: F, name: string) => ({
    name,
    ...traits,
    armor: { value: armor },
    weapon: { name: "W", kind: "muscle", size, sharp, stunCapable },
    track: track(),
  });
  const { willpower, scaleRaise, trackPreset: _t, safeguards: _s, ...rest } = o;
  const pullPunch = s.pullPunch === "hurt" && o.trackPreset === "pawn" ? null : s.pullPunch;
  const gmLevel = s.gmLevel === "veryHurt" && o.trackPreset === "pawn" ? "hurt" : s.gmLevel;
  return {
    preset: "fudge",
    attacker: combatant(a, "A"),
    defender: combatant(d, "D"),
    options: { ...rest, graze: { scaleRaise }, willpowerVsPenalty: willpower ? { difficulty: 0 } : null },
    situation: { ...s, pullPunch, gmLevel },
  };
}

/** The request and its parse, or null for a combination the parser refuses (e.g. a DC track option on a sheet that lacks it). */
export function parsedFudgeRequest(
  a: F,
  d: F,
  o: Parameters<typeof fudgeRequest>[2],
  s: Parameters<typeof fudgeRequest>[3],
) {
  const input = fudgeRequest(a, d, o, s);
  try {
    return { input, req: pipelineFor("fudge").parseRequest(input) };
  } catch {
    return null;
  }
}
