/**
 * The bounded forward method ("forward"), for any duel: turn by turn, the probability of every
 * live node after each turn, each turn's finished duels added to their side. A node holding less
 * than the threshold is not followed, and the fight still running when at most `tolerance / 2`
 * remains is left there; both masses are the error bound (each could still end either way), and
 * the forecast tightens until the bound is within `tolerance`.
 */
import type { DuelForecast } from "../answer";
import { DuelGraph } from "../graph";
import type { DuelRun } from "../run";

export function forwardMethod(run: DuelRun): DuelForecast {
  const starts = run.starts();
  run.useChainKind("forward");
  const graph = new DuelGraph(run);
  // This turn's live nodes and the next's, reused from turn to turn and pass to pass.
  const live = new LiveNodes();
  const next = new LiveNodes();
  return run.tighten((threshold) => forwardOnce(run, graph, starts, threshold, live, next));
}

function forwardOnce(
  run: DuelRun,
  graph: DuelGraph,
  starts: ReturnType<DuelRun["starts"]>,
  threshold: number,
  liveNodes: LiveNodes,
  nextNodes: LiveNodes,
): DuelForecast {
  const { chain } = run;
  const { tolerance } = run.request;
  let aOut = 0;
  let bOut = 0;
  // The share of aOut, bOut that left by flight.
  let aFled = 0;
  let bFled = 0;
  let dropped = 0;
  let turns = 0;
  let live = liveNodes.clear();
  let next = nextNodes.clear();
  // Forward from the start distribution (one state unless checks open the duel).
  for (const s of starts) {
    const i = graph.node(s.a, s.b, s.turn);
    const ended = chain.absorbed(i);
    if (ended === 1) aOut += s.w;
    else if (ended === 2) bOut += s.w;
    else live.add(i, s.w);
    if (ended === 1 && chain.fled(i)) aFled += s.w;
    else if (ended === 2 && chain.fled(i)) bFled += s.w;
    if (s.spent) turns += s.w;
  }
  let rest = live.total();
  let stalemate = 0;
  for (let turn = 1; rest > tolerance / 2; turn++) {
    // Now and then (turns 16, 32, 64 …): a fight that can never end is a stalemate, not a refusal at the budget.
    if ((turn & (turn - 1)) === 0 && turn >= 16 && cannotEnd(run, graph, live.nodes())) {
      stalemate = rest;
      rest = 0;
      break;
    }
    turns += rest;
    next.clear();
    for (let u = 0, list = live.list, mass = live.mass, size = live.size; u < size; u++) {
      const i = list[u];
      const m = mass[i];
      run.request.deadline.check();
      if (m < threshold) {
        dropped += m;
        continue;
      }
      if (!chain.expanded(i)) graph.expand(i);
      const targets = chain.page(i);
      const probs = chain.probs;
      for (let k = 0, o = chain.offset(i), r = chain.probAt(i), n = chain.count(i); k < n; k++) {
        const j = targets[o + k];
        const q = m * probs[r + k];
        const ended = chain.absorbed(j);
        if (ended === 0) next.add(j, q);
        else {
          if (ended === 1) aOut += q;
          else bOut += q;
          if (chain.fled(j)) {
            if (ended === 1) aFled += q;
            else bFled += q;
          }
        }
      }
    }
    [live, next] = [next, live];
    rest = live.total();
    if (dropped > tolerance / 2) break;
  }
  const errorBound = dropped + rest;
  const answer = run.answer({
    aOut,
    bOut,
    stalemate,
    expectedExchanges: stalemate > 1e-12 ? null : run.alternating ? turns / 2 : turns,
    states: chain.n,
    exact: errorBound === 0,
    errorBound,
    method: "forward",
  });
  return run.rules.flight ? { ...answer, aFled, bFled } : answer;
}

/** True when no node reachable from these can ever put a side out (explored as far as that takes; stops at the first end). */
function cannotEnd(run: DuelRun, graph: DuelGraph, from: Iterable<number>): boolean {
  const { chain } = run;
  const seen = new Set<number>(from);
  const todo = [...seen];
  while (todo.length) {
    run.request.deadline.check();
    const i = todo.pop()!;
    if (!chain.expanded(i)) graph.expand(i);
    const targets = chain.page(i);
    for (let k = chain.offset(i), end = k + chain.count(i); k < end; k++) {
      const j = targets[k];
      if (chain.absorbed(j)) return false;
      if (!seen.has(j)) {
        seen.add(j);
        todo.push(j);
      }
    }
  }
  return true;
}

/**
 * One turn's live nodes of the forward method: each node's probability, and the nodes in the
 * order they were first reached, so a turn is followed in the order a Map would give (the same
 * sums, the same bits) without a Map entry and a boxed number per node and turn. That garbage,
 * over a hundred thousand nodes a turn, was most of the forward method's peak memory.
 */
class LiveNodes {
  /** The probability of node i, valid while `seen[i] === stamp`. */
  mass = new Float64Array(1024);
  private seen = new Int32Array(1024);
  private stamp = 0;
  /** The nodes held, first `size` entries, in the order first reached. */
  list = new Int32Array(1024);
  size = 0;
  clear(): this {
    this.stamp++;
    this.size = 0;
    return this;
  }
  /** Adds q to node j's probability (j enters the list the first time). */
  add(j: number, q: number): void {
    if (j >= this.seen.length) this.grow(j + 1);
    if (this.seen[j] !== this.stamp) {
      this.seen[j] = this.stamp;
      this.mass[j] = q;
      this.list[this.size++] = j;
    } else this.mass[j] += q;
  }
  /** The probability held in all, added in list order. */
  total(): number {
    let t = 0;
    for (let u = 0; u < this.size; u++) t += this.mass[this.list[u]];
    return t;
  }
  nodes(): Int32Array {
    return this.list.subarray(0, this.size);
  }
  private grow(n: number): void {
    let m = this.seen.length;
    while (m < n) m *= 2;
    const mass = new Float64Array(m);
    mass.set(this.mass);
    this.mass = mass;
    const seen = new Int32Array(m);
    seen.set(this.seen);
    this.seen = seen;
    // At most one entry a node: the list never holds more than the nodes.
    const list = new Int32Array(m);
    list.set(this.list);
    this.list = list;
  }
}
