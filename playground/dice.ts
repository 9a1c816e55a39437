/**
 * Dice of the playground. Random by default; fixed from the URL for reproducible demos and tests:
 *
 *   ?dice=random            Math.random (default)
 *   ?dice=seed:42           the rules core's seeded generator (mulberry32), same rolls every load
 *   ?dice=1,1,0,-1,17/20    an explicit list of die faces, used in order, one per die rolled:
 *                           -1, 0, 1 are Fudge dice faces (also "+", "-", "0" when URL-encoded);
 *                           "N/S" is an S-sided die showing N (d6, d20 …).
 *                           When the list runs out, rolls continue from seed 1 (shown in the banner).
 *
 * Everything rolls through one `Rng` (the type the rules core's slots roll with): a face is turned
 * into the uniform number that makes the core's die formula land on it.
 */
import { seededRng, type Rng } from "../src/rules";

export interface PlaygroundDice {
  /** What the URL asked for, as shown in the banner. */
  mode: "random" | "seed" | "faces";
  label: string;
  rng: Rng;
  /** Faces not yet used (faces mode). */
  remaining(): number;
  /** True once a faces list ran out and rolls fell back to seed 1. */
  exhausted(): boolean;
}

/** The uniform number in [0,1) that a die formula (1 + floor(u·S), or floor(u·3) − 1 for dF) maps to the face. */
export function faceToUniform(token: string): number {
  const t = token.trim();
  if (t === "+" || t === "1" || t === "+1") return 2.5 / 3;
  if (t === "0") return 1.5 / 3;
  if (t === "-" || t === "-1" || t === "\u2212" || t === "\u22121") return 0.5 / 3;
  const m = /^(\d+)\/(\d+)$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    const s = Number(m[2]);
    if (s >= 1 && n >= 1 && n <= s) return (n - 0.5) / s;
  }
  throw new Error(`dice: "${token}" is not a face (use -1, 0, 1 for Fudge dice or N/S for an S-sided die)`);
}

export function parseDice(param: string | null): PlaygroundDice {
  const p = (param ?? "").trim();
  if (p === "" || p === "random") {
    return { mode: "random", label: "random", rng: Math.random, remaining: () => Infinity, exhausted: () => false };
  }
  const seed = /^seed:(-?\d+)$/.exec(p);
  if (seed) {
    const rng = seededRng(Number(seed[1]));
    return { mode: "seed", label: `seed ${seed[1]}`, rng, remaining: () => Infinity, exhausted: () => false };
  }
  const faces = p
    .split(/[,\s;]+/)
    .filter(Boolean)
    .map(faceToUniform);
  let i = 0;
  let fallback: Rng | null = null;
  const rng: Rng = () => {
    if (i < faces.length) return faces[i++];
    fallback ??= seededRng(1);
    return fallback();
  };
  return {
    mode: "faces",
    label: `fixed faces (${faces.length})`,
    rng,
    remaining: () => faces.length - i,
    exhausted: () => fallback !== null,
  };
}
