/**
 * The exact method ("chain"): the absorbing Markov chain of every reachable node, solved per
 * strongly connected component (solve.ts).
 */
import type { DuelForecast } from "../answer";
import { FORECAST_BUDGET, overBudget } from "../budget";
import { DuelGraph } from "../graph";
import type { DuelRun } from "../run";
import { chainValues, newChainValues, solveComponent, solveNode, stronglyConnected, type ChainValues } from "../solve";

export function chainMethod(run: DuelRun): DuelForecast {
  const starts = run.starts();
  const flight = run.rules.flight === true;
  run.useChainKind(flight ? "flight" : "chain");
  const { chain } = run;
  const graph = new DuelGraph(run);
  const startNodes = starts.map((s) => ({ i: graph.node(s.a, s.b, s.turn), w: s.w, spent: s.spent }));
  for (let i = 0; i < chain.n; i++) {
    run.request.deadline.check();
    if (!chain.absorbed(i)) graph.expand(i);
  }
  const n = chain.n;
  const values = chainValues(n);
  for (let i = 0; i < n; i++) {
    const ended = chain.absorbed(i);
    if (ended === 1) values.aOut[i] = 1;
    if (ended === 2) values.bOut[i] = 1;
  }
  // Where a side can flee: the same equations again with the flight end nodes alone as ends
  // (P(a, b leaves by flight)); their turns and stalemate columns are not read.
  const fled = flight ? newChainValues(n) : null;
  if (fled)
    for (let i = 0; i < n; i++) {
      if (!chain.fled(i)) continue;
      if (chain.absorbed(i) === 1) fled.aOut[i] = 1;
      else fled.bOut[i] = 1;
    }
  solveAll(run, values, fled);
  // The answer from where the duel starts: the weighted values of its start states.
  let aOut = 0;
  let bOut = 0;
  let stalemate = 0;
  let turns = 0;
  let aFled = 0;
  let bFled = 0;
  for (const { i, w, spent } of startNodes) {
    aOut += w * values.aOut[i];
    bOut += w * values.bOut[i];
    stalemate += w * values.stalled[i];
    turns += w * (values.turns[i] + (spent ? 1 : 0));
    if (fled) {
      aFled += w * fled.aOut[i];
      bFled += w * fled.bOut[i];
    }
  }
  const answer = run.answer({
    aOut,
    bOut,
    stalemate,
    expectedExchanges: stalemate > 1e-12 ? null : run.alternating ? turns / 2 : turns,
    states: n,
    exact: true,
    errorBound: 0,
    method: "chain",
  });
  return fled ? { ...answer, aFled, bFled } : answer;
}

/** Solves every component in reverse topological order (each one's successors are solved before it). */
function solveAll(run: DuelRun, values: ChainValues, fled: ChainValues | null): void {
  const { chain } = run;
  const { order, start, count } = stronglyConnected(chain.n, chain);
  for (let c = 0; c < count; c++) {
    const size = start[c + 1] - start[c];
    const node = order[start[c]];
    if (size === 1) {
      // Most components are one node (wounds only add up; a miss is a self-loop): no array for it.
      if (!chain.absorbed(node)) {
        solveNode(node, chain, values);
        if (fled) solveNode(node, chain, fled);
      }
      continue;
    }
    run.request.deadline.check();
    if (size > FORECAST_BUDGET.maxComponent) throw overBudget("maxStates", `a cycle of ${size} states`);
    const members = Array.from(order.subarray(start[c], start[c + 1]));
    solveComponent(members, chain, values);
    if (fled) solveComponent(members, chain, fled);
  }
}
