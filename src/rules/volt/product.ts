/**
 * Volt duel forecast, exact ("product" method): a backward dynamic programme over the product of
 * both wound sheets, with sheets as small integers (sheet.ts).
 *
 * Why it is exact and small enough (docs/rules-api/volt.md "Duel forecast"):
 * - An attack reads only the attacker's penalty (the forecast's contract for Volt), so each side
 *   has one law per penalty, taken from the real pipeline by the caller; each (sheet, law) pair's
 *   successors are tabulated once.
 * - Every wound that changes a sheet adds a mark or turns a Stun into an Injury: "progress"
 *   (Stun 1, Injury 2 per row) strictly rises. Apart from attacks that change nothing (misses,
 *   blacked rows, a failed roll above the Damage), which only pass the turn — a two-state cycle
 *   solved in closed form — the product of both sheets is acyclic. Pairs are solved in
 *   decreasing progress: outer side by outer side, keeping only the outer layers an attack can
 *   still reach (memory ∝ a few layers × the inner side's sheets).
 * - A side whose law is null (Volt: its attack cannot beat Guard even on the best dice) cannot
 *   change the other sheet: while it stays null, the duel is one-sided and its value depends on
 *   the other side only through that side's law — one table per law instead of every pair.
 */
import { voltForwardExceeds, countSide, type VoltCountStats } from "./forward-count";
import {
  Explorer,
  penaltyClasses,
  VOLT_OUT,
  voltApplyWounds,
  voltSheetModel,
  voltSheetOf,
  voltSheetPenalty,
  voltSheetProgress,
  voltStateOf,
  type VoltDuelSide,
  type VoltLaw,
  type VoltSheetModel,
} from "./sheet";
import { streamKernel, type StreamKernel } from "./stream-kernel";
import type { VoltTrackState } from "./track";

export interface VoltDuelLimits {
  /** Largest number of sheet pairs solved (each for both turns). */
  maxPairs: number;
  /** Largest number of pairs kept in memory at once (16 bytes each, 24 where a pair could stall). */
  maxWindow: number;
  /** Called once per outer sheet; throws when the time budget is spent. */
  checkTime: () => void;
  /** False: the row sums in JavaScript only, not in the WebAssembly kernel (stream-kernel.ts); tests compare the two. */
  simd?: boolean;
}

export interface VoltDuelResult {
  aOut: number;
  bOut: number;
  stalemate: number;
  /** Expected attacks (both sides'); meaningless when stalemate > 0. */
  attacks: number;
  /** Living sheets of each side, pairs solved, and the most pairs held at once. */
  sheets: { a: number; b: number };
  pairs: number;
  window: number;
}

/** Why the product method does not fit its limits (the caller falls back or refuses). */
export interface VoltDuelTooLarge {
  tooLarge: "pairs" | "window";
  /** The pairs solved, or with `pairsAtLeast` a lower bound of them (counted only until over `maxPairs`). */
  pairs: number;
  pairsAtLeast: boolean;
  /** The most pairs held at once (0 when not computed: over the pairs' budget first). */
  window: number;
  /**
   * Whether the bounded "forward" method is sure to follow more than `maxStates` states on its
   * first pass (threshold `eps`), so that it would only refuse: see `voltForwardExceeds`.
   */
  forwardExceeds: (eps: number, maxStates: number, stats?: VoltCountStats) => boolean;
}

/** Successors of every sheet of a side under one law of the other side (CSR). */
interface Table {
  start: Int32Array;
  to: Int32Array;
  p: Float64Array;
  /** P(this attack leaves the sheet as it is) and P(it puts the side out). */
  same: Float64Array;
  out: Float64Array;
  /** No sheet is ever changed by this law. */
  none: boolean;
  /** The most layers (progress) one attack under this law moves a sheet. */
  jump: number;
}

interface SideModel {
  m: VoltSheetModel;
  /** Sheets in decreasing progress (successors come first). */
  sheets: Int32Array;
  progress: Int32Array;
  /** Own penalty class (index into `classes`) of each sheet: its law as attacker. */
  cls: Int32Array;
  /** Successor tables by the OTHER side's class. */
  tab: Table[];
  /** Sheets whose own law is null and whose every successor is out or closed: one-sided. */
  closed: Uint8Array;
  startIndex: number;
  /** The most layers one attack moves a sheet (−1: not yet known). */
  jump: number;
  /** Every hit on this side deals at most one wound (not a stun weapon's two). */
  singleWound: boolean;
}
/**
 * The exact duel. `lawOf(side, state)`: the law of `side` attacking when its sheet is `state` (the
 * real pipeline's, enumerated by the caller). Returns the tooLarge reason instead when the
 * pairs or the memory window would exceed `limits`.
 */
export function voltProductDuel(
  a: VoltDuelSide,
  b: VoltDuelSide,
  first: "a" | "b",
  lawOf: (attacker: "a" | "b", state: VoltTrackState) => VoltLaw,
  limits: VoltDuelLimits,
): VoltDuelResult | VoltDuelTooLarge {
  const ma = voltSheetModel(a.config);
  const mb = voltSheetModel(b.config);
  const sa = voltSheetOf(ma, a.state);
  const sb = voltSheetOf(mb, b.state);
  if (sa === VOLT_OUT || sb === VOLT_OUT)
    return {
      aOut: sa === VOLT_OUT ? 1 : 0,
      bOut: sa === VOLT_OUT ? 0 : 1,
      stalemate: 0,
      attacks: 0,
      sheets: { a: 0, b: 0 },
      pairs: 0,
      window: 0,
    };
  const ca = penaltyClasses(ma);
  const cb = penaltyClasses(mb);
  const lawsA = ca.reps.map((r) => lawOf("a", voltStateOf(ma, r)));
  const lawsB = cb.reps.map((r) => lawOf("b", voltStateOf(mb, r)));
  // Each side's sheets, hit by the other side's laws: found breadth-first, both sides in turn.
  const EA = new Explorer(ma, sa, lawsB);
  const EB = new Explorer(mb, sb, lawsA);
  const forwardExceeds = (eps: number, maxStates: number, stats?: VoltCountStats): boolean =>
    voltForwardExceeds(
      countSide(EA, ca.penalties),
      countSide(EB, cb.penalties),
      first === "a",
      eps,
      maxStates,
      limits.checkTime,
      stats,
    );
  // Over the pairs' budget before any table is built: every sheet found is reachable, and one whose
  // own law changes the other side's start sheet is open (closeNull closes a sheet only when its
  // law changes no sheet of the other side), so the pairs solved are at least openA × openB.
  const opensA = opens(ma, lawsA, mb, sb);
  const opensB = opens(mb, lawsB, ma, sa);
  const seenOpen = (explorer: Explorer, open: (s: number) => boolean, from: number): number => {
    let n = 0;
    for (let i = from; i < explorer.found.length; i++) if (open(explorer.found[i])) n++;
    return n;
  };
  let openFoundA = seenOpen(EA, opensA, 0);
  let openFoundB = seenOpen(EB, opensB, 0);
  while (EA.next < EA.found.length || EB.next < EB.found.length) {
    if (openFoundA * openFoundB > limits.maxPairs)
      return { tooLarge: "pairs", pairs: openFoundA * openFoundB, pairsAtLeast: true, window: 0, forwardExceeds };
    limits.checkTime();
    for (const [explorer, open] of [
      [EA, opensA],
      [EB, opensB],
    ] as const) {
      if (explorer.next >= explorer.found.length) continue;
      const before = explorer.found.length;
      explorer.expand(explorer.next++);
      const n = seenOpen(explorer, open, before);
      if (explorer === EA) openFoundA += n;
      else openFoundB += n;
    }
  }
  const sideA = sideModel(EA, ca.penalties, limits.checkTime);
  const sideB = sideModel(EB, cb.penalties, limits.checkTime);
  closeNull(sideA, sideB);
  closeNull(sideB, sideA);
  const openA = sideA.sheets.length - count(sideA.closed);
  const openB = sideB.sheets.length - count(sideB.closed);
  const pairs = openA * openB;
  // Outer side: the arrangement whose window of outer layers × inner sheets is smaller.
  const wA = windowOf(sideA, openB);
  const wB = windowOf(sideB, openA);
  const window = Math.min(wA, wB);
  if (pairs > limits.maxPairs || window > limits.maxWindow)
    return {
      tooLarge: pairs > limits.maxPairs ? "pairs" : "window",
      pairs,
      pairsAtLeast: false,
      window,
      forwardExceeds,
    };
  const aOuter = wA <= wB;
  const r = solve(
    aOuter ? sideA : sideB,
    aOuter ? sideB : sideA,
    aOuter === (first === "a"),
    limits.checkTime,
    limits.simd !== false,
  );
  const [pU, pV] = [r.value[0], r.value[1]];
  const aOut = aOuter ? pU : pV;
  const bOut = aOuter ? pV : pU;
  // Pairs that stall may exist without being reachable (the product holds pairs no duel meets):
  // what is left of 1 then is rounding, not a stalemate.
  const rest = r.stuck ? 1 - aOut - bOut : 0;
  return {
    aOut,
    bOut,
    stalemate: rest > 1e-12 ? rest : 0,
    attacks: r.value[2],
    sheets: { a: sideA.sheets.length, b: sideB.sheets.length },
    pairs,
    window,
  };
}

/** Whether a sheet of S is sure to be open: its class's law changes O's start sheet (so that law is not null, see closeNull). */
function opens(m: VoltSheetModel, laws: VoltLaw[], mo: VoltSheetModel, so: number): (s: number) => boolean {
  const { penalties } = penaltyClasses(m);
  const open = laws.map((law) => law.hits.some((h) => voltApplyWounds(mo, so, h.wounds) !== so));
  return (s) => open[penalties.indexOf(voltSheetPenalty(m, s))];
}

function count(x: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < x.length; i++) n += x[i];
  return n;
}

/** Every living sheet reachable from the explorer's start under the other side's laws, and their successor tables. */
function sideModel(explorer: Explorer, penalties: number[], checkTime: () => void): SideModel {
  const { m, W: woundCount, found, laws, hitWound } = explorer;
  while (explorer.next < found.length) {
    checkTime();
    explorer.expand(explorer.next++);
  }
  const after = explorer.after;
  const start = explorer.start;
  // The sorted places (the explorer keeps its own `index`: the budget checks read it afterwards).
  const index = new Int32Array(explorer.index.length);
  const progressOf = found.map((s) => voltSheetProgress(m, s));
  // Decreasing progress, then increasing sheet: one numeric key per sheet (sheets are distinct),
  // sorted as a typed array (no comparator calls), then mapped back to the order found.
  const span = 2 ** (2 * m.R);
  const keys = Float64Array.from(found, (s, i) => (2 * m.R - progressOf[i]) * span + s).sort();
  const order = Array.from(keys, (k) => explorer.index[k % span]);
  const n = found.length;
  const sheets = new Int32Array(n);
  const progress = new Int32Array(n);
  const cls = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    sheets[i] = found[order[i]];
    progress[i] = progressOf[order[i]];
    index[sheets[i]] = i;
    cls[i] = penalties.indexOf(voltSheetPenalty(m, sheets[i]));
  }
  // Each (sheet, wound) as a sorted index: −1 out of the fight.
  const next = new Int32Array(n * woundCount);
  for (let i = 0; i < n; i++) {
    const row = order[i] * woundCount;
    for (let w = 0; w < woundCount; w++) {
      const s2 = after[row + w];
      next[i * woundCount + w] = s2 === VOLT_OUT ? -1 : index[s2];
    }
  }
  const tab = laws.map((law, l) => table(progress, next, woundCount, law, hitWound[l], checkTime));
  return {
    m,
    sheets,
    progress,
    cls,
    tab,
    closed: new Uint8Array(n),
    startIndex: index[start],
    jump: -1,
    singleWound: explorer.singleWound,
  };
}

function table(
  progress: Int32Array,
  next: Int32Array,
  woundCount: number,
  law: VoltLaw,
  hitWound: number[],
  checkTime: () => void,
): Table {
  const n = progress.length;
  const H = hitWound.length;
  const wid = Int32Array.from(hitWound);
  const hp = Float64Array.from(law.hits, (h) => h.p);
  const start = new Int32Array(n + 1);
  const to = new Int32Array(n * H);
  const p = new Float64Array(n * H);
  const same = new Float64Array(n);
  const out = new Float64Array(n);
  const at = new Int32Array(n).fill(-1); // position of a successor in this sheet's list
  let len = 0;
  let jump = 0;
  for (let i = 0; i < n; i++) {
    checkTime();
    start[i] = len;
    const row = i * woundCount;
    let s = law.miss;
    let o = 0;
    for (let h = 0; h < H; h++) {
      const q = hp[h];
      const j = next[row + wid[h]];
      if (j === i) s += q;
      else if (j < 0) o += q;
      else {
        // A broken invariant, not bad input: every wound that changes a sheet raises its progress.
        if (progress[j] <= progress[i]) throw new Error(`volt duel: a wound went back from progress ${progress[i]}`);
        if (at[j] >= 0) p[at[j]] += q;
        else {
          if (progress[j] - progress[i] > jump) jump = progress[j] - progress[i];
          at[j] = len;
          to[len] = j;
          p[len++] = q;
        }
      }
    }
    for (let k = start[i]; k < len; k++) at[to[k]] = -1;
    same[i] = s;
    out[i] = o;
  }
  start[n] = len;
  let none = true;
  for (let i = 0; i < n && none; i++) if (out[i] > 0) none = false;
  if (len > 0) none = false;
  return { start, to: to.slice(0, len), p: p.slice(0, len), same, out, none, jump };
}

/** Marks the sheets of S that are one-sided: S's law is null there and stays null after every wound. */
function closeNull(side: SideModel, other: SideModel): void {
  const nullLaw = other.tab.map((t) => t.none); // O's table by S's class: S's law never changes O
  for (let i = 0; i < side.sheets.length; i++) {
    if (!nullLaw[side.cls[i]]) continue;
    let closed = true;
    for (const t of side.tab)
      for (let k = t.start[i]; k < t.start[i + 1] && closed; k++) if (!side.closed[t.to[k]]) closed = false;
    side.closed[i] = closed ? 1 : 0;
  }
}

/** The pairs held at once with S as the outer side: `jump + 1` buffers of the widest layer of open S sheets (an attack moves a sheet at most `jump` layers), × the open inner sheets. */
function windowOf(side: SideModel, openInner: number): number {
  // Progress is at most 2 per row (an Injury), so a layer's width fits a small typed array.
  const width = new Int32Array(2 * side.m.R + 1);
  let widest = 0;
  for (let i = 0; i < side.sheets.length; i++) {
    if (side.closed[i]) continue;
    const w = ++width[side.progress[i]];
    if (w > widest) widest = w;
  }
  return (jumpOf(side) + 1) * widest * openInner;
}

/** The most layers (progress) one attack moves a sheet of S. */
function jumpOf(side: SideModel): number {
  if (side.jump >= 0) return side.jump;
  let jump = 0;
  for (const t of side.tab) jump = Math.max(jump, t.jump); // each table's, found as it was built
  side.jump = jump;
  return jump;
}

/**
 * Values of a closed sheet of S, per class of the other side O (whose sheet cannot change): with
 * O to attack and with S to attack, each [P(S out first), P(O out first) = 0, attacks].
 */
class OneSided {
  private readonly byClass = new Map<number, Float64Array>();
  stuck = false;
  constructor(private readonly side: SideModel) {}
  /** 6 numbers per sheet: O to attack (3), then S to attack (3). */
  of(oClass: number): Float64Array {
    let v = this.byClass.get(oClass);
    if (v) return v;
    const side = this.side;
    const t = side.tab[oClass];
    v = new Float64Array(side.sheets.length * 6);
    for (let i = 0; i < side.sheets.length; i++) {
      if (!side.closed[i]) continue;
      const sigma = t.same[i];
      if (1 - sigma <= 1e-15) {
        this.stuck = true; // neither side can change anything any more: a stalemate (values 0)
        continue;
      }
      // O attacks: Z_O = 1 + σ·Z_S + Σ q·Z_S(s') + out; S's attack changes nothing: Z_S = 1 + Z_O.
      let pS = t.out[i];
      let att = 1 + sigma;
      for (let k = t.start[i]; k < t.start[i + 1]; k++) {
        const j = t.to[k];
        const q = t.p[k];
        pS += q * v[j * 6 + 3];
        att += q * v[j * 6 + 5];
      }
      const zPS = pS / (1 - sigma);
      const zAtt = att / (1 - sigma);
      v[i * 6] = zPS;
      v[i * 6 + 2] = zAtt;
      v[i * 6 + 3] = zPS;
      v[i * 6 + 5] = zAtt + 1;
    }
    this.byClass.set(oClass, v);
    return v;
  }
}

/**
 * Whether some pair of open sheets, or some one-sided sheet, could stall: both attacks (or the
 * only one that can change anything) leave everything as it is with probability ≈ 1. Checked per
 * pair of classes with the largest "nothing changes" probability of each side, so it may say yes
 * where no pair stalls (then three numbers are kept per pair, which is merely slower).
 */
function canStall(outer: SideModel, inner: SideModel): boolean {
  const mostU = mostSame(outer, inner.tab.length);
  const mostV = mostSame(inner, outer.tab.length);
  for (let cu = 0; cu < inner.tab.length; cu++)
    for (let cv = 0; cv < outer.tab.length; cv++) {
      const mu = mostU[cu * outer.tab.length + cv];
      const mv = mostV[cv * inner.tab.length + cu];
      if (mu >= 0 && mv >= 0 && mu * mv > 1 - 1e-9) return true;
    }
  for (const side of [outer, inner])
    for (let c = 0; c < side.tab.length; c++)
      for (let i = 0; i < side.sheets.length; i++) if (side.closed[i] && side.tab[c].same[i] > 1 - 1e-9) return true;
  return false;
}

/**
 * Per own class c and other class o (at c · O + o, O the other side's classes): the largest
 * "nothing changes" probability of an open sheet of class c under o's law, −1 when there is none.
 * One pass over the sheets.
 */
function mostSame(side: SideModel, ownClasses: number): Float64Array {
  const O = side.tab.length;
  const most = new Float64Array(ownClasses * O).fill(-1);
  for (let i = 0; i < side.sheets.length; i++) {
    if (side.closed[i]) continue;
    const row = side.cls[i] * O;
    for (let o = 0; o < O; o++) if (side.tab[o].same[i] > most[row + o]) most[row + o] = side.tab[o].same[i];
  }
  return most;
}

/**
 * U's attack on the open sheets of V under one law, ready to gather: per sheet, what does not
 * depend on U's row (P(V out) from "out" and from closed successors, their attacks, plus this
 * attack) and the open successors (their offsets in a row of C numbers).
 */
function openGather(
  inner: SideModel,
  t: Table,
  closedV: Float64Array | null,
  perPair: number,
): { start: Int32Array; to: Int32Array; p: Float64Array; base1: Float64Array; base2: Float64Array } {
  const n = inner.sheets.length;
  const start = new Int32Array(n + 1);
  const to: number[] = [];
  const p: number[] = [];
  const base1 = new Float64Array(n);
  const base2 = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    start[v] = to.length;
    base1[v] = t.out[v];
    base2[v] = 1;
    if (inner.closed[v]) continue;
    for (let k = t.start[v]; k < t.start[v + 1]; k++) {
      const v2 = t.to[k];
      if (inner.closed[v2]) {
        const o = v2 * 6 + 3;
        base1[v] += t.p[k] * closedV![o];
        base2[v] += t.p[k] * closedV![o + 2];
      } else {
        to.push(v2 * perPair);
        p.push(t.p[k]);
      }
    }
  }
  start[n] = to.length;
  return { start, to: Int32Array.from(to), p: Float64Array.from(p), base1, base2 };
}

/**
 * The backward programme over the outer side U (`outer`) and the inner side V (`inner`). XU(u, v): U to attack; XV(u, v): V to attack; each
 * [P(U out first), P(V out first), expected attacks]. XU = cU + sV·XV and XV = cV + sU·XU, where
 * cU sums U's attacks that change V (from this row's XV) and cV sums V's attacks that change U
 * (from the outer layers' XU): the two-state cycle of attacks that change nothing, in closed form.
 *
 * Memory: XU of the open outer sheets in the last `jump + 1` progress layers (the farthest an
 * attack can move a sheet), in `jump + 1` buffers reused by progress modulo `jump + 1`.
 */
function solve(
  outer: SideModel,
  inner: SideModel,
  uFirst: boolean,
  checkTime: () => void,
  simd: boolean,
): { value: [number, number, number]; stuck: boolean } {
  const nU = outer.sheets.length;
  const nV = inner.sheets.length;
  const osU = new OneSided(outer);
  const osV = new OneSided(inner);
  const result: [number, number, number] = [0, 0, 0];
  const startU = outer.startIndex;
  const startV = inner.startIndex;
  // A closed start sheet: its one-sided table answers (values in the order [pU, pV, attacks]).
  if (outer.closed[startU]) {
    const t = osU.of(inner.cls[startV]);
    const o = startU * 6 + (uFirst ? 3 : 0);
    return { value: [t[o], 0, t[o + 2]], stuck: osU.stuck };
  }
  if (inner.closed[startV]) {
    const t = osV.of(outer.cls[startU]);
    const o = startV * 6 + (uFirst ? 0 : 3);
    return { value: [0, t[o], t[o + 2]], stuck: osV.stuck };
  }
  const nClassU = inner.tab.length; // V's tables are by U's class
  const nClassV = outer.tab.length; // and U's by V's
  const osUBy = Array.from({ length: nClassV }, (_, c) => (count(outer.closed) ? osU.of(c) : null));
  const osVBy = Array.from({ length: nClassU }, (_, c) => (count(inner.closed) ? osV.of(c) : null));
  // Open inner sheets get slots, grouped by class (V's class picks U's table and sU).
  const slot = new Int32Array(nV).fill(-1);
  const classStart = new Int32Array(nClassV + 1);
  const slotSheet: number[] = [];
  for (let c = 0; c < nClassV; c++) {
    classStart[c] = slotSheet.length;
    for (let v = 0; v < nV; v++)
      if (!inner.closed[v] && inner.cls[v] === c) {
        slot[v] = slotSheet.length;
        slotSheet.push(v);
      }
  }
  const nSlots = slotSheet.length;
  classStart[nClassV] = nSlots;
  // Values per pair: [P(U out first), P(V out first), attacks] — or, when no pair can stall (every
  // pair's attacks change something with positive probability, so every duel ends), P(V out first)
  // is 1 − P(U out first) and is not kept: two numbers per pair instead of three.
  const perPair = canStall(outer, inner) ? 3 : 2;
  const ATT = perPair - 1;
  const rowLen = nSlots * perPair;
  // Window buffers.
  const jump = jumpOf(outer);
  const rowOf = new Int32Array(nU).fill(-1);
  const layerSize = new Map<number, number>();
  let widest = 0;
  for (let u = 0; u < nU; u++) {
    if (outer.closed[u]) continue;
    const n = layerSize.get(outer.progress[u]) ?? 0;
    rowOf[u] = n;
    layerSize.set(outer.progress[u], n + 1);
    widest = Math.max(widest, n + 1);
  }
  const base = new Int32Array(nU);
  for (let u = 0; u < nU; u++) base[u] = ((outer.progress[u] % (jump + 1)) * widest + Math.max(0, rowOf[u])) * rowLen;
  const openV = Int32Array.from(slotSheet).sort(); // open inner sheets, successors (lower indices) first
  const slotC = Int32Array.from(slot, (x) => x * perPair);
  // U's attack on V's open sheets, per U's class, ready to gather.
  const gathers = inner.tab.map((tV, cu) => openGather(inner, tV, osVBy[cu], perPair));
  const windowLen = (jump + 1) * widest * rowLen;
  const k = simd && perPair === 2 ? inKernel(windowLen, rowLen, nClassV, inner, openV, slotC, gathers) : null;
  const window = k ? k.window : new Float64Array(windowLen);
  const acc = k ? k.acc : new Float64Array(rowLen); // cV of this row, by slot
  const rowXV = k ? k.rowXV : new Float64Array(nV * perPair);
  const sUByClass = k ? k.sU : new Float64Array(nClassV);
  const sums = k ? { kernel: k.kernel, acc: k.accAt } : null;
  let stuck = false;
  for (let u = 0; u < nU; u++) {
    if (outer.closed[u]) continue;
    checkTime();
    // V attacks U (law by V's class): cV = out + Σ q·XU(u2, v), a stream over each successor's row.
    for (let c = 0; c < nClassV; c++) {
      const t = outer.tab[c];
      const from = classStart[c] * perPair;
      const to = classStart[c + 1] * perPair;
      if (from === to) continue;
      streamSuccessors(t, u, outer.closed, osUBy[c], base, window, acc, from, to, perPair, sums);
    }
    const cu = outer.cls[u];
    for (let c = 0; c < nClassV; c++) sUByClass[c] = outer.tab[c].same[u];
    if (k) {
      if (k.row(base[u], cu)) stuck = true;
    } else {
      const sV = inner.tab[cu].same; // U's attack on V's sheets
      const row = {
        myBase: base[u],
        g: gathers[cu],
        sV,
        sU: sUByClass,
        vCls: inner.cls,
        slotC,
        openV,
        acc,
        window,
        rowXV,
      };
      if (perPair === 2 ? rowOfTwo(row) : rowOfThree(row)) stuck = true;
    }
    if (u === startU) {
      const src = uFirst ? window : rowXV;
      const i = uFirst ? base[u] + slotC[startV] : startV * perPair;
      result[0] = src[i];
      result[1] = perPair === 3 ? src[i + 1] : 1 - src[i];
      result[2] = src[i + ATT];
    }
  }
  return { value: result, stuck: stuck || osU.stuck || osV.stuck };
}

/**
 * The solve's arrays in the WebAssembly kernel's memory (stream-kernel.ts), two numbers per pair:
 * the window, the row's sums and XV, and per class of U its gather and P(nothing changes) on V's
 * sheets; `row(myBase, cu)` runs rowOfTwo there. Null where the kernel cannot run.
 */
function inKernel(
  windowLen: number,
  rowLen: number,
  nClassV: number,
  inner: SideModel,
  openV: Int32Array,
  slotC: Int32Array,
  gathers: Array<ReturnType<typeof openGather>>,
): {
  kernel: StreamKernel;
  window: Float64Array;
  acc: Float64Array;
  accAt: number;
  rowXV: Float64Array;
  sU: Float64Array;
  row: (myBase: number, cu: number) => number;
} | null {
  const nV = inner.sheets.length;
  let bytes = 0;
  const place = (n: number, size: number): number => {
    const at = bytes;
    bytes += Math.ceil((n * size) / 16) * 16;
    return at;
  };
  const at = {
    window: place(windowLen, 8),
    acc: place(rowLen, 8),
    rowXV: place(nV * 2, 8),
    sU: place(nClassV, 8),
    vCls: place(nV, 4),
    slotC: place(nV, 4),
    openV: place(openV.length, 4),
  };
  const byClass = gathers.map((g, cu) => ({
    start: place(g.start.length, 4),
    to: place(g.to.length, 4),
    p: place(g.p.length, 8),
    base2: place(g.base2.length, 8),
    same: place(inner.tab[cu].same.length, 8),
  }));
  const kernel = streamKernel(bytes);
  if (!kernel) return null;
  const buf = kernel.memory.buffer;
  new Int32Array(buf, at.vCls, nV).set(inner.cls);
  new Int32Array(buf, at.slotC, nV).set(slotC);
  new Int32Array(buf, at.openV, openV.length).set(openV);
  gathers.forEach((g, cu) => {
    const c = byClass[cu];
    new Int32Array(buf, c.start, g.start.length).set(g.start);
    new Int32Array(buf, c.to, g.to.length).set(g.to);
    new Float64Array(buf, c.p, g.p.length).set(g.p);
    new Float64Array(buf, c.base2, g.base2.length).set(g.base2);
    new Float64Array(buf, c.same, nV).set(inner.tab[cu].same);
  });
  const nOpen = openV.length;
  return {
    kernel,
    window: new Float64Array(buf, at.window, windowLen),
    acc: new Float64Array(buf, at.acc, rowLen),
    accAt: at.acc,
    rowXV: new Float64Array(buf, at.rowXV, nV * 2),
    sU: new Float64Array(buf, at.sU, nClassV),
    row: (myBase, cu) => {
      const c = byClass[cu];
      return kernel.row(
        myBase,
        nOpen,
        c.start,
        c.to,
        c.p,
        c.base2,
        at.openV,
        c.same,
        at.sU,
        at.vCls,
        at.slotC,
        at.acc,
        at.window,
        at.rowXV,
      );
    },
  };
}

/**
 * V attacks U: cV(u, ·) = out + Σ q·XU(u2, ·) over u's successors u2 under one of V's laws, in the
 * table's order. Two open successors in a row are summed in one pass over the slots (the same additions in
 * the same order: each slot's total is exactly as with one pass per successor, read half as often).
 */
function streamSuccessors(
  t: Table,
  u: number,
  closed: Uint8Array,
  os: Float64Array | null,
  base: Int32Array,
  window: Float64Array,
  acc: Float64Array,
  from: number,
  to: number,
  perPair: number,
  sums: { kernel: StreamKernel; acc: number } | null,
): void {
  const ATT = perPair - 1;
  const out = t.out[u];
  const kEnd = t.start[u + 1];
  let k = t.start[u];
  if (perPair === 2 && k < kEnd && !closed[t.to[k]]) {
    // The row starts at [out, 1] plus the first successor's share: out + q·x, as adding it after.
    const b = base[t.to[k]];
    const q = t.p[k++];
    if (sums) sums.kernel.first(sums.acc + from * 8, (b + from) * 8, (to - from) * 8, q, out, 1);
    else
      for (let i = from; i < to; i += 2) {
        acc[i] = out + q * window[b + i];
        acc[i + 1] = 1 + q * window[b + i + 1];
      }
  } else {
    if (perPair === 3) acc.fill(0, from, to);
    for (let i = from; i < to; i += perPair) {
      acc[i] = out;
      acc[i + ATT] = 1;
    }
  }
  for (; k < kEnd; k++) {
    const u2 = t.to[k];
    const q = t.p[k];
    if (closed[u2]) {
      // U's sheet u2 is one-sided against V's class: the same value for every v of the class.
      const o = u2 * 6 + 3;
      const p0 = q * os![o];
      const p2 = q * os![o + 2];
      for (let i = from; i < to; i += perPair) {
        acc[i] += p0;
        acc[i + ATT] += p2;
      }
    } else if (k + 1 < kEnd && !closed[t.to[k + 1]]) {
      const b = base[u2];
      const q2 = t.p[k + 1];
      const b2 = base[t.to[k + 1]];
      k++;
      if (sums) sums.kernel.two(sums.acc + from * 8, (b + from) * 8, (b2 + from) * 8, (to - from) * 8, q, q2);
      else for (let i = from; i < to; i++) acc[i] = acc[i] + q * window[b + i] + q2 * window[b2 + i];
    } else {
      const b = base[u2];
      if (sums) sums.kernel.one(sums.acc + from * 8, (b + from) * 8, (to - from) * 8, q);
      else for (let i = from; i < to; i++) acc[i] += q * window[b + i];
    }
  }
}

/** One row's pairs (u, every open v) when two numbers are kept per pair: [P(U out first), attacks]. True when a pair stalls. */
interface RowWork {
  myBase: number;
  g: ReturnType<typeof openGather>;
  sV: Float64Array;
  sU: Float64Array;
  vCls: Int32Array;
  slotC: Int32Array;
  openV: Int32Array;
  acc: Float64Array;
  window: Float64Array;
  rowXV: Float64Array;
}

/**
 * U attacks: V's successors, read from this row's XV (closed ones and "out" summed beforehand);
 * then the two-state cycle in closed form. Two numbers per pair (no pair can stall).
 */
function rowOfTwo(r: RowWork): boolean {
  const { myBase, sV: sVs, sU: sUs, vCls, slotC, openV, acc, window, rowXV } = r;
  const { start: gStart, to: gTo, p: gP, base2: gB2 } = r.g;
  let stuck = false;
  for (let n = 0; n < openV.length; n++) {
    const v = openV[n];
    const sV = sVs[v];
    let a0 = 0;
    let a2 = gB2[v];
    const kEnd = gStart[v + 1];
    for (let k = gStart[v]; k < kEnd; k++) {
      const o = gTo[k];
      const q = gP[k];
      a0 += q * rowXV[o];
      a2 += q * rowXV[o + 1];
    }
    const sU = sUs[vCls[v]];
    const sv = slotC[v];
    const b0 = acc[sv];
    const b2 = acc[sv + 1];
    const den = 1 - sU * sV;
    const o = myBase + sv;
    const y = v * 2;
    if (den <= 1e-15) {
      stuck = true; // nobody can change anything any more: a stalemate (values 0)
      window[o] = window[o + 1] = rowXV[y] = rowXV[y + 1] = 0;
    } else {
      const x0 = (a0 + sV * b0) / den;
      const x2 = (a2 + sV * b2) / den;
      window[o] = x0;
      window[o + 1] = x2;
      rowXV[y] = b0 + sU * x0;
      rowXV[y + 1] = b2 + sU * x2;
    }
  }
  return stuck;
}

/** The same with three numbers per pair: [P(U out first), P(V out first), attacks] (some pair could stall). */
function rowOfThree(r: RowWork): boolean {
  const { myBase, sV: sVs, sU: sUs, vCls, slotC, openV, acc, window, rowXV } = r;
  const { start: gStart, to: gTo, p: gP, base1: gB1, base2: gB2 } = r.g;
  let stuck = false;
  for (let n = 0; n < openV.length; n++) {
    const v = openV[n];
    const sV = sVs[v];
    let a0 = 0;
    let a1 = gB1[v];
    let a2 = gB2[v];
    const kEnd = gStart[v + 1];
    for (let k = gStart[v]; k < kEnd; k++) {
      const o = gTo[k];
      const q = gP[k];
      a0 += q * rowXV[o];
      a1 += q * rowXV[o + 1];
      a2 += q * rowXV[o + 2];
    }
    const sU = sUs[vCls[v]];
    const sv = slotC[v];
    const den = 1 - sU * sV;
    const o = myBase + sv;
    const y = v * 3;
    if (den <= 1e-15) {
      stuck = true; // nobody can change anything any more: a stalemate (values 0)
      window.fill(0, o, o + 3);
      rowXV.fill(0, y, y + 3);
      continue;
    }
    const [b0, b1, b2] = [acc[sv], acc[sv + 1], acc[sv + 2]];
    const x0 = (a0 + sV * b0) / den;
    const x1 = (a1 + sV * b1) / den;
    const x2 = (a2 + sV * b2) / den;
    window[o] = x0;
    window[o + 1] = x1;
    window[o + 2] = x2;
    rowXV[y] = b0 + sU * x0;
    rowXV[y + 1] = b1 + sU * x1;
    rowXV[y + 2] = b2 + sU * x2;
  }
  return stuck;
}
