/**
 * The sampled estimate ("sample"): whole duels played through the run's own turns (sampling.ts),
 * or through a preset's faster player of the same turns (Volt: its integer sheets).
 */
import type { DuelForecast } from "../answer";
import type { DuelRun } from "../run";
import { sampleDuels, type SampledDuel } from "../sampling";

/** A preset's own player of the duel's turns, and how many states its duels met. */
export type SheetPlayer = SampledDuel & { sheetsMet(): number };

export function sampleMethod(run: DuelRun, player?: SheetPlayer): DuelForecast {
  const starts = run.starts();
  const { sides } = run;
  const flight = run.rules.flight === true;
  const fled = flight ? { fledA: (a: number) => a === sides.a.fledId, fledB: (b: number) => b === sides.b.fledId } : {};
  const s = sampleDuels(
    player ?? {
      moves: (a, b, turn, visit, take) => run.turn(a, b, turn, visit, take),
      starts,
      outA: (a) => sides.a.out[a],
      outB: (b) => sides.b.out[b],
      ...fled,
      alternating: run.alternating,
      checkTime: run.request.deadline.check,
    },
    run.request.sampling,
    run.options.sampleUntil,
  );
  const answer = run.answer({
    aOut: s.aOut,
    bOut: s.bOut,
    stalemate: s.stalemate,
    expectedExchanges: s.expectedExchanges,
    states: player ? player.sheetsMet() : sides.a.tracks.length + sides.b.tracks.length,
    exact: false,
    errorBound: 1,
    method: "sample",
    estimate: s.estimate,
  });
  return flight ? { ...answer, aFled: s.aFled ?? 0, bFled: s.bFled ?? 0 } : answer;
}
