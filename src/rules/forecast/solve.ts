/**
 * The exact solve of an absorbing chain: strongly connected components (Tarjan) in reverse
 * topological order, each solved from its already-solved successors — one node directly (a miss
 * is a self-loop), a cycle (FATE Clipped boxes that clear again) by Gaussian elimination.
 * Four unknowns per node: P(a is out first), P(b is out first), the expected turns, and P(the
 * duel never ends).
 */
import type { Chain } from "./chain";

/** The four unknowns of every node. */
export interface ChainValues {
  aOut: Float64Array;
  bOut: Float64Array;
  /** Expected turns until absorption (meaningful only where absorption is sure). */
  turns: Float64Array;
  /** P(never absorbed): a stalemate. */
  stalled: Float64Array;
}

/**
 * Typed arrays reused from one forecast to the next (allocating a dozen per call was a visible
 * share of a sub-millisecond forecast). Safe because a forecast reads its answer out of them
 * before it returns and never runs inside another. Chains over SCRATCH_MAX nodes get arrays of
 * their own, so no large arrays stay held.
 */
const SCRATCH_MAX = 1 << 16;
function tarjanArrays(n: number) {
  return {
    index: new Int32Array(n),
    lowLink: new Int32Array(n),
    onStack: new Uint8Array(n),
    stack: new Int32Array(n),
    // The depth-first path: a node and the position of the next successor to look at.
    pathNode: new Int32Array(n),
    pathEdge: new Int32Array(n),
    order: new Int32Array(n),
    start: new Int32Array(n),
  };
}
let tarjanScratch = tarjanArrays(1024);
export const newChainValues = (n: number): ChainValues => ({
  aOut: new Float64Array(n),
  bOut: new Float64Array(n),
  turns: new Float64Array(n),
  stalled: new Float64Array(n),
});
let valuesScratch = newChainValues(1024);

/** The unknowns of `n` nodes, zeroed. */
export function chainValues(n: number): ChainValues {
  if (n > SCRATCH_MAX) return newChainValues(n);
  if (n > valuesScratch.aOut.length)
    valuesScratch = newChainValues(Math.min(SCRATCH_MAX, Math.max(n, 2 * valuesScratch.aOut.length)));
  const v = valuesScratch;
  v.aOut.fill(0, 0, n);
  v.bOut.fill(0, 0, n);
  v.turns.fill(0, 0, n);
  v.stalled.fill(0, 0, n);
  return v;
}

/**
 * Tarjan's strongly connected components, iterative, on typed arrays. The components come out in
 * reverse topological order as ranges of one array: component c is `order[start[c] .. start[c + 1])`.
 */
export function stronglyConnected(n: number, chain: Chain): { order: Int32Array; start: Int32Array; count: number } {
  if (n + 1 > tarjanScratch.index.length && n + 1 <= SCRATCH_MAX)
    tarjanScratch = tarjanArrays(Math.min(SCRATCH_MAX, Math.max(n + 1, 2 * tarjanScratch.index.length)));
  const { index, lowLink, onStack, stack, pathNode, pathEdge, order, start } =
    n + 1 <= tarjanScratch.index.length ? tarjanScratch : tarjanArrays(n + 1);
  index.fill(-1, 0, n);
  onStack.fill(0, 0, n);
  let stackSize = 0;
  let placed = 0;
  let count = 0;
  let visited = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    pathNode[0] = root;
    pathEdge[0] = 0;
    index[root] = lowLink[root] = visited++;
    stack[stackSize++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      const node = pathNode[depth];
      const edge = pathEdge[depth];
      if (edge < chain.count(node)) {
        pathEdge[depth] = edge + 1;
        const next = chain.page(node)[chain.offset(node) + edge];
        if (index[next] === -1) {
          index[next] = lowLink[next] = visited++;
          stack[stackSize++] = next;
          onStack[next] = 1;
          depth++;
          pathNode[depth] = next;
          pathEdge[depth] = 0;
        } else if (onStack[next] && index[next] < lowLink[node]) lowLink[node] = index[next];
      } else {
        depth--;
        if (depth >= 0 && lowLink[node] < lowLink[pathNode[depth]]) lowLink[pathNode[depth]] = lowLink[node];
        if (lowLink[node] === index[node]) {
          start[count++] = placed;
          let member: number;
          do {
            member = stack[--stackSize];
            onStack[member] = 0;
            order[placed++] = member;
          } while (member !== node);
        }
      }
    }
  }
  start[count] = placed;
  return { order, start, count };
}

/** One node, perhaps with a self-loop (a miss): value = (Σ successors' values + own) / (1 − p_self). */
export function solveNode(node: number, chain: Chain, values: ChainValues): void {
  const { aOut, bOut, turns, stalled } = values;
  let self = 0;
  let a = 0;
  let b = 0;
  let expected = 1;
  let stall = 0;
  const targets = chain.page(node);
  const probs = chain.probs;
  for (let k = 0, o = chain.offset(node), r = chain.probAt(node), n = chain.count(node); k < n; k++) {
    const next = targets[o + k];
    const p = probs[r + k];
    if (next === node) self += p;
    else {
      a += p * aOut[next];
      b += p * bOut[next];
      expected += p * turns[next];
      stall += p * stalled[next];
    }
  }
  if (self >= 1 - 1e-15) {
    stalled[node] = 1;
    turns[node] = Infinity;
    return;
  }
  const scale = 1 / (1 - self);
  aOut[node] = a * scale;
  bOut[node] = b * scale;
  turns[node] = expected * scale;
  stalled[node] = stall * scale;
}

/**
 * Solves x = P_in x + P_out y for a component whose successors outside it are already solved:
 * (I − P_in) x = P_out y, four right-hand sides.
 */
export function solveComponent(members: number[], chain: Chain, values: ChainValues): void {
  const size = members.length;
  if (size === 1) return solveNode(members[0], chain, values);
  const { aOut, bOut, turns, stalled } = values;
  const local = new Map<number, number>();
  members.forEach((node, i) => local.set(node, i));
  const matrix = Array.from({ length: size }, () => new Float64Array(size));
  const rightSides = Array.from({ length: size }, () => new Float64Array(4));
  let exits = false;
  members.forEach((node, i) => {
    matrix[i][i] += 1;
    rightSides[i][2] = 1;
    const targets = chain.page(node);
    const probs = chain.probs;
    for (let k = 0, o = chain.offset(node), r = chain.probAt(node), n = chain.count(node); k < n; k++) {
      const next = targets[o + k];
      const p = probs[r + k];
      const j = local.get(next);
      if (j !== undefined) matrix[i][j] -= p;
      else {
        exits = true;
        rightSides[i][0] += p * aOut[next];
        rightSides[i][1] += p * bOut[next];
        rightSides[i][2] += p * turns[next];
        rightSides[i][3] += p * stalled[next];
      }
    }
  });
  if (!exits) {
    // A closed set of states that never reaches an end: a stalemate (nobody can hurt anybody).
    for (const node of members) {
      stalled[node] = 1;
      turns[node] = Infinity;
    }
    return;
  }
  const solution = gaussianElimination(matrix, rightSides);
  members.forEach((node, i) => {
    aOut[node] = solution[i][0];
    bOut[node] = solution[i][1];
    turns[node] = solution[i][2];
    stalled[node] = solution[i][3];
  });
}

/** Gauss–Jordan elimination with partial pivoting: the solutions of matrix · x = each right-hand side. */
function gaussianElimination(matrix: Float64Array[], rightSides: Float64Array[]): Float64Array[] {
  const n = matrix.length;
  const m = matrix.map((row) => Float64Array.from(row));
  const rhs = rightSides.map((row) => Float64Array.from(row));
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(m[row][col]) > Math.abs(m[pivot][col])) pivot = row;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    [rhs[col], rhs[pivot]] = [rhs[pivot], rhs[col]];
    const diagonal = m[col][col];
    for (let row = 0; row < n; row++) {
      if (row === col || m[row][col] === 0) continue;
      const factor = m[row][col] / diagonal;
      for (let k = col; k < n; k++) m[row][k] -= factor * m[col][k];
      for (let k = 0; k < rhs[row].length; k++) rhs[row][k] -= factor * rhs[col][k];
    }
  }
  return rhs.map((row, i) => row.map((x) => x / m[i][i]));
}
