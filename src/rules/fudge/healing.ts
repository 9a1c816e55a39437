/**
 * The healing requests both Fudge tracks (boxes and Damage-Capacity-as-track) understand
 * (Fudge §4.8 as summarized in RULES §2.5), parsed once for both.
 */
import { at, bool, int, oneOf, record, str } from "../validate";

export type FudgeHealing =
  | { type: "scratches" }
  | { type: "roll"; result: number }
  | { type: "natural"; weeks: number; rapid?: boolean; constitution?: number }
  | { type: "box"; ref: string }
  | { type: "endRound"; rounds?: number };

export const FUDGE_HEALING_TYPES = ["scratches", "roll", "natural", "box", "endRound"] as const;

/**
 * Parses a shared healing request. `extra` lists further types a track accepts (parsed by the
 * caller when this returns null); `checkRef` validates a box reference against the track.
 */
export function parseFudgeHealing(
  input: unknown,
  path: string,
  checkRef: (ref: string, path: string) => void,
  extra: readonly string[] = [],
): { healing: FudgeHealing | null; o: Record<string, unknown> } {
  const o = record(input, path);
  const type = oneOf(o.type, at(path, "type"), [...FUDGE_HEALING_TYPES, ...extra]);
  switch (type) {
    case "scratches":
      return { healing: { type }, o };
    case "roll":
      return { healing: { type, result: int(o.result, at(path, "result"), -20, 20) }, o };
    case "natural": {
      const h: FudgeHealing = { type, weeks: int(o.weeks, at(path, "weeks"), 0, 520) };
      if (bool(o.rapid, at(path, "rapid"), false)) h.rapid = true;
      if (o.constitution !== undefined && o.constitution !== null)
        h.constitution = int(o.constitution, at(path, "constitution"), -20, 20);
      return { healing: h, o };
    }
    case "box": {
      const ref = str(o.ref, at(path, "ref"));
      checkRef(ref, at(path, "ref"));
      return { healing: { type, ref }, o };
    }
    case "endRound":
      return {
        healing: o.rounds === undefined ? { type } : { type, rounds: int(o.rounds, at(path, "rounds"), 1, 100) },
        o,
      };
    default:
      return { healing: null, o };
  }
}
