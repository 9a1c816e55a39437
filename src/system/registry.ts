/**
 * Pure lists the Foundry layer registers (no Foundry globals here, so tests can import them):
 * document subtypes, their sheets' templates, query names and setting keys. system.json's
 * documentTypes must list exactly these (tests/foundry/registry.test.ts).
 */
import type { ActorType, ItemType } from "./data";

export const SYSTEM_ID = "fudge-wounds";

export const ACTOR_TYPES = ["character", "npc", "miniature"] as const satisfies readonly ActorType[];
export const ITEM_TYPES = [
  "weapon",
  "armor",
  "shield",
  "gift",
  "fault",
  "skill",
] as const satisfies readonly ItemType[];
export const CHAT_TYPES = ["attackCard", "rollCard"] as const;
export type ChatType = (typeof CHAT_TYPES)[number];

/** Document subtypes as system.json declares them. */
export const DOCUMENT_TYPES = {
  Actor: ACTOR_TYPES,
  Item: ITEM_TYPES,
  ChatMessage: CHAT_TYPES,
} as const;

/** GM relay queries (CONFIG.queries): a player asks the active GM to do what only an owner may. */
export const QUERIES = {
  apply: `${SYSTEM_ID}.applyDamage`,
  undo: `${SYSTEM_ID}.undoDamage`,
  defend: `${SYSTEM_ID}.defend`,
  write: `${SYSTEM_ID}.writeActor`,
  oppose: `${SYSTEM_ID}.opposeRoll`,
} as const;
export type QueryAction = keyof typeof QUERIES;

/** Version of the stored data shape; the world migration runs when the world's is older. 4: notes and descriptions are HTML again (rich text). 5: miniatures have `gutsStanding`. 6: stored data over its bound (bounds.ts) is clamped. 7: the wound log's track states take the track's current shape. 8: EP awards move from the actor's log into the GM's record. */
export const MIGRATION_VERSION = 8;
export const MIGRATION_SETTING = "systemMigrationVersion";
/** World setting: the initiative formula ("" = the preset's default). */
export const INITIATIVE_SETTING = "initiativeFormula";
