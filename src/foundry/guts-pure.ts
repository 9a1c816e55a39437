/**
 * A miniature's Guts circumstances at the table, decided as pure functions over plain data (the
 * Foundry side only gathers tokens, combatants and actors; tests import these).
 *
 * Seed 004 "Sample characters": Faithful "+1 to Guts checks when defending the King"; the King's
 * Noble presence "peasants make Guts checks at -1 when in melee with the King"; Leader "all
 * followers make Guts checks at -1 if the King has fallen". What the table cannot see — that a
 * model defends the King, is a peasant, is a follower — is the model's standing (`gutsStanding`,
 * set by the GM on the sheet). What it can see is derived from live documents:
 * - **Leader fallen:** the model is a follower, and a combatant of the current combat on its side
 *   (the same token disposition, as gang-ups count sides: table-pure.ts) whose datacard has the
 *   Leader rule is Near Death, dead or out of the fight, or marked defeated in the tracker.
 * - **Noble presence:** the model is a peasant, and an enemy token (`areEnemies`: another side, neither
 *   neutral, as `inContactWithEnemy`) whose datacard has the Noble presence rule, still fighting, is in
 *   base contact with it ("in melee": the bases touch, `inBaseContact`).
 */
import { trackStatus, type Condition } from "../rules/track";
import { miniRules, trackFor } from "../system/combatant";
import {
  defaultGutsStanding,
  GUTS_STANDING_KEYS,
  type ActorDoc,
  type GutsStanding,
  type MiniatureData,
  type WorldRules,
} from "../system/data";
import { areEnemies, inBaseContact, type TokenBox } from "./table-pure";
import type { DuelGutsSituation } from "../rules/miniatures/duel-minds";

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

/** The flags a Guts check takes from the table (the rules core's GutsSituation), with who caused them. */
export interface GutsCircumstances {
  /** Standing: the GM says the model is defending the King (it counts only with Faithful). */
  defendingKing: boolean;
  /** A peasant in base contact with an opposing model of Noble presence. */
  nobleInMelee: boolean;
  /** A follower whose side's Leader has fallen. */
  leaderFallen: boolean;
  /** The model of Noble presence in contact, the fallen Leader (names for the note and the dialog). */
  noble: string | null;
  leader: string | null;
}

/** The model's standing as stored; a value that is not a boolean counts as off (stored data is a claim). */
export function gutsStandingOf(actor: ActorDoc): GutsStanding {
  const out = defaultGutsStanding();
  if (actor.type !== "miniature") return out;
  const stored = (actor.system as Partial<MiniatureData>).gutsStanding as Partial<Record<string, unknown>> | undefined;
  for (const k of GUTS_STANDING_KEYS) out[k] = stored?.[k] === true;
  return out;
}

const OUT_OF_THE_FIGHT: readonly Condition[] = ["dying", "dead", "takenOut"];

/** The model's condition by its wound track under the world's rules; null when its data does not parse. */
function conditionOf(actor: ActorDoc, rules: WorldRules): Condition | null {
  try {
    return trackStatus(trackFor(actor, rules)).condition;
  } catch {
    return null;
  }
}

/** Miniatures: the King "has fallen" — Near Death, dead or out of the fight, or defeated in the tracker. */
export function hasFallen(m: TableModel, rules: WorldRules): boolean {
  if (m.defeated) return true;
  const c = conditionOf(m.actor, rules);
  return c !== null && OUT_OF_THE_FIGHT.includes(c);
}

/** The Guts circumstances of `actor` at the table (see the file's comment for each rule). */
export function gutsCircumstances(actor: ActorDoc, table: GutsTable, rules: WorldRules): GutsCircumstances {
  const standing = gutsStandingOf(actor);
  const out: GutsCircumstances = {
    defendingKing: standing.defendingKing,
    nobleInMelee: false,
    leaderFallen: false,
    noble: null,
    leader: null,
  };
  const self = table.self;
  if (!self || actor.type !== "miniature") return out;
  const others = table.others.filter((o) => o.id !== self.id && o.actor.type === "miniature");
  if (standing.follower) {
    const leader = others.find(
      (o) =>
        o.inCombat && o.disposition === self.disposition && miniRules(o.actor).has("leader") && hasFallen(o, rules),
    );
    if (leader) {
      out.leaderFallen = true;
      out.leader = leader.actor.name;
    }
  }
  if (standing.peasant && self.box) {
    const box = self.box;
    const noble = others.find(
      (o) =>
        o.box &&
        areEnemies(box, o.box) &&
        miniRules(o.actor).has("noblePresence") &&
        !hasFallen(o, rules) &&
        inBaseContact(box, o.box),
    );
    if (noble) {
      out.nobleInMelee = true;
      out.noble = noble.actor.name;
    }
  }
  return out;
}

/**
 * The circumstances of `self`'s every Guts check in a duel forecast against `foe` (the rules core's
 * `gutsSituation` of a side, docs/rules-api.md `forecast`): its standing says it defends the King;
 * a peasant dueling a model of Noble presence is "in melee with the King" for the whole duel, as
 * is one the live table already puts in contact with such a model; its Leader has fallen when the
 * live table says so (`live`: gutsCircumstances; null when the model has no token or combatant).
 * Only the flags that hold are given.
 */
export function duelGutsSituation(self: ActorDoc, foe: ActorDoc, live: GutsCircumstances | null): DuelGutsSituation {
  const out: DuelGutsSituation = {};
  if (self.type !== "miniature") return out;
  const standing = gutsStandingOf(self);
  if (standing.defendingKing) out.defendingKing = true;
  if (standing.peasant && ((foe.type === "miniature" && miniRules(foe).has("noblePresence")) || live?.nobleInMelee))
    out.nobleInMelee = true;
  if (live?.leaderFallen) out.leaderFallen = true;
  return out;
}

// ─── A friend shoots into the melee ──────────────────────────────────────────────────────

/** Why a selected token makes no Guts check for a friend's shot into its melee. */
export type FriendGutsSkip = "notMiniature" | "shooter" | "target" | "notFriend" | "down" | "done";

export interface FriendGutsCandidate {
  /** The token's id (the GM's selection). */
  id: string;
  /** The actor's reference (uuid) as the card and the record name it. */
  ref: string;
  actor: ActorDoc;
  disposition: number;
}

/**
 * Miniatures: Guts — "the model is in a combat and a friend shoots into the combat": target 0.
 * Of the tokens the GM selected, those that check: miniatures on the shooter's side (the same
 * disposition; any side when the shooter has no token), neither the shooter nor a target of the
 * shot, still fighting (a Near Death or dead model makes no Guts check), and not already checked
 * for this shot (`done(ref)`: the record the GM's client wrote on the model).
 */
export function friendGutsRoster(
  shooter: { ref: string; disposition: number | null },
  targets: readonly string[],
  selected: readonly FriendGutsCandidate[],
  rules: WorldRules,
  done: (c: FriendGutsCandidate) => boolean,
): { check: FriendGutsCandidate[]; skipped: { name: string; reason: FriendGutsSkip }[] } {
  const check: FriendGutsCandidate[] = [];
  const skipped: { name: string; reason: FriendGutsSkip }[] = [];
  const seen = new Set<string>();
  for (const c of selected) {
    if (seen.has(c.ref)) continue;
    seen.add(c.ref);
    const reason: FriendGutsSkip | null =
      c.actor.type !== "miniature"
        ? "notMiniature"
        : c.ref === shooter.ref
          ? "shooter"
          : targets.includes(c.ref)
            ? "target"
            : shooter.disposition !== null && c.disposition !== shooter.disposition
              ? "notFriend"
              : conditionOf(c.actor, rules) !== "able"
                ? "down"
                : done(c)
                  ? "done"
                  : null;
    if (reason) skipped.push({ name: c.actor.name, reason });
    else check.push(c);
  }
  return { check, skipped };
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
