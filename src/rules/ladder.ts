/**
 * The trait ladder (Fudge §1.3; Miniatures uses the same numbers). Names are data so that a
 * world can rename or localize them, and drop Legendary.
 */
import { RulesError } from "./errors";
import { signed } from "./explain";
import { array, at, int, record, str } from "./validate";

export interface LadderRung {
  /** Stable id (i18n key suffix: FUDGE.Ladder.<id>). */
  id: string;
  value: number;
  name: string;
}

/** Rungs ordered from best to worst, with consecutive values. */
export interface Ladder {
  rungs: LadderRung[];
}

export const STANDARD_RUNGS: readonly LadderRung[] = [
  { id: "legendary", value: 4, name: "Legendary" },
  { id: "superb", value: 3, name: "Superb" },
  { id: "great", value: 2, name: "Great" },
  { id: "good", value: 1, name: "Good" },
  { id: "fair", value: 0, name: "Fair" },
  { id: "mediocre", value: -1, name: "Mediocre" },
  { id: "poor", value: -2, name: "Poor" },
  { id: "terrible", value: -3, name: "Terrible" },
];

/**
 * A rung below Terrible for a ladder extended at its lower end. The 1995 text names nothing below
 * Terrible (a result there is "Terrible −1"); the name is this system's default, FATE's word for −4.
 */
export const LOWER_RUNG: Readonly<LadderRung> = Object.freeze({ id: "abysmal", value: -4, name: "Abysmal" });

/**
 * The standard ladder; `names` (by rung id) localizes it, `legendary: false` drops the top rung
 * (the world setting), `lowerEnd: true` adds Abysmal (−4) below Terrible.
 */
export function standardLadder(
  names: Partial<Record<string, string>> = {},
  legendary = true,
  lowerEnd = false,
): Ladder {
  const base = lowerEnd ? [...STANDARD_RUNGS, LOWER_RUNG] : STANDARD_RUNGS;
  const rungs = base
    .filter((r) => legendary || r.id !== "legendary")
    .map((r) => ({
      ...r,
      name: names[r.id] ?? r.name,
    }));
  return { rungs };
}

export const DEFAULT_LADDER: Ladder = standardLadder();

export function parseLadder(input: unknown, path = "ladder"): Ladder {
  const o = record(input, path);
  const rungs = array(o.rungs, at(path, "rungs"), 1).map((r, i) => {
    const p = at(at(path, "rungs"), i);
    const rr = record(r, p);
    return {
      id: str(rr.id, at(p, "id")),
      value: int(rr.value, at(p, "value"), -50, 50),
      name: str(rr.name, at(p, "name")),
    };
  });
  for (let i = 1; i < rungs.length; i++) {
    if (rungs[i].value !== rungs[i - 1].value - 1)
      throw new RulesError(
        at(at(path, "rungs"), i),
        "FUDGE.Error.LadderOrder",
        "rungs must run from best to worst in steps of one",
      );
  }
  return { rungs };
}

export interface LevelName {
  value: number;
  /** Rung the name comes from (the nearest end for values off the ladder). */
  rungId: string;
  /** Distance beyond that rung: 0 on the ladder, +2 for "Superb +2", −1 for "Terrible −1". */
  beyond: number;
  /** Display text: "Good", "Superb +2", "Terrible −1". */
  label: string;
}

/** Names a rolled degree or trait value; values off the ladder are named from the nearest end. */
export function describeLevel(value: number, ladder: Ladder = DEFAULT_LADDER): LevelName {
  if (!Number.isInteger(value))
    throw new RulesError("value", "FUDGE.Error.NotInteger", `must be a whole number (got ${value})`);
  const top = ladder.rungs[0];
  const bottom = ladder.rungs[ladder.rungs.length - 1];
  const rung = value > top.value ? top : value < bottom.value ? bottom : ladder.rungs.find((r) => r.value === value)!;
  const beyond = value - rung.value;
  return { value, rungId: rung.id, beyond, label: beyond === 0 ? rung.name : `${rung.name} ${signed(beyond)}` };
}

/** "Great (+2)" — sheets and chat show names and numbers together. */
export function levelWithNumber(value: number, ladder: Ladder = DEFAULT_LADDER): string {
  return `${describeLevel(value, ladder).label} (${signed(value)})`;
}

/** Value of a rung by id or name (case-insensitive), for data entered as words. */
export function levelValue(nameOrId: string, ladder: Ladder = DEFAULT_LADDER): number | undefined {
  const n = nameOrId.trim().toLowerCase();
  return ladder.rungs.find((r) => r.id === n || r.name.toLowerCase() === n)?.value;
}
