/** Fudge Point spends older than a test's own, filling an actor's spend log up to one short of its bound. */
import { character } from "../../src/rules";

export function olderSpends(who: string) {
  return Array.from({ length: character.MAX_FUDGE_POINT_LOG - 1 }, (_, i) => ({
    id: `old${i}`,
    at: "2026-11-28T23:00:00Z",
    who,
    use: "alterRoll",
    cost: 1,
    change: { target: `card${i}`, from: 0, to: 1 },
  }));
}
