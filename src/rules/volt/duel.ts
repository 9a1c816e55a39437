/**
 * Volt duel forecast, exact ("product" method of `duelForecast`): a backward dynamic programme
 * over the product of both wound sheets, with sheets as small integers.
 *
 * Why it is exact and small enough (docs/rules-api.md "Duel forecast"):
 * - A living Volt sheet (one that can still act) has marks only on its "alive" rows: above the
 *   blacked-out circles (Volt: Wound rows — Tough) and no higher than the top penalty row's last
 *   numeric entry (a mark above it, or on an "x" row, leaves the character unable to act — Volt:
 *   The Immediate Effects). That is at most 10 rows, so a sheet is an Injury bit set and a Stun
 *   bit set: at most 3^10 = 59,049 sheets. A "+" (Injury on a Stun) counts as Injury for every
 *   rule the duel reads (Volt: Marking Wounds), so it is the Injury bit.
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
import type { SampledDuel } from "../duel-sample";
import { voltGeometry, type VoltMark, type VoltTrackConfig, type VoltTrackState, type VoltWound } from "./track";

/** The out-of-the-fight sheet (any mark above the alive rows). */
export const VOLT_OUT = -1;

export interface VoltSheetModel {
  /** Alive rows: lo … hi (R rows); bit k is row lo + k. */
  lo: number;
  hi: number;
  R: number;
  /** Rows drawn and blacked-out rows (Volt: Wound rows). */
  rows: number;
  blacked: number;
  /** Penalty (≥ 0, shown as −n) of a sheet whose highest mark is bit k; index R: no mark. */
  penaltyOfTop: Int8Array;
}

/** The integer model of a Volt sheet configuration. */
export function voltSheetModel(config: VoltTrackConfig): VoltSheetModel {
  const g = voltGeometry(config);
  let nx = 0;
  while (nx < g.penalties.length && g.penalties[nx] === "x") nx++;
  // Volt: Wound rows — the tables have "x" only at their top; a lone "x" lower down would split the alive rows.
  if (g.penalties.slice(nx).includes("x")) throw new Error("volt duel: an 'x' row below a numeric penalty row");
  const lo = g.blacked + 1;
  const hi = g.top - nx;
  const R = Math.max(0, hi - lo + 1);
  if (R > 15) throw new Error(`volt duel: ${R} alive rows`); // the Will tables have at most 10 penalty rows
  const penaltyOfTop = new Int8Array(R + 1);
  for (let k = 0; k < R; k++) {
    const i = g.top - (lo + k);
    const e = i < g.penalties.length ? g.penalties[i] : 0;
    penaltyOfTop[k] = e as number;
  }
  return { lo, hi, R, rows: g.rows, blacked: g.blacked, penaltyOfTop };
}

/** The sheet of a real track state: VOLT_OUT when a mark lies above the alive rows. */
export function voltSheetOf(m: VoltSheetModel, state: VoltTrackState): number {
  let inj = 0;
  let stun = 0;
  for (const [key, mark] of Object.entries(state.marks)) {
    const row = Number(key);
    if (row > m.hi) return VOLT_OUT;
    if (row < m.lo) continue; // blacked rows carry no marks (the parser refuses them)
    const b = 1 << (row - m.lo);
    if (mark === "stun") stun |= b;
    else inj |= b;
  }
  return inj | (stun << m.R);
}

/** A real track state for a sheet ("+" shows as "|": the duel does not tell them apart). */
export function voltStateOf(m: VoltSheetModel, sheet: number): VoltTrackState {
  const marks: Record<string, VoltMark> = {};
  for (let k = 0; k < m.R; k++) {
    if ((sheet >> k) & 1) marks[String(m.lo + k)] = "injury";
    else if ((sheet >> (k + m.R)) & 1) marks[String(m.lo + k)] = "stun";
  }
  return { marks };
}

/** The penalty (≥ 0) of a living sheet: its highest mark's row (Volt: The Immediate Effects). */
export function voltSheetPenalty(m: VoltSheetModel, sheet: number): number {
  const occ = (sheet | (sheet >>> m.R)) & ((1 << m.R) - 1);
  return occ === 0 ? m.penaltyOfTop[m.R] : m.penaltyOfTop[31 - Math.clz32(occ)];
}

/** Stun 1, Injury 2 per marked row: every wound that changes a sheet raises it. */
export function voltSheetProgress(m: VoltSheetModel, sheet: number): number {
  const full = (1 << m.R) - 1;
  return 2 * popcount(sheet & full) + popcount(sheet >>> m.R);
}

/** Set bits of a sheet (< 2^31): the bit-parallel sum, no loop per bit (the forward count asks it for every state it adds). */
function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Volt: Marking Wounds — one mark on `row` of a living sheet, with the collision rules. */
function placeOnRow(m: VoltSheetModel, s: number, row: number, injury: boolean): number {
  // Choice (track kind): a row above the sheet is its top row, which lies above the alive rows.
  if (row > m.rows) return VOLT_OUT;
  if (row <= m.blacked) return s; // Volt: Wound rows — a blacked-out circle takes no mark
  if (row > m.hi) return VOLT_OUT; // empty on a living sheet: marked there, the character cannot act
  const R = m.R;
  const k = row - m.lo;
  const b = 1 << k;
  const stun = s >>> R;
  const occ = (s | stun) & ((1 << R) - 1);
  const shift = injury ? 0 : R;
  if (!(occ & b)) return s | (b << shift);
  // Volt: Marking Wounds — an Injury on a Stun replaces it ("+", counted as Injury).
  if (stun & b && injury) return (s & ~(b << R)) | b;
  // Volt: Marking Wounds — the nearest empty row; of two equally near, the higher.
  for (let d = 1; ; d++) {
    if (k + d >= R) return VOLT_OUT; // the first row above the alive rows is empty: marked, cannot act
    if (!(occ & (1 << (k + d)))) return s | (1 << (k + d + shift));
    if (k - d >= 0 && !(occ & (1 << (k - d)))) return s | (1 << (k - d + shift));
  }
}

/** The sheet after one wound (or a stun weapon's two, in order); VOLT_OUT when the character can no longer act. */
export function voltApplyWounds(m: VoltSheetModel, sheet: number, wounds: readonly VoltWound[]): number {
  let s = sheet;
  for (const w of wounds) {
    if (s === VOLT_OUT) return s; // marks are never removed by a wound: out stays out
    s =
      "failedRoll" in w
        ? failedRoll(m, s, w.damage, w.type === "injury")
        : placeOnRow(m, s, w.row, w.type === "injury");
  }
  return s;
}

/** Volt: The attack roll — a failed damage roll marks the lowest unmarked row, unless it is above the Damage. */
function failedRoll(m: VoltSheetModel, s: number, damage: number, injury: boolean): number {
  const occ = (s | (s >>> m.R)) & ((1 << m.R) - 1);
  let k = 0;
  while (k < m.R && (occ >> k) & 1) k++;
  const low = m.lo + k;
  return low > damage ? s : placeOnRow(m, s, low, injury);
}

/** One side's attack law at one penalty: what it deals, with unconditional probabilities. */
export interface VoltLaw {
  miss: number;
  hits: Array<{ wounds: VoltWound[]; p: number }>;
}

export interface VoltDuelSide {
  config: VoltTrackConfig;
  state: VoltTrackState;
}

export interface VoltDuelLimits {
  /** Largest number of sheet pairs solved (each for both turns). */
  maxPairs: number;
  /** Largest number of pairs kept in memory at once (16 bytes each, 24 where a pair could stall). */
  maxWindow: number;
  /** Called once per outer sheet; throws when the time budget is spent. */
  checkTime: () => void;
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
/** The forward count's work (voltForwardExceeds), added up over its passes: tests read it. */
export interface VoltCountStats {
  /** Passes run (1: the cheap pass decided). */
  passes: number;
  /** States counted (mass at or above the threshold), states followed, and masses added to a state. */
  counted: number;
  followed: number;
  added: number;
}

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

/** Penalty classes of a sheet model: the distinct penalties a living sheet can have, with a representative sheet. */
function penaltyClasses(m: VoltSheetModel): { penalties: number[]; reps: number[] } {
  const penalties: number[] = [m.penaltyOfTop[m.R]];
  const reps: number[] = [0];
  for (let k = m.R - 1; k >= 0; k--) {
    const pen = m.penaltyOfTop[k];
    if (!penalties.includes(pen)) {
      penalties.push(pen);
      reps.push(1 << (k + m.R)); // a lone Stun on that row
    }
  }
  return { penalties, reps };
}

/**
 * The exact duel. `lawOf(X, state)`: the law of side X attacking when its sheet is `state` (the
 * real pipeline's, enumerated by the caller). Returns the tooLarge reason instead when the
 * pairs or the memory window would exceed `limits`.
 */
export function voltProductDuel(
  a: VoltDuelSide,
  b: VoltDuelSide,
  first: "a" | "b",
  lawOf: (X: "a" | "b", state: VoltTrackState) => VoltLaw,
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
  const seenOpen = (E: Explorer, open: (s: number) => boolean, from: number): number => {
    let n = 0;
    for (let i = from; i < E.found.length; i++) if (open(E.found[i])) n++;
    return n;
  };
  let openFoundA = seenOpen(EA, opensA, 0);
  let openFoundB = seenOpen(EB, opensB, 0);
  while (EA.next < EA.found.length || EB.next < EB.found.length) {
    if (openFoundA * openFoundB > limits.maxPairs)
      return { tooLarge: "pairs", pairs: openFoundA * openFoundB, pairsAtLeast: true, window: 0, forwardExceeds };
    limits.checkTime();
    for (const [E, open] of [
      [EA, opensA],
      [EB, opensB],
    ] as const) {
      if (E.next >= E.found.length) continue;
      const before = E.found.length;
      E.expand(E.next++);
      const n = seenOpen(E, open, before);
      if (E === EA) openFoundA += n;
      else openFoundB += n;
    }
  }
  const A = sideModel(EA, ca.penalties, limits.checkTime);
  const B = sideModel(EB, cb.penalties, limits.checkTime);
  closeNull(A, B);
  closeNull(B, A);
  const openA = A.sheets.length - count(A.closed);
  const openB = B.sheets.length - count(B.closed);
  const pairs = openA * openB;
  // Outer side: the arrangement whose window of outer layers × inner sheets is smaller.
  const wA = windowOf(A, openB);
  const wB = windowOf(B, openA);
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
  const r = solve(aOuter ? A : B, aOuter ? B : A, aOuter === (first === "a"), limits.checkTime);
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
    sheets: { a: A.sheets.length, b: B.sheets.length },
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

/**
 * A side's living sheets as they are found from its start under the other side's laws: each sheet
 * (in the order found) with its sheet after every distinct wound, placed on demand. The product
 * method finds them all (sideModel); the budget checks over its limits find only what they need
 * (`voltProductDuel`'s pair count, `voltForwardExceeds`).
 */
class Explorer {
  /** The distinct wounds of all laws: each is placed once per sheet (the laws share most of them). */
  readonly distinct: VoltWound[][] = [];
  /** Per law, per hit: its wound's index in `distinct`. */
  readonly hitWound: number[][];
  readonly W: number;
  /** Sheet → its place in `found` (−1: not found). */
  readonly index: Int32Array;
  readonly found: number[];
  /**
   * after[i·W + w]: sheet i (in the order found) after wound w, once `done[i]`; typed arrays grown
   * by doubling (a plain array's push of millions of entries was a visible share of the setup).
   */
  after: Int32Array;
  done: Uint8Array;
  /** The next sheet the breadth-first search expands. */
  next = 0;
  // A single wound (most attacks deal one) is placed without walking its list: its row (or, for a
  // failed roll, −Damage) and type once per wound instead of once per sheet.
  // kind: 0 a list of wounds, 1 a wound on a row, 2 a failed roll (`at`: its Damage).
  private readonly kind: Uint8Array;
  private readonly at: Float64Array;
  private readonly injury: Uint8Array;
  constructor(
    readonly m: VoltSheetModel,
    readonly start: number,
    readonly laws: VoltLaw[],
  ) {
    const woundIds = new Map<string, number>();
    this.hitWound = laws.map((law) =>
      law.hits.map((h) => {
        const k = JSON.stringify(h.wounds);
        let id = woundIds.get(k);
        if (id === undefined) {
          woundIds.set(k, (id = this.distinct.length));
          this.distinct.push(h.wounds);
        }
        return id;
      }),
    );
    const distinct = this.distinct;
    this.W = distinct.length;
    this.kind = Uint8Array.from(distinct, (ws) => (ws.length !== 1 ? 0 : "failedRoll" in ws[0] ? 2 : 1));
    this.at = Float64Array.from(distinct, (ws) =>
      ws.length !== 1 ? 0 : "failedRoll" in ws[0] ? ws[0].damage : ws[0].row,
    );
    this.injury = Uint8Array.from(distinct, (ws) => (ws.length === 1 && ws[0].type === "injury" ? 1 : 0));
    this.index = new Int32Array(1 << (2 * m.R)).fill(-1);
    this.found = [start];
    this.index[start] = 0;
    this.after = new Int32Array(Math.max(64, this.W * 64));
    this.done = new Uint8Array(64);
  }
  /** Every hit deals at most one wound (not a stun weapon's two). */
  get singleWound(): boolean {
    return this.distinct.every((w) => w.length <= 1);
  }
  /** Places every wound on sheet i (in the order found); new sheets join `found`. */
  expand(i: number): void {
    if (i < this.done.length && this.done[i]) return;
    const W = this.W;
    if ((i + 1) * W > this.after.length) {
      const grown = new Int32Array(Math.max(this.after.length * 2, (i + 1) * W));
      grown.set(this.after);
      this.after = grown;
    }
    if (i >= this.done.length) {
      const grown = new Uint8Array(Math.max(this.done.length * 2, i + 1));
      grown.set(this.done);
      this.done = grown;
    }
    const { m, kind, at, injury, distinct, index, found, after } = this;
    const s = found[i];
    for (let w = 0; w < W; w++) {
      const k = kind[w];
      const s2 =
        k === 1
          ? placeOnRow(m, s, at[w], injury[w] === 1)
          : k === 2
            ? failedRoll(m, s, at[w], injury[w] === 1)
            : voltApplyWounds(m, s, distinct[w]);
      after[i * W + w] = s2;
      if (s2 !== VOLT_OUT && index[s2] < 0) {
        index[s2] = found.length;
        found.push(s2);
      }
    }
    this.done[i] = 1;
  }
}

/** Every living sheet reachable from the explorer's start under the other side's laws, and their successor tables. */
function sideModel(E: Explorer, penalties: number[], checkTime: () => void): SideModel {
  const { m, W, found, laws, hitWound } = E;
  while (E.next < found.length) {
    checkTime();
    E.expand(E.next++);
  }
  const after = E.after;
  const start = E.start;
  // The sorted places (the explorer keeps its own `index`: the budget checks read it afterwards).
  const index = new Int32Array(E.index.length);
  const progressOf = found.map((s) => voltSheetProgress(m, s));
  // Decreasing progress, then increasing sheet: one numeric key per sheet (sheets are distinct),
  // sorted as a typed array (no comparator calls), then mapped back to the order found.
  const span = 2 ** (2 * m.R);
  const keys = Float64Array.from(found, (s, i) => (2 * m.R - progressOf[i]) * span + s).sort();
  const order = Array.from(keys, (k) => E.index[k % span]);
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
  const next = new Int32Array(n * W);
  for (let i = 0; i < n; i++) {
    const row = order[i] * W;
    for (let w = 0; w < W; w++) {
      const s2 = after[row + w];
      next[i * W + w] = s2 === VOLT_OUT ? -1 : index[s2];
    }
  }
  const tab = laws.map((law, l) => table(progress, next, W, law, hitWound[l], checkTime));
  return {
    m,
    sheets,
    progress,
    cls,
    tab,
    closed: new Uint8Array(n),
    startIndex: index[start],
    jump: -1,
    singleWound: E.singleWound,
  };
}

function table(
  progress: Int32Array,
  next: Int32Array,
  W: number,
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
  for (let i = 0; i < n; i++) {
    checkTime();
    start[i] = len;
    const row = i * W;
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
  return { start, to: to.slice(0, len), p: p.slice(0, len), same, out, none };
}

/** Marks the sheets of S that are one-sided: S's law is null there and stays null after every wound. */
function closeNull(S: SideModel, O: SideModel): void {
  const nullLaw = O.tab.map((t) => t.none); // O's table by S's class: S's law never changes O
  for (let i = 0; i < S.sheets.length; i++) {
    if (!nullLaw[S.cls[i]]) continue;
    let closed = true;
    for (const t of S.tab)
      for (let k = t.start[i]; k < t.start[i + 1] && closed; k++) if (!S.closed[t.to[k]]) closed = false;
    S.closed[i] = closed ? 1 : 0;
  }
}

/** The pairs held at once with S as the outer side: `jump + 1` buffers of the widest layer of open S sheets (an attack moves a sheet at most `jump` layers), × the open inner sheets. */
function windowOf(S: SideModel, openInner: number): number {
  const width = new Map<number, number>();
  let widest = 0;
  for (let i = 0; i < S.sheets.length; i++) {
    if (S.closed[i]) continue;
    const w = (width.get(S.progress[i]) ?? 0) + 1;
    width.set(S.progress[i], w);
    widest = Math.max(widest, w);
  }
  return (jumpOf(S) + 1) * widest * openInner;
}

/** The most layers (progress) one attack moves a sheet of S. */
function jumpOf(S: SideModel): number {
  if (S.jump >= 0) return S.jump;
  let jump = 0;
  for (const t of S.tab)
    for (let i = 0; i < S.sheets.length; i++)
      for (let k = t.start[i]; k < t.start[i + 1]; k++) jump = Math.max(jump, S.progress[t.to[k]] - S.progress[i]);
  S.jump = jump;
  return jump;
}

/**
 * Values of a closed sheet of S, per class of the other side O (whose sheet cannot change): with
 * O to attack and with S to attack, each [P(S out first), P(O out first) = 0, attacks].
 */
class OneSided {
  private readonly byClass = new Map<number, Float64Array>();
  stuck = false;
  constructor(private readonly S: SideModel) {}
  /** 6 numbers per sheet: O to attack (3), then S to attack (3). */
  of(oClass: number): Float64Array {
    let v = this.byClass.get(oClass);
    if (v) return v;
    const S = this.S;
    const t = S.tab[oClass];
    v = new Float64Array(S.sheets.length * 6);
    for (let i = 0; i < S.sheets.length; i++) {
      if (!S.closed[i]) continue;
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
function canStall(U: SideModel, V: SideModel): boolean {
  const most = (S: SideModel, sClass: number, oClass: number): number => {
    let m = -1;
    for (let i = 0; i < S.sheets.length; i++)
      if (!S.closed[i] && S.cls[i] === sClass) m = Math.max(m, S.tab[oClass].same[i]);
    return m;
  };
  for (let cu = 0; cu < V.tab.length; cu++)
    for (let cv = 0; cv < U.tab.length; cv++) {
      const mu = most(U, cu, cv);
      const mv = most(V, cv, cu);
      if (mu >= 0 && mv >= 0 && mu * mv > 1 - 1e-9) return true;
    }
  for (const S of [U, V])
    for (let c = 0; c < S.tab.length; c++)
      for (let i = 0; i < S.sheets.length; i++) if (S.closed[i] && S.tab[c].same[i] > 1 - 1e-9) return true;
  return false;
}

/**
 * U's attack on the open sheets of V under one law, ready to gather: per sheet, what does not
 * depend on U's row (P(V out) from "out" and from closed successors, their attacks, plus this
 * attack) and the open successors (their offsets in a row of C numbers).
 */
function openGather(
  V: SideModel,
  t: Table,
  closedV: Float64Array | null,
  C: number,
): { start: Int32Array; to: Int32Array; p: Float64Array; base1: Float64Array; base2: Float64Array } {
  const n = V.sheets.length;
  const start = new Int32Array(n + 1);
  const to: number[] = [];
  const p: number[] = [];
  const base1 = new Float64Array(n);
  const base2 = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    start[v] = to.length;
    base1[v] = t.out[v];
    base2[v] = 1;
    if (V.closed[v]) continue;
    for (let k = t.start[v]; k < t.start[v + 1]; k++) {
      const v2 = t.to[k];
      if (V.closed[v2]) {
        const o = v2 * 6 + 3;
        base1[v] += t.p[k] * closedV![o];
        base2[v] += t.p[k] * closedV![o + 2];
      } else {
        to.push(v2 * C);
        p.push(t.p[k]);
      }
    }
  }
  start[n] = to.length;
  return { start, to: Int32Array.from(to), p: Float64Array.from(p), base1, base2 };
}

/**
 * The backward programme. U outer, V inner. XU(u, v): U to attack; XV(u, v): V to attack; each
 * [P(U out first), P(V out first), expected attacks]. XU = cU + sV·XV and XV = cV + sU·XU, where
 * cU sums U's attacks that change V (from this row's XV) and cV sums V's attacks that change U
 * (from the outer layers' XU): the two-state cycle of attacks that change nothing, in closed form.
 *
 * Memory: XU of the open outer sheets in the last `jump + 1` progress layers (the farthest an
 * attack can move a sheet), in `jump + 1` buffers reused by progress modulo `jump + 1`.
 */
function solve(
  U: SideModel,
  V: SideModel,
  uFirst: boolean,
  checkTime: () => void,
): { value: [number, number, number]; stuck: boolean } {
  const nU = U.sheets.length;
  const nV = V.sheets.length;
  const osU = new OneSided(U);
  const osV = new OneSided(V);
  const result: [number, number, number] = [0, 0, 0];
  const startU = U.startIndex;
  const startV = V.startIndex;
  // A closed start sheet: its one-sided table answers (values in the order [pU, pV, attacks]).
  if (U.closed[startU]) {
    const t = osU.of(V.cls[startV]);
    const o = startU * 6 + (uFirst ? 3 : 0);
    return { value: [t[o], 0, t[o + 2]], stuck: osU.stuck };
  }
  if (V.closed[startV]) {
    const t = osV.of(U.cls[startU]);
    const o = startV * 6 + (uFirst ? 0 : 3);
    return { value: [0, t[o], t[o + 2]], stuck: osV.stuck };
  }
  const nClassU = V.tab.length; // V's tables are by U's class
  const nClassV = U.tab.length; // and U's by V's
  const osUBy = Array.from({ length: nClassV }, (_, c) => (count(U.closed) ? osU.of(c) : null));
  const osVBy = Array.from({ length: nClassU }, (_, c) => (count(V.closed) ? osV.of(c) : null));
  // Open inner sheets get slots, grouped by class (V's class picks U's table and sU).
  const slot = new Int32Array(nV).fill(-1);
  const classStart = new Int32Array(nClassV + 1);
  const slotSheet: number[] = [];
  for (let c = 0; c < nClassV; c++) {
    classStart[c] = slotSheet.length;
    for (let v = 0; v < nV; v++)
      if (!V.closed[v] && V.cls[v] === c) {
        slot[v] = slotSheet.length;
        slotSheet.push(v);
      }
  }
  const nSlots = slotSheet.length;
  classStart[nClassV] = nSlots;
  // Values per pair: [P(U out first), P(V out first), attacks] — or, when no pair can stall (every
  // pair's attacks change something with positive probability, so every duel ends), P(V out first)
  // is 1 − P(U out first) and is not kept: two numbers per pair instead of three.
  const C = canStall(U, V) ? 3 : 2;
  const ATT = C - 1;
  const rowLen = nSlots * C;
  // Window buffers.
  const jump = jumpOf(U);
  const rowOf = new Int32Array(nU).fill(-1);
  const layerSize = new Map<number, number>();
  let widest = 0;
  for (let u = 0; u < nU; u++) {
    if (U.closed[u]) continue;
    const n = layerSize.get(U.progress[u]) ?? 0;
    rowOf[u] = n;
    layerSize.set(U.progress[u], n + 1);
    widest = Math.max(widest, n + 1);
  }
  const window = new Float64Array((jump + 1) * widest * rowLen);
  const base = new Int32Array(nU);
  for (let u = 0; u < nU; u++) base[u] = ((U.progress[u] % (jump + 1)) * widest + Math.max(0, rowOf[u])) * rowLen;
  const rowXV = new Float64Array(nV * C);
  const acc = new Float64Array(rowLen); // cV of this row, by slot
  const openV = Int32Array.from(slotSheet).sort(); // open inner sheets, successors (lower indices) first
  const nOpen = openV.length;
  const vCls = V.cls;
  const slotC = Int32Array.from(slot, (x) => x * C);
  const gathers: Array<ReturnType<typeof openGather>> = [];
  const sUByClass = new Float64Array(nClassV);
  let stuck = false;
  for (let u = 0; u < nU; u++) {
    if (U.closed[u]) continue;
    checkTime();
    // V attacks U (law by V's class): cV = out + Σ q·XU(u2, v), a stream over each successor's row.
    for (let c = 0; c < nClassV; c++) {
      const t = U.tab[c];
      const from = classStart[c] * C;
      const to = classStart[c + 1] * C;
      if (from === to) continue;
      const out = t.out[u];
      acc.fill(0, from, to);
      for (let i = from; i < to; i += C) {
        acc[i] = out;
        acc[i + ATT] = 1;
      }
      for (let k = t.start[u]; k < t.start[u + 1]; k++) {
        const u2 = t.to[k];
        const q = t.p[k];
        if (U.closed[u2]) {
          // U's sheet u2 is one-sided against V's class c: the same value for every v of the class.
          const o = u2 * 6 + 3;
          const os = osUBy[c]!;
          const p0 = q * os[o];
          const p2 = q * os[o + 2];
          for (let i = from; i < to; i += C) {
            acc[i] += p0;
            acc[i + ATT] += p2;
          }
        } else {
          const b = base[u2];
          let i = from;
          for (; i + 4 <= to; i += 4) {
            const w = b + i;
            acc[i] += q * window[w];
            acc[i + 1] += q * window[w + 1];
            acc[i + 2] += q * window[w + 2];
            acc[i + 3] += q * window[w + 3];
          }
          for (; i < to; i++) acc[i] += q * window[b + i];
        }
      }
    }
    const myBase = base[u];
    const cu = U.cls[u];
    const tV = V.tab[cu]; // U's attack on V's sheets
    const g = (gathers[cu] ??= openGather(V, tV, osVBy[cu], C));
    for (let c = 0; c < nClassV; c++) sUByClass[c] = U.tab[c].same[u];
    const gStart = g.start;
    const gTo = g.to;
    const gP = g.p;
    const gB1 = g.base1;
    const gB2 = g.base2;
    const tVsame = tV.same;
    for (let n = 0; n < nOpen; n++) {
      const v = openV[n];
      // U attacks: V's successors, read from this row's XV (closed ones and "out" summed beforehand).
      const sV = tVsame[v];
      let a0 = 0;
      let a1 = gB1[v];
      let a2 = gB2[v];
      const kEnd = gStart[v + 1];
      for (let k = gStart[v]; k < kEnd; k++) {
        const o = gTo[k];
        const q = gP[k];
        a0 += q * rowXV[o];
        if (C === 3) a1 += q * rowXV[o + 1];
        a2 += q * rowXV[o + ATT];
      }
      const sU = sUByClass[vCls[v]];
      const sv = slotC[v];
      const b0 = acc[sv];
      const b1 = acc[sv + 1];
      const b2 = acc[sv + ATT];
      const den = 1 - sU * sV;
      const o = myBase + sv;
      const y = v * C;
      if (den <= 1e-15) {
        stuck = true; // nobody can change anything any more: a stalemate (values 0)
        window.fill(0, o, o + C);
        rowXV.fill(0, y, y + C);
      } else {
        const x0 = (a0 + sV * b0) / den;
        const x2 = (a2 + sV * b2) / den;
        window[o] = x0;
        window[o + ATT] = x2;
        rowXV[y] = b0 + sU * x0;
        rowXV[y + ATT] = b2 + sU * x2;
        if (C === 3) {
          const x1 = (a1 + sV * b1) / den;
          window[o + 1] = x1;
          rowXV[y + 1] = b1 + sU * x1;
        }
      }
      if (u === startU && v === startV) {
        const src = uFirst ? window : rowXV;
        const i = uFirst ? o : y;
        result[0] = src[i];
        result[1] = C === 3 ? src[i + 1] : 1 - src[i];
        result[2] = src[i + ATT];
      }
    }
  }
  return { value: result, stuck: stuck || osU.stuck || osV.stuck };
}

/**
 * The pre-check of the bounded "forward" method (src/rules/forecast.ts) for duels over the
 * product's budget: the same forward pass on the integer sheets, counting the states it follows,
 * stopped as soon as there are more than `maxStates`. True means the real forward's first pass
 * (threshold `eps`) follows more than `maxStates` states too, so it would only refuse with
 * TooManyStates after spending its time budget; each later pass (smaller threshold) follows a
 * superset. Why the count is a lower bound of the real one:
 * - the real forward keys sheets by their marks, "+" apart from "|"; here a sheet is its integer
 *   sheet and the rows whose Injury fell on a Stun ("+"), so the states are the same. With one
 *   wound per hit, the "+" rows a hit adds are the Stun rows it turned to Injury; a stun weapon's
 *   two wounds can make a "+" from a Stun placed by the same hit, so with those it answers false;
 * - each state's mass is computed by the same formulas in another order (rounding differs by far
 *   less than 1e-9 relative); a state is counted here only at `eps·(1 + 1e-9)` or more, left
 *   (not followed) below `followFactor` times that, and a near-stalemate (both attacks change
 *   nothing with probability ≥ 1 − 1e-12) is never left. A share of mass under `dropFactor`
 *   times the threshold may be left out (it only lowers masses here). So by induction in order of progress,
 *   every state followed here is followed there, each state gets there at least the mass it has
 *   here, and every state counted here is followed there.
 * The sheets are found and their successors tabulated only as the count reaches them (Explorer,
 * LazyTable): over the pairs' budget, no table of the product is built.
 */
function voltForwardExceeds(
  A: CountSide,
  B: CountSide,
  aFirst: boolean,
  eps: number,
  maxStates: number,
  checkTime: () => void,
  stats: VoltCountStats = { passes: 0, counted: 0, followed: 0, added: 0 },
): boolean {
  // Cheap passes first: they follow only states holding 4·eps and leave out every share of mass
  // under 0.3·eps, then 0.1·eps (a state here then holds at most its mass there: a lower bound all
  // the same). Leroy vs Leroy, counted to the end: the full pass follows 367,000 states and adds
  // 11.3 million masses; the 0.1 pass 114,000 and 1.66 million and still counts 237,000 states
  // (200,000 are needed); the 0.3 pass 113,000 and 1.0 million, 213,000 counted. So the 0.3 pass
  // decides there (at the 200,001st state: 0.96 million masses added, not 1.44 million), and where
  // its narrower margin falls short the 0.1 pass costs what it did before. Then the full one.
  return (
    forwardCount(A, B, aFirst, eps, 4, 0.3, maxStates, checkTime, stats) ||
    forwardCount(A, B, aFirst, eps, 4, 0.1, maxStates, checkTime, stats) ||
    forwardCount(A, B, aFirst, eps, 1, 0, maxStates, checkTime, stats)
  );
}

/**
 * A side's sheets as the forward count reads them: found on demand (the explorer), with their
 * successors under each of the other side's laws tabulated for the sheets the count reaches only.
 */
interface CountSide {
  E: Explorer;
  R: number;
  /** Own penalty class by highest marked row (index R: no mark): the law this sheet attacks with. */
  clsOfTop: Int32Array;
  /** This side's sheets hit by the other side's law of each class. */
  tab: LazyTable[];
}

function countSide(E: Explorer, penalties: number[]): CountSide {
  const m = E.m;
  const clsOfTop = new Int32Array(m.R + 1);
  for (let k = 0; k <= m.R; k++) clsOfTop[k] = penalties.indexOf(m.penaltyOfTop[k]);
  return { E, R: m.R, clsOfTop, tab: E.laws.map((_, l) => new LazyTable(E, l)) };
}

/** One law's successor table (as `table`) of the sheets asked for: successors as sheets, merged in the order of the hits. */
class LazyTable {
  /** Per sheet (its place in the explorer's `found`): where its successors start (−1: not yet tabulated), how many, P(same), P(out). */
  private start = new Int32Array(64).fill(-1);
  private len = new Int32Array(64);
  private sameP = new Float64Array(64);
  private outP = new Float64Array(64);
  to = new Int32Array(256);
  p = new Float64Array(256);
  private n = 0;
  constructor(
    private readonly E: Explorer,
    private readonly law: number,
  ) {}
  /** Tabulates sheet i (a place in `found`); returns where its successors start in `to` and `p`. */
  row(i: number): number {
    if (i >= this.start.length) this.growSheets(i + 1);
    if (this.start[i] >= 0) return this.start[i];
    const E = this.E;
    E.expand(i);
    const law = E.laws[this.law];
    const hw = E.hitWound[this.law];
    const s = E.found[i];
    const row = i * E.W;
    const at = this.n;
    if (at + hw.length > this.to.length) {
      const size = Math.max(this.to.length * 2, at + hw.length);
      const to = new Int32Array(size);
      to.set(this.to);
      const p = new Float64Array(size);
      p.set(this.p);
      this.to = to;
      this.p = p;
    }
    let same = law.miss;
    let out = 0;
    let n = at;
    for (let h = 0; h < hw.length; h++) {
      const q = law.hits[h].p;
      const s2 = E.after[row + hw[h]];
      if (s2 === s) same += q;
      else if (s2 === VOLT_OUT) out += q;
      else {
        let k = at;
        while (k < n && this.to[k] !== s2) k++;
        if (k < n) this.p[k] += q;
        else {
          this.to[n] = s2;
          this.p[n++] = q;
        }
      }
    }
    this.start[i] = at;
    this.len[i] = n - at;
    this.sameP[i] = same;
    this.outP[i] = out;
    this.n = n;
    return at;
  }
  count(i: number): number {
    return this.len[i];
  }
  same(i: number): number {
    return this.sameP[i];
  }
  private growSheets(size: number): void {
    size = Math.max(size, this.start.length * 2);
    const start = new Int32Array(size).fill(-1);
    start.set(this.start);
    const len = new Int32Array(size);
    len.set(this.len);
    const sameP = new Float64Array(size);
    sameP.set(this.sameP);
    const outP = new Float64Array(size);
    outP.set(this.outP);
    this.start = start;
    this.len = len;
    this.sameP = sameP;
    this.outP = outP;
  }
}

function forwardCount(
  A: CountSide,
  B: CountSide,
  aFirst: boolean,
  eps: number,
  followFactor: number,
  dropFactor: number,
  maxStates: number,
  checkTime: () => void,
  stats: VoltCountStats,
): boolean {
  if (!A.E.singleWound || !B.E.singleWound) return false;
  stats.passes++;
  const RA = A.R;
  const RB = B.R;
  const fullA = (1 << RA) - 1;
  const fullB = (1 << RB) - 1;
  // A state's key: each side's sheet with its "+" rows marked as both Injury and Stun (a sheet never
  // has both on one row), 2R bits a side: a pair of codes.
  if (2 ** (2 * RA) * 2 ** (2 * RB) > 2 ** 52) return false; // the count's domain as when keys were one double
  const cut = eps * (1 + 1e-9);
  const follow = cut * followFactor;
  const drop = cut * dropFactor;
  const progress = (s: number, R: number): number => 2 * popcount(s & ((1 << R) - 1)) + popcount(s >>> R);
  // By progress (a + b): the states reached with it, and their mass with a / b to attack.
  const buckets: Array<PairMassTable | undefined> = new Array(4 * (RA + RB) + 1);
  const done: PairMassTable[] = [];
  // A new bucket's table starts at twice the entries of the bucket being followed (the buckets
  // grow with progress): most of its doublings and rehashes are skipped.
  let sizeHint = 1024;
  const at = (pr: number): PairMassTable => (buckets[pr] ??= done.pop()?.clear() ?? new PairMassTable(sizeHint));
  const sa0 = A.E.start;
  const sb0 = B.E.start;
  at(progress(sa0, RA) + progress(sb0, RB)).add(sa0, sb0, aFirst ? 0 : 1, 1);
  const classOf = (S: CountSide, s: number): number => {
    const occ = (s | (s >>> S.R)) & ((1 << S.R) - 1);
    return S.clsOfTop[occ === 0 ? S.R : 31 - Math.clz32(occ)];
  };
  let states = 0;
  for (let pr = 0; pr < buckets.length; pr++) {
    const bucket = buckets[pr];
    if (!bucket) continue;
    buckets[pr] = undefined;
    while (sizeHint < 2 * bucket.n) sizeHint *= 2;
    const keysA = bucket.keysA;
    const keysB = bucket.keysB;
    const mass = bucket.mass;
    // Its states are counted before any is followed (a state adds only to later buckets, so the
    // count is the same): the bucket where the count passes maxStates is never followed.
    for (let e = 0; e < bucket.n; e++)
      if (mass[2 * e] + mass[2 * e + 1] >= cut && ++states > maxStates) {
        stats.counted += states;
        return true;
      }
    for (let e = 0; e < bucket.n; e++) {
      const mA = mass[2 * e];
      const mB = mass[2 * e + 1];
      if (mA + mB < follow) continue;
      checkTime();
      stats.followed++;
      const codeA = keysA[e];
      const codeB = keysB[e];
      const pa = (codeA >>> RA) & codeA & fullA;
      const pb = (codeB >>> RB) & codeB & fullB;
      const a = codeA ^ (pa << RA);
      const b = codeB ^ (pb << RB);
      const ia = A.E.index[a];
      const ib = B.E.index[b];
      const tA = B.tab[classOf(A, a)]; // a attacks b's sheet with the law of a's class
      const tB = A.tab[classOf(B, b)];
      const rA = tA.row(ib);
      const rB = tB.row(ia);
      const xSame = tA.same(ib);
      const ySame = tB.same(ia);
      const loop = xSame * ySame;
      if (loop >= 1 - 1e-12) continue;
      const vX = (mA + mB * ySame) / (1 - loop);
      const vY = (mB + mA * xSame) / (1 - loop);
      // The "+" rows a single wound adds: the Stun rows it turned to Injury.
      const stunB = (b >>> RB) & fullB;
      const prA = progress(a, RA);
      for (let q = rA; q < rA + tA.count(ib); q++) {
        const b2 = tA.to[q];
        const m = vX * tA.p[q];
        if (m < drop) continue;
        const pb2 = pb | (stunB & b2);
        stats.added++;
        at(prA + progress(b2, RB)).add(codeA, b2 | (pb2 << RB), 1, m);
      }
      const stunA = (a >>> RA) & fullA;
      const prB = progress(b, RB);
      for (let q = rB; q < rB + tB.count(ia); q++) {
        const a2 = tB.to[q];
        const m = vY * tB.p[q];
        if (m < drop) continue;
        const pa2 = pa | (stunA & a2);
        stats.added++;
        at(progress(a2, RA) + prB).add(a2 | (pa2 << RA), codeB, 0, m);
      }
    }
    done.push(bucket); // read; cleared for a later progress (never added to again: progress only grows)
  }
  stats.counted += states;
  return false;
}

/**
 * Masses by a pair of integer codes (each side's sheet code, < 2^30), two per pair, in typed
 * arrays: open addressing, grown by doubling; entries in the order first added. Cleared to be used
 * again (the forward count's buckets are done in order of progress, and a bucket done is never
 * added to again): a pooled table is not grown again. (Slots holding their keys, one cache line a
 * probe, were measured slower: four times the slots' memory.)
 */
class PairMassTable {
  keysA: Int32Array;
  keysB: Int32Array;
  mass: Float64Array;
  n = 0;
  private slots: Int32Array;
  /** `size`: entries before it grows (a power of two). */
  constructor(size = 1024) {
    this.keysA = new Int32Array(size);
    this.keysB = new Int32Array(size);
    this.mass = new Float64Array(2 * size);
    this.slots = new Int32Array(2 * size).fill(-1);
  }
  clear(): this {
    this.n = 0;
    this.slots.fill(-1);
    return this;
  }
  add(a: number, b: number, which: 0 | 1, m: number): void {
    let mask = this.slots.length - 1;
    let h = pairHash(a, b) & mask;
    for (;;) {
      const e = this.slots[h];
      if (e < 0) break;
      if (this.keysA[e] === a && this.keysB[e] === b) {
        this.mass[2 * e + which] += m;
        return;
      }
      h = (h + 1) & mask;
    }
    if (this.n === this.keysA.length) {
      this.grow();
      mask = this.slots.length - 1;
      h = pairHash(a, b) & mask;
      while (this.slots[h] >= 0) h = (h + 1) & mask;
    }
    const e = this.n++;
    this.keysA[e] = a;
    this.keysB[e] = b;
    this.mass[2 * e + which] = m;
    this.mass[2 * e + 1 - which] = 0;
    this.slots[h] = e;
  }
  private grow(): void {
    const size = this.keysA.length * 2;
    const keysA = new Int32Array(size);
    keysA.set(this.keysA);
    const keysB = new Int32Array(size);
    keysB.set(this.keysB);
    const mass = new Float64Array(2 * size);
    mass.set(this.mass);
    this.keysA = keysA;
    this.keysB = keysB;
    this.mass = mass;
    const slots = new Int32Array(2 * size).fill(-1);
    const mask = slots.length - 1;
    for (let e = 0; e < this.n; e++) {
      let h = pairHash(keysA[e], keysB[e]) & mask;
      while (slots[h] >= 0) h = (h + 1) & mask;
      slots[h] = e;
    }
    this.slots = slots;
  }
}

function pairHash(a: number, b: number): number {
  // murmur3's finalizer over both codes: every bit of either moves the low bits the table reads.
  let h = a ^ Math.imul(b, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** One outcome of an attack as the forecast enumerates it, in its order: its probability and the wounds it deals (null: none). */
export interface VoltStep {
  p: number;
  wounds: VoltWound[] | null;
}

/** A side's attacks on the integer sheets, per penalty class: running totals and each outcome's wound, pre-read. */
interface SampledSide {
  m: VoltSheetModel;
  /** Class of a sheet by its highest marked row (index R: no mark). */
  clsOfTop: Int32Array;
  /** Per class: running totals of the steps' probabilities, summed in the forecast's order. */
  cum: Float64Array[];
  /** Per class and step: 0 nothing, 1 a wound on a row, 2 a failed roll (at: its Damage), 3 a list (list). */
  kind: Uint8Array[];
  at: Float64Array[];
  injury: Uint8Array[];
  list: Array<Array<VoltWound[] | null>>;
  /** Sheets met by the sampled duels (one byte per sheet), and how many. */
  met: Uint8Array;
  nMet: number;
}

/**
 * The sampled estimate of a Volt duel (`method: "sample"`, src/rules/duel-sample.ts) played on
 * the integer sheets: each turn draws the attacker's outcome from the running totals of its
 * penalty's steps (the forecast's own enumeration, in its order) and places the wound with the
 * sheet rules above. The draw picks what the general sampler's draw picks for the same number (the
 * first step whose running total passes it; none: the same draw scaled to the total), and the
 * integer sheets answer "out" exactly as the track kind does (the property tests above), so a seed
 * gives the same duels, bit for bit, as through `moves` (tests/rules/volt-sample.test.ts).
 * `stepsOf(X, state)`: the steps of side X attacking with sheet `state` (read once per penalty).
 */
export function voltSampledDuel(
  a: VoltDuelSide,
  b: VoltDuelSide,
  first: "a" | "b",
  stepsOf: (X: "a" | "b", state: VoltTrackState) => VoltStep[],
  checkTime: () => void,
): SampledDuel & { sheetsMet(): number } {
  const side = (X: "a" | "b", s: VoltDuelSide): SampledSide => {
    const m = voltSheetModel(s.config);
    // Keys of the stalemate check hold a sheet in 24 bits (duel-sample.ts): at most 12 alive rows (the Will tables give 10).
    if (m.R > 12) throw new Error(`volt duel: ${m.R} alive rows`);
    const { penalties, reps } = penaltyClasses(m);
    const clsOfTop = new Int32Array(m.R + 1);
    for (let k = 0; k <= m.R; k++) clsOfTop[k] = penalties.indexOf(m.penaltyOfTop[k]);
    const steps = reps.map((r) => stepsOf(X, voltStateOf(m, r)));
    const cum = steps.map((ss) => {
      const c = new Float64Array(ss.length);
      let acc = 0;
      for (let i = 0; i < ss.length; i++) c[i] = acc += ss[i].p;
      return c;
    });
    const one = (w: VoltWound[] | null): w is [VoltWound] => w !== null && w.length === 1;
    return {
      m,
      clsOfTop,
      cum,
      kind: steps.map((ss) =>
        Uint8Array.from(ss, (s) => (s.wounds === null ? 0 : !one(s.wounds) ? 3 : "failedRoll" in s.wounds[0] ? 2 : 1)),
      ),
      at: steps.map((ss) =>
        Float64Array.from(ss, (s) =>
          !one(s.wounds) ? 0 : "failedRoll" in s.wounds[0] ? s.wounds[0].damage : s.wounds[0].row,
        ),
      ),
      injury: steps.map((ss) => Uint8Array.from(ss, (s) => (one(s.wounds) && s.wounds[0].type === "injury" ? 1 : 0))),
      list: steps.map((ss) => ss.map((s) => s.wounds)),
      met: new Uint8Array(1 << (2 * m.R)),
      nMet: 0,
    };
  };
  const A = side("a", a);
  const B = side("b", b);
  const meet = (S: SampledSide, s: number): void => {
    if (s !== VOLT_OUT && !S.met[s]) {
      S.met[s] = 1;
      S.nMet++;
    }
  };
  const sa = voltSheetOf(A.m, a.state);
  const sb = voltSheetOf(B.m, b.state);
  meet(A, sa);
  meet(B, sb);
  const classOf = (S: SampledSide, s: number): number => {
    const R = S.m.R;
    const occ = (s | (s >>> R)) & ((1 << R) - 1);
    return S.clsOfTop[occ === 0 ? R : 31 - Math.clz32(occ)];
  };
  /** The defender's sheet after step i of the attacker's class c. */
  const hit = (X: SampledSide, c: number, i: number, D: SampledSide, y: number): number => {
    const k = X.kind[c][i];
    if (k === 0) return y;
    if (k === 1) return placeOnRow(D.m, y, X.at[c][i], X.injury[c][i] === 1);
    if (k === 2) return failedRoll(D.m, y, X.at[c][i], X.injury[c][i] === 1);
    return voltApplyWounds(D.m, y, X.list[c][i]!);
  };
  /** The first step whose running total passes u, −1 when none does. */
  const pick = (cum: Float64Array, u: number): number => {
    let lo = 0;
    let hi = cum.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cum[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    return lo < cum.length ? lo : -1;
  };
  return {
    starts: [{ a: sa, b: sb, turn: first, w: 1, spent: false }],
    outA: (x) => x === VOLT_OUT,
    outB: (y) => y === VOLT_OUT,
    alternating: true,
    checkTime,
    moves(x, y, turn, visit) {
      const [X, D, s, d] = turn === "a" ? [A, B, x, y] : [B, A, y, x];
      const c = classOf(X, s);
      const cum = X.cum[c];
      for (let i = 0; i < cum.length; i++) {
        const d2 = hit(X, c, i, D, d);
        const q = cum[i] - (i > 0 ? cum[i - 1] : 0);
        if (turn === "a") visit(x, d2, "b", q);
        else visit(d2, y, "a", q);
      }
    },
    draw(x, y, turn, v, next) {
      const aTurn = turn === "a";
      const X = aTurn ? A : B;
      const D = aTurn ? B : A;
      const c = classOf(X, aTurn ? x : y);
      const cum = X.cum[c];
      let i = pick(cum, v);
      // The total can fall short of 1 by rounding: the same draw, scaled to it (as the general draw).
      if (i < 0) i = pick(cum, v * cum[cum.length - 1]);
      if (i < 0) throw new Error("forecast: a turn with no outcome"); // a broken invariant, not bad input
      const d2 = hit(X, c, i, D, aTurn ? y : x);
      meet(D, d2);
      next.a = aTurn ? x : d2;
      next.b = aTurn ? d2 : y;
      next.turn = aTurn ? "b" : "a";
    },
    sheetsMet: () => A.nMet + B.nMet,
  };
}
