/**
 * The chain of one forecast in typed arrays, with no object per node: a node is (a's state id,
 * b's state id, whose turn), found by an open-addressing hash of node indices. Its successors are
 * one run of an edge page (4 bytes a target); their probabilities are one row of a table of
 * distinct rows, which nodes share (Miniatures, Brutas vs Yanni: 4,012 rows for 230,460 nodes).
 * Memory per node: FORECAST_BUDGET.bytesPerState.
 */
import type { RulesError } from "../errors";
import { tooManyStates } from "./budget";
import type { ForecastMemoryStats } from "./answer";

export class Chain {
  n = 0;
  /** The refusal past the cap `add` is given: `maxStates`'s, or the memory budget's when that is lower (DuelRun.capChain sets it). */
  tooMany: (cap: number) => RulesError = tooManyStates;
  a = new Int32Array(256);
  b = new Int32Array(256);
  /** Bit 0: b's turn; bits 1–2: absorbed (1: a is out, 2: b is out); bit 3: out by flight (Miniatures). */
  flags = new Uint8Array(256);
  /** Each node's first successor (page × EDGE_PAGE + offset), −1 until it is expanded. */
  first = new Int32Array(256);
  /** Each node's row of probabilities (its number of successors is the row's length). */
  row = new Int32Array(256);
  /** Hash slots: node index + 1, 0 when empty; never more than half full. */
  private slots = new Int32Array(512);
  private pages: Int32Array[] = [];
  /** Pages in use (reset keeps the rest for the next forecast on this chain); targets used in the last. */
  private pagesUsed = 0;
  private used = 0;
  /** The distinct rows: row r is probs[rowStart[r] .. rowStart[r + 1]). */
  probs: Float64Array<ArrayBuffer> = new Float64Array(1024);
  rowStart: Int32Array<ArrayBuffer> = new Int32Array(65);
  private rows = 0;
  private rowSlots = new Int32Array(128);
  private readonly bits = new Int32Array(new Float64Array(1).buffer);
  private readonly bitsOf = new Float64Array(this.bits.buffer);

  /** Empty again, keeping its arrays and edge pages (takeChain; the forward pass after a refused chain). */
  reset(): this {
    this.n = 0;
    this.slots.fill(0);
    this.pagesUsed = 0; // the pages are filled again from the first
    this.used = 0;
    this.rows = 0;
    this.rowSlots.fill(0);
    return this;
  }
  pageCount(): number {
    return this.pages.length;
  }
  turn(i: number): "a" | "b" {
    return this.flags[i] & 1 ? "b" : "a";
  }
  /** 0: in play, 1: a is out, 2: b is out. */
  absorbed(i: number): number {
    return (this.flags[i] >> 1) & 3;
  }
  /** True for the end node of a side that left the duel by flight. */
  fled(i: number): boolean {
    return (this.flags[i] & 8) !== 0;
  }
  expanded(i: number): boolean {
    return this.first[i] >= 0;
  }
  /** Node i's successors are `page(i)[offset(i) + k]` with probability `probs[rowStart[row[i]] + k]`, k < `count(i)`. */
  count(i: number): number {
    if (this.first[i] < 0) return 0;
    const r = this.row[i];
    return this.rowStart[r + 1] - this.rowStart[r];
  }
  page(i: number): Int32Array {
    return this.pages[this.first[i] >>> 16];
  }
  offset(i: number): number {
    return this.first[i] & 0xffff;
  }
  probAt(i: number): number {
    return this.rowStart[this.row[i]];
  }

  /** The node (a, b, turn) in play, added when new. */
  find(a: number, b: number, t: number, maxStates: number): number {
    const mask = this.slots.length - 1;
    // Signed 32-bit all the way (no `>>> 0`: an unsigned value past 2³¹ cost a heap number per call); the same slots as nodeHash.
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b * 2 + t, 0x85ebca77);
    h = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const s = this.slots[h];
      if (s === 0) break;
      const i = s - 1;
      if (this.a[i] === a && this.b[i] === b && this.flags[i] === t) return i;
      h = (h + 1) & mask;
    }
    const i = this.add(a, b, t, 0, maxStates);
    this.slots[h] = i + 1;
    if (2 * this.n > this.slots.length)
      this.slots = this.rehash(this.slots.length * 2, this.n, (k) =>
        this.flags[k] >> 1 !== 0 ? -1 : this.nodeHash(k),
      );
    return i;
  }
  private nodeHash(i: number): number {
    const h = (Math.imul(this.a[i], 0x9e3779b1) ^ Math.imul(this.b[i] * 2 + (this.flags[i] & 1), 0x85ebca77)) >>> 0;
    return (h ^ (h >>> 15)) >>> 0;
  }
  /** A new node (the out-of-the-fight nodes are added by the caller, once each, outside the hash; `absorbed` | 4: by flight). */
  add(a: number, b: number, t: number, absorbed: number, maxStates: number): number {
    if (this.n >= maxStates) throw this.tooMany(maxStates);
    const i = this.n++;
    if (i === this.a.length) this.grow();
    this.a[i] = a;
    this.b[i] = b;
    this.flags[i] = t | (absorbed << 1);
    this.first[i] = -1;
    return i;
  }
  /** Node i's successors: the first n of `to` and `p` (targets copied into the current edge page, probabilities shared as a row). */
  setEdges(i: number, to: number[], p: number[], n: number): void {
    let page = this.pagesUsed - 1;
    if (page < 0 || this.used + n > this.pages[page].length) {
      // Pages grow from 4,096 targets (a small chain allocates little) to EDGE_PAGE; a run never straddles two.
      const size = Math.max(n, Math.min(EDGE_PAGE, 4096 << Math.min(4, this.pagesUsed)));
      page++;
      // A page kept by reset is used again when it is large enough and its offsets fit 16 bits.
      const kept = this.pages[page];
      if (kept === undefined || kept.length < size || kept.length > Math.max(size, EDGE_PAGE))
        this.pages[page] = new Int32Array(size);
      this.pagesUsed = page + 1;
      this.used = 0;
    }
    const tp = this.pages[page];
    const o = this.used;
    for (let k = 0; k < n; k++) tp[o + k] = to[k];
    this.first[i] = page * EDGE_PAGE + o;
    this.used = o + n;
    this.row[i] = this.internRow(p, n);
  }
  /** The row holding exactly these n probabilities (bit for bit), added when new. */
  private internRow(p: number[], n: number): number {
    let h = n;
    for (let k = 0; k < n; k++) {
      this.bitsOf[0] = p[k];
      h = Math.imul(h ^ this.bits[0], 0x9e3779b1) ^ this.bits[1];
    }
    h = (h ^ (h >>> 15)) >>> 0;
    const mask = this.rowSlots.length - 1;
    let s = h & mask;
    for (;;) {
      const r = this.rowSlots[s] - 1;
      if (r < 0) break;
      const o = this.rowStart[r];
      if (this.rowStart[r + 1] - o === n) {
        let k = 0;
        while (k < n && this.probs[o + k] === p[k]) k++;
        if (k === n) return r;
      }
      s = (s + 1) & mask;
    }
    const r = this.rows++;
    if (r + 2 > this.rowStart.length) {
      const g = new Int32Array(2 * this.rowStart.length);
      g.set(this.rowStart);
      this.rowStart = g;
    }
    const o = this.rowStart[r];
    if (o + n > this.probs.length) {
      const g = new Float64Array(Math.max(2 * this.probs.length, o + n));
      g.set(this.probs);
      this.probs = g;
    }
    for (let k = 0; k < n; k++) this.probs[o + k] = p[k];
    this.rowStart[r + 1] = o + n;
    this.rowSlots[s] = r + 1;
    this.rowHash[r] = h;
    if (2 * this.rows > this.rowSlots.length)
      this.rowSlots = this.rehash(this.rowSlots.length * 2, this.rows, (k) => this.rowHash[k]);
    return r;
  }
  private rowHash: number[] = [];
  /** Slots of `size` for entries 0 … n − 1 (hash −1: not in the table). */
  private rehash(size: number, n: number, hashOf: (k: number) => number): Int32Array<ArrayBuffer> {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let k = 0; k < n; k++) {
      const h0 = hashOf(k);
      if (h0 < 0) continue;
      let h = h0 & mask;
      while (slots[h] !== 0) h = (h + 1) & mask;
      slots[h] = k + 1;
    }
    return slots;
  }
  private grow(): void {
    const m = 2 * this.a.length;
    const g32 = (x: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const y = new Int32Array(m);
      y.set(x);
      return y;
    };
    this.a = g32(this.a);
    this.b = g32(this.b);
    this.first = g32(this.first);
    this.row = g32(this.row);
    const f = new Uint8Array(m);
    f.set(this.flags);
    this.flags = f;
  }
}
/** Targets per edge page: offsets fit 16 bits of `Chain.first`; a node with more successors gets a page of its own at offset 0. */
const EDGE_PAGE = 1 << 16;

/**
 * One small chain reused from one forecast to the next, like the solve's arrays below: its dozen
 * typed arrays (each a buffer outside the heap the collector tracks) were a visible share of a
 * sub-millisecond forecast. A chain that grew past SCRATCH_CHAIN nodes is not kept.
 */
const SCRATCH_CHAIN = 4096;
let chainScratch: Chain | null = null;
export function takeChain(stats?: ForecastMemoryStats): Chain {
  if (stats) stats.chains++;
  const c = chainScratch;
  chainScratch = null;
  return c ? c.reset() : new Chain();
}
export function giveBackChain(c: Chain): void {
  if (c.a.length <= SCRATCH_CHAIN && c.probs.length <= 8 * SCRATCH_CHAIN && c.pageCount() <= 1) chainScratch = c;
}
