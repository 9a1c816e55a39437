/**
 * Miniatures at the table: base contact, gang-up and range, measured over plain bases. Bases are
 * given in grid squares (x, y of the top-left corner, width, height); a model's base is its token.
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
  return tokens.filter(
    (t) =>
      t.id !== attacker.id && t.id !== target.id && t.disposition === attacker.disposition && inBaseContact(t, target),
  ).length;
}

/**
 * Two tokens are enemies when they are on two sides, a side being a token disposition as gang-up
 * counts it (same disposition: same side). A neutral token (disposition 0) is a bystander, nobody's
 * enemy: touching one does not stop a shot. This system's reading (the Foundry guide in docs); a Secret
 * token (−2) is a side of its own, as its disposition is.
 */
export const areEnemies = (a: TokenBox, b: TokenBox): boolean =>
  a.disposition !== 0 && b.disposition !== 0 && a.disposition !== b.disposition;

/**
 * Miniatures: Ranged Combat — "Ranged weapons may not be fired while in base-to-base contact with
 * an enemy": the attacker's base touches an enemy's (areEnemies).
 */
export function inContactWithEnemy(attacker: TokenBox, tokens: readonly TokenBox[]): boolean {
  return tokens.some((t) => t.id !== attacker.id && areEnemies(attacker, t) && inBaseContact(attacker, t));
}

/** What the table measures for one target of an attack (null: the table measures nothing, the dialog's value counts). */
export interface TableSituation {
  gangUp?: number;
  rangeInches?: number;
  inContact?: boolean;
}

/**
 * The situation the table gives one target of an attack (Miniatures), measured from the tokens:
 * - `inContact`: for a melee weapon, base contact with THIS target (Miniatures: Melee Combat,
 *   "Melee attacks must be made in base-to-base contact with the target model"); for a ranged
 *   weapon, base contact with any enemy (Miniatures: Ranged Combat, no firing "while in
 *   base-to-base contact with an enemy").
 * - `gangUp` (world option *Gang-up from the table*): the attacker's side's other models touching
 *   this target (Miniatures: Melee Combat, "more than one model are attacking a single enemy").
 * - `rangeInches` (ranged weapons, world option *Range from token distance*): the distance to this
 *   target, a tenth of an inch at most (Miniatures: Ranged Combat, −1 per multiple of Range).
 * `distance` is the measured distance to the target in inches (null when the grid cannot say).
 */
export function tableSituation(
  attacker: TokenBox,
  target: TokenBox,
  tokens: readonly TokenBox[],
  opts: { ranged: boolean; gangUp: boolean; rangeFromDistance: boolean; distance: number | null },
): TableSituation {
  const out: TableSituation = {};
  // Any count ≥ 1 gives the same +1; a card may claim 0–8 (src/system/integrity.ts).
  if (opts.gangUp) out.gangUp = Math.min(8, gangUpCount(attacker, target, tokens));
  if (opts.ranged && opts.rangeFromDistance && opts.distance !== null)
    out.rangeInches = Math.max(0, Math.round(opts.distance * 10) / 10);
  out.inContact = opts.ranged ? inContactWithEnemy(attacker, tokens) : inBaseContact(attacker, target);
  return out;
}
