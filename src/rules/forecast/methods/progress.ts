/**
 * The forward method in order of progress, for alternating duels where every wound that changes
 * a track raises its progress (Volt: marks on the sheet, Injuries counting twice). The duel is
 * followed attack by attack, states in order of the progress of both tracks, so every state is
 * finished before any state it can lead to. Attacks that change nothing only pass the turn (a
 * two-state cycle, solved in closed form). A state reached with less than the threshold is not
 * followed: its mass is the error bound, and the forecast tightens until it is within `tolerance`.
 */
import type { Track } from "../../track";
import type { DuelForecast } from "../answer";
import { memoryCap, memoryRefusal, tooManyStates } from "../budget";
import type { SideId } from "../request";
import type { DuelRun } from "../run";

/** The progress of a track: every wound that changes it raises this number. */
export type Progress = (track: Track) => number;

export function progressForward(run: DuelRun, progress: Progress): DuelForecast {
  const memo = { a: [] as number[], b: [] as number[] };
  const progressOf = (side: SideId, id: number): number => (memo[side][id] ??= progress(run.sides[side].tracks[id]));
  return run.tighten((threshold) => followOnce(run, progressOf, threshold));
}

/** The states the forward method in order of progress may follow in a pass: `maxStates`, within the memory budget. */
export function progressForwardStates(run: DuelRun): { states: number; byMemory: number } {
  const byMemory = memoryCap("voltForward", run.request.maxBytes);
  return { states: Math.min(run.request.maxStates, byMemory), byMemory };
}

function followOnce(run: DuelRun, progressOf: (side: SideId, id: number) => number, threshold: number): DuelForecast {
  const { sides, start, request } = run;
  const { tolerance, maxStates, maxBytes } = request;
  const { states: maxFollowed, byMemory } = progressForwardStates(run);
  let aOut = 0;
  let bOut = 0;
  let stalemate = 0;
  let dropped = 0;
  let attacks = 0;
  let states = 0;
  const answer = (): DuelForecast => run.boundedAnswer("forward", { aOut, bOut, stalemate }, dropped, attacks, states);
  // progress → (pair key → [mass with a to attack, mass with b to attack])
  const buckets = new Map<number, Map<number, [number, number]>>();
  const pairKey = (a: number, b: number): number => a * 2 ** 24 + b;
  const push = (a: number, b: number, turn: SideId, m: number): void => {
    const pr = progressOf("a", a) + progressOf("b", b);
    let bucket = buckets.get(pr);
    if (!bucket) buckets.set(pr, (bucket = new Map()));
    const k = pairKey(a, b);
    let e = bucket.get(k);
    if (!e) bucket.set(k, (e = [0, 0]));
    e[turn === "a" ? 0 : 1] += m;
  };
  const outOf = (a: number, b: number): SideId | null => (sides.a.out[a] ? "a" : sides.b.out[b] ? "b" : null);
  /** One attack by `turn` from (a, b): P(nothing changes), and the other outcomes. */
  const attack = (a: number, b: number, turn: SideId): { same: number; moves: Array<[number, number, number]> } => {
    let same = 0;
    const out: Array<[number, number, number]> = [];
    run.turn(a, b, turn, (a2, b2, _next, q) => {
      if (a2 === a && b2 === b) same += q;
      else out.push([a2, b2, q]);
    });
    return { same, moves: out };
  };
  const startOut = outOf(start.a, start.b);
  if (startOut)
    return run.boundedAnswer(
      "forward",
      { aOut: startOut === "a" ? 1 : 0, bOut: startOut === "b" ? 1 : 0, stalemate: 0 },
      0,
      0,
      1,
    );
  push(start.a, start.b, run.first, 1);
  while (buckets.size > 0) {
    let pr = Infinity;
    for (const k of buckets.keys()) if (k < pr) pr = k;
    const bucket = buckets.get(pr)!;
    buckets.delete(pr);
    for (const [k, [massA, massB]] of bucket) {
      request.deadline.check();
      if (massA + massB < threshold) {
        dropped += massA + massB;
        // This pass can no longer meet the tolerance: on to the next (smaller) threshold now.
        if (dropped > tolerance) return answer();
        continue;
      }
      if (++states > maxFollowed)
        throw states > byMemory ? memoryRefusal(maxBytes, byMemory, "voltForward") : tooManyStates(maxStates);
      const a = Math.floor(k / 2 ** 24);
      const b = k % 2 ** 24;
      // The same sheets with a to attack and with b to attack: an attack that changes nothing
      // passes the turn, so the two form a two-state cycle, solved in closed form.
      const byA = attack(a, b, "a");
      const byB = attack(a, b, "b");
      const loop = byA.same * byB.same;
      if (loop >= 1 - 1e-15) {
        stalemate += massA + massB;
        continue;
      }
      const visitsA = (massA + massB * byB.same) / (1 - loop);
      const visitsB = (massB + massA * byA.same) / (1 - loop);
      attacks += visitsA + visitsB;
      for (const [moves, v, next] of [
        [byA.moves, visitsA, "b"],
        [byB.moves, visitsB, "a"],
      ] as const) {
        for (const [a2, b2, q] of moves) {
          const o = outOf(a2, b2);
          if (o === "a") aOut += v * q;
          else if (o === "b") bOut += v * q;
          else {
            if (progressOf("a", a2) + progressOf("b", b2) <= pr)
              throw new Error(`forecast: an attack went back from progress ${pr}`); // a broken invariant, not bad input
            push(a2, b2, next, v * q);
          }
        }
      }
    }
  }
  return answer();
}
