/**
 * Damage factors (Fudge §4.53–4.54): the offensive damage factor (ODF) of the attacker, the
 * defensive damage factor (DDF) of the defender and the total damage factor ODF − DDF (§4.55).
 * The sheet shows ODF and DDF with their steps; resolution recomputes them per blow because
 * scale-piercing and heavy-blunt weapons depend on the hit.
 */
import { signed, type Step } from "../explain";
import { WEAPON_SIZE_VALUE, type FudgeCombatant, type FudgeWeapon } from "./combatant";
import type { FudgeOptions } from "./options";
import { fstep } from "./util";

export interface FactorResult {
  total: number;
  steps: Step[];
}

const R54 = "Fudge §4.54";

/** True when the attacker's Strength Scale counts: muscle-powered weapons or weapons scaled to him (Fudge §4.54 note). */
export function strengthScaleCounts(weapon: FudgeWeapon): boolean {
  return weapon.kind === "muscle" || weapon.scaledToAttacker;
}

/** Offensive damage factor (Fudge §4.54). */
export function offensiveFactor(attacker: FudgeCombatant, options: Pick<FudgeOptions, "lessLethal">): FactorResult {
  const w = attacker.weapon;
  const steps: Step[] = [];
  let total = 0;
  if (w.kind === "muscle") {
    // Fudge §4.54: the character's Strength counts for muscle-powered weapons only.
    total += attacker.strength;
    steps.push(fstep("FUDGE.Step.Fudge.Strength", R54, attacker.strength));
  } else {
    // Fudge §4.54: guns, crossbows, beams use the weapon's own Strength.
    total += w.strength;
    steps.push(fstep("FUDGE.Step.Fudge.WeaponStrength", R54, w.strength, { weapon: w.name }));
  }
  if (strengthScaleCounts(w)) {
    // Fudge §4.54: Strength Scale for muscle-powered weapons and weapons scaled to the attacker.
    total += attacker.strengthScale;
    steps.push(fstep("FUDGE.Step.Fudge.StrengthScale", R54, attacker.strengthScale));
  } else if (attacker.strengthScale !== 0) {
    steps.push(fstep("FUDGE.Step.Fudge.StrengthScaleIgnored", R54, 0, { scale: signed(attacker.strengthScale) }));
  }
  if (w.kind === "muscle") {
    // Fudge §4.54: weapon size; the less lethal note takes 1 from each weapon type, not from sharpness.
    const size = WEAPON_SIZE_VALUE[w.size];
    total += size;
    steps.push(fstep("FUDGE.Step.Fudge.WeaponSize", R54, size, { weapon: w.name, size: `FUDGE.Fudge.Size.${w.size}` }));
    if (w.sharp) {
      total += 1;
      steps.push(fstep("FUDGE.Step.Fudge.Sharp", R54, 1));
    }
    if (options.lessLethal) {
      total -= 1;
      steps.push(fstep("FUDGE.Step.Fudge.LessLethal", R54, -1));
    }
  }
  if (w.magic !== 0) {
    // Fudge §4.7 combat example: "+1 for Magic" — a magic weapon adds its bonus to the ODF.
    total += w.magic;
    steps.push(fstep("FUDGE.Step.Fudge.WeaponMagic", "Fudge §4.7", w.magic, { weapon: w.name }));
  }
  steps.push(fstep("FUDGE.Step.Fudge.Odf", R54, total, { name: attacker.name }));
  return { total, steps };
}

export interface DefensiveContext {
  /** RD ≥ 2: scale-piercing weapons act only on a good hit (Fudge §4.58). */
  goodHit?: boolean;
}

/**
 * True when Damage Capacity is a defensive factor: the "factor" variant, and DC is not the wound
 * track itself (Fudge §4.52, §4.57); with the "roll" variant, also against a weapon whose damage
 * the GM meets with DC's value "without requiring a roll" (Fudge §4.52 (1), `dcWithoutRoll`).
 */
export function dcIsFactor(
  defender: FudgeCombatant,
  options: Pick<FudgeOptions, "dcVariant">,
  weapon?: Pick<FudgeWeapon, "dcWithoutRoll">,
): boolean {
  if (defender.track.config.kind === "dc") return false;
  return options.dcVariant === "factor" || dcWithoutRoll(options, weapon);
}

/** Fudge §4.52 (1): the DC roll variant, against a weapon whose damage is met by DC's value, no roll. */
export function dcWithoutRoll(
  options: Pick<FudgeOptions, "dcVariant">,
  weapon?: Pick<FudgeWeapon, "dcWithoutRoll">,
): boolean {
  return options.dcVariant === "roll" && weapon?.dcWithoutRoll === true;
}

/** The defender's Mass Scale as it counts against this weapon (Fudge §4.58 scale-piercing, positive Scale only). */
export function effectiveMassScale(defender: FudgeCombatant, weapon: FudgeWeapon, goodHit: boolean): number {
  const scale = defender.massScale;
  if (!goodHit || scale <= 0 || weapon.scalePiercing === "none") return scale;
  return weapon.scalePiercing === "ignore" ? 0 : Math.floor(scale / 2);
}

/** Defensive damage factor (Fudge §4.54) against `weapon`. */
export function defensiveFactor(
  defender: FudgeCombatant,
  weapon: FudgeWeapon,
  options: Pick<FudgeOptions, "dcVariant">,
  context: DefensiveContext = {},
): FactorResult {
  const steps: Step[] = [];
  let total = 0;
  if (dcIsFactor(defender, options, weapon)) {
    total += defender.damageCapacity;
    steps.push(
      dcWithoutRoll(options, weapon)
        ? fstep("FUDGE.Step.Fudge.DcWithoutRoll", "Fudge §4.52", defender.damageCapacity, { weapon: weapon.name })
        : fstep("FUDGE.Step.Fudge.DamageCapacity", R54, defender.damageCapacity),
    );
  } else {
    // Fudge §4.52 / §4.57: with the other variants DC is not a defensive factor.
    steps.push(
      fstep("FUDGE.Step.Fudge.DcNotFactor", "Fudge §4.52", 0, {
        variant: `FUDGE.Fudge.DcVariant.${defender.track.config.kind === "dc" ? "track" : options.dcVariant}`,
      }),
    );
  }
  const armor = defender.armor.value + defender.armor.magic;
  steps.push(fstep("FUDGE.Step.Fudge.Armor", R54, armor, { base: defender.armor.value, magic: defender.armor.magic }));
  if (weapon.heavyBlunt && armor > 0) {
    // Fudge §4.54 optional note: heavy blunt metal weapons halve the armor, round down.
    const counted = Math.floor(armor / 2);
    steps.push(fstep("FUDGE.Step.Fudge.HeavyBlunt", R54, counted, { armor: signed(armor) }));
    total += counted;
  } else {
    total += armor;
  }
  const scale = effectiveMassScale(defender, weapon, context.goodHit ?? false);
  steps.push(fstep("FUDGE.Step.Fudge.MassScale", R54, defender.massScale));
  if (scale !== defender.massScale) {
    steps.push(
      fstep("FUDGE.Step.Fudge.ScalePiercing", "Fudge §4.58", scale, {
        mode: `FUDGE.Fudge.ScalePiercing.${weapon.scalePiercing}`,
        scale: signed(defender.massScale),
      }),
    );
  }
  total += scale;
  if (defender.mass !== 0) {
    // Fudge §4.54: "If the defender has Mass other than Fair … it should also be figured in."
    total += defender.mass;
    steps.push(fstep("FUDGE.Step.Fudge.Mass", R54, defender.mass));
  }
  if (defender.toughHide !== 0) {
    // Fudge §4.54: a gift of Tough Hide is figured in.
    total += defender.toughHide;
    steps.push(fstep("FUDGE.Step.Fudge.ToughHide", R54, defender.toughHide));
  }
  steps.push(fstep("FUDGE.Step.Fudge.Ddf", R54, total, { name: defender.name }));
  return { total, steps };
}

/** Total damage factor = ODF − DDF (Fudge §4.55). */
export function totalDamageFactor(
  attacker: FudgeCombatant,
  defender: FudgeCombatant,
  options: Pick<FudgeOptions, "lessLethal" | "dcVariant">,
  context: DefensiveContext = {},
): { odf: FactorResult; ddf: FactorResult; total: number; steps: Step[] } {
  const odf = offensiveFactor(attacker, options);
  const ddf = defensiveFactor(defender, attacker.weapon, options, context);
  const total = odf.total - ddf.total;
  return {
    odf,
    ddf,
    total,
    steps: [
      ...odf.steps,
      ...ddf.steps,
      fstep("FUDGE.Step.Fudge.DamageFactor", "Fudge §4.55", total, { odf: signed(odf.total), ddf: signed(ddf.total) }),
    ],
  };
}
