/**
 * The duel's states as nodes of the chain: a node is (a's state, b's state, whose turn); every
 * state where a side is out ends the duel alike, one end node each (one more each for flight).
 * A node's successors are its turn's outcomes (DuelRun.turn), found when it is expanded.
 */
import type { TurnOutcome } from "./changes";
import type { SideId } from "./request";
import type { SideMind } from "./rules";
import type { DuelRun } from "./run";
import type { Side } from "./side";

/** A list of outcomes' distinct changes for each side, and each outcome's index into them. */
interface OutcomeGroups {
  selfChanges: number[];
  foeChanges: number[];
  selfIndex: number[];
  foeIndex: number[];
}

export class DuelGraph<M extends SideMind = SideMind> {
  /** The end nodes: a out, b out, a fled, b fled. */
  private readonly endNodes = [-1, -1, -1, -1];
  /** Stand-in keys seen (states of one side with the same future), and the numbered probabilities they are written with. */
  private readonly standInKeys = new Map<string, number>();
  private readonly probabilityIds = new Map<number, number>();
  /**
   * Opposed duels without minds (Fudge, FATE): every node is one round with the same side to roll
   * first, and each outcome is one state per side, so a direct loop replaces `turn` (the same sums
   * in the same order: the same bits).
   */
  private readonly plainOpposed: boolean;
  private readonly groups = new Map<TurnOutcome[], OutcomeGroups>();
  // Lists reused from node to node: the successors gathered, then copied into the chain's edge pages.
  private readonly nextSelf: number[] = [];
  private readonly nextFoe: number[] = [];
  private readonly targets: number[] = [];
  private readonly probs: number[] = [];

  constructor(readonly run: DuelRun<M>) {
    this.plainOpposed = !run.alternating && run.minds === null;
  }

  /** The node of (a, b, turn), added when new. */
  node(a0: number, b0: number, turn: SideId): number {
    const { run } = this;
    const { sides, chain } = run;
    const ended = sides.a.out[a0] ? 1 : sides.b.out[b0] ? 2 : 0;
    if (ended) {
      // Every state where a side is out ends the duel alike: one node each, one more for flight.
      const fled = ended === 1 ? a0 === sides.a.fledId : b0 === sides.b.fledId;
      const k = fled ? ended + 1 : ended - 1;
      if (this.endNodes[k] < 0) this.endNodes[k] = chain.add(a0, b0, 0, fled ? ended | 4 : ended, run.chainStates);
      return this.endNodes[k];
    }
    let a = a0;
    let b = b0;
    if (run.minds) {
      // A side starts its turn unless its foe owes it a free attack (it is in the middle of one).
      if (turn === "a") {
        if (!run.owes(sides.b, b)) a = this.standIn(sides.a, a, false);
        b = this.standIn(sides.b, b, true);
      } else {
        if (!run.owes(sides.a, a)) b = this.standIn(sides.b, b, false);
        a = this.standIn(sides.a, a, true);
      }
    }
    return chain.find(a, b, turn === "a" ? 0 : 1, run.chainStates);
  }

  /**
   * States of one side with the same future share one node (the first seen stands in for the
   * rest): fewer nodes, the same answers (tests/rules/forecast-merge.test.ts).
   * - About to start its turn, a side is first checked (DuelRun.turnStart), and nothing reads its
   *   mind before that: two states with the same track whose checks lead to the same states with
   *   the same probabilities act alike.
   * - Waiting for its turn once no blow can call for another check on it (SideMinds.settled), its
   *   mind changes only when it falls out of the fight, and the foe's blows read only what
   *   SideMinds.waitingReads says: with that alike, the same checks at its turn mean the same future.
   */
  private standIn(side: Side<M>, x: number, waiting: boolean): number {
    const memo = waiting ? side.whileWaiting : side.atTurnStart;
    let c = memo[x];
    if (c !== undefined) return c;
    const minds = this.run.minds!;
    const m = side.minds[x];
    if (!minds.merge || !m || !side.canAct[x] || (waiting && !minds.settled(side.tracks[x], side.status[x]))) c = x;
    else {
      const checks = this.run.turnStart(side, x);
      const outcomes: Array<[number, number]> = [];
      if (typeof checks === "number") outcomes.push([checks, 1]);
      else for (let k = 0; k < checks.length; k += 2) outcomes.push([checks[k], checks[k + 1]]);
      outcomes.sort((u, v) => u[0] - v[0]);
      const reads = waiting ? minds.waitingReads(side.id, m) : "";
      // One flat string (join, not nested concatenations), each probability by its short id: the
      // keys were the largest part of a large chain's memory.
      const parts = [waiting ? "w" : "s", side.id, side.rules.stateKey(side.tracks[x]), "|", reads, "|"];
      for (let k = 0; k < outcomes.length; k++)
        parts.push(k === 0 ? "" : ",", String(outcomes[k][0]), ":", String(this.probabilityId(outcomes[k][1])));
      const key = parts.join("");
      const seen = this.standInKeys.get(key);
      if (seen === undefined) {
        this.standInKeys.set(key, (c = x));
        const stats = this.run.options.memoryStats;
        if (stats) {
          stats.standInKeys++;
          stats.standInKeyChars += key.length;
        }
      } else c = seen;
    }
    return (memo[x] = c);
  }

  /** The distinct probabilities of check outcomes, numbered (equal numbers, equal ids). */
  private probabilityId(q: number): number {
    let i = this.probabilityIds.get(q);
    if (i === undefined) this.probabilityIds.set(q, (i = this.probabilityIds.size));
    return i;
  }

  /** A node's successors and their probabilities (computed once). */
  expand(i: number): void {
    if (this.plainOpposed) return this.expandOpposed(i);
    const { chain } = this.run;
    const targets = this.targets;
    const probs = this.probs;
    let n = 0;
    this.run.turn(chain.a[i], chain.b[i], chain.turn(i), (a2, b2, next, q) => {
      const j = this.node(a2, b2, next);
      let at = 0;
      while (at < n && targets[at] !== j) at++;
      if (at < n) probs[at] += q;
      else {
        targets[n] = j;
        probs[n++] = q;
      }
    });
    chain.setEdges(i, targets, probs, n);
  }

  private expandOpposed(i: number): void {
    const { run } = this;
    const { chain } = run;
    const roller = chain.turn(i);
    const aRolls = roller === "a";
    const sx = aRolls ? run.sides.a : run.sides.b;
    const sy = aRolls ? run.sides.b : run.sides.a;
    const x = aRolls ? chain.a[i] : chain.b[i];
    const y = aRolls ? chain.b[i] : chain.a[i];
    const outcomes = run.attackOutcomes(roller, x, y, false);
    // Each distinct change for either side is applied once per node, not once per outcome (a list
    // has ≈ 10 outcomes but ≈ 3 distinct changes for the attacker and ≈ 5 for the defender).
    const g = this.groupsOf(outcomes);
    const nextSelf = this.nextSelf;
    const nextFoe = this.nextFoe;
    for (let u = 0; u < g.selfChanges.length; u++) nextSelf[u] = run.apply(sx, x, g.selfChanges[u]) as number;
    for (let v = 0; v < g.foeChanges.length; v++) nextFoe[v] = run.apply(sy, y, g.foeChanges[v]) as number;
    const targets = this.targets;
    const probs = this.probs;
    let n = 0;
    for (let k = 0; k < outcomes.length; k++) {
      const x2 = nextSelf[g.selfIndex[k]];
      const y2 = nextFoe[g.foeIndex[k]];
      const j = aRolls ? this.node(x2, y2, roller) : this.node(y2, x2, roller);
      // A few successors per node: a plain scan (indexOf's builtin call cost more).
      let at = 0;
      while (at < n && targets[at] !== j) at++;
      const p = outcomes[k].p;
      if (at < n) probs[at] += p;
      else {
        targets[n] = j;
        probs[n++] = p;
      }
    }
    chain.setEdges(i, targets, probs, n);
  }

  private groupsOf(outcomes: TurnOutcome[]): OutcomeGroups {
    let g = this.groups.get(outcomes);
    if (!g) {
      const selfChanges: number[] = [];
      const foeChanges: number[] = [];
      const selfIndex = outcomes.map((o) =>
        selfChanges.includes(o.self) ? selfChanges.indexOf(o.self) : selfChanges.push(o.self) - 1,
      );
      const foeIndex = outcomes.map((o) =>
        foeChanges.includes(o.foe) ? foeChanges.indexOf(o.foe) : foeChanges.push(o.foe) - 1,
      );
      this.groups.set(outcomes, (g = { selfChanges, foeChanges, selfIndex, foeIndex }));
    }
    return g;
  }
}
