/** The sampled estimate of a Volt duel played on the integer sheets (sheet.ts). */
import type { SampledDuel } from "../forecast/sampling";
import {
  failedRoll,
  penaltyClasses,
  placeOnRow,
  VOLT_OUT,
  voltApplyWounds,
  voltSheetModel,
  voltSheetOf,
  voltStateOf,
  type VoltDuelSide,
  type VoltSheetModel,
} from "./sheet";
import type { VoltTrackState, VoltWound } from "./track";

/** One outcome of an attack as the forecast enumerates it, in its order: its probability and the wounds it deals (null: none). */
export interface VoltAttackOutcome {
  p: number;
  wounds: VoltWound[] | null;
}

/** A side's attacks on the integer sheets, per penalty class: running totals and each outcome's wound, pre-read. */
interface SampledSide {
  m: VoltSheetModel;
  /** Class of a sheet by its highest marked row (index R: no mark). */
  clsOfTop: Int32Array;
  /** Per class: running totals of the outcomes' probabilities, summed in the forecast's order. */
  cum: Float64Array[];
  /** Per class and outcome: 0 nothing, 1 a wound on a row, 2 a failed roll (at: its Damage), 3 a list (list). */
  kind: Uint8Array[];
  at: Float64Array[];
  injury: Uint8Array[];
  list: Array<Array<VoltWound[] | null>>;
  /** Sheets met by the sampled duels (one byte per sheet), and how many. */
  met: Uint8Array;
  nMet: number;
}

/**
 * The sampled estimate of a Volt duel (`method: "sample"`, forecast/sampling.ts) played on
 * the integer sheets: each turn draws the attacker's outcome from the running totals of its
 * penalty's outcomes (the forecast's own enumeration, in its order) and places the wound with the
 * sheet rules above. The draw picks what the general sampler's draw picks for the same number (the
 * first outcome whose running total passes it; none: the same draw scaled to the total), and the
 * integer sheets answer "out" exactly as the track kind does (the property tests above), so a seed
 * gives the same duels, bit for bit, as through `moves` (tests/rules/volt-sample.test.ts).
 * `outcomesOf(side, state)`: the outcomes of `side` attacking with sheet `state` (read once per penalty).
 */
export function voltSampledDuel(
  a: VoltDuelSide,
  b: VoltDuelSide,
  first: "a" | "b",
  outcomesOf: (attacker: "a" | "b", state: VoltTrackState) => VoltAttackOutcome[],
  checkTime: () => void,
): SampledDuel & { sheetsMet(): number } {
  const side = (attacker: "a" | "b", s: VoltDuelSide): SampledSide => {
    const m = voltSheetModel(s.config);
    // Keys of the stalemate check hold a sheet in 24 bits (duel-sample.ts): at most 12 alive rows (the Will tables give 10).
    if (m.R > 12) throw new Error(`volt duel: ${m.R} alive rows`);
    const { penalties, reps } = penaltyClasses(m);
    const clsOfTop = new Int32Array(m.R + 1);
    for (let k = 0; k <= m.R; k++) clsOfTop[k] = penalties.indexOf(m.penaltyOfTop[k]);
    const outcomes = reps.map((r) => outcomesOf(attacker, voltStateOf(m, r)));
    const cum = outcomes.map((ss) => {
      const c = new Float64Array(ss.length);
      let acc = 0;
      for (let i = 0; i < ss.length; i++) c[i] = acc += ss[i].p;
      return c;
    });
    const one = (w: VoltWound[] | null): w is [VoltWound] => w !== null && w.length === 1;
    return {
      m,
      clsOfTop,
      cum,
      kind: outcomes.map((ss) =>
        Uint8Array.from(ss, (s) => (s.wounds === null ? 0 : !one(s.wounds) ? 3 : "failedRoll" in s.wounds[0] ? 2 : 1)),
      ),
      at: outcomes.map((ss) =>
        Float64Array.from(ss, (s) =>
          !one(s.wounds) ? 0 : "failedRoll" in s.wounds[0] ? s.wounds[0].damage : s.wounds[0].row,
        ),
      ),
      injury: outcomes.map((ss) =>
        Uint8Array.from(ss, (s) => (one(s.wounds) && s.wounds[0].type === "injury" ? 1 : 0)),
      ),
      list: outcomes.map((ss) => ss.map((s) => s.wounds)),
      met: new Uint8Array(1 << (2 * m.R)),
      nMet: 0,
    };
  };
  const sideA = side("a", a);
  const sideB = side("b", b);
  const meet = (side: SampledSide, s: number): void => {
    if (s !== VOLT_OUT && !side.met[s]) {
      side.met[s] = 1;
      side.nMet++;
    }
  };
  const sa = voltSheetOf(sideA.m, a.state);
  const sb = voltSheetOf(sideB.m, b.state);
  meet(sideA, sa);
  meet(sideB, sb);
  const classOf = (side: SampledSide, s: number): number => {
    const aliveRows = side.m.R;
    const occ = (s | (s >>> aliveRows)) & ((1 << aliveRows) - 1);
    return side.clsOfTop[occ === 0 ? aliveRows : 31 - Math.clz32(occ)];
  };
  /** The defender's sheet after outcome i of the attacker's class c. */
  const hit = (attacker: SampledSide, c: number, i: number, defender: SampledSide, y: number): number => {
    const k = attacker.kind[c][i];
    if (k === 0) return y;
    if (k === 1) return placeOnRow(defender.m, y, attacker.at[c][i], attacker.injury[c][i] === 1);
    if (k === 2) return failedRoll(defender.m, y, attacker.at[c][i], attacker.injury[c][i] === 1);
    return voltApplyWounds(defender.m, y, attacker.list[c][i]!);
  };
  /** The first outcome whose running total passes u, −1 when none does. */
  const pick = (cum: Float64Array, u: number): number => {
    let lo = 0;
    let hi = cum.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cum[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    return lo < cum.length ? lo : -1;
  };
  return {
    starts: [{ a: sa, b: sb, turn: first, w: 1, spent: false }],
    outA: (x) => x === VOLT_OUT,
    outB: (y) => y === VOLT_OUT,
    alternating: true,
    checkTime,
    moves(x, y, turn, visit) {
      const [attacker, defender, s, d] = turn === "a" ? [sideA, sideB, x, y] : [sideB, sideA, y, x];
      const c = classOf(attacker, s);
      const cum = attacker.cum[c];
      for (let i = 0; i < cum.length; i++) {
        const d2 = hit(attacker, c, i, defender, d);
        const q = cum[i] - (i > 0 ? cum[i - 1] : 0);
        if (turn === "a") visit(x, d2, "b", q);
        else visit(d2, y, "a", q);
      }
    },
    draw(x, y, turn, v, next) {
      const aTurn = turn === "a";
      const attacker = aTurn ? sideA : sideB;
      const defender = aTurn ? sideB : sideA;
      const c = classOf(attacker, aTurn ? x : y);
      const cum = attacker.cum[c];
      let i = pick(cum, v);
      // The total can fall short of 1 by rounding: the same draw, scaled to it (as the general draw).
      if (i < 0) i = pick(cum, v * cum[cum.length - 1]);
      if (i < 0) throw new Error("forecast: a turn with no outcome"); // a broken invariant, not bad input
      const d2 = hit(attacker, c, i, defender, aTurn ? y : x);
      meet(defender, d2);
      next.a = aTurn ? x : d2;
      next.b = aTurn ? d2 : y;
      next.turn = aTurn ? "b" : "a";
    },
    sheetsMet: () => sideA.nMet + sideB.nMet,
  };
}
