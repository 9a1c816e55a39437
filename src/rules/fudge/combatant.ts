/**
 * A combatant of the `fudge` preset, as the sheet sends it: traits as ladder numbers (Fair = 0),
 * the weapon and armor of Fudge §4.54, the shield of §4.31 and the wound track.
 */
import { parseTrack, type Track } from "../track";
import { at, boolAt, intAt, oneOfAt, optIntAt, record, strAt, type Path } from "../validate";
import { rejectUnknown } from "./util";

export const WEAPON_KINDS = ["muscle", "fixed"] as const;
export type WeaponKind = (typeof WEAPON_KINDS)[number];

export const WEAPON_SIZES = ["none", "martialArt", "small", "medium", "large", "twoHanded"] as const;
export type WeaponSize = (typeof WEAPON_SIZES)[number];

export const SCALE_PIERCING = ["none", "halve", "ignore"] as const;
export type ScalePiercing = (typeof SCALE_PIERCING)[number];

export const SHIELDS = ["none", "small", "medium", "large"] as const;
export type Shield = (typeof SHIELDS)[number];

export const DC_GIFTS = ["none", "damageResistant", "fragile"] as const;
export type DcGift = (typeof DC_GIFTS)[number];

/**
 * Fudge §4.54, muscle-powered weapons: no weapon and no martial art −1; martial art or small 0;
 * medium one-handed +1; large one-handed or light two-handed +2; most two-handed +3.
 */
export const WEAPON_SIZE_VALUE: Readonly<Record<WeaponSize, number>> = {
  none: -1,
  martialArt: 0,
  small: 0,
  medium: 1,
  large: 2,
  twoHanded: 3,
};

export interface FudgeWeapon {
  name: string;
  /** "muscle": melee, unarmed, bows, slings; "fixed": guns, crossbows, beams (Fudge §4.54). */
  kind: WeaponKind;
  /** Muscle-powered weapons only ("light two-handed" counts as large). */
  size: WeaponSize;
  sharp: boolean;
  /** Fixed weapons: the weapon's own Strength (Fudge §4.54, §4.4). */
  strength: number;
  /** Projectile weapons scaled to the attacker's size (Fudge §4.54 note). */
  scaledToAttacker: boolean;
  /** Maces, flails: the defender's armor counts half, round down (Fudge §4.54 optional note). */
  heavyBlunt: boolean;
  /** Fudge §4.58: on a good hit the target's Scale is halved or ignored. */
  scalePiercing: ScalePiercing;
  ranged: boolean;
  /** Fudge §4.62: the weapon can make stun attacks. */
  stunCapable: boolean;
  /** Fudge §4.7 ("+1 for Magic"): a magic weapon's bonus, added to the offensive damage factor. */
  magic: number;
}

export interface FudgeArmor {
  value: number;
  /** Magic armor bonus (Fudge §4.54 note). */
  magic: number;
}

export interface FudgeCombatant {
  name: string;
  pc: boolean;
  /** Weapon skill level (ladder number). */
  skill: number;
  /** Defence skill level (ladder number). */
  defense: number;
  strength: number;
  strengthScale: number;
  massScale: number;
  damageCapacity: number;
  willpower: number | null;
  weapon: FudgeWeapon;
  armor: FudgeArmor;
  shield: Shield;
  /** Gift Tough Hide, added to the defensive factor (Fudge §4.54). */
  toughHide: number;
  /** Fudge §4.52 variant 2: Damage Resistant gift / Fragile fault. */
  dcGift: DcGift;
  fudgePoints: number | null;
  track: Track;
}

const COMBATANT_FIELDS = [
  "name",
  "pc",
  "skill",
  "defense",
  "strength",
  "strengthScale",
  "massScale",
  "damageCapacity",
  "willpower",
  "weapon",
  "armor",
  "shield",
  "toughHide",
  "dcGift",
  "fudgePoints",
  "track",
];

const ARMOR_FIELDS = ["value", "magic"];

const WEAPON_FIELDS = ["name", "kind", "size", "sharp", "strength", "scaledToAttacker", "heavyBlunt", "scalePiercing", "ranged", "stunCapable", "magic"];


/** Trait levels: the ladder is −3..+4, but rolled and bought values may go beyond it. */
const TRAIT_MIN = -10;
const TRAIT_MAX = 10;

export function parseWeapon(input: unknown, path: Path): FudgeWeapon {
  const o = record(input, path);
  rejectUnknown(o, WEAPON_FIELDS, path);
  const kind = oneOfAt(o, "kind", path, WEAPON_KINDS, "muscle");
  // A fixed weapon's damage is its own Strength; a muscle weapon's is its size (Fudge §4.54).
  const size = kind === "muscle" ? oneOfAt(o, "size", path, WEAPON_SIZES) : oneOfAt(o, "size", path, WEAPON_SIZES, "none");
  const strength = kind === "fixed" ? intAt(o, "strength", path, -20, 50) : o.strength === undefined ? 0 : intAt(o, "strength", path, -20, 50);
  return {
    name: strAt(o, "name", path, ""),
    kind,
    size,
    sharp: boolAt(o, "sharp", path, false),
    strength,
    scaledToAttacker: boolAt(o, "scaledToAttacker", path, false),
    heavyBlunt: boolAt(o, "heavyBlunt", path, false),
    scalePiercing: oneOfAt(o, "scalePiercing", path, SCALE_PIERCING, "none"),
    ranged: boolAt(o, "ranged", path, false),
    stunCapable: boolAt(o, "stunCapable", path, false),
    magic: optIntAt(o, "magic", path, 0, 0, 20),
  };
}

export function parseArmor(input: unknown, path: Path): FudgeArmor {
  if (input === undefined) return { value: 0, magic: 0 };
  const o = record(input, path);
  rejectUnknown(o, ARMOR_FIELDS, path);
  return { value: optIntAt(o, "value", path, 0, 0, 50), magic: optIntAt(o, "magic", path, 0, 0, 50) };
}

/**
 * Parses a combatant. Required: name, skill, weapon, track. Omitted traits are Fair (0), no
 * armor, no shield; `defense` defaults to `skill` (in a Fudge opposed round both sides
 * usually roll the same combat skill, §4.22).
 */
export function parseCombatant(input: unknown, path: Path): FudgeCombatant {
  const o = record(input, path);
  rejectUnknown(o, COMBATANT_FIELDS, path);
  const name = strAt(o, "name", path);
  const skill = intAt(o, "skill", path, TRAIT_MIN, TRAIT_MAX);
  return {
    name,
    pc: boolAt(o, "pc", path, false),
    skill,
    defense: o.defense === undefined ? skill : intAt(o, "defense", path, TRAIT_MIN, TRAIT_MAX),
    strength: optIntAt(o, "strength", path, 0, TRAIT_MIN, TRAIT_MAX),
    strengthScale: optIntAt(o, "strengthScale", path, 0, -50, 50),
    massScale: optIntAt(o, "massScale", path, 0, -50, 50),
    damageCapacity: optIntAt(o, "damageCapacity", path, 0, TRAIT_MIN, TRAIT_MAX),
    willpower: o.willpower === undefined || o.willpower === null ? null : intAt(o, "willpower", path, TRAIT_MIN, TRAIT_MAX),
    weapon: parseWeapon(o.weapon, at(path, "weapon")),
    armor: parseArmor(o.armor, at(path, "armor")),
    shield: oneOfAt(o, "shield", path, SHIELDS, "none"),
    toughHide: optIntAt(o, "toughHide", path, 0, 0, 50),
    dcGift: oneOfAt(o, "dcGift", path, DC_GIFTS, "none"),
    fudgePoints: o.fudgePoints === undefined || o.fudgePoints === null ? null : intAt(o, "fudgePoints", path, 0, 999),
    track: parseTrack(o.track, at(path, "track")),
  };
}

/**
 * Fudge §4.31: a shield is subtracted from the opponent's weapon skill. Small +1 in melee only;
 * medium +1 in melee and +1 against ranged attacks; large +2 in all combat.
 */
export function shieldValue(shield: Shield, ranged: boolean): number {
  switch (shield) {
    case "none":
      return 0;
    case "small":
      return ranged ? 0 : 1;
    case "medium":
      return 1;
    case "large":
      return 2;
  }
}
