/**
 * Volt sheets as small integers, for the duel forecast's Volt methods (product.ts, forward-count.ts,
 * sheet-sampler.ts). A living Volt sheet (one that can still act) has marks only on its "alive"
 * rows: above the blacked-out circles (Volt: Wound rows — Tough) and no higher than the top penalty
 * row's last numeric entry (a mark above it, or on an "x" row, leaves the character unable to act —
 * Volt: The Immediate Effects). That is at most 10 rows, so a sheet is an Injury bit set and a Stun
 * bit set: at most 3^10 = 59,049 sheets. A "+" (Injury on a Stun) counts as Injury for every rule
 * the duel reads (Volt: Marking Wounds), so it is the Injury bit.
 */
import { voltGeometry, type VoltMark, type VoltTrackConfig, type VoltTrackState, type VoltWound } from "./track";

/** A side's sheet configuration and its state as the duel starts. */
export interface VoltDuelSide {
  config: VoltTrackConfig;
  state: VoltTrackState;
}

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
  const aliveRows = Math.max(0, hi - lo + 1);
  if (aliveRows > 15) throw new Error(`volt duel: ${aliveRows} alive rows`); // the Will tables have at most 10 penalty rows
  const penaltyOfTop = new Int8Array(aliveRows + 1);
  for (let k = 0; k < aliveRows; k++) {
    const i = g.top - (lo + k);
    const e = i < g.penalties.length ? g.penalties[i] : 0;
    penaltyOfTop[k] = e as number;
  }
  return { lo, hi, R: aliveRows, rows: g.rows, blacked: g.blacked, penaltyOfTop };
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
export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Volt: Marking Wounds — one mark on `row` of a living sheet, with the collision rules. */
export function placeOnRow(m: VoltSheetModel, s: number, row: number, injury: boolean): number {
  // Choice (track kind): a row above the sheet is its top row, which lies above the alive rows.
  if (row > m.rows) return VOLT_OUT;
  if (row <= m.blacked) return s; // Volt: Wound rows — a blacked-out circle takes no mark
  if (row > m.hi) return VOLT_OUT; // empty on a living sheet: marked there, the character cannot act
  const aliveRows = m.R;
  const k = row - m.lo;
  const b = 1 << k;
  const stun = s >>> aliveRows;
  const occ = (s | stun) & ((1 << aliveRows) - 1);
  const shift = injury ? 0 : aliveRows;
  if (!(occ & b)) return s | (b << shift);
  // Volt: Marking Wounds — an Injury on a Stun replaces it ("+", counted as Injury).
  if (stun & b && injury) return (s & ~(b << aliveRows)) | b;
  // Volt: Marking Wounds — the nearest empty row; of two equally near, the higher.
  for (let d = 1; ; d++) {
    if (k + d >= aliveRows) return VOLT_OUT; // the first row above the alive rows is empty: marked, cannot act
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
export function failedRoll(m: VoltSheetModel, s: number, damage: number, injury: boolean): number {
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

/** Penalty classes of a sheet model: the distinct penalties a living sheet can have, with a representative sheet. */
export function penaltyClasses(m: VoltSheetModel): { penalties: number[]; reps: number[] } {
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
 * A side's living sheets as they are found from its start under the other side's laws: each sheet
 * (in the order found) with its sheet after every distinct wound, placed on demand. The product
 * method finds them all (sideModel); the budget checks over its limits find only what they need
 * (`voltProductDuel`'s pair count, `voltForwardExceeds`).
 */
export class Explorer {
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
    const woundCount = this.W;
    if ((i + 1) * woundCount > this.after.length) {
      const grown = new Int32Array(Math.max(this.after.length * 2, (i + 1) * woundCount));
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
    for (let w = 0; w < woundCount; w++) {
      const k = kind[w];
      const s2 =
        k === 1
          ? placeOnRow(m, s, at[w], injury[w] === 1)
          : k === 2
            ? failedRoll(m, s, at[w], injury[w] === 1)
            : voltApplyWounds(m, s, distinct[w]);
      after[i * woundCount + w] = s2;
      if (s2 !== VOLT_OUT && index[s2] < 0) {
        index[s2] = found.length;
        found.push(s2);
      }
    }
    this.done[i] = 1;
  }
}
