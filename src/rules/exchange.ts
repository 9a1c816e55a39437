/**
 * A prepared exchange: the numbers-only resolution of one attack, repeated many times (a
 * simulated fight, a table of "what if" rolls, the benchmark). The request is parsed and
 * validated once; each exchange is then dice → table → track:
 *
 *  - dice: the slots' dice are rolled die by die from the caller's random source, in the order
 *    and with the draws `DiceSlot.roll` uses, so the same random source gives the same dice as
 *    the full pipeline (`rollingDice`);
 *  - table: per pair of track states, a trie keyed by each slot's raw dice (not its total, so
 *    options that read single dice — criticals, even/odd, Min-Mid-Max — stay exact) whose
 *    leaves hold the full pipeline's resolution for exactly those dice. A leaf is filled by the
 *    real pipeline the first time those dice come up, so the table can only ever repeat it;
 *  - track: tracks are interned as small integers per side; a leaf names the defender's state
 *    after the wound, so a fight walks integers, not track objects.
 *
 * Slots whose roll is not a fixed number of independent uniform dice (the Miniatures Legendary
 * re-roll) cannot key a table by their faces: a request with one runs the full pipeline on every
 * exchange (same results, no table). The table is bounded (`maxLeaves`); past it, exchanges are
 * resolved by the pipeline without being stored.
 */
import { RulesError } from "./errors";
import type { Rng } from "./dice";
import {
  recordedDice,
  rollingDice,
  type AttackPipeline,
  type AttackRequest,
  type AttackResolution,
  type DiceReader,
  type DiceSlot,
} from "./pipeline";
import { pipelineFor } from "./presets";
import { parseTrack, trackStateKey, type Track } from "./track";

/** Numbers-only resolutions: the table never holds an explanation. */
const QUIET = { explain: false } as const;

export type ExchangeSide = "attacker" | "defender";

export interface PreparedExchangeOptions {
  /** Most table leaves kept (each is one stored resolution). Default 200,000. */
  maxLeaves?: number;
  /** Most explained resolutions kept (`runExplained`; each is a few KB). Default 10,000. */
  maxExplained?: number;
}

/**
 * Freezes a resolution and everything it holds (plain JSON-like data: objects and arrays, no
 * cycles), so that one kept explained resolution can be handed to every caller.
 */
function deepFreeze<T>(v: T): T {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) for (const x of v) deepFreeze(x);
  else for (const k in v) deepFreeze((v as Record<string, unknown>)[k]);
  return Object.freeze(v);
}

/** Grows an Int32Array to hold at least `n` entries (doubling). */
function grow(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (n <= a.length) return a;
  let size = a.length * 2;
  while (size < n) size *= 2;
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

export class PreparedExchange {
  readonly pipeline: AttackPipeline;
  /** The parsed request (state 0 on each side is its tracks). */
  readonly request: AttackRequest;
  /** False when a slot cannot key the table (see above): every exchange runs the pipeline. */
  readonly tabled: boolean;
  private readonly slots: DiceSlot[];
  private readonly slotIndex = new Map<string, number>();
  private readonly dieCount: Int32Array;
  private readonly dieSides: Int32Array;
  private readonly dieLowest: Int32Array;
  private readonly maxLeaves: number;
  // Interned track states per side: id → track, state key → id.
  private readonly tracks: Record<ExchangeSide, Track[]> = { attacker: [], defender: [] };
  private readonly ids: Record<ExchangeSide, Map<string, number>> = { attacker: new Map(), defender: new Map() };
  private readonly requests = new Map<number, AttackRequest>();
  private readonly configByObject = new Map<object, number>();
  private readonly configByJson = new Map<string, number>();
  /** roots[a][d]: 0 unknown, > 0 the trie node of its first slot, < 0 ~leaf (no dice read). */
  private readonly roots: Int32Array[] = [];
  // Trie nodes (node 0 unused): the slot a node reads and where its children start in `child`.
  private nodeSlot = new Int32Array(64);
  private nodeBase = new Int32Array(64);
  private nodes = 1;
  /** Children of every node: 0 unknown, > 0 a node, < 0 ~leaf. */
  private child = new Int32Array(1024);
  private childUsed = 0;
  // Leaves: the resolution and the defender's state after it. Leaf 0 is scratch (not in the table).
  private readonly leafResolution: AttackResolution[] = [];
  private leafDefenderAfter = new Int32Array(256);
  // The dice of the last exchange: slot index and key per read, in reading order.
  private readonly pathSlot = new Int32Array(32);
  private readonly pathKey = new Int32Array(32);
  private pathLength = 0;
  /** The dice of the last exchange when there is no table. */
  private untabledDice: Record<string, number[]> = {};
  /** Explained resolutions by leaf (deep-frozen), filled by `runExplained`; at most `maxExplained`. */
  private readonly explainedLeaf: (AttackResolution | undefined)[] = [];
  private explainedKept = 0;
  private readonly maxExplained: number;

  constructor(input: unknown, opts: PreparedExchangeOptions = {}) {
    const preset = (input as { preset?: unknown })?.preset;
    this.pipeline = pipelineFor(preset);
    this.request = this.pipeline.parseRequest(input);
    this.slots = this.pipeline.slots(this.request);
    this.maxLeaves = opts.maxLeaves ?? 200_000;
    this.maxExplained = opts.maxExplained ?? 10_000;
    const n = this.slots.length;
    this.dieCount = new Int32Array(n);
    this.dieSides = new Int32Array(n);
    this.dieLowest = new Int32Array(n);
    let tabled = true;
    this.slots.forEach((s, i) => {
      this.slotIndex.set(s.id, i);
      if (!s.uniform) tabled = false;
      else {
        this.dieCount[i] = s.uniform.n;
        this.dieSides[i] = s.uniform.sides;
        this.dieLowest[i] = s.uniform.lowest;
      }
    });
    this.tabled = tabled;
    this.intern("attacker", this.request.attacker.track);
    this.intern("defender", this.request.defender.track);
    this.leafResolution.push(undefined as unknown as AttackResolution);
  }

  /** The id of a track state on one side (parsed and validated; interned on first sight). */
  state(side: ExchangeSide, track: unknown): number {
    return this.intern(side, parseTrack(track, `${side}.track`));
  }

  /** The track of a state id. */
  track(side: ExchangeSide, id: number): Track {
    const t = this.tracks[side][id];
    if (!t) throw new RangeError(`prepared exchange: no ${side} state ${id}`);
    return t;
  }

  /** A track config's id: the same object, or the same JSON, is the same config. */
  private configId(config: object): number {
    let id = this.configByObject.get(config);
    if (id === undefined) {
      const json = JSON.stringify(config);
      id = this.configByJson.get(json);
      if (id === undefined) this.configByJson.set(json, (id = this.configByJson.size));
      this.configByObject.set(config, id);
    }
    return id;
  }

  private intern(side: ExchangeSide, track: Track): number {
    // A state key describes marks for one config: two configs may share a key.
    const key = `${this.configId(track.config)}|${trackStateKey(track)}`;
    let id = this.ids[side].get(key);
    if (id === undefined) {
      id = this.tracks[side].length;
      this.tracks[side].push(track);
      this.ids[side].set(key, id);
    }
    return id;
  }

  /** The request with the attacker at state `a` and the defender at state `d`. */
  requestFor(a: number, d: number): AttackRequest {
    if (a === 0 && d === 0) return this.request;
    const k = a * 0x100000000 + d;
    let r = this.requests.get(k);
    if (!r) {
      const req = this.request;
      r = {
        ...req,
        attacker: { ...req.attacker, track: this.track("attacker", a) },
        defender: { ...req.defender, track: this.track("defender", d) },
      };
      this.requests.set(k, r);
    }
    return r;
  }

  /**
   * One exchange, numbers only: rolls the dice the rules read, looks the result up (filling the
   * table from the full pipeline the first time) and returns the leaf: read it with
   * `resolution`, `defenderAfter`, `dice`. Throws what the pipeline throws (an attacker who
   * cannot act).
   */
  run(a: number, d: number, rng: Rng): number {
    if (!this.tabled) return this.fill(a, d, 0, rng);
    const row = this.roots[a];
    let node = row !== undefined && d < row.length ? row[d] : 0;
    if (node === 0) return this.fill(a, d, 0, rng);
    let depth = 0;
    const { child, nodeSlot, nodeBase, dieCount, dieSides, pathSlot, pathKey } = this;
    while (node > 0) {
      const s = nodeSlot[node];
      const n = dieCount[s];
      const sides = dieSides[s];
      // The same draws as rollFudgeDice / rollDie: one per die, in order (first die most
      // significant); `| 0` is Math.floor for these non-negative values below 2^31.
      let key = 0;
      if (n === 4 && sides === 3) {
        // 4dF, the common slot, unrolled (same draws, same order).
        key = ((rng() * 3) | 0) * 27;
        key += ((rng() * 3) | 0) * 9;
        key += ((rng() * 3) | 0) * 3;
        key += (rng() * 3) | 0;
      } else for (let i = 0; i < n; i++) key = key * sides + ((rng() * sides) | 0);
      pathSlot[depth] = s;
      pathKey[depth] = key;
      depth++;
      node = child[nodeBase[node] + key];
      if (node === 0) return this.fill(a, d, depth, rng);
    }
    this.pathLength = depth;
    return ~node;
  }

  /**
   * One exchange with the full explanation (a chat card's resolution): the same dice, drawn the
   * same way, as `run`; the result is the full pipeline's explained resolution of exactly those
   * dice on those track states, re-derived from them the first time a leaf comes up (as a chat
   * card is re-derived from its record) and kept with the leaf. The steps depend on nothing but
   * the request, the track states and the dice, which the leaf fixes, so a kept explanation is
   * the pipeline's own. Deep-frozen: every caller may share it. Throws what the pipeline throws.
   */
  runExplained(a: number, d: number, rng: Rng): AttackResolution {
    const leaf = this.run(a, d, rng);
    if (leaf !== 0) {
      const kept = this.explainedLeaf[leaf];
      if (kept !== undefined) return kept;
    }
    const r = deepFreeze(this.pipeline.resolve(this.requestFor(a, d), recordedDice(this.lastDice(), this.slots)));
    // Leaf 0 is scratch (no table, or a full one): its explanation is never kept.
    if (leaf !== 0 && this.explainedKept < this.maxExplained) {
      this.explainedLeaf[leaf] = r;
      this.explainedKept++;
    }
    return r;
  }

  /** The full pipeline's numbers-only resolution of a leaf (shared: do not modify). */
  resolution(leaf: number): AttackResolution {
    return this.leafResolution[leaf];
  }

  /** The defender's state id after the exchange of a leaf. */
  defenderAfter(leaf: number): number {
    return this.leafDefenderAfter[leaf];
  }

  /** The dice the last `run` read, by slot id (as a chat card records them). */
  lastDice(): Record<string, number[]> {
    if (!this.tabled) return { ...this.untabledDice };
    const out: Record<string, number[]> = {};
    for (let j = 0; j < this.pathLength; j++)
      out[this.slots[this.pathSlot[j]].id] = this.decode(this.pathSlot[j], this.pathKey[j]);
    return out;
  }

  /** Number of explained resolutions kept (`runExplained`, at most `maxExplained`). */
  get explainedSize(): number {
    return this.explainedKept;
  }

  /** Number of stored leaves (resolutions) in the table. */
  get size(): number {
    return this.leafResolution.length - 1;
  }

  private decode(s: number, key: number): number[] {
    const n = this.dieCount[s];
    const sides = this.dieSides[s];
    const dice = new Array<number>(n);
    for (let i = n - 1; i >= 0; i--) {
      dice[i] = (key % sides) + this.dieLowest[s];
      key = Math.floor(key / sides);
    }
    return dice;
  }

  /**
   * The slow path: the full pipeline resolves the request with the dice rolled so far (the first
   * `depth` reads) and rolls what else it reads; the result becomes a leaf of the table.
   */
  private fill(a: number, d: number, depth: number, rng: Rng): number {
    const req = this.requestFor(a, d);
    if (!this.tabled) {
      const record: Record<string, number[]> = {};
      const r = this.pipeline.resolve(req, rollingDice(this.slots, rng, record), QUIET);
      this.untabledDice = record;
      return this.store(a, d, r, -1);
    }
    let used = 0;
    const read: number[][] = [];
    const reader: DiceReader = (id) => {
      const s = this.slotIndex.get(id);
      if (s === undefined)
        throw new RulesError(`dice.${id}`, "FUDGE.Error.UnknownDice", `no dice slot "${id}" in this pipeline`);
      for (let j = 0; j < used; j++) if (this.pathSlot[j] === s) return read[j];
      if (used < depth) {
        // A pipeline reads its slots in an order fixed by the dice read before: the table relies on it.
        if (this.pathSlot[used] !== s)
          throw new Error(
            `prepared exchange: the pipeline read "${id}" where it read "${this.slots[this.pathSlot[used]].id}" before`,
          );
      } else {
        if (used >= this.pathSlot.length) throw new Error("prepared exchange: too many dice slots read");
        const n = this.dieCount[s];
        const sides = this.dieSides[s];
        let key = 0;
        for (let i = 0; i < n; i++) key = key * sides + Math.floor(rng() * sides);
        this.pathSlot[used] = s;
        this.pathKey[used] = key;
      }
      read[used] = this.decode(s, this.pathKey[used]);
      return read[used++];
    };
    const r = this.pipeline.resolve(req, reader, QUIET);
    this.pathLength = used;
    return this.store(a, d, r, used);
  }

  /** Stores a resolution as a leaf reached by the current dice path (`used` reads; −1: scratch only). */
  private store(a: number, d: number, r: AttackResolution, used: number): number {
    const after = r.defenderAfter ? this.intern("defender", r.defenderAfter.track) : d;
    if (used < 0 || this.leafResolution.length > this.maxLeaves) {
      this.leafResolution[0] = r;
      this.leafDefenderAfter[0] = after;
      return 0;
    }
    const leaf = this.leafResolution.length;
    this.leafResolution.push(r);
    this.leafDefenderAfter = grow(this.leafDefenderAfter, leaf + 1);
    this.leafDefenderAfter[leaf] = after;
    while (this.roots.length <= a) this.roots.push(new Int32Array(0));
    if (this.roots[a].length <= d) {
      const row = new Int32Array(Math.max(d + 1, this.roots[a].length * 2, 4));
      row.set(this.roots[a]);
      this.roots[a] = row;
    }
    if (used === 0) {
      this.roots[a][d] = ~leaf;
      return leaf;
    }
    let node = this.roots[a][d];
    if (node === 0) this.roots[a][d] = node = this.newNode(this.pathSlot[0]);
    for (let j = 0; j < used; j++) {
      const at = this.nodeBase[node] + this.pathKey[j];
      if (j === used - 1) {
        this.child[at] = ~leaf;
        break;
      }
      let next = this.child[at];
      if (next === 0) {
        next = this.newNode(this.pathSlot[j + 1]);
        this.child[at] = next;
      }
      node = next;
    }
    return leaf;
  }

  private newNode(s: number): number {
    const id = this.nodes++;
    this.nodeSlot = grow(this.nodeSlot, id + 1);
    this.nodeBase = grow(this.nodeBase, id + 1);
    const width = this.dieSides[s] ** this.dieCount[s];
    this.nodeSlot[id] = s;
    this.nodeBase[id] = this.childUsed;
    this.childUsed += width;
    this.child = grow(this.child, this.childUsed);
    return id;
  }
}

/** Parses and validates `input` once and returns its prepared exchange. */
export function prepareExchange(input: unknown, opts?: PreparedExchangeOptions): PreparedExchange {
  return new PreparedExchange(input, opts);
}
