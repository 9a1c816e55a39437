/**
 * Movement, terrain and disengaging (seed 004 "Movement", "Disengaging", "Terrain").
 */
import { signed, step, type Step } from "../explain";
import { array, at, int, num, oneOf, record } from "../validate";
import { legendaryTotal } from "./legendary";

export const TERRAINS = ["open", "rough", "swimming", "climbing", "flying", "down"] as const;
export type Terrain = (typeof TERRAINS)[number];

/** Miniatures: Terrain — inches of movement spent per inch traversed. */
export const TERRAIN_COST: Readonly<Record<Terrain, number>> = {
  open: 1,
  rough: 2, // swamps, briar patches, barbed wire
  swimming: 2,
  climbing: 2, // per inch of elevation climbed: hills, ladders, hedges, fences
  flying: 0.5,
  down: 1, // decrease elevation
};

/**
 * Inches of Movement a path costs. "Each inch or fraction thereof" is charged whole: 1.5" of
 * rough ground is two inches at ×2 = 4".
 */
export function movementCost(path: unknown, field = "path"): { cost: number; steps: Step[] } {
  const legs = array(path, field, 1);
  let cost = 0;
  const steps: Step[] = [];
  legs.forEach((l, i) => {
    const p = at(field, i);
    const o = record(l, p);
    const terrain = oneOf(o.terrain, at(p, "terrain"), TERRAINS);
    const inches = num(o.inches, at(p, "inches"), 0, 10000);
    const c = Math.ceil(inches) * TERRAIN_COST[terrain];
    cost += c;
    steps.push(
      step(`FUDGE.Miniatures.Step.Terrain.${terrain}`, "Miniatures: Terrain", c, {
        inches,
        factor: TERRAIN_COST[terrain],
      }),
    );
  });
  return { cost, steps };
}

/**
 * Disengaging from base contact: a Dexterity check (Dexterity + modifiers + 4dF) that equals or
 * beats the enemy's higher of Strength and Dexterity escapes; otherwise that enemy gets a single
 * free attack.
 */
export function disengageCheck(
  dexterity: number,
  enemy: { strength: number; dexterity: number },
  faces: unknown,
  modifiers = 0,
  path = "faces",
): { total: number; target: number; escaped: boolean; freeAttack: boolean; steps: Step[] } {
  int(dexterity, "dexterity", -50, 50);
  int(modifiers, "modifiers", -50, 50);
  const target = Math.max(
    int(enemy?.strength, "enemy.strength", -50, 50),
    int(enemy?.dexterity, "enemy.dexterity", -50, 50),
  );
  const dice = legendaryTotal(faces, path).total;
  const total = dexterity + modifiers + dice;
  const escaped = total >= target;
  return {
    total,
    target,
    escaped,
    freeAttack: !escaped,
    steps: [
      step("FUDGE.Miniatures.Step.Disengage", "Miniatures: Disengaging", total, {
        dexterity: signed(dexterity),
        modifiers: signed(modifiers),
        dice: signed(dice),
        total: signed(total),
        target: signed(target),
      }),
      step(
        escaped ? "FUDGE.Miniatures.Step.DisengageEscaped" : "FUDGE.Miniatures.Step.DisengageFreeAttack",
        "Miniatures: Disengaging",
      ),
    ],
  };
}

/**
 * Range penalty: −1 per full or partial multiple of the weapon's Range beyond the first
 * (Range 18": 18 → 0, 19 → −1, 36 → −1, 37 → −2).
 */
export function rangePenalty(range: number, distance: number): number {
  num(range, "range", 0.5);
  num(distance, "distance", 0);
  if (distance <= range) return 0;
  return -(Math.ceil(distance / range) - 1);
}
