/**
 * The phases method ("phases"), for alternating duels where an attack reads only the attacker's
 * status (Volt). The two sheets are coupled only through the attacker's status: while neither
 * side's status changes, A's attacks move B's sheet by a fixed law and B's attacks move A's, each
 * regardless of the other sheet. So, given the history of both statuses, the sheets are
 * independent, and the duel is a sum of products — a distribution over A's sheets (a "factor")
 * times one over B's, with a weight — instead of a distribution over pairs of sheets.
 *
 * The duel is followed hit by hit, not attack by attack: whether an attack wounds at all depends
 * only on the attacker's status, so the misses between two wounds are summed in closed form (the
 * turn passes: a two-state cycle) and which side is wounded next is a number of the two laws
 * alone. A wound moves the defender's factor; its sheets whose status changed split off into
 * factors of their own. Factors are shared: the same factor hit by the same law is computed once,
 * so A-then-B and B-then-A meet in one product. A product holding less than the threshold is not
 * followed (its mass is the error bound, with the mass of duels still running when at most
 * `tolerance / 2` remains).
 */
import { RulesError } from "../../errors";
import type { DuelForecast } from "../answer";
import { memoryCap, memoryRefusal, tooManyStates } from "../budget";
import type { TurnOutcome } from "../changes";
import type { SideId } from "../request";
import type { DuelRun } from "../run";

interface Law {
  id: number;
  /** P(an attack under this law deals nothing). */
  miss: number;
  /** The outcomes that deal something, with their probabilities given that they do. */
  hits: TurnOutcome[];
}

interface Factor {
  id: number;
  states: number[];
  masses: number[];
  mass: number;
  /** The law of this factor's sheets as attackers. */
  law: Law;
  /** Hit by a law (its id): the mass put out of the fight and the factors by their new law. */
  hit: Map<number, Wounded>;
}

interface Wounded {
  out: number;
  factors: Factor[];
}

interface Product {
  a: Factor;
  b: Factor;
  /** 0: a attacks next, 1: b. */
  turn: number;
  w: number;
}

export function phasesMethod(run: DuelRun): DuelForecast {
  const applies = run.alternating && run.rules.statusReads === "attacker" && run.minds === null && !run.rules.ownTurn;
  if (!applies)
    throw new RulesError(
      "method",
      "FUDGE.Error.ForecastMethod",
      `method "phases" needs an alternating duel where an attack reads only the attacker's status (Volt)`,
      { method: "phases" },
    );
  return run.tighten((threshold) => new Phases(run).follow(threshold));
}

class Phases {
  private readonly lawByKey = new Map<string, Law>();
  private readonly lawBySignature = { a: new Map<number, Law>(), b: new Map<number, Law>() };
  private factors = 0;
  private entries = 0;
  private readonly entriesByMemory: number;

  constructor(private readonly run: DuelRun) {
    this.entriesByMemory = memoryCap("voltPhases", run.request.maxBytes);
  }

  /** The law a side's state attacks under: what its attack does to the other side. */
  private lawOf(sideId: SideId, x: number): Law {
    const { run } = this;
    const signature = run.sides[sideId].signature[x];
    let law = this.lawBySignature[sideId].get(signature);
    if (!law) {
      const nothing = run.changes.nothing;
      const outcomes = run.attackOutcomes(sideId, x, sideId === "a" ? run.start.b : run.start.a, false);
      let miss = 0;
      for (const o of outcomes) {
        if (o.self !== nothing) throw new Error("forecast: a phases attack changed its attacker"); // a broken contract, not bad input
        if (o.foe === nothing) miss += o.p;
      }
      const hits =
        miss >= 1 - 1e-15
          ? []
          : outcomes.filter((o) => o.foe !== nothing).map((o) => ({ self: o.self, foe: o.foe, p: o.p / (1 - miss) }));
      // Statuses that attack alike share one law (Volt: penalties whose hits are the same dice).
      const key = `${sideId}|${miss}|${hits.map((h) => `${h.foe}:${h.p}`).join(",")}`;
      law = this.lawByKey.get(key);
      if (!law) this.lawByKey.set(key, (law = { id: this.lawByKey.size, miss: Math.min(miss, 1), hits }));
      this.lawBySignature[sideId].set(signature, law);
    }
    return law;
  }

  private factor(sideId: SideId, states: number[], masses: number[], mass: number): Factor {
    const { maxStates, maxBytes } = this.run.request;
    // Memory: every factor's entries count against maxStates and the memory budget.
    if ((this.entries += states.length) > maxStates || this.entries > this.entriesByMemory)
      throw this.entries > this.entriesByMemory
        ? memoryRefusal(maxBytes, this.entriesByMemory, "voltPhases")
        : tooManyStates(maxStates);
    return { id: this.factors++, states, masses, mass, law: this.lawOf(sideId, states[0]), hit: new Map() };
  }

  /** Factor f of side `sideId` wounded under `law`: computed once per (factor, law). */
  private wound(sideId: SideId, f: Factor, law: Law): Wounded {
    let r = f.hit.get(law.id);
    if (r) return r;
    const { run } = this;
    const side = run.sides[sideId];
    const byLaw = new Map<Law, Map<number, number>>();
    let out = 0;
    let same = true;
    for (let i = 0; i < f.states.length; i++) {
      run.request.deadline.check();
      const state = f.states[i];
      const m = f.masses[i];
      for (const hit of law.hits) {
        const next = run.apply(side, state, hit.foe) as number;
        const q = m * hit.p;
        if (next !== state) same = false;
        if (side.out[next]) {
          out += q;
          continue;
        }
        const l = this.lawOf(sideId, next);
        let acc = byLaw.get(l);
        if (!acc) byLaw.set(l, (acc = new Map()));
        acc.set(next, (acc.get(next) ?? 0) + q);
      }
    }
    // A wound that changes none of these sheets leaves the factor itself (a stalemate shows as such).
    const factors: Factor[] = [];
    if (same) factors.push(f);
    else
      for (const acc of byLaw.values()) {
        const states: number[] = [];
        const masses: number[] = [];
        let mass = 0;
        for (const [id, m] of acc) {
          states.push(id);
          masses.push(m);
          mass += m;
        }
        factors.push(this.factor(sideId, states, masses, mass));
      }
    f.hit.set(law.id, (r = { out, factors }));
    return r;
  }

  follow(threshold: number): DuelForecast {
    const { run } = this;
    const { sides, start } = run;
    const { tolerance } = run.request;
    const startOut = sides.a.out[start.a] ? "a" : sides.b.out[start.b] ? "b" : null;
    if (startOut)
      return run.boundedAnswer(
        "phases",
        { aOut: startOut === "a" ? 1 : 0, bOut: startOut === "b" ? 1 : 0, stalemate: 0 },
        0,
        0,
        0,
      );
    let live = new Map<number, Product>();
    const add = (into: Map<number, Product>, a: Factor, b: Factor, turn: number, w: number): void => {
      const k = (a.id * 2 ** 21 + b.id) * 2 + turn;
      const e = into.get(k);
      if (e) e.w += w;
      else into.set(k, { a, b, turn, w });
    };
    add(live, this.factor("a", [start.a], [1], 1), this.factor("b", [start.b], [1], 1), run.first === "a" ? 0 : 1, 1);
    let aOut = 0;
    let bOut = 0;
    let stalemate = 0;
    let dropped = 0;
    let attacks = 0;
    let rest = 1;
    while (live.size > 0 && rest > tolerance / 2) {
      const next = new Map<number, Product>();
      for (const product of live.values()) {
        run.request.deadline.check();
        const { a, b, turn, w } = product;
        const mass = w * a.mass * b.mass;
        if (mass < threshold) {
          dropped += mass;
          continue;
        }
        const lawA = a.law;
        const lawB = b.law;
        const hitA = 1 - lawA.miss;
        const hitB = 1 - lawB.miss;
        const woundedB = hitA > 1e-15 ? this.wound("b", b, lawA) : null;
        const woundedA = hitB > 1e-15 ? this.wound("a", a, lawB) : null;
        // Nobody's attack can change anything any more (misses, or wounds that mark nothing): a stalemate.
        const stuck = (r: Wounded | null, f: Factor): boolean =>
          r === null || (r.out === 0 && r.factors.length === 1 && r.factors[0] === f);
        if (stuck(woundedB, b) && stuck(woundedA, a)) {
          stalemate += mass;
          continue;
        }
        // Misses pass the turn until someone deals something: from a's turn, a deals first with
        // hitA / (1 − missA·missB), after (1 + missA) / (1 − missA·missB) attacks on average.
        const loop = 1 - lawA.miss * lawB.miss;
        const aFirst = turn === 0 ? hitA / loop : (lawB.miss * hitA) / loop;
        const bFirst = 1 - aFirst;
        attacks += (mass * (1 + (turn === 0 ? lawA.miss : lawB.miss))) / loop;
        if (woundedB && aFirst > 0) {
          bOut += w * aFirst * a.mass * woundedB.out;
          for (const f of woundedB.factors) add(next, a, f, 1, w * aFirst);
        }
        if (woundedA && bFirst > 0) {
          aOut += w * bFirst * b.mass * woundedA.out;
          for (const f of woundedA.factors) add(next, f, b, 0, w * bFirst);
        }
      }
      live = next;
      rest = 0;
      for (const product of live.values()) rest += product.w * product.a.mass * product.b.mass;
      if (dropped > tolerance / 2) break;
    }
    return run.boundedAnswer(
      "phases",
      { aOut, bOut, stalemate },
      dropped + rest,
      attacks,
      sides.a.tracks.length + sides.b.tracks.length,
    );
  }
}
