/**
 * Guts checks in the Miniatures duel forecast (seed 004 "Guts", RULES.md §3): what a model's
 * failed checks leave on it, as a small finite state the forecast's chain can carry beside the
 * wound track. Every check is made by the real functions of guts.ts (`gutsTrigger`,
 * `gutsRecheck`) over the exact outcome classes of the Legendary 4dF.
 *
 * Turns: in a duel each side's activation is a "turn" (Miniatures: The Game Turn — "players take
 * turns activating their entire force"). A failure is re-checked at each of the model's later
 * turns, so every re-check gains the next +1 (less a forfeited one): the pending failures need
 * no turn numbers, only their bonus, target, forfeits and effect.
 */
import { gutsRecheck, gutsTrigger, type GutsPending, type GutsReason, type GutsState } from "./guts";
import { legendaryOutcomes } from "./legendary";
import { datacard, type DatacardOptions, type MiniDatacard } from "./datacard";
import { trackStatus, type Track, type TrackStatus } from "../track";
import type { BoxTrackConfig } from "../tracks/box";
import { GUTS_TARGETS } from "./guts";
import { woundRank } from "./pipeline";
import type { DiceOutcome } from "../dice";

/** A model's mind in the forecast: its failed Guts checks in force, and whether it owes a free attack. */
export interface GutsMind {
  state: GutsState;
  /**
   * Miniatures: Guts — a failure by 3: the model "immediately runs … Enemies in base contact with
   * it get an immediate free attack at +1". True from the failed check until that free attack.
   */
  owesFreeAttack: boolean;
  key: string;
}

function mind(state: GutsState, owesFreeAttack: boolean): GutsMind {
  // Turn numbers are relative in a duel (see above): every pending failure was last checked on the model's previous turn.
  // The reason is only the check's name; failures in force are re-checked alike whatever their order.
  const entry = (p: GutsPending): string => `${p.target}:${p.bonus}:${p.forfeitNext}:${p.effect}`;
  const pending = state.pending.map((p) => ({ ...p, reason: "other" as const, sinceTurn: 0, lastTurn: 0 })).sort((x, y) => (entry(x) < entry(y) ? -1 : entry(x) > entry(y) ? 1 : 0));
  const key = `${pending.map(entry).join(";")}${owesFreeAttack ? "!" : ""}`;
  return { state: { pending, effect: state.effect }, owesFreeAttack, key };
}

export function gutsMind(state: GutsState | undefined): GutsMind {
  return mind(state ?? { pending: [], effect: 0 }, false);
}

export function withoutFreeAttack(m: GutsMind): GutsMind {
  return m.owesFreeAttack ? mind(m.state, false) : m;
}

/** Miniatures: Wounds — Guts is a stat: the wound penalty lowers it. */
export function gutsStat(card: MiniDatacard, track: Track, options: DatacardOptions): number {
  return datacard(card, trackStatus(track).penalty, options).guts;
}

let outcomes: DiceOutcome[] | null = null;
const legendary = (): DiceOutcome[] => (outcomes ??= legendaryOutcomes());

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
 * still pending (gutsTrigger does both).
 */
export function gutsAfterWound(m: GutsMind, guts: number, target: number, reason: GutsReason): Array<[GutsMind, number]> {
  const out: Array<[GutsMind, number]> = [];
  for (const o of legendary()) {
    const r = gutsTrigger(m.state, { guts, faces: o.dice, target, turn: 0, reason });
    out.push([mind(r.state, m.owesFreeAttack || (!r.check.passed && r.check.effect === 3)), o.p]);
  }
  return merge(out);
}

/**
 * Miniatures: Guts — "Each subsequent turn after a model fails a Guts check, it must pass another
 * Guts check or continue to suffer the effects": at the start of its turn every pending failure
 * is re-checked in order (as the combat tracker does, src/foundry/combat.ts), a pass ends it.
 */
export function gutsTurnStart(m: GutsMind, guts: number): Array<[GutsMind, number]> {
  if (m.state.pending.length === 0) return [[m, 1]];
  const out: Array<[GutsMind, number]> = [];
  const walk = (state: GutsState, i: number, p: number): void => {
    if (i >= state.pending.length || state.pending[i].lastTurn >= 1) {
      if (i >= state.pending.length) out.push([mind(state, m.owesFreeAttack), p]);
      else walk(state, i + 1, p);
      return;
    }
    for (const o of legendary()) {
      const r = gutsRecheck(state, o.dice, 1, guts, 0, i);
      walk(r.state, r.check.passed ? i : i + 1, p * o.p);
    }
  };
  walk(m.state, 0, 1);
  return merge(out);
}

/**
 * Miniatures: Guts — the check a blow calls for, read from the model's real track before and
 * after it (the attack pipeline calls the same check on its card): a new wound level +1, two or
 * more levels from one attack +2; none when the model fell Near Death or worse.
 */
export function gutsCheckFor(track: Track, before: TrackStatus, after: TrackStatus): { target: number; reason: GutsReason } | null {
  if (!after.canAct) return null;
  const config = track.config as unknown as BoxTrackConfig;
  const levels = woundRank(config, after.levelKey) - woundRank(config, before.levelKey);
  if (levels <= 0) return null;
  return levels >= 2 ? { target: GUTS_TARGETS.twoWoundLevels, reason: "twoWoundLevels" } : { target: GUTS_TARGETS.newWoundLevel, reason: "newWoundLevel" };
}
