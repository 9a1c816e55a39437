/**
 * Table geometry for the Miniatures preset (pure: tests import it). Tokens are given in grid
 * squares (x, y of the top-left corner, width, height); a model's base is its token.
 */
export interface TokenBox {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Foundry token disposition: 1 friendly, 0 neutral, −1 hostile, −2 secret. */
  disposition: number;
}

/** Gap between two bases in grid squares (0 when they touch or overlap). */
export function baseGap(a: TokenBox, b: TokenBox): number {
  const dx = Math.max(0, Math.max(a.x, b.x) - Math.min(a.x + a.w, b.x + b.w));
  const dy = Math.max(0, Math.max(a.y, b.y) - Math.min(a.y + a.h, b.y + b.h));
  return Math.max(dx, dy);
}

/** Base-to-base contact: the bases touch (adjacent squares, diagonals included). */
export const inBaseContact = (a: TokenBox, b: TokenBox): boolean => baseGap(a, b) === 0;

/**
 * Miniatures: "+1 to hit per attack when more than one model attacks the same enemy". Counted
 * from the table: the attacker's side's other models in base contact with the target.
 */
export function gangUpCount(attacker: TokenBox, target: TokenBox, tokens: readonly TokenBox[]): number {
  return tokens.filter((t) => t.id !== attacker.id && t.id !== target.id && t.disposition === attacker.disposition && inBaseContact(t, target)).length;
}

/** The attacker is in base contact with a model of another side (no shooting unless the weapon allows). */
export function inContactWithEnemy(attacker: TokenBox, tokens: readonly TokenBox[]): boolean {
  return tokens.some((t) => t.id !== attacker.id && t.disposition !== attacker.disposition && inBaseContact(attacker, t));
}
