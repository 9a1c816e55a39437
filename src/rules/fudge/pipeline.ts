/**
 * The attack pipeline of the `fudge` preset (Fudge 1995 §4.5x, RULES.md §2): an opposed combat
 * roll, the damage factors, the wound by the chosen method, Damage Capacity variants, stun and
 * pulled punches, and the wound placed on the defender's track (resolve.ts).
 */
import { FOUR_DF_WEIGHTS, facesForTotal } from "../dice";
import { diceOptionClasses, diceOptionKey, type DiceOption } from "../dice-options";
import type { AttackPipeline, DiceSlot, PairedOutcomes } from "../pipeline";
import { trackStatus } from "../track";
import { fudgeWithTracks } from "./prepared";
import { fudgeSlots, parseFudgeRequest, type FudgeRequest } from "./request";
import { checkFudgeAttacker, resolveFudge } from "./resolve";

/**
 * Exact odds by relative degree (Fudge §3.5: an opposed roll is read as the difference of the two
 * results). Unless an option reads one of the two rolls on its own — the even/odd damage roll
 * (§4.61), the critical point (§4.58: all four dice +), the head-blow knockout (§4.62: a Good
 * blow), or Willpower rolls that move the totals before the opposed roll (§4.51) — the resolution
 * depends on the attack and defence dice only through attackRoll − defenseRoll, so the 81 pairs
 * of 4dF totals fall into 17 classes; every class with RD ≤ −1 is a miss that reads nothing more
 * (the pipeline returns before the damage step), so those merge into one. Checked against the
 * enumeration of all 81 pairs in tests/rules/odds-classes.test.ts.
 */
export function fudgePairedOutcomes(req: FudgeRequest): PairedOutcomes | null {
  const o = req.options;
  if (o.woundMode === "factors" && o.damageRoll === "evenOdd") return null;
  if (o.criticalLetsPointThrough || o.willpowerVsPenalty) return null;
  if (o.headBlowKnockout && req.situation.headBlow && req.situation.stun) return null;
  // The relative degree of two rolls of 0, from the pipeline itself (the other slots' first classes
  // stand in for dice a hit might read; a refusal — an attacker who cannot act — leaves no classes).
  let slots: DiceSlot[] | null = null;
  const classes = o.dice === undefined ? DIFFERENCE_CLASSES : optionDifferenceClasses(o.dice);
  // Two rolls of the same result (0 under 4dF): their difference is 0.
  const same = o.dice === undefined ? (ZERO_4DF as number[]) : diceOptionClasses(o.dice)[0].dice;
  let base: number;
  try {
    base = resolveFudge(
      req,
      (id) =>
        id === "attack" || id === "defense"
          ? same
          : (slots ??= fudgeSlots(req)).find((s) => s.id === id)!.outcomes()[0].dice,
      { explain: false, preview: false },
    ).numbers.relativeDegree;
  } catch {
    return null;
  }
  const outcomes: PairedOutcomes["outcomes"] = [];
  let missP = 0;
  let miss: [number[], number[]] | null = null;
  for (const c of classes) {
    if (base + c.diff <= -1) {
      missP += c.p;
      miss = c.dice; // the last one: RD −1 when it can be reached
    } else outcomes.push(c);
  }
  if (miss) outcomes.push({ dice: miss, p: missP });
  return { slots: ["attack", "defense"], outcomes };
}

const ZERO_4DF: readonly number[] = Object.freeze([0, 0, 0, 0]);

/**
 * attackRoll − defenseRoll of two 4dF rolls: 17 classes (−8 … +8), each with its probability
 * (the ways out of 81 × 81) and representative faces (shared, frozen: resolutions copy them).
 */
const DIFFERENCE_CLASSES: ReadonlyArray<{ diff: number; dice: [number[], number[]]; p: number }> = (() => {
  const w = FOUR_DF_WEIGHTS;
  const out = [];
  for (let diff = -8; diff <= 8; diff++) {
    let ways = 0;
    for (let a = -4; a <= 4; a++) {
      const d = a - diff;
      if (d >= -4 && d <= 4) ways += w[a + 4] * w[d + 4];
    }
    const ta = Math.max(-4, Math.min(4, diff));
    out.push({
      diff,
      dice: [Object.freeze(facesForTotal(4, ta)), Object.freeze(facesForTotal(4, ta - diff))] as [number[], number[]],
      p: ways / 6561,
    });
  }
  return out;
})();

type DifferenceClass = { diff: number; dice: [number[], number[]]; p: number };
const OPTION_DIFFERENCES = new Map<string, DifferenceClass[]>();

/**
 * Fudge §3.5 under the world's dice option (§3.21–3.22): attackRoll − defenseRoll of two of its
 * rolls, by the option's exact results (tests/rules/dice-option-attacks.test.ts enumerates them).
 */
export function optionDifferenceClasses(option: DiceOption): DifferenceClass[] {
  const key = diceOptionKey(option);
  let out = OPTION_DIFFERENCES.get(key);
  if (out) return out;
  const byDiff = new Map<number, DifferenceClass>();
  const classes = diceOptionClasses(option);
  for (const a of classes)
    for (const d of classes) {
      const diff = a.result - d.result;
      const c = byDiff.get(diff);
      if (c) c.p += a.p * d.p;
      else byDiff.set(diff, { diff, dice: [a.dice, d.dice], p: a.p * d.p });
    }
  out = [...byDiff.values()].sort((x, y) => x.diff - y.diff);
  OPTION_DIFFERENCES.set(key, out);
  return out;
}

export const fudgePipeline: AttackPipeline<FudgeRequest> = {
  preset: "fudge",
  // Fudge §4.22: one opposed roll per simultaneous combat round; the loser may be wounded.
  exchange: "opposed",
  pairedOutcomes: fudgePairedOutcomes,
  parseRequest: parseFudgeRequest,
  checkAttacker: (req) => checkFudgeAttacker(req.attacker, trackStatus(req.attacker.track)),
  withTracks: fudgeWithTracks,
  slots: fudgeSlots,
  resolve: resolveFudge,
};
