/**
 * Foundry's Roll, reduced to the formulas this system rolls: `NdF` (FateDie), `NdX`, numbers,
 * `+ -`, and `@path` data (Roll.replaceFormulaData). Faces come from a queue of fixed faces the
 * test sets (world.dice.queue), else from CONFIG.Dice.randomUniform as core's DiceTerm does.
 *
 * Sources (public): v13 API docs of Roll (evaluate, dice, total, toJSON, fromData, toMessage),
 * FateDie (faces −1, 0, +1), DiceTerm#results ({result, active}); FOUNDRY-V13.md "Chat messages".
 */
import { current } from "./context";

export interface DiceResult {
  result: number;
  active: boolean;
}

export class DiceTerm {
  results: DiceResult[] = [];
  readonly number: number;
  readonly faces: number | "F";
  /** Core's DiceTerm takes termData ({number, faces, …}); the harness's own terms also (number, faces). */
  constructor(numberOrData: number | { number?: number; faces?: number | "F" }, faces?: number | "F") {
    if (typeof numberOrData === "object") {
      this.number = numberOrData.number ?? 1;
      this.faces = numberOrData.faces ?? 6;
    } else {
      this.number = numberOrData;
      this.faces = faces ?? 6;
    }
  }
  get denomination() {
    return this.faces === "F" ? "f" : "d";
  }
  get formula() {
    return `${this.number}d${this.faces}`;
  }
  get total() {
    return this.results.filter((r) => r.active).reduce((s, r) => s + r.result, 0);
  }
  get values() {
    return this.results.map((r) => r.result);
  }
  roll(): void {
    const c = current();
    for (let i = 0; i < this.number; i++) this.results.push({ result: c.world.dice.next(this.faces, c), active: true });
  }
}
export class Die extends DiceTerm {}
export class FateDie extends DiceTerm {}

type Term = DiceTerm | { operator: string } | { number: number };

function parse(formula: string): Term[] {
  const terms: Term[] = [];
  const re = /\s*(?:(\d*)d([A-Za-z]|\d+)|(\d+)|([+\-]))\s*/giy;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < formula.length && (m = re.exec(formula))) {
    pos = re.lastIndex;
    if (m[2] !== undefined) {
      const n = m[1] ? Number(m[1]) : 1;
      if (/^\d+$/.test(m[2])) terms.push(new Die(n, Number(m[2])));
      else if (m[2].toLowerCase() === "f") terms.push(new FateDie(n, "F"));
      else {
        // Core's RollParser: a letter denomination is the class CONFIG.Dice.terms registers for it.
        const Cls = (current().CONFIG.Dice as unknown as { terms: Record<string, typeof DiceTerm> }).terms[
          m[2].toLowerCase()
        ];
        if (!Cls) throw new Error(`Unresolved StringTerm d${m[2]} requested for evaluation`);
        terms.push(new Cls({ number: n }));
      }
    } else if (m[3] !== undefined) terms.push({ number: Number(m[3]) });
    else terms.push({ operator: m[4] });
  }
  // Core: "Unresolved StringTerm undefined" when a formula is missing or has leftovers.
  if (pos < formula.trim().length || !terms.length)
    throw new Error(`Unresolved StringTerm ${formula.slice(pos) || "undefined"} requested for evaluation`);
  return terms;
}

export class Roll {
  readonly _formula: string;
  terms: Term[];
  options: Record<string, unknown>;
  data: Record<string, unknown>;
  _evaluated = false;
  _total: number | undefined;
  /** Which client evaluated this roll (host bookkeeping for tests). */
  rolledBy: string | null = null;

  constructor(formula: string, data: Record<string, unknown> = {}, options: Record<string, unknown> = {}) {
    this.data = data;
    this.options = options;
    this._formula = Roll.replaceFormulaData(String(formula ?? "undefined"), data);
    this.terms = parse(this._formula);
  }

  /** Roll.replaceFormulaData: `@a.b` from the data; a missing path becomes 0 (core warns). */
  static replaceFormulaData(formula: string, data: Record<string, unknown>): string {
    return formula.replace(/@([a-z.0-9_-]+)/gi, (_, path: string) => {
      const v = path
        .split(".")
        .reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]), data);
      return v === undefined || v === null ? "0" : String(v);
    });
  }

  get formula() {
    return this._formula;
  }
  get dice(): DiceTerm[] {
    return this.terms.filter((t): t is DiceTerm => t instanceof DiceTerm);
  }
  get total() {
    return this._total;
  }
  get isDeterministic() {
    return !this.dice.length;
  }

  async evaluate(): Promise<this> {
    return this.evaluateSync();
  }
  evaluateSync(): this {
    if (this._evaluated) throw new Error("The Roll has already been evaluated and is now immutable");
    let total = 0;
    let sign = 1;
    for (const t of this.terms) {
      if ("operator" in t) sign = t.operator === "-" ? -1 : 1;
      else if (t instanceof DiceTerm) {
        t.roll();
        total += sign * t.total;
      } else total += sign * t.number;
    }
    this._total = total;
    this._evaluated = true;
    const c = current();
    this.rolledBy = c.user.id;
    c.world.rolls.push({ formula: this.formula, userId: c.user.id, faces: this.dice.flatMap((d) => d.values) });
    return this;
  }
  async roll() {
    return this.evaluate();
  }

  toJSON() {
    return {
      class: "Roll",
      formula: this.formula,
      options: this.options,
      evaluated: this._evaluated,
      total: this._total,
      terms: this.terms.map((t) =>
        t instanceof DiceTerm
          ? {
              class: t instanceof FateDie ? "FateDie" : t.constructor.name,
              number: t.number,
              faces: t.faces,
              results: t.results,
            }
          : { ...t },
      ),
    };
  }
  static fromData(data: ReturnType<Roll["toJSON"]>): Roll {
    const r = new Roll(data.formula, {}, data.options ?? {});
    r.terms = data.terms.map((t) => {
      // Core's DiceTerm.fromData: the class by name, among CONFIG.Dice.termTypes and the registered terms.
      const name = (t as { class?: string }).class;
      const registered =
        name && name !== "Die" && name !== "FateDie" && name !== undefined && "results" in (t as object)
          ? Object.values((current().CONFIG.Dice as unknown as { terms: Record<string, typeof DiceTerm> }).terms).find(
              (c) => c.name === name,
            )
          : undefined;
      if ((t as { class?: string }).class === "FateDie" || (t as { class?: string }).class === "Die" || registered) {
        const d = t as { class: string; number: number; faces: number | "F"; results: DiceResult[] };
        const term = registered
          ? new registered({ number: d.number, faces: d.faces })
          : d.class === "FateDie"
            ? new FateDie(d.number, "F")
            : new Die(d.number, d.faces);
        term.results = d.results.map((x) => ({ ...x }));
        return term;
      }
      return t as Term;
    });
    r._evaluated = data.evaluated;
    r._total = data.total;
    return r;
  }
  static fromJSON(json: string): Roll {
    return Roll.fromData(JSON.parse(json));
  }
  async getTooltip(): Promise<string> {
    return `<div class="dice-tooltip">${this.dice.map((d) => `<ol class="dice-rolls">${d.results.map((r) => `<li class="roll die d${d.faces}">${r.result}</li>`).join("")}</ol>`).join("")}</div>`;
  }
  /** Roll#render: a private roll shows "???" for its formula, no dice and "?" for its total (core Roll#_prepareChatRenderContext). */
  async render({ isPrivate = false }: { isPrivate?: boolean } = {}): Promise<string> {
    const formula = isPrivate ? "???" : this.formula;
    const tooltip = isPrivate ? "" : await this.getTooltip();
    const total = isPrivate ? "?" : String(this.total);
    return `<div class="dice-roll"><div class="dice-formula">${formula}</div>${tooltip}<h4 class="dice-total">${total}</h4></div>`;
  }
  /** Roll#toMessage: a message with this roll in `rolls`; the roll mode in the creation options. */
  async toMessage(
    messageData: Record<string, unknown> = {},
    { rollMode, create = true }: { rollMode?: string; create?: boolean } = {},
  ) {
    if (!this._evaluated) await this.evaluate();
    const data = { content: String(this.total), ...messageData, rolls: [this] };
    const CM = current().CONFIG.ChatMessage.documentClass as {
      create(d: unknown, o: unknown): Promise<unknown>;
      _applyMode(d: unknown, m: string): unknown;
    };
    if (!create) return rollMode ? CM._applyMode(data, rollMode) : data;
    return CM.create(data, { rollMode });
  }
}

/** The world's dice: fixed faces queued by a test come first, then CONFIG.Dice.randomUniform. */
export class DiceQueue {
  private fixed: number[] = [];
  /** Queue faces: −1/0/+1 for dF, 1…N for dN, in the order the dice are rolled. */
  queue(...faces: number[]): void {
    this.fixed.push(...faces);
  }
  get pending(): number {
    return this.fixed.length;
  }
  clear(): void {
    this.fixed = [];
  }
  next(faces: number | "F", c: { CONFIG: { Dice: { randomUniform: () => number } } }): number {
    if (this.fixed.length) {
      const f = this.fixed.shift()!;
      const ok = faces === "F" ? f >= -1 && f <= 1 : f >= 1 && f <= faces;
      if (!ok || !Number.isInteger(f)) throw new Error(`foundry-host: queued face ${f} does not fit a d${faces}`);
      return f;
    }
    const u = c.CONFIG.Dice.randomUniform();
    // FateDie: a d3 mapped to −1, 0, +1 (core FateDie#roll).
    return faces === "F" ? Math.ceil(u * 3) - 2 : Math.ceil(u * faces) || 1;
  }
}
