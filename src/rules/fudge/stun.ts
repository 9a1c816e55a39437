/**
 * Fudge §4.62 on the box track (box.ts): a stun's countdown. The track keeps the stun in force
 * (its effect and rounds left) and marks its boxes as stun marks; a combat notes the stun when a
 * stunned combatant's turn begins and counts it down one round when that turn ends.
 */
import type { PresetId } from "../pipeline";
import type { StunSnapshot } from "../track-kind";

/** Fudge §4.62: the stun effects that last a number of rounds (knocked out lasts until the stun marks heal). */
export const COUNTED_STUNS: readonly string[] = ["stunned", "veryStunned"];

export type { StunSnapshot };

/**
 * A stun as it stands on a box track (Fudge §4.62; a second stun raises the effect or restarts its
 * rounds, and marks a box). Null: no stun that counts down (none, knocked out, another track).
 */
export function stunSnapshot(state: unknown): StunSnapshot | null {
  if (typeof state !== "object" || state === null) return null;
  const st = state as { stun?: unknown; marks?: unknown };
  const stun = st.stun as { effect?: unknown; rounds?: unknown } | null | undefined;
  if (
    !stun ||
    typeof stun.effect !== "string" ||
    !COUNTED_STUNS.includes(stun.effect) ||
    typeof stun.rounds !== "number"
  )
    return null;
  let marks = 0;
  if (typeof st.marks === "object" && st.marks !== null)
    for (const row of Object.values(st.marks as Record<string, unknown>))
      if (Array.isArray(row))
        for (const m of row) if (m && typeof m === "object" && (m as { stun?: unknown }).stun === true) marks++;
  return { effect: stun.effect, rounds: stun.rounds, marks };
}

/** Reads a stored snapshot (a combat flag): null when it is not one. */
export function readStunSnapshot(raw: unknown): StunSnapshot | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (
    typeof r.effect !== "string" ||
    !COUNTED_STUNS.includes(r.effect) ||
    !Number.isInteger(r.rounds) ||
    !Number.isInteger(r.marks)
  )
    return null;
  return { effect: r.effect, rounds: r.rounds as number, marks: r.marks as number };
}

/**
 * When a combatant's turn ends: the stun he was under when the turn began counts down one round
 * (Fudge §4.62 "Stunned … one round", "Very Stunned … two rounds"; the box track's `endRound`
 * healing). This system's reading: a round of a stun is one of the stunned character's own turns,
 * so a Stunned fighter loses exactly his next turn's attack (and defends at −1 until it ends),
 * whoever acted first. A stun that landed during the turn (it differs from the one noted when the
 * turn began) waits for his next turn, as FATE Clipped does.
 */
export function turnEndStunHealing(
  preset: PresetId,
  atTurnStart: StunSnapshot | null,
  now: StunSnapshot | null,
): "endRound" | null {
  if (preset !== "fudge" || !atTurnStart || !now) return null;
  return atTurnStart.effect === now.effect && atTurnStart.rounds === now.rounds && atTurnStart.marks === now.marks
    ? "endRound"
    : null;
}
