/**
 * What the table measures for an attack, per target (the attack dialog, the card, the sheet's
 * Attack tooltips): Miniatures base contact, gang-up and range (src/rules/miniatures/table.ts),
 * Volt's ranged distance. Read from the tokens of the viewed scene.
 */
import type { Situation } from "../system/combatant";
import type { WorldRules } from "../system/data";
import { tableSituation } from "../rules/miniatures";
import { worldRules } from "./bridge";
import { tokenBox, type TokenLike } from "./guts-table";

export function sceneTokens(): TokenLike[] {
  return ((canvas?.scene?.tokens?.contents ?? []) as unknown as TokenLike[]).filter((t) => !!t.actor);
}

/** The actor's first active token on the viewed scene, or null. */
export function attackerToken(actor: Actor.Implementation): TokenLike | null {
  const active = actor.getActiveTokens(false, true) as unknown as TokenLike[];
  return active[0] ?? null;
}

/** Distance between two tokens in scene units (inches on a Miniatures table), by Foundry's grid. */
function tokenDistance(a: TokenLike, b: TokenLike): number | null {
  const size = canvas?.grid?.size ?? 100;
  const ca = { x: a.x + (a.width * size) / 2, y: a.y + (a.height * size) / 2 };
  const cb = { x: b.x + (b.width * size) / 2, y: b.y + (b.height * size) / 2 };
  const grid = canvas?.grid as unknown as
    { measurePath?: (w: { x: number; y: number }[]) => { distance: number } } | undefined;
  return grid?.measurePath ? grid.measurePath([ca, cb]).distance : null;
}

/**
 * What the table measures for each target of an attack with a weapon of this kind, in target
 * order ([] when the attacker has no token here or the preset measures nothing). Miniatures (per
 * target, tableSituation): contact (melee: with that target; ranged: with any enemy), gang-up and
 * range. Volt: a ranged attack's distance to each target.
 */
export function measuredSituations(
  rules: WorldRules,
  own: TokenLike | null,
  targets: readonly TokenLike[],
  ranged: boolean,
): Situation[] {
  if (!own) return [];
  if (rules.preset === "miniatures") {
    const boxes = sceneTokens().map(tokenBox);
    const opts = { ranged, gangUp: rules.miniatures.gangUp, rangeFromDistance: rules.miniatures.rangeFromDistance };
    return targets.map((t) => ({
      ...tableSituation(tokenBox(own), tokenBox(t), boxes, {
        ...opts,
        distance: ranged ? tokenDistance(own, t) : null,
      }),
    }));
  }
  if (rules.preset === "volt" && ranged) {
    // Volt: a ranged attack rolls against the distance value instead of Guard.
    return targets.map((t) => {
      const d = tokenDistance(own, t);
      return d === null ? {} : { distance: Math.round(d) };
    });
  }
  return [];
}

/**
 * What the table measures for each target of an attack by `actor`, for a melee and for a ranged
 * weapon (measuredSituations; {} where nothing is measured): the sheet's Attack tooltips give the
 * odds under them, as the attack dialog does.
 */
export function targetMeasures(
  actor: Actor.Implementation,
  targets: readonly TokenLike[],
): { melee: Situation; ranged: Situation }[] {
  const rules = worldRules();
  const own = attackerToken(actor);
  const melee = measuredSituations(rules, own, targets, false);
  const ranged = measuredSituations(rules, own, targets, true);
  return targets.map((_, i) => ({ melee: melee[i] ?? {}, ranged: ranged[i] ?? {} }));
}
