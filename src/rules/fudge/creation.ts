/**
 * Character creation budgets (Fudge 1995 §1.5–§1.64; Fudge SRD "Objective Character Creation";
 * Fudge SRD, Fantasy Fudge "Character Points" for Five-Point Fudge). Pure arithmetic over the
 * levels a character has: what is free, what is spent, what the text's trades move between the
 * pools, and whether the build is over budget. Nothing here refuses a build: the sheet warns.
 */
import { RulesError } from "../errors";
import { array, at, int, oneOf, record } from "../validate";

/** Ladder values are numbers: Fair 0, Good +1 … Terrible −3 (Fudge §1.2). */
export interface CreationTraits {
  /** Every attribute's level. */
  attributes: readonly number[];
  /** Every skill's level, with its Five-Point Fudge group ("" = none). */
  skills: readonly { level: number; group?: string }[];
  gifts: number;
  faults: number;
}

export interface ObjectiveOptions {
  /** Free attribute levels; null = half the number of attributes, rounded up (Fudge §1.61). */
  freeAttributeLevels: number | null;
  /** Free skill levels (Fudge §1.62: the GM's number; 50 is this system's default). */
  freeSkillLevels: number;
  /** Free gifts (Fudge §1.63). */
  freeGifts: number;
}

export const defaultObjectiveOptions = (): ObjectiveOptions => ({
  freeAttributeLevels: null,
  freeSkillLevels: 50,
  freeGifts: 2,
});

/** One pool's count: what is free, what the traits use and what is left (negative = over). */
export interface Pool {
  free: number;
  spent: number;
  left: number;
}

/** A trade the text allows (Fudge §1.64), made to cover a pool that is short. */
export interface Trade {
  /** The pool that gives. */
  from: "attributes" | "skills" | "gifts";
  /** The pool that is covered. */
  to: "attributes" | "skills" | "gifts";
  /** Units given (in the giving pool's own unit) … */
  given: number;
  /** … and received (in the covered pool's unit). */
  received: number;
}

export interface ObjectiveBudget {
  attributes: Pool;
  skills: Pool;
  /** Gifts: the free ones plus one per fault (Fudge §1.64: one fault for one gift). */
  gifts: Pool;
  faults: number;
  trades: Trade[];
  /** Pools still short after every trade the text allows. */
  over: ("attributes" | "skills" | "gifts")[];
}

/** Fudge §1.61: an attribute costs its level over Fair; lowering one below Fair gives levels back. */
export const attributeCost = (level: number): number => level;

/** Fudge §1.62: skills start at Terrible; each level above it costs one (Poor 1 … Fair 3 … Superb 6). */
export const skillCost = (level: number): number => Math.max(0, level + 3);

/** Fudge §1.61: free attribute levels are half the number of attributes, rounded up. */
export const freeAttributeLevels = (count: number, option: number | null): number => option ?? Math.ceil(count / 2);

/**
 * Fudge §1.64 exchange rates, in skill levels: one attribute level = 3 skill levels, one gift =
 * 2 attribute levels = 6 skill levels (and one fault = one gift).
 */
export const RATES = { attributes: 3, skills: 1, gifts: 6 } as const;
type PoolName = keyof typeof RATES;

/** Which pools cover a short one, in order: the nearest in value first. */
const COVERS: Record<PoolName, PoolName[]> = {
  attributes: ["skills", "gifts"],
  skills: ["attributes", "gifts"],
  gifts: ["attributes", "skills"],
};

/**
 * Fudge §1.6 Objective Character Creation: the free levels, what the traits spend, and the trades
 * of §1.64 that cover a short pool from the others' unspent levels (a pool gives whole units).
 */
export function objectiveBudget(t: CreationTraits, o: ObjectiveOptions): ObjectiveBudget {
  const free = {
    attributes: freeAttributeLevels(t.attributes.length, o.freeAttributeLevels),
    skills: o.freeSkillLevels,
    gifts: o.freeGifts + t.faults,
  };
  const spent = {
    attributes: t.attributes.reduce((s, l) => s + attributeCost(l), 0),
    skills: t.skills.reduce((s, k) => s + skillCost(k.level), 0),
    gifts: t.gifts,
  };
  const left: Record<PoolName, number> = {
    attributes: free.attributes - spent.attributes,
    skills: free.skills - spent.skills,
    gifts: free.gifts - spent.gifts,
  };
  const trades: Trade[] = [];
  for (const to of ["attributes", "gifts", "skills"] as const) {
    for (const from of COVERS[to]) {
      if (left[to] >= 0) break;
      // Whole units of the giving pool, as few as cover the shortfall (or as many as it has).
      const need = Math.ceil((-left[to] * RATES[to]) / RATES[from]);
      const given = Math.min(need, Math.max(0, left[from]));
      if (given <= 0) continue;
      // A trade gives its whole worth (a gift is six skill levels even when four were needed).
      const received = Math.floor((given * RATES[from]) / RATES[to]);
      if (received <= 0) continue;
      left[from] -= given;
      left[to] += received;
      trades.push({ from, to, given, received });
    }
  }
  const pool = (k: PoolName): Pool => ({ free: free[k], spent: spent[k], left: left[k] });
  return {
    attributes: pool("attributes"),
    skills: pool("skills"),
    gifts: pool("gifts"),
    faults: t.faults,
    trades,
    over: (["attributes", "skills", "gifts"] as const).filter((k) => left[k] < 0),
  };
}

// ─── Five-Point Fudge ──────────────────────────────────────────────────────────────────

export type Focus = "broad" | "narrow";

/**
 * Fudge SRD, Fantasy Fudge "Character Points": the skills one, or two, points in a group buy,
 * best first. One point: broad three Fair and one Mediocre, narrow one Good and one Mediocre; two
 * points: broad two Good and four Fair, narrow one Great, one Good and one Fair. The SRD's rows
 * for three and four points are not in the texts this system was built from: the GM adds them
 * (`FivePointOptions.rows`, read by `parseFivePointRows`); a group that needs more than every row
 * is reported as beyond the table (`beyondTable`).
 */
export const FIVE_POINT_TABLE: readonly FivePointRow[] = [
  { points: 1, focus: "broad", levels: [0, 0, 0, -1] },
  { points: 1, focus: "narrow", levels: [1, -1] },
  { points: 2, focus: "broad", levels: [1, 1, 0, 0, 0, 0] },
  { points: 2, focus: "narrow", levels: [2, 1, 0] },
];

export interface FivePointRow {
  points: number;
  focus: Focus;
  /** The skills the row buys, best first (Fair 0). */
  levels: readonly number[];
}

/** A row as the GM enters it: how many skills at each level from Superb down to Mediocre. */
export const FIVE_POINT_COLUMNS = [
  ["superb", 3],
  ["great", 2],
  ["good", 1],
  ["fair", 0],
  ["mediocre", -1],
] as const;

/**
 * The GM's own rows of the Five-Point table (e.g. the SRD's three- and four-point rows from his
 * copy): `{ points, focus, superb, great, good, fair, mediocre }`, counts of skills per level.
 */
export function parseFivePointRows(input: unknown, path: string): FivePointRow[] {
  return array(input, path, 0, 16).map((raw, i) => {
    const p = at(path, i);
    const o = record(raw, p);
    const levels = FIVE_POINT_COLUMNS.flatMap(([key, level]) =>
      Array.from({ length: int(o[key] ?? 0, at(p, key), 0, 20) }, () => level),
    );
    if (!levels.length) throw new RulesError(p, "FUDGE.Error.FivePointRowEmpty", "buys no skill");
    return { points: int(o.points, at(p, "points"), 1, 8), focus: oneOf(o.focus, at(p, "focus"), FOCI), levels };
  });
}

export const FOCI: readonly Focus[] = ["broad", "narrow"];

export interface FivePointOptions {
  /** Points to spend (Fantasy Fudge: 5). */
  points: number;
  /** Most points in one group (Fantasy Fudge: four). */
  maxPerGroup: number;
  /** Fewest groups points go to (Fantasy Fudge: at least two). */
  minGroups: number;
  /** Free attribute levels, free gifts (Fantasy Fudge: two each; faults two, unless trading). */
  freeAttributeLevels: number;
  freeGifts: number;
  faults: number;
  /** The GM's rows beside the text's (parseFivePointRows); a group takes the cheapest row that holds it. */
  rows: readonly FivePointRow[];
}

export const defaultFivePointOptions = (): FivePointOptions => ({
  points: 5,
  maxPerGroup: 4,
  minGroups: 2,
  freeAttributeLevels: 2,
  freeGifts: 2,
  faults: 2,
  rows: [],
});

export interface GroupSpend {
  group: string;
  /** Skill levels of the group on the character, best first. */
  levels: number[];
  /** The cheapest row of the table that holds these skills; null = none does (beyondTable). */
  points: number | null;
  focus: Focus | null;
}

export interface FivePointBudget {
  groups: GroupSpend[];
  points: Pool;
  /** Skills with no group: Five-Point Fudge buys skills only through groups. */
  ungrouped: number;
  /** Groups whose skills need more than every row of the table (the text's and the GM's). */
  beyondTable: string[];
  /** Fantasy Fudge attributes: two free levels; a level traded for a gift or fault (one for one). */
  attributes: Pool;
  gifts: Pool;
  faults: Pool;
  /** Points over the most one group may take. */
  groupsOverMax: string[];
  /** Fewer groups than the text asks for. */
  tooFewGroups: boolean;
  over: boolean;
}

/** Whether `levels` (best first) fit a row: each skill at or below the row's level of the same rank. */
export function fitsRow(levels: readonly number[], row: readonly number[]): boolean {
  return levels.length <= row.length && levels.every((l, i) => l <= row[i]);
}

/**
 * Five-Point Fudge (SRD, Fantasy Fudge "Character Points"): each group's skills are matched with
 * the cheapest row that holds them, so the points are derived from the skills, never typed.
 * Attributes, gifts and faults trade one for one (Fantasy Fudge "Attributes").
 */
export function fivePointBudget(t: CreationTraits, o: FivePointOptions): FivePointBudget {
  const byGroup = new Map<string, number[]>();
  let ungrouped = 0;
  for (const s of t.skills) {
    const g = (s.group ?? "").trim();
    if (!g) {
      ungrouped += 1;
      continue;
    }
    byGroup.set(g, [...(byGroup.get(g) ?? []), s.level]);
  }
  // Cheapest first; at equal points the text's rows before the GM's (a stable sort).
  const table = [...FIVE_POINT_TABLE, ...o.rows].sort((a, b) => a.points - b.points);
  const groups: GroupSpend[] = [...byGroup.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, ls]) => {
      const levels = [...ls].sort((a, b) => b - a);
      const row = table.find((r) => fitsRow(levels, r.levels)) ?? null;
      return { group, levels, points: row?.points ?? null, focus: row?.focus ?? null };
    });
  const spentPoints = groups.reduce((s, g) => s + (g.points ?? 0), 0);
  const attrSpent = t.attributes.reduce((s, l) => s + attributeCost(l), 0);
  // Fantasy Fudge "Attributes": an attribute level for a gift or a fault, one for one.
  const balance = o.freeAttributeLevels - attrSpent + (o.freeGifts - t.gifts) + (t.faults - o.faults);
  const attributes = { free: o.freeAttributeLevels, spent: attrSpent, left: o.freeAttributeLevels - attrSpent };
  const gifts = { free: o.freeGifts, spent: t.gifts, left: o.freeGifts - t.gifts };
  const faults = { free: o.faults, spent: t.faults, left: t.faults - o.faults };
  const points = { free: o.points, spent: spentPoints, left: o.points - spentPoints };
  const beyondTable = groups.filter((g) => g.points === null).map((g) => g.group);
  const groupsOverMax = groups.filter((g) => (g.points ?? 0) > o.maxPerGroup).map((g) => g.group);
  const tooFewGroups = groups.length > 0 && groups.length < o.minGroups;
  return {
    groups,
    points,
    ungrouped,
    beyondTable,
    attributes,
    gifts,
    faults,
    groupsOverMax,
    tooFewGroups,
    over: points.left < 0 || balance < 0 || ungrouped > 0 || groupsOverMax.length > 0,
  };
}
