/**
 * The pre-count of the bounded forward method for Volt duels over the product's budget
 * (voltForwardExceeds): the same forward pass on the integer sheets, counting the states it follows.
 */
import { Explorer, popcount, VOLT_OUT } from "./sheet";

/** The forward count's work (voltForwardExceeds), added up over its passes: tests read it. */
export interface VoltCountStats {
  /** Passes run (1: the cheap pass decided). */
  passes: number;
  /** States counted (mass at or above the threshold), states followed, and masses added to a state. */
  counted: number;
  followed: number;
  added: number;
}

/**
 * The pre-check of the bounded "forward" method (forecast/methods/progress.ts) for duels over the
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
export function voltForwardExceeds(
  sideA: CountSide,
  sideB: CountSide,
  aFirst: boolean,
  eps: number,
  maxStates: number,
  checkTime: () => void,
  stats: VoltCountStats = { passes: 0, counted: 0, followed: 0, added: 0 },
): boolean {
  // Cheap passes first: they follow only states holding 4·eps and leave out every share of mass
  // under 0.3·eps, then 0.1·eps (a state here then holds at most its mass there: a lower bound all
  // the same); the full pass only where they fall short (docs/bench.md has the counts).
  return (
    forwardCount(sideA, sideB, aFirst, eps, 4, 0.3, maxStates, checkTime, stats) ||
    forwardCount(sideA, sideB, aFirst, eps, 4, 0.1, maxStates, checkTime, stats) ||
    forwardCount(sideA, sideB, aFirst, eps, 1, 0, maxStates, checkTime, stats)
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

export function countSide(explorer: Explorer, penalties: number[]): CountSide {
  const m = explorer.m;
  const clsOfTop = new Int32Array(m.R + 1);
  for (let k = 0; k <= m.R; k++) clsOfTop[k] = penalties.indexOf(m.penaltyOfTop[k]);
  return { E: explorer, R: m.R, clsOfTop, tab: explorer.laws.map((_, l) => new LazyTable(explorer, l)) };
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
    private readonly explorer: Explorer,
    private readonly law: number,
  ) {}
  /** Tabulates sheet i (a place in `found`); returns where its successors start in `to` and `p`. */
  row(i: number): number {
    if (i >= this.start.length) this.growSheets(i + 1);
    if (this.start[i] >= 0) return this.start[i];
    const explorer = this.explorer;
    explorer.expand(i);
    const law = explorer.laws[this.law];
    const hw = explorer.hitWound[this.law];
    const s = explorer.found[i];
    const row = i * explorer.W;
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
      const s2 = explorer.after[row + hw[h]];
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
  sideA: CountSide,
  sideB: CountSide,
  aFirst: boolean,
  eps: number,
  followFactor: number,
  dropFactor: number,
  maxStates: number,
  checkTime: () => void,
  stats: VoltCountStats,
): boolean {
  if (!sideA.E.singleWound || !sideB.E.singleWound) return false;
  stats.passes++;
  const RA = sideA.R;
  const RB = sideB.R;
  const fullA = (1 << RA) - 1;
  const fullB = (1 << RB) - 1;
  // A state's key: each side's sheet with its "+" rows marked as both Injury and Stun (a sheet never
  // has both on one row), 2R bits a side: a pair of codes.
  if (2 ** (2 * RA) * 2 ** (2 * RB) > 2 ** 52) return false; // the count's domain as when keys were one double
  const cut = eps * (1 + 1e-9);
  const follow = cut * followFactor;
  const drop = cut * dropFactor;
  const progress = (s: number, aliveRows: number): number =>
    2 * popcount(s & ((1 << aliveRows) - 1)) + popcount(s >>> aliveRows);
  // By progress (a + b): the states reached with it, and their mass with a / b to attack.
  const buckets: Array<PairMassTable | undefined> = new Array(4 * (RA + RB) + 1);
  const done: PairMassTable[] = [];
  // A new bucket's table starts at twice the entries of the bucket being followed (the buckets
  // grow with progress): most of its doublings and rehashes are skipped.
  let sizeHint = 1024;
  const at = (pr: number): PairMassTable => (buckets[pr] ??= done.pop()?.clear() ?? new PairMassTable(sizeHint));
  const sa0 = sideA.E.start;
  const sb0 = sideB.E.start;
  at(progress(sa0, RA) + progress(sb0, RB)).add(sa0, sb0, aFirst ? 0 : 1, 1);
  const classOf = (side: CountSide, s: number): number => {
    const occ = (s | (s >>> side.R)) & ((1 << side.R) - 1);
    return side.clsOfTop[occ === 0 ? side.R : 31 - Math.clz32(occ)];
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
      const ia = sideA.E.index[a];
      const ib = sideB.E.index[b];
      const tA = sideB.tab[classOf(sideA, a)]; // a attacks b's sheet with the law of a's class
      const tB = sideA.tab[classOf(sideB, b)];
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
