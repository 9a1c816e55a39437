/**
 * The dice a world rolls for a trait (Fudge §3.2): four Fudge dice (§3.21, the text's
 * recommendation; ordinary d6 read 1–2 −, 3–4 blank, 5–6 + are the same dice), and the other
 * techniques of §3.22 — d6−d6, 3d6 read on a table, percentile dice read on a table. Each option's
 * distribution of results is exact: integer weights over a common total (rerolled outcomes left
 * out), computed by convolution and table look-up (the tests enumerate every roll instead).
 * The 3d6 and d% tables are data a GM can edit; their defaults are this system's own (docs).
 */
import { fudgeWeights, type Rng } from "./dice";
import { RulesError } from "./errors";
import { array, at, int, oneOf, record, type Path } from "./validate";

export const DICE_OPTION_IDS = ["4dF", "4d6F", "d6-d6", "3d6", "d%"] as const;
export type DiceOptionId = (typeof DICE_OPTION_IDS)[number];

/** One band of a table: raw totals `from`…`to` read as `result`, or rolled again (`reroll`). */
export interface DiceBand {
  from: number;
  to: number;
  result: number | "reroll";
}

export interface DiceOption {
  id: DiceOptionId;
  /** The dice thrown: `count` dice of `sides` (d% is one die of 100). */
  count: number;
  sides: number;
  /** 3d6 and d%: the table from the dice's total to a result. */
  table?: DiceBand[];
  rule: string;
}

/** 3d6 → result, this system's default: symmetric, near 4dF (docs/rules-api.md, "Dice options"). */
export const DEFAULT_3D6_TABLE: readonly DiceBand[] = Object.freeze([
  { from: 3, to: 4, result: -4 },
  { from: 5, to: 5, result: -3 },
  { from: 6, to: 7, result: -2 },
  { from: 8, to: 9, result: -1 },
  { from: 10, to: 11, result: 0 },
  { from: 12, to: 13, result: 1 },
  { from: 14, to: 15, result: 2 },
  { from: 16, to: 16, result: 3 },
  { from: 17, to: 18, result: 4 },
]);

/** d% → result, this system's default: 01–81 in the 4dF weights out of 81 (§3.23's odds exactly), 82–00 rolled again. */
export const DEFAULT_PERCENT_TABLE: readonly DiceBand[] = Object.freeze([
  { from: 1, to: 1, result: -4 },
  { from: 2, to: 5, result: -3 },
  { from: 6, to: 15, result: -2 },
  { from: 16, to: 31, result: -1 },
  { from: 32, to: 50, result: 0 },
  { from: 51, to: 66, result: 1 },
  { from: 67, to: 76, result: 2 },
  { from: 77, to: 80, result: 3 },
  { from: 81, to: 81, result: 4 },
  { from: 82, to: 100, result: "reroll" },
]);

/**
 * The formula each option is rolled with as a Foundry Roll, one Roll per throw: four Fudge dice;
 * four d6 read as Fudge dice (the system's own die, `ds`: src/foundry/dice-terms.ts); a plus d6
 * minus a minus d6 (faces [plus, minus]); 3d6 and d% read on their tables.
 */
export const DICE_OPTION_FORMULAS: Readonly<Record<DiceOptionId, string>> = Object.freeze({
  "4dF": "4dF",
  "4d6F": "4ds",
  "d6-d6": "1d6 - 1d6",
  "3d6": "3d6",
  "d%": "1d100",
});

const SHAPES: Record<DiceOptionId, { count: number; sides: number; rule: string; table?: readonly DiceBand[] }> = {
  "4dF": { count: 4, sides: 3, rule: "Fudge §3.21" },
  "4d6F": { count: 4, sides: 6, rule: "Fudge §3.21" },
  "d6-d6": { count: 2, sides: 6, rule: "Fudge §3.22" },
  "3d6": { count: 3, sides: 6, rule: "Fudge §3.22", table: DEFAULT_3D6_TABLE },
  "d%": { count: 1, sides: 100, rule: "Fudge §3.22", table: DEFAULT_PERCENT_TABLE },
};

/** Checks a table: bands in order, each total of the dice in exactly one band, at least one result. */
export function parseDiceTable(input: unknown, lowest: number, highest: number, path: Path): DiceBand[] {
  const bands = array(input, path, 1, highest - lowest + 1).map((v, i) => {
    const p = at(path, i);
    const o = record(v, p);
    const from = int(o.from, at(p, "from"), lowest, highest);
    const result = o.result === "reroll" ? ("reroll" as const) : int(o.result, at(p, "result"), -20, 20);
    return { from, to: int(o.to, at(p, "to"), from, highest), result };
  });
  let next = lowest;
  bands.forEach((b, i) => {
    if (b.from !== next)
      throw new RulesError(at(at(path, i), "from"), "FUDGE.Error.Dice.TableGap", `must start at ${next}`, {
        expected: next,
      });
    next = b.to + 1;
  });
  if (next !== highest + 1)
    throw new RulesError(path, "FUDGE.Error.Dice.TableGap", `must cover the totals up to ${highest}`, {
      expected: highest,
    });
  if (bands.every((b) => b.result === "reroll"))
    throw new RulesError(path, "FUDGE.Error.Dice.AllReroll", "at least one band must give a result");
  return bands;
}

/** The world's dice option: `{ id, table? }` (a table only for 3d6 and d%), or just the id. */
export function parseDiceOption(input: unknown, path: Path = "dice"): DiceOption {
  const o = typeof input === "string" || input === undefined ? { id: input ?? "4dF" } : record(input, path);
  const id = oneOf(o.id, at(path, "id"), DICE_OPTION_IDS);
  const shape = SHAPES[id];
  const option: DiceOption = { id, count: shape.count, sides: shape.sides, rule: shape.rule };
  if (shape.table) {
    const lowest = id === "3d6" ? 3 : 1;
    const highest = shape.count * shape.sides;
    option.table =
      o.table === undefined
        ? shape.table.map((b) => ({ ...b }))
        : parseDiceTable(o.table, lowest, highest, at(path, "table"));
  } else if (o.table !== undefined) {
    throw new RulesError(at(path, "table"), "FUDGE.Error.Dice.NoTable", `${id} is read without a table`, { id });
  }
  return option;
}

/** Exact distribution: `weights[result]` out of `total`; `rerolled` weight of the raw outcomes thrown again. */
export interface DiceDistribution {
  option: DiceOptionId;
  /** Results in ascending order with their integer weights. */
  results: Array<{ result: number; weight: number; p: number }>;
  total: number;
  rerolled: number;
  /** Every raw outcome, rerolled ones included: sides ** count. */
  outcomes: number;
}

/** Convolution of one die's weights (by value from `lowest`) `n` times: weights by total from n × lowest. */
function convolve(die: number[], n: number): number[] {
  let w = [1];
  for (let k = 0; k < n; k++) {
    const next = new Array<number>(w.length + die.length - 1).fill(0);
    w.forEach((x, i) => die.forEach((y, j) => (next[i + j] += x * y)));
    w = next;
  }
  return w;
}

function byTable(table: DiceBand[], sums: number[], lowest: number): Map<number | "reroll", number> {
  const m = new Map<number | "reroll", number>();
  for (const b of table)
    for (let t = b.from; t <= b.to; t++) m.set(b.result, (m.get(b.result) ?? 0) + sums[t - lowest]);
  return m;
}

/** The exact distribution of an option's result on the ladder (§3.2). */
export function diceDistribution(input: unknown): DiceDistribution {
  const option = parseDiceOption(input);
  const m = new Map<number | "reroll", number>();
  if (option.id === "4dF") fudgeWeights(4).forEach((w, i) => m.set(i - 4, w));
  else if (option.id === "4d6F")
    convolve([2, 2, 2], 4).forEach((w, i) => m.set(i - 4, w)); // 1–2 −, 3–4 blank, 5–6 +
  // plus − minus has the weights of plus + (7 − minus) − 7: the 2d6 triangle, shifted to −5…+5.
  else if (option.id === "d6-d6") convolve([1, 1, 1, 1, 1, 1], 2).forEach((w, i) => m.set(i - 5, w));
  else if (option.id === "3d6")
    for (const [k, v] of byTable(option.table!, convolve([1, 1, 1, 1, 1, 1], 3), 3)) m.set(k, v);
  else for (const [k, v] of byTable(option.table!, new Array<number>(100).fill(1), 1)) m.set(k, v);
  const rerolled = m.get("reroll") ?? 0;
  m.delete("reroll");
  const entries = [...m.entries()].filter(([, w]) => w > 0).sort((a, b) => (a[0] as number) - (b[0] as number));
  const total = entries.reduce((s, [, w]) => s + w, 0);
  return {
    option: option.id,
    results: entries.map(([r, w]) => ({ result: r as number, weight: w, p: w / total })),
    total,
    rerolled,
    outcomes: option.sides ** option.count,
  };
}

/**
 * Reads recorded raw dice as the option's result (null: the table says roll again). d6−d6 dice
 * are `[plus, minus]`; 4dF faces are −1, 0, +1; the others are face values.
 */
export function readDiceOption(input: unknown, dice: unknown, path: Path = "dice"): number | null {
  const option = parseDiceOption(input);
  const lowest = option.id === "4dF" ? -1 : 1;
  const faces = array(dice, path, option.count, option.count).map((v, i) =>
    int(v, at(path, i), lowest, lowest + option.sides - 1),
  );
  const sum = faces.reduce((s, f) => s + f, 0);
  switch (option.id) {
    case "4dF":
      return sum;
    case "4d6F":
      return faces.reduce((s, f) => s + (f <= 2 ? -1 : f <= 4 ? 0 : 1), 0);
    case "d6-d6":
      return faces[0] - faces[1];
    default: {
      const band = option.table!.find((b) => sum >= b.from && sum <= b.to)!;
      return band.result === "reroll" ? null : band.result;
    }
  }
}

/** Rolls an option with `rng` until a result stands (a table's rerolls thrown again); returns every throw. */
export function rollDiceOption(input: unknown, rng: Rng): { result: number; throws: number[][] } {
  const option = parseDiceOption(input);
  const lowest = option.id === "4dF" ? -1 : 1;
  const throws: number[][] = [];
  for (let guard = 0; guard < 1000; guard++) {
    const faces = Array.from({ length: option.count }, () => lowest + Math.floor(rng() * option.sides));
    throws.push(faces);
    const r = readDiceOption(option, faces);
    if (r !== null) return { result: r, throws };
  }
  throw new RulesError("dice", "FUDGE.Error.Dice.NoResult", "a thousand throws gave no result");
}

/** P(trait + result ≥ difficulty): an Unopposed action's chance of success under the option (§3.4). */
export function unopposedChance(input: unknown, trait: number, difficulty: number): number {
  const d = diceDistribution(input);
  int(trait, "trait", -100, 100);
  int(difficulty, "difficulty", -100, 100);
  return d.results.reduce((s, r) => (trait + r.result >= difficulty ? s + r.weight : s), 0) / d.total;
}

/** Relative degree of an Opposed action (§3.5) under the option: exact weights by (a + rollA) − (b + rollB). */
export function opposedDistribution(input: unknown, a: number, b: number): Array<{ degree: number; p: number }> {
  const d = diceDistribution(input);
  int(a, "a", -100, 100);
  int(b, "b", -100, 100);
  const m = new Map<number, number>();
  for (const x of d.results)
    for (const y of d.results)
      m.set(a + x.result - b - y.result, (m.get(a + x.result - b - y.result) ?? 0) + x.weight * y.weight);
  const den = d.total * d.total;
  return [...m.entries()].sort((p, q) => p[0] - q[0]).map(([degree, w]) => ({ degree, p: w / den }));
}

/** Every raw throw of an option (faces as readDiceOption takes them), in counting order. */
function* throwsOf(option: DiceOption): Generator<number[]> {
  const lowest = option.id === "4dF" ? -1 : 1;
  const all = option.sides ** option.count;
  for (let i = 0; i < all; i++) {
    const faces: number[] = [];
    for (let d = 0, x = i; d < option.count; d++, x = Math.floor(x / option.sides))
      faces.push(lowest + (x % option.sides));
    yield faces;
  }
}

const CLASSES = new Map<string, Array<{ result: number; dice: number[]; p: number }>>();

/**
 * The exact outcome classes of an option's roll, one per result (§3.2: only the result enters a
 * rule): a representative standing throw (frozen, shared) and the result's probability, rerolled
 * throws left out (a reroll is thrown again, so each standing result keeps its share).
 */
export function diceOptionClasses(input: unknown): ReadonlyArray<{ result: number; dice: number[]; p: number }> {
  const option = parseDiceOption(input);
  const key = diceOptionKey(option);
  let classes = CLASSES.get(key);
  if (classes) return classes;
  const dist = diceDistribution(option);
  const first = new Map<number, number[]>();
  for (const faces of throwsOf(option)) {
    const r = readDiceOption(option, faces);
    if (r !== null && !first.has(r)) first.set(r, Object.freeze(faces) as number[]);
  }
  classes = dist.results.map((r) => ({ result: r.result, dice: first.get(r.result)!, p: r.p }));
  CLASSES.set(key, classes);
  return classes;
}

/** A key naming an option and its table (two worlds with the same table share their caches). */
export function diceOptionKey(option: DiceOption): string {
  return option.table ? `${option.id}:${JSON.stringify(option.table)}` : option.id;
}
