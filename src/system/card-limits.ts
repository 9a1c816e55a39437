/**
 * Limits on what a chat card may carry: the card check (integrity.ts checkCard, checkRollCard)
 * refuses a card past them, the cards' data models (src/foundry/data) refuse to store one, and
 * the world migration clamps an older one (bounds.ts clampCard). A leaf module.
 */
export const CARD_LIMITS = {
  /** Tokens one attack may target. */
  targets: 16,
  /** Names, ids and other short strings. */
  text: 200,
  /** Dice slots per target, and faces per slot (Miniatures Legendary rerolls chain a few 4dF). */
  diceSlots: 8,
  faces: 64,
  /** Applied/undone history entries per target. */
  applied: 24,
  /** Situation fields. */
  situation: 16,
  /** Explanation steps and follow-ups a target's shown result may list. */
  steps: 400,
  followUps: 8,
  /** JSON characters of the whole card (a real card is a few kB per target). */
  chars: 400_000,
  /** Any string anywhere in the card (a request's notes, a custom level's label). */
  longText: 2_000,
  /** Nesting of the card's data (a real card is about ten deep). */
  depth: 24,
  /** Numbers a resolution shows, and keys of any one record. */
  keys: 64,
} as const;
