/**
 * Guts checks in the Miniatures duel forecast (seed 004 "Guts", RULES.md §3): what a model's
 * failed checks leave on it, as a small finite state the forecast's chain can carry beside the
 * wound track. Every check is made by the real functions of guts.ts (`gutsTrigger`,
 * `gutsRecheck`) over the exact outcome classes of the Legendary 4dF.
 *
 * Turns: "Each subsequent turn after a model fails a Guts check" — a turn of the game
 * (Miniatures: The Game Turn, both sides activate once), the combat tracker's round. So a failure
 * is re-checked at the model's activation in each later round, every re-check gaining the next +1
 * (less a forfeited one); a failure made while the opponent acts earlier in the same round waits
 * for the next round. The pending failures need no turn numbers, only their bonus, target,
 * forfeits, effect and whether they were made this round.
 */
import {
  gutsRecheck,
  gutsRollPenalty,
  gutsRollPenaltyRule,
  gutsTraitModifiers,
  gutsTrigger,
  type GutsEffect,
  type GutsPending,
  type GutsReason,
  type GutsRollPenaltyRule,
  type GutsSituation,
  type GutsState,
} from "./guts";
import { legendaryOutcomes, legendaryTotal } from "./legendary";
import { datacard, traitWith, type DatacardOptions, type MiniDatacard, type MiniTrait } from "./datacard";
import { trackStatus, type Track, type TrackStatus } from "../track";
import { effectivePenalties, type BoxTrackConfig } from "../fudge/box-track";
import { GUTS_TARGETS, terrifyingTarget } from "./guts";
import { defenceless, woundRank } from "./pipeline";
import type { DiceOutcome } from "../dice";

/** A model's mind in the forecast: its failed Guts checks in force, and whether it owes a free attack. */
export interface GutsMind {
  state: GutsState;
  /**
   * Miniatures: Guts — a failure by 3: the model "immediately runs … Enemies in base contact with
   * it get an immediate free attack at +1". True from the failed check until that free attack.
   */
  owesFreeAttack: boolean;
  /**
   * Miniatures: Sample characters — a Mercenary "will flee the combat on any failed Guts check":
   * it has left the duel (the forecast counts it out, the other side wins).
   */
  fled: boolean;
  key: string;
}

/**
 * How a side's minds are keyed. `floor`: a failure whose re-check needs no more than this on the
 * dice-free part (target − bonus) passes at its next re-check whatever is rolled (Legendary 4dF is
 * never below −4, the model's Guts never below its worst wound penalty's, and its circumstances
 * add the same to every check): every such failure
 * behaves alike. `reduce: false` keys minds as they are (tests compare the two).
 */
export interface MindSpace {
  floor: number;
  reduce: boolean;
  /** The model's gift and fault: Steadfast at a Terrifying charge, Mercenary on a failed check (guts.ts applies them). */
  gift?: MiniTrait;
  fault?: MiniTrait;
  /** The circumstances of every check of this model in the duel (Faithful defending the King, Noble presence, Leader fallen); absent: none. */
  situation?: DuelGutsSituation;
  /** What those circumstances add to each of its checks (gutsTraitModifiers; already counted in `floor`); absent: 0. */
  modifier?: number;
  /** The world's rule for a failure by 1 (guts.ts GUTS_ROLL_PENALTY_RULES; "allRolls" lowers `floor` by 1); absent: "allRolls". */
  gutsRollPenalty?: GutsRollPenaltyRule;
}

/**
 * The circumstances that hold for a model's every Guts check through a duel (seed 004 "Sample
 * characters"): it defends the King (Faithful +1), it is a peasant in melee with a model of Noble
 * presence (−1), it is a follower whose Leader has fallen (−1). Steadfast is not among them: it
 * counts only at the charge, which the forecast knows.
 */
export type DuelGutsSituation = Pick<GutsSituation, "defendingKing" | "nobleInMelee" | "leaderFallen">;

/**
 * A side's MindSpace: its floor (gutsFloor, moved by what its circumstances add to every check,
 * and by −1 when a failure by 1 lowers Guts rolls: `gutsRollPenalty` "allRolls", the default),
 * its gift and fault, and its circumstances for the checks.
 */
export function mindSpace(
  card: MiniDatacard,
  config: BoxTrackConfig,
  reduce: boolean,
  situation: DuelGutsSituation = {},
  gutsRollPenalty?: GutsRollPenaltyRule,
): MindSpace {
  const modifier = gutsTraitModifiers(null, { gift: card.gift, fault: card.fault, ...situation }).modifier;
  const rule = gutsRollPenaltyRule({ gutsRollPenalty });
  // Miniatures: Guts — "−1 to rolls": a re-check may be at −1, so only a need one lower passes for sure.
  const shaken = rule === "allRolls" ? -1 : 0;
  const space: MindSpace = {
    floor: gutsFloor(card, config) + modifier + shaken,
    reduce,
    situation: { ...situation },
    modifier,
    gutsRollPenalty: rule,
  };
  if (card.gift) space.gift = card.gift;
  if (card.fault) space.fault = card.fault;
  return space;
}

/**
 * Miniatures: Sample characters — Self-interest, "will flee combat if wounded": a model with it
 * that is wounded (any wound, a Scratch too) and can act has left the duel; one Near Death stays
 * (it cannot run) and leaves if it recovers. Null for a model without it.
 */
export function fleesWhenWounded(card: MiniDatacard): ((s: TrackStatus) => boolean) | null {
  return traitWith(card, "selfInterest") ? (s) => s.canAct && s.levelKey !== null : null;
}

/**
 * Whether a model can leave a duel by flight: Self-interest ("will flee combat if wounded"), or a
 * Mercenary ("will flee the combat on any failed Guts check") when Guts checks are made.
 */
export function mayFlee(card: MiniDatacard, gutsChecks: boolean): boolean {
  return traitWith(card, "selfInterest") !== undefined || (gutsChecks && traitWith(card, "mercenary") !== undefined);
}

/**
 * Miniatures: Sample characters — Chivalrous, "Cannot strike a defenseless opponent": true when
 * `card` has it and the foe is defenceless as the attack pipeline reads it (`defenceless`: Near
 * Death, or a Guts failure by 4). The Chivalrous model's turn then passes.
 */
export function refusesToStrike(card: MiniDatacard, foe: TrackStatus, foeMind: GutsMind | null): boolean {
  return traitWith(card, "chivalrous") !== undefined && defenceless(foe, foeMind?.state.effect ?? 0) !== null;
}

/**
 * The lowest a model's Guts can fall in a fight (Miniatures: Wounds — the wound penalty lowers
 * every stat) less the lowest Legendary roll (−4): the `floor` of its MindSpace, before what its
 * circumstances add to every check (mindSpace).
 */
export function gutsFloor(card: MiniDatacard, config: BoxTrackConfig): number {
  return card.guts + Math.min(0, ...effectivePenalties(config)) - 4;
}

function mind(state: GutsState, owesFreeAttack: boolean, space: MindSpace, fled = false): GutsMind {
  // A Mercenary that fled is out of the duel: nothing else of its mind matters.
  if (fled) return { state: { pending: [], effect: 0 }, owesFreeAttack: false, fled: true, key: "F" };
  // Turn numbers are relative in a duel: every pending failure was last checked in the previous
  // round (lastTurn 0), or in this round (lastTurn 1: made since the model's last activation
  // while it acts later in the round — not re-checked before the next round, as the tracker does).
  // The reason is only the check's name. Reduced: a check passes when Guts + dice ≥ target − bonus,
  // so only that difference ("need") counts, never below `floor`, where the next re-check passes
  // for sure and forfeits no longer matter; effects 2 and 3 act alike once the owed free attack
  // is noted (neither attacks, neither is helpless).
  const canon = (p: GutsPending): GutsPending => {
    if (!space.reduce) return { ...p, reason: "other", sinceTurn: 0 };
    const need = p.target - p.bonus;
    const sure = need <= space.floor;
    return {
      reason: "other",
      target: sure ? space.floor : need,
      bonus: 0,
      forfeitNext: sure ? 0 : p.forfeitNext,
      sinceTurn: 0,
      lastTurn: p.lastTurn,
      effect: p.effect === 3 ? 2 : p.effect,
    };
  };
  const entry = (p: GutsPending): string =>
    `${p.target}:${p.bonus}:${p.forfeitNext}:${p.effect}${p.lastTurn > 0 ? "'" : ""}`;
  const pending = state.pending.map(canon).sort((x, y) => (entry(x) < entry(y) ? -1 : entry(x) > entry(y) ? 1 : 0));
  const effect = pending.reduce<GutsEffect>((m, p) => (p.effect > m ? p.effect : m), 0);
  const key = `${pending.map(entry).join(";")}${owesFreeAttack ? "!" : ""}`;
  return { state: { pending, effect }, owesFreeAttack, fled: false, key };
}

/** A model's mind as the duel starts (at a round's start: every failure it carries is of an earlier round). */
export function gutsMind(state: GutsState | undefined, space: MindSpace): GutsMind {
  return mind(
    { pending: (state?.pending ?? []).map((p) => ({ ...p, lastTurn: 0 })), effect: state?.effect ?? 0 },
    false,
    space,
  );
}

/**
 * A Near Death model's mind keyed by the one thing its failures still do (reduced minds only): a
 * failure by 1 lowers its Near Death roll under gutsRollPenalty "allRolls" (Miniatures: Guts, "−1
 * to rolls"). It makes no re-check while Near Death and no blow calls for a check on it; if it
 * recovers, its failures are cleared. So one failure by 1 that would pass for sure stands for all
 * its failures when one of them is by 1, none otherwise.
 */
export function nearDeathMind(m: GutsMind, space: MindSpace): GutsMind {
  const shaken = space.gutsRollPenalty !== "attackRolls" && gutsRollPenalty(m.state) !== 0;
  if (!shaken) return gutsMind(undefined, space);
  const p: GutsPending = {
    reason: "other",
    target: space.floor,
    bonus: 0,
    forfeitNext: 0,
    sinceTurn: 0,
    lastTurn: 0,
    effect: 1,
  };
  return mind({ pending: [p], effect: 1 }, m.owesFreeAttack, space, m.fled);
}

export function withoutFreeAttack(m: GutsMind, space: MindSpace): GutsMind {
  return m.owesFreeAttack ? mind(m.state, false, space, m.fled) : m;
}

/** Miniatures: Wounds — Guts is a stat: the wound penalty lowers it. */
export function gutsStat(card: MiniDatacard, track: Track, options: DatacardOptions): number {
  return datacard(card, trackStatus(track).penalty, options).guts;
}

/** The Legendary outcome classes, lowest total first, and the probability of each class and all above it. */
let outcomes: { list: DiceOutcome[]; atLeast: number[] } | null = null;
function legendary(): { list: DiceOutcome[]; atLeast: number[] } {
  if (outcomes) return outcomes;
  const list = legendaryOutcomes();
  const totals = list.map((o) => legendaryTotal(o.dice, "dice").total);
  if (totals.some((t, i) => i > 0 && t <= totals[i - 1])) throw new Error("forecast: Legendary classes out of order"); // a broken invariant
  const atLeast = list.map((o) => o.p);
  for (let i = list.length - 2; i >= 0; i--) atLeast[i] += atLeast[i + 1];
  return (outcomes = { list, atLeast });
}

/**
 * Every outcome of one Guts check, by the real check on each Legendary class from the lowest:
 * a check passed by one total is passed by every higher total with the same result, so the
 * classes above the first pass are one branch (their probability summed).
 */
function eachCheck<R extends { check: { passed: boolean } }>(
  roll: (faces: number[]) => R,
  f: (r: R, p: number) => void,
): void {
  const { list, atLeast } = legendary();
  for (let i = 0; i < list.length; i++) {
    const r = roll(list[i].dice);
    if (r.check.passed) return f(r, atLeast[i]);
    f(r, list[i].p);
  }
}

function merge(list: Array<[GutsMind, number]>): Array<[GutsMind, number]> {
  const by = new Map<string, [GutsMind, number]>();
  for (const [m, p] of list) {
    const e = by.get(m.key);
    if (e) e[1] += p;
    else by.set(m.key, [m, p]);
  }
  return [...by.values()];
}

/**
 * Miniatures: Guts — the check a wound calls for (new wound level +1, two levels +2), rolled at
 * once with Guts as the wound left it; a new wound level also forfeits the next +1 of failures
 * still pending (gutsTrigger does both). `sameRound`: the model acts later in this round, so the
 * new failure waits for the next round's re-check.
 */
export function gutsAfterWound(
  m: GutsMind,
  guts: number,
  target: number,
  reason: GutsReason,
  sameRound: boolean,
  space: MindSpace,
): Array<[GutsMind, number]> {
  return immediateCheck(m, guts, target, reason, sameRound, true, space);
}

/**
 * Miniatures: Guts — "Model tries to charge, or is being charged by, a Terrifying opponent …
 * Target number is 0 plus the number of 'Terrifying' gifts the opponent has": the check as the
 * duel opens with a charge, rolled at once by gutsTrigger (reason "terrifying") with Guts as the
 * model's wounds leave it. It is made in the charger's activation of the first round, so a
 * failure is re-checked from the next round on (both sides' failures are of this round).
 * `charged`: the model being charged is in base contact when it breaks by 3 ("Enemies in base
 * contact with it get an immediate free attack at +1"); a charger that breaks never reached its
 * foe, so it owes none (this system's reading, docs/rules-api.md).
 */
export function gutsAtCharge(
  m: GutsMind,
  guts: number,
  terrifyingGifts: number,
  charged: boolean,
  space: MindSpace,
): Array<[GutsMind, number]> {
  return immediateCheck(m, guts, terrifyingTarget(terrifyingGifts), "terrifying", true, charged, space);
}

/** One immediate check (gutsTrigger) over the Legendary classes; a failure by 3 owes the free attack when `inContact`. */
function immediateCheck(
  m: GutsMind,
  guts: number,
  target: number,
  reason: GutsReason,
  sameRound: boolean,
  inContact: boolean,
  space: MindSpace,
): Array<[GutsMind, number]> {
  const out: Array<[GutsMind, number]> = [];
  const n = m.state.pending.length;
  eachCheck(
    // Steadfast counts only for the model being charged (`inContact` at a "terrifying" check).
    (faces) =>
      gutsTrigger(
        m.state,
        {
          ...space.situation,
          guts,
          faces,
          target,
          turn: 0,
          reason,
          gift: space.gift,
          fault: space.fault,
          beingCharged: reason === "terrifying" && inContact,
        },
        { gutsRollPenalty: space.gutsRollPenalty },
      ),
    (r, p) => {
      const state =
        sameRound && r.state.pending.length > n
          ? { ...r.state, pending: r.state.pending.map((x, i) => (i >= n ? { ...x, lastTurn: 1 } : x)) }
          : r.state;
      out.push([
        mind(state, m.owesFreeAttack || (inContact && !r.check.passed && r.check.effect === 3), space, r.fleesCombat),
        p,
      ]);
    },
  );
  return merge(out);
}

/**
 * Miniatures: Guts — "Each subsequent turn after a model fails a Guts check, it must pass another
 * Guts check or continue to suffer the effects": at the start of its activation every pending
 * failure of an earlier round is re-checked in order (as the combat tracker does,
 * src/foundry/combat.ts), a pass ends it; one of this round waits (and is of an earlier round next time).
 */
export function gutsTurnStart(m: GutsMind, guts: number, space: MindSpace): Array<[GutsMind, number]> {
  if (m.state.pending.length === 0) return [[m, 1]];
  const out: Array<[GutsMind, number]> = [];
  const walk = (state: GutsState, i: number, p: number): void => {
    if (i >= state.pending.length) {
      out.push([
        mind({ ...state, pending: state.pending.map((x) => ({ ...x, lastTurn: 0 })) }, m.owesFreeAttack, space),
        p,
      ]);
      return;
    }
    if (state.pending[i].lastTurn >= 1) return walk(state, i + 1, p);
    eachCheck(
      (faces) =>
        gutsRecheck(
          state,
          faces,
          1,
          guts,
          0,
          i,
          { ...space.situation, gift: space.gift, fault: space.fault },
          { gutsRollPenalty: space.gutsRollPenalty },
        ),
      (r, q) =>
        r.fleesCombat
          ? out.push([mind(r.state, false, space, true), p * q])
          : walk(r.state, r.check.passed ? i : i + 1, p * q),
    );
  };
  walk(m.state, 0, 1);
  return merge(out);
}

/**
 * Miniatures: Guts — the check a blow calls for, read from the model's real track before and
 * after it (the attack pipeline calls the same check on its card): a new wound level +1, two or
 * more levels from one attack +2; none when the model fell Near Death or worse.
 */
export function gutsCheckFor(
  track: Track,
  before: TrackStatus,
  after: TrackStatus,
): { target: number; reason: GutsReason } | null {
  if (!after.canAct) return null;
  const config = track.config as unknown as BoxTrackConfig;
  const levels = woundRank(config, after.levelKey) - woundRank(config, before.levelKey);
  if (levels <= 0) return null;
  return levels >= 2
    ? { target: GUTS_TARGETS.twoWoundLevels, reason: "twoWoundLevels" }
    : { target: GUTS_TARGETS.newWoundLevel, reason: "newWoundLevel" };
}

/**
 * Miniatures: Guts — true when no blow can call for another check on this model or change its
 * Guts while it can act: every worse level takes it out of the fight (Near Death or Dead), where
 * its failures no longer count. Its failures then stay as they are until its next activation.
 */
export function gutsSettled(track: Track, status: TrackStatus): boolean {
  if (!status.canAct || status.effects.length > 0) return false;
  const levels = (track.config as unknown as BoxTrackConfig).levels;
  const i = status.levelKey === null ? -1 : levels.findIndex((l) => l.key === status.levelKey);
  for (let j = i + 1; j < levels.length; j++)
    if (levels[j].effect === "none" || levels[j].effect === "penalty") return false;
  return true;
}
