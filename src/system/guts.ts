/**
 * Miniatures Guts at the table, read from actors: each model's standing, condition and datacard
 * rules become the plain models of the rules core's src/rules/miniatures/guts-circumstances.ts
 * (the Foundry side only gathers tokens, combatants and actors), and the record of the friends'
 * shots a model has checked for.
 */
import { trackStatus, type Condition } from "../rules";
import {
  duelGutsSituation as duelGutsSituationOf,
  friendGutsRoster as friendGutsRosterOf,
  gutsCircumstances as gutsCircumstancesOf,
  hasFallen as hasFallenModel,
  type FriendGutsSkip,
  type GutsCircumstances,
  type GutsModel,
  type GutsTableModel,
} from "../rules/miniatures";
import type { TokenBox, DuelGutsSituation } from "../rules/miniatures";
import { miniRules, trackFor } from "./combatant";
import {
  defaultGutsStanding,
  GUTS_STANDING_KEYS,
  type ActorDoc,
  type GutsStanding,
  type MiniatureData,
  type WorldRules,
} from "./data";

export type { FriendGutsSkip, GutsCircumstances };

/** A model at the table as the Foundry side gathers it: a token on the viewed scene, a combatant, or both. */
export interface TableModel {
  /** The token's id (a combatant's token id): one per model on the table. */
  id: string;
  actor: ActorDoc;
  /** Token disposition (1 friendly, 0 neutral, −1 hostile, −2 secret): the model's side. */
  disposition: number;
  /** Its base on the viewed scene, in grid squares; null when it has no token there. */
  box: TokenBox | null;
  /** A combatant of the current combat. */
  inCombat: boolean;
  /** Marked defeated in the combat tracker. */
  defeated: boolean;
}

export interface GutsTable {
  /** The checking model's own token or combatant; null when it has none (nothing is derived). */
  self: TableModel | null;
  /** Every other model on the table (the checking model's own entry may be among them: it is skipped). */
  others: readonly TableModel[];
}

/** The model's standing as stored; a value that is not a boolean counts as off (stored data is a claim). */
export function gutsStandingOf(actor: ActorDoc): GutsStanding {
  const out = defaultGutsStanding();
  if (actor.type !== "miniature") return out;
  const stored = (actor.system as Partial<MiniatureData>).gutsStanding as Partial<Record<string, unknown>> | undefined;
  for (const k of GUTS_STANDING_KEYS) out[k] = stored?.[k] === true;
  return out;
}

/** The model's condition by its wound track under the world's rules; null when its data does not parse. */
function conditionOf(actor: ActorDoc, rules: WorldRules): Condition | null {
  try {
    return trackStatus(trackFor(actor, rules)).condition;
  } catch {
    return null;
  }
}

/** An actor as the Guts rules read it. */
function gutsModel(actor: ActorDoc, rules: WorldRules): GutsModel {
  const miniature = actor.type === "miniature";
  return {
    name: actor.name,
    miniature,
    condition: miniature ? conditionOf(actor, rules) : null,
    rules: miniRules(actor),
    standing: gutsStandingOf(actor),
  };
}

function tableModel(m: TableModel, rules: WorldRules): GutsTableModel {
  return {
    ...gutsModel(m.actor, rules),
    id: m.id,
    disposition: m.disposition,
    box: m.box,
    inCombat: m.inCombat,
    defeated: m.defeated,
  };
}

/** Miniatures: the King "has fallen" — Near Death, dead or out of the fight, or defeated in the tracker. */
export function hasFallen(m: TableModel, rules: WorldRules): boolean {
  return hasFallenModel({ defeated: m.defeated, condition: conditionOf(m.actor, rules) });
}

/** The Guts circumstances of `actor` at the table (src/rules/miniatures/guts-circumstances.ts). */
export function gutsCircumstances(actor: ActorDoc, table: GutsTable, rules: WorldRules): GutsCircumstances {
  return gutsCircumstancesOf(
    gutsModel(actor, rules),
    table.self && tableModel(table.self, rules),
    table.others.map((o) => tableModel(o, rules)),
  );
}

/** The circumstances of `self`'s every Guts check in a duel forecast against `foe` (the rules core's duelGutsSituation). */
export function duelGutsSituation(self: ActorDoc, foe: ActorDoc, live: GutsCircumstances | null): DuelGutsSituation {
  // Conditions are not read here: no Guts rule of a duel forecast asks for one.
  const model = (a: ActorDoc): GutsModel => ({
    name: a.name,
    miniature: a.type === "miniature",
    condition: null,
    rules: miniRules(a),
    standing: gutsStandingOf(a),
  });
  return duelGutsSituationOf(model(self), model(foe), live);
}

// ─── A friend shoots into the melee ──────────────────────────────────────────────────────

export interface FriendGutsCandidate {
  /** The token's id (the GM's selection). */
  id: string;
  /** The actor's reference (uuid) as the card and the record name it. */
  ref: string;
  actor: ActorDoc;
  disposition: number;
}

/** The friends of a shooter who check Guts for his shot into their melee (the rules core's friendGutsRoster). */
export function friendGutsRoster<C extends FriendGutsCandidate>(
  shooter: { ref: string; disposition: number | null },
  targets: readonly string[],
  selected: readonly C[],
  rules: WorldRules,
  done: (c: C) => boolean,
): { check: C[]; skipped: { name: string; reason: FriendGutsSkip }[] } {
  const models = selected.map((c) => ({
    candidate: c,
    ref: c.ref,
    disposition: c.disposition,
    model: gutsModel(c.actor, rules),
  }));
  const roster = friendGutsRosterOf(shooter, targets, models, (m) => done(m.candidate));
  return { check: roster.check.map((m) => m.candidate), skipped: roster.skipped };
}

/** How many shots' friend checks a model remembers (the newest kept): enough for any round. */
export const FRIEND_GUTS_RECORD = 20;

/** The record of the shots a model has checked for, read from its flags (a list of message ids; anything else is none). */
export function friendGutsRecord(flags: unknown): string[] {
  const v = (flags as Record<string, unknown> | undefined)?.friendShotGuts;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").slice(-FRIEND_GUTS_RECORD) : [];
}

/** The record with this shot added (newest last, bounded). */
export function withFriendGutsRecord(record: readonly string[], messageId: string): string[] {
  return [...record.filter((x) => x !== messageId), messageId].slice(-FRIEND_GUTS_RECORD);
}
