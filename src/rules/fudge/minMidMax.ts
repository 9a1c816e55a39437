/**
 * Min-Mid-Max die roll (Fudge §4.63): roll 3d6 and read one die, chosen by a bonus from the total
 * damage factor and the relative degree; the die read is compared with the standard thresholds.
 * The factor is not added to the relative degree. RD 1 is a graze (§4.56, unchanged).
 */
import { signed, type Step } from "../explain";
import type { MinMidMaxRow } from "./options";
import { fstep } from "./util";

const RULE = "Fudge §4.63";

/** Fudge §4.63 damage-factor bonus: <0 → −1 (−5 or worse → −2, optional), 0–2 → 0, 3–5 → +1, 6+ → +2. */
export function factorBonus(factor: number, severeNegative: boolean): number {
  if (factor < 0) return severeNegative && factor <= -5 ? -2 : -1;
  if (factor <= 2) return 0;
  if (factor <= 5) return 1;
  return 2;
}

/** Fudge §4.63 relative-degree bonus: 2–3 → 0, 4–5 → +1, 6+ → +2 (RD 1 is a graze). */
export function relativeDegreeBonus(rd: number): number {
  if (rd <= 3) return 0;
  if (rd <= 5) return 1;
  return 2;
}

/** The row of the reading table for a total bonus: the last row it reaches, else the first row. */
export function readingRow(table: readonly MinMidMaxRow[], bonus: number): MinMidMaxRow {
  let row = table[0];
  for (const r of table) if (bonus >= r.min) row = r;
  return row;
}

export interface MinMidMaxRead {
  factorBonus: number;
  rdBonus: number;
  bonus: number;
  /** The three dice sorted from lowest to highest. */
  sorted: number[];
  row: MinMidMaxRow;
  /** The value compared with the thresholds: the die read plus the row's adjustment. */
  value: number;
  steps: Step[];
}

/** Reads 3d6 for a hit of relative degree `rd` (≥ 2) and total damage factor `factor`. */
export function readMinMidMax(
  dice: readonly number[],
  factor: number,
  rd: number,
  table: readonly MinMidMaxRow[],
  severeNegative: boolean,
): MinMidMaxRead {
  const sorted = [...dice].sort((a, b) => a - b);
  const fb = factorBonus(factor, severeNegative);
  const rb = relativeDegreeBonus(rd);
  const bonus = fb + rb;
  const row = readingRow(table, bonus);
  const die =
    row.die === "min"
      ? sorted[0]
      : row.die === "max"
        ? sorted[sorted.length - 1]
        : sorted[Math.floor(sorted.length / 2)];
  const value = die + row.add;
  const steps = [
    fstep("FUDGE.Step.Fudge.MmmFactorBonus", RULE, fb, { factor: signed(factor) }),
    fstep("FUDGE.Step.Fudge.MmmRdBonus", RULE, rb, { rd }),
    fstep("FUDGE.Step.Fudge.MmmRead", RULE, value, {
      dice: sorted.join(", "),
      bonus: signed(bonus),
      die: `FUDGE.Fudge.Mmm.${row.die}`,
      add: signed(row.add),
      read: die,
    }),
  ];
  return { factorBonus: fb, rdBonus: rb, bonus, sorted, row, value, steps };
}
