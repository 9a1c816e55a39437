/**
 * Miniatures' duel rules for the forecast (src/rules/forecast): Guts checks and their effects as
 * each side's mind beside its track (duel-minds.ts), the Near Death roll as a side's own turn,
 * a flying model's crash, flight (Mercenary, Self-interest), Chivalrous refusals, and the
 * Terrifying charge that opens a duel (seed 004 "Guts", "Wounds", "Sample characters").
 */
import { RulesError } from "../errors";
import type { AttackRequest } from "../pipeline";
import { trackStatus, type Track, type TrackStatus } from "../track";
import { bool, isRecord } from "../validate";
import type { BoxTrackConfig } from "../fudge/box-track";
import type { SideId } from "../forecast/request";
import type { DuelRules, DuelStartState, OwnTurnOutcome, SideMinds } from "../forecast/rules";
import type { DuelRun } from "../forecast/run";
import type { Side } from "../forecast/side";
import { datacard, type DatacardOptions, type MiniDatacard } from "./datacard";
import {
  fleesWhenWounded,
  gutsAfterWound,
  gutsAtCharge,
  gutsCheckFor,
  gutsMind,
  gutsSettled,
  gutsStat,
  gutsTurnStart,
  mayFlee,
  mindSpace,
  nearDeathMind,
  refusesToStrike,
  withoutFreeAttack,
  type DuelGutsSituation,
  type GutsMind,
  type MindSpace,
} from "./duel-minds";
import { gutsEffectInfo, gutsRollPenalty, nearDeathRoll, type GutsState } from "./guts";
import { legendaryOutcomes } from "./legendary";
import type { MiniOptions } from "./pipeline";

declare module "../forecast/request" {
  interface DuelOptions {
    /**
     * Miniatures Guts minds: "reduced" (default) keys failures that act alike as one; "plain" keys
     * them as they are, which only the bounded forward method can follow (tests compare the two).
     */
    gutsMinds?: "reduced" | "plain";
    /** Miniatures: true (default) lets states with the same future share one node of the chain; false keeps every state as reached (tests compare the two). */
    mergeMinds?: boolean;
  }
}

interface MiniaturesDuelSettings {
  gutsChecks: boolean;
  terrifyingCharge: boolean;
  situations: { a: DuelGutsSituation; b: DuelGutsSituation };
}

const DUEL_GUTS_FLAGS = ["defendingKing", "nobleInMelee", "leaderFallen"] as const;

export const miniaturesDuelRules: DuelRules<MiniaturesDuelSettings, GutsMind> = {
  fields: ["gutsChecks", "terrifyingCharge", "gutsSituation", "nearDeathRolls"],
  refuseElsewhere(input, preset) {
    if (bool(input.gutsChecks, "gutsChecks", false))
      throw new RulesError(
        "gutsChecks",
        "FUDGE.Error.ForecastGuts",
        "Guts checks exist only in the Miniatures preset",
        {
          preset,
        },
      );
    if (bool(input.terrifyingCharge, "terrifyingCharge", false))
      throw new RulesError(
        "terrifyingCharge",
        "FUDGE.Error.ForecastTerrifying",
        "the Terrifying charge check exists only in the Miniatures preset",
        { preset },
      );
    if (input.gutsSituation !== undefined)
      throw new RulesError(
        "gutsSituation",
        "FUDGE.Error.ForecastGutsSituationPreset",
        "Guts circumstances exist only in the Miniatures preset",
        { preset },
      );
  },
  settings(input) {
    // Miniatures: Guts — checks for new wound levels and their effects, on by default; false leaves
    // them out, failures in force too. The duel opens with a charge by `first`, so each model facing
    // Terrifying gifts checks before the first blow (a Guts check: `gutsChecks: false` leaves it out too).
    const gutsChecks = bool(input.gutsChecks, "gutsChecks", true);
    const charge = bool(input.terrifyingCharge, "terrifyingCharge", true);
    return {
      gutsChecks,
      terrifyingCharge: charge && gutsChecks,
      situations: parseDuelGutsSituation(input.gutsSituation),
    };
  },
  combatant: (c, settings) => (settings.gutsChecks ? c : withoutGuts(c)),
  forwardPastChain: (input) => input.gutsChecks !== false,
  duel({ input, attacks, first }, settings, options) {
    const cards = {
      a: attacks.a.attacker as unknown as MiniDatacard,
      b: attacks.a.defender as unknown as MiniDatacard,
    };
    // Miniatures: a Near Death model is not out of the fight: it rolls Guts on its turns (default on).
    const nearDeathRolls = bool(input.nearDeathRolls, "nearDeathRolls", true);
    const minds = settings.gutsChecks ? gutsMinds(cards, attacks.a, settings, first, options) : null;
    return {
      isOut: nearDeathRolls
        ? (s: TrackStatus) => s.condition === "dead" || (!s.canAct && s.condition !== "dying")
        : (s: TrackStatus) => !s.canAct,
      ownTurn: nearDeathRolls ? nearDeathTurn : undefined,
      stateKey: options.gutsMinds !== "plain" ? boxOccupancyKey : undefined,
      // A flying model's crash depends on whether a blow brings it to Near Death: its exact boxes.
      exactDefender: (side) => (cards[side] as { flying?: boolean }).flying === true,
      // Miniatures: Self-interest — a model that "will flee combat if wounded" is out (fled) once wounded and able to run.
      fleesAt: (side) => fleesWhenWounded(cards[side]),
      flight: mayFlee(cards.a, settings.gutsChecks) || mayFlee(cards.b, settings.gutsChecks),
      minds,
      // Miniatures: Sample characters — Chivalrous, "Cannot strike a defenseless opponent" (its turn passes).
      refusesToStrike: (attacker, foe, foeMind) => refusesToStrike(cards[attacker], foe, foeMind),
      openingChecks: settings.terrifyingCharge && minds ? (run) => terrifyingCharge(run, minds) : undefined,
      defaultMethod: settings.gutsChecks && options.gutsMinds === "plain" ? "forward" : "chain",
    };
  },
};

/**
 * The request's `gutsSituation`: `{ a?: {...}, b?: {...} }`, each side's flags of DuelGutsSituation
 * (booleans; anything else is refused by name).
 */
function parseDuelGutsSituation(v: unknown): { a: DuelGutsSituation; b: DuelGutsSituation } {
  const out = { a: {} as DuelGutsSituation, b: {} as DuelGutsSituation };
  if (v === undefined) return out;
  if (!isRecord(v)) throw new RulesError("gutsSituation", "FUDGE.Error.NotObject", "gutsSituation must be an object");
  for (const k of Object.keys(v))
    if (k !== "a" && k !== "b")
      throw new RulesError(`gutsSituation.${k}`, "FUDGE.Error.ForecastGutsSituation", `not a side of the duel (a, b)`, {
        allowed: "a, b",
      });
  for (const side of ["a", "b"] as const) {
    const s = v[side];
    if (s === undefined) continue;
    const path = `gutsSituation.${side}`;
    if (!isRecord(s)) throw new RulesError(path, "FUDGE.Error.NotObject", `${path} must be an object`);
    for (const k of Object.keys(s))
      if (!(DUEL_GUTS_FLAGS as readonly string[]).includes(k))
        throw new RulesError(
          `${path}.${k}`,
          "FUDGE.Error.ForecastGutsSituation",
          `not a circumstance of a duel's Guts checks (${DUEL_GUTS_FLAGS.join(", ")})`,
          { allowed: DUEL_GUTS_FLAGS.join(", ") },
        );
    for (const k of DUEL_GUTS_FLAGS) if (bool(s[k], `${path}.${k}`, false)) out[side][k] = true;
  }
  return out;
}

/** A combatant without its failed Guts checks (a forecast with `gutsChecks: false`). */
function withoutGuts(c: unknown): unknown {
  if (!isRecord(c) || !("gutsState" in c)) return c;
  const { gutsState: _, ...rest } = c;
  return rest;
}

/**
 * A Near Death model's turn is its Guts roll (Miniatures: Wounds): ≥ +2 → Very Hurt and it fights
 * on; ≤ −1 → Dead; otherwise it stays Near Death. Guts is a stat, lowered by the wound penalty; the
 * roll is 4dF with the Legendary re-roll, at −1 while a Guts failure by 1 is in force under
 * `options.gutsRollPenalty` "allRolls". Null for any other state.
 */
function nearDeathTurn(req: AttackRequest): OwnTurnOutcome[] | null {
  const a = req.attacker as unknown as MiniDatacard & { track: Track; gutsState?: GutsState };
  const status = trackStatus(a.track);
  if (status.condition !== "dying") return null;
  const config = a.track.config as unknown as BoxTrackConfig;
  const veryHurt = [...config.levels].reverse().find((l) => l.effect === "penalty");
  const options = req.options as MiniOptions;
  const guts = datacard(a, status.penalty, options).guts;
  const out: OwnTurnOutcome[] = [];
  for (const o of legendaryOutcomes()) {
    const r = nearDeathRoll(guts, o.dice, 0, "faces", a.gutsState, options);
    if (r.result === "dead") out.push({ p: o.p, wound: { level: "dead" } });
    else if (r.result === "veryHurt" && veryHurt) out.push({ p: o.p, heal: { type: "recover", to: veryHurt.key } });
    else out.push({ p: o.p });
  }
  return out;
}

/**
 * A box track as the duel can tell its states apart — how many boxes of each level hold a wound
 * or a stun mark. Which wound filled a box (a Scratch overflowed into Hurt, or a Hurt) is read only
 * by healings that never happen in a duel (scratches, roll, natural); the box apply, the Near Death
 * recovery and the round's end read only which boxes are open.
 */
function boxOccupancyKey(t: Track): string {
  const st = t.state as { marks: Record<string, Array<{ stun?: boolean } | null>>; stun: unknown; dead: boolean };
  let k = st.dead ? "D" : "";
  for (const row of Object.values(st.marks)) {
    let w = 0;
    let s = 0;
    for (const m of row) if (m) m.stun ? s++ : w++;
    k += `${w}.${s}|`;
  }
  return st.stun ? `${k}${JSON.stringify(st.stun)}` : k;
}

/** The sides' minds, and the check a Terrifying charge calls for (gutsAtCharge). */
type GutsMinds = SideMinds<GutsMind> & {
  chargeCheck(
    side: SideId,
    m: GutsMind,
    track: Track,
    terrifyingGifts: number,
    charged: boolean,
  ): Array<[GutsMind, number]>;
};

/** Each side's failed Guts checks in force as its mind (duel-minds.ts), checked by the real functions of guts.ts. */
function gutsMinds(
  cards: { a: MiniDatacard; b: MiniDatacard },
  request: AttackRequest,
  settings: MiniaturesDuelSettings,
  first: SideId,
  options: { gutsMinds?: "reduced" | "plain"; mergeMinds?: boolean },
): GutsMinds {
  const reduce = options.gutsMinds !== "plain";
  const rules = request.options as MiniOptions & DatacardOptions;
  const spaceOf = (side: SideId): MindSpace =>
    mindSpace(
      cards[side],
      (cards[side] as unknown as { track: Track }).track.config as unknown as BoxTrackConfig,
      reduce,
      settings.situations[side],
      rules.gutsRollPenalty,
    );
  const spaces = { a: spaceOf("a"), b: spaceOf("b") };
  // Guts checks by (side, mind, Guts …): many states share them.
  const cache = new Map<string, Array<[GutsMind, number]>>();
  /** Guts as a state's wounds leave it; never below the floor its minds were keyed by (a broken invariant, not bad input). */
  const gutsNow = (side: SideId, t: Track): number => {
    const g = gutsStat(cards[side], t, rules);
    const space = spaces[side];
    if (g + (space.modifier ?? 0) - 4 < space.floor) throw new Error("forecast: Guts fell below its floor");
    return g;
  };
  return {
    merge: options.mergeMinds !== false && reduce,
    start: (side) => gutsMind((cards[side] as { gutsState?: GutsState }).gutsState, spaces[side]),
    // A Near Death model's failed checks change nothing but whether one is by 1 (its Near Death roll at −1).
    settle: (side, m, status) =>
      spaces[side].reduce && !status.canAct && m.state.pending.length > 0 && !m.owesFreeAttack
        ? nearDeathMind(m, spaces[side])
        : m,
    signature: (m) => String(m.state.effect),
    afterChange(m, change, endsFreeAttack) {
      const space = spaces[change.side];
      let mind = m;
      if (endsFreeAttack) mind = withoutFreeAttack(mind, space);
      // Miniatures: Wounds — a Near Death model that rolls +2 "becomes merely Very Hurt and may then
      // act normally": the Guts failures it had before it fell no longer hold it (this system's reading).
      if ((change.healing as { type?: unknown } | null)?.type === "recover") mind = gutsMind(undefined, space);
      const check = change.wounded
        ? gutsCheckFor(change.after, change.beforeStatus, change.afterStatus ?? trackStatus(change.after))
        : null;
      if (!check) return mind;
      const guts = gutsNow(change.side, change.after);
      // The second side to act in a round is wounded in the first side's activation: the same round as its own.
      const sameRound = change.side !== first;
      const key = `w${change.side}${mind.key}|${guts}|${check.target}|${check.reason}`;
      let outcomes = cache.get(key);
      if (!outcomes)
        cache.set(key, (outcomes = gutsAfterWound(mind, guts, check.target, check.reason, sameRound, space)));
      return outcomes;
    },
    checksAtTurnStart: (m) => m.state.pending.length > 0,
    turnStart(side, m, track) {
      const guts = gutsNow(side, track);
      const key = `t${side}${m.key}|${guts}`;
      let outcomes = cache.get(key);
      if (!outcomes) cache.set(key, (outcomes = gutsTurnStart(m, guts, spaces[side])));
      return outcomes;
    },
    // Miniatures: Guts — a failure by 2 or more: "may not attack".
    mayAttack: (m) => m.state.effect < 2,
    withoutFreeAttack: (side, m) => withoutFreeAttack(m, spaces[side]),
    combatant: (card, track, m) => ({ ...card, track, gutsState: m.state }) as typeof card,
    // Miniatures: Guts — the free attack on a model that breaks and runs is "at +1"; it leaves base
    // contact, so it is a disengagement attack too (a Poor melee combatant gives +1 more).
    freeAttack: (situation) => ({ ...situation, modifier: Number(situation.modifier ?? 0) + 1, disengaging: true }),
    changesOwnTurn: (m) => gutsRollPenalty(m.state) !== 0,
    chargeCheck: (side, m, track, terrifyingGifts, charged) =>
      gutsAtCharge(m, gutsNow(side, track), terrifyingGifts, charged, spaces[side]),
    settled: gutsSettled,
    // Waiting, a blow reads whether it is helpless and owes a free attack; one that brings it Near
    // Death also reads whether a failure by 1 is in force (its Near Death roll is at −1).
    waitingReads: (side, m) =>
      `${gutsEffectInfo(m.state.effect).helpless ? "h" : ""}${m.owesFreeAttack ? "!" : ""}${spaces[side].gutsRollPenalty !== "attackRolls" && gutsRollPenalty(m.state) ? "s" : ""}`,
  };
}

/**
 * Miniatures: Guts, "Model tries to charge, or is being charged by, a Terrifying opponent": the
 * duel opens with `first` charging in its activation of the first round, and each model that can
 * act and faces Terrifying gifts checks at once (gutsAtCharge, over the Legendary classes). A
 * charged model that breaks by 3 runs, and the charger in base contact strikes it at once at +1
 * (after its own re-checks: its blow of this activation, the runner then out of reach); a charger
 * that may not attack lets it go and its activation is spent (`spent`: one turn already taken).
 */
function terrifyingCharge(run: DuelRun<GutsMind>, minds: GutsMinds): DuelStartState[] {
  const chargerSide = run.first;
  const chargedSide = run.foe(chargerSide);
  const plain = [{ a: run.start.a, b: run.start.b, turn: chargerSide, w: 1, spent: false }];
  const [sx, sy] = [run.sides[chargerSide], run.sides[chargedSide]];
  const [x0, y0] = chargerSide === "a" ? [run.start.a, run.start.b] : [run.start.b, run.start.a];
  // No charge when a side is already out, or the charger cannot act (Near Death).
  if (sx.out[x0] || sy.out[y0] || !sx.canAct[x0]) return plain;
  const gifts = (s: Side<GutsMind>): number => (s.card as unknown as MiniDatacard).terrifying;
  const check = (s: Side<GutsMind>, id: number, foe: Side<GutsMind>, charged: boolean): Array<[number, number]> =>
    !s.canAct[id] || gifts(foe) <= 0
      ? [[id, 1]]
      : minds
          .chargeCheck(s.id, s.minds[id]!, s.tracks[id], gifts(foe), charged)
          .map(([m, q]) => [s.intern(s.tracks[id], m), q] as [number, number]);
  const out = new Map<string, DuelStartState>();
  const add = (x: number, y: number, turn: SideId, w: number, spent: boolean): void => {
    const [a, b] = chargerSide === "a" ? [x, y] : [y, x];
    const k = `${a}|${b}|${turn}|${spent ? 1 : 0}`;
    const e = out.get(k);
    if (e) e.w += w;
    else out.set(k, { a, b, turn, w, spent });
  };
  const ys = check(sy, y0, sx, true);
  for (const [x1, qx] of check(sx, x0, sy, false))
    for (const [y1, qy] of ys) {
      if (!run.owes(sy, y1)) add(x1, y1, chargerSide, qx * qy, false);
      else {
        const checks = run.turnStart(sx, x1);
        const each = (x2: number, q: number): void => {
          if (run.mayAttack(sx, x2)) add(x2, y1, chargerSide, qx * qy * q, false);
          else add(x2, run.withoutFreeAttack(sy, y1), chargedSide, qx * qy * q, true);
        };
        if (typeof checks === "number") each(checks, 1);
        else for (let k = 0; k < checks.length; k += 2) each(checks[k], checks[k + 1]);
      }
    }
  return [...out.values()];
}
