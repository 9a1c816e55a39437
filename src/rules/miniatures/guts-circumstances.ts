/**
 * Miniatures: a model's Guts circumstances at the table, over plain models (the system reads the
 * models from actors, the Foundry side gathers tokens and combatants).
 *
 * Seed 004 "Sample characters": Faithful "+1 to Guts checks when defending the King"; the King's
 * Noble presence "peasants make Guts checks at -1 when in melee with the King"; Leader "all
 * followers make Guts checks at -1 if the King has fallen". What the table cannot see — that a
 * model defends the King, is a peasant, is a follower — is the model's standing (set by the GM on
 * the sheet). What it can see is derived from live documents:
 * - **Leader fallen:** the model is a follower, and a combatant of the current combat on its side
 *   (the same token disposition, as gang-ups count sides: table.ts) whose datacard has the Leader
 *   rule is Near Death, dead or out of the fight, or marked defeated in the tracker.
 * - **Noble presence:** the model is a peasant, and an enemy token (`areEnemies`: another side,
 *   neither neutral, as `inContactWithEnemy`) whose datacard has the Noble presence rule, still
 *   fighting, is in base contact with it ("in melee": the bases touch, `inBaseContact`).
 */
import type { Condition } from "../track";
import type { DuelGutsSituation } from "./duel-minds";
import { areEnemies, inBaseContact, type TokenBox } from "./table";

/** What the GM says of a model (its standing): it defends the King, is a peasant, is a follower. */
export interface GutsStandingFlags {
  defendingKing: boolean;
  peasant: boolean;
  follower: boolean;
}

/** A model as these rules read it. */
export interface GutsModel {
  name: string;
  /** A miniature (only miniatures check Guts or count as Leader / Noble presence). */
  miniature: boolean;
  /** Its wound track's condition; null when its data does not parse. */
  condition: Condition | null;
  /** Its datacard's rules (e.g. "leader", "noblePresence"). */
  rules: ReadonlySet<string>;
  standing: GutsStandingFlags;
}

/** A model at the table: a token on the viewed scene, a combatant, or both. */
export interface GutsTableModel extends GutsModel {
  /** The token's id (a combatant's token id): one per model on the table. */
  id: string;
  /** Token disposition (1 friendly, 0 neutral, −1 hostile, −2 secret): the model's side. */
  disposition: number;
  /** Its base on the viewed scene, in grid squares; null when it has no token there. */
  box: TokenBox | null;
  /** A combatant of the current combat. */
  inCombat: boolean;
  /** Marked defeated in the combat tracker. */
  defeated: boolean;
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

const OUT_OF_THE_FIGHT: readonly Condition[] = ["dying", "dead", "takenOut"];

/** Miniatures: the King "has fallen" — Near Death, dead or out of the fight, or defeated in the tracker. */
export function hasFallen(m: Pick<GutsTableModel, "defeated" | "condition">): boolean {
  if (m.defeated) return true;
  return m.condition !== null && OUT_OF_THE_FIGHT.includes(m.condition);
}

/**
 * The Guts circumstances of `model` at the table (see the file's comment for each rule); `self`
 * is its own token or combatant (null when it has none: nothing is derived), `others` every other
 * model on the table (its own entry may be among them: it is skipped).
 */
export function gutsCircumstances(
  model: GutsModel,
  self: GutsTableModel | null,
  others: readonly GutsTableModel[],
): GutsCircumstances {
  const standing = model.standing;
  const out: GutsCircumstances = {
    defendingKing: standing.defendingKing,
    nobleInMelee: false,
    leaderFallen: false,
    noble: null,
    leader: null,
  };
  if (!self || !model.miniature) return out;
  const rest = others.filter((o) => o.id !== self.id && o.miniature);
  if (standing.follower) {
    const leader = rest.find(
      (o) => o.inCombat && o.disposition === self.disposition && o.rules.has("leader") && hasFallen(o),
    );
    if (leader) {
      out.leaderFallen = true;
      out.leader = leader.name;
    }
  }
  if (standing.peasant && self.box) {
    const box = self.box;
    const noble = rest.find(
      (o) =>
        o.box && areEnemies(box, o.box) && o.rules.has("noblePresence") && !hasFallen(o) && inBaseContact(box, o.box),
    );
    if (noble) {
      out.nobleInMelee = true;
      out.noble = noble.name;
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
export function duelGutsSituation(
  self: GutsModel,
  foe: GutsModel,
  live: Pick<GutsCircumstances, "nobleInMelee" | "leaderFallen"> | null,
): DuelGutsSituation {
  const out: DuelGutsSituation = {};
  if (!self.miniature) return out;
  if (self.standing.defendingKing) out.defendingKing = true;
  if (self.standing.peasant && ((foe.miniature && foe.rules.has("noblePresence")) || live?.nobleInMelee))
    out.nobleInMelee = true;
  if (live?.leaderFallen) out.leaderFallen = true;
  return out;
}

// ─── A friend shoots into the melee ──────────────────────────────────────────────────────

/** Why a selected model makes no Guts check for a friend's shot into its melee. */
export type FriendGutsSkip = "notMiniature" | "shooter" | "target" | "notFriend" | "down" | "done";

/** A model the GM selected: its reference (as the card names it), its side and the model. */
export interface FriendGutsModel {
  ref: string;
  disposition: number;
  model: Pick<GutsModel, "name" | "miniature" | "condition">;
}

/**
 * Miniatures: Guts — "the model is in a combat and a friend shoots into the combat": target 0.
 * Of the models the GM selected, those that check: miniatures on the shooter's side (the same
 * disposition; any side when the shooter has no token), neither the shooter nor a target of the
 * shot, still fighting (a Near Death or dead model makes no Guts check), and not already checked
 * for this shot (`done`: the record the GM's client wrote on the model).
 */
export function friendGutsRoster<C extends FriendGutsModel>(
  shooter: { ref: string; disposition: number | null },
  targets: readonly string[],
  selected: readonly C[],
  done: (c: C) => boolean,
): { check: C[]; skipped: { name: string; reason: FriendGutsSkip }[] } {
  const check: C[] = [];
  const skipped: { name: string; reason: FriendGutsSkip }[] = [];
  const seen = new Set<string>();
  for (const c of selected) {
    if (seen.has(c.ref)) continue;
    seen.add(c.ref);
    const reason: FriendGutsSkip | null = !c.model.miniature
      ? "notMiniature"
      : c.ref === shooter.ref
        ? "shooter"
        : targets.includes(c.ref)
          ? "target"
          : shooter.disposition !== null && c.disposition !== shooter.disposition
            ? "notFriend"
            : c.model.condition !== "able"
              ? "down"
              : done(c)
                ? "done"
                : null;
    if (reason) skipped.push({ name: c.model.name, reason });
    else check.push(c);
  }
  return { check, skipped };
}
