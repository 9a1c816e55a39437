/**
 * A combatant of the `fudge` preset, as the sheet sends it: traits as ladder numbers (Fair = 0),
 * the weapon and armor of Fudge §4.54, the shield of §4.31 and the wound track.
 */
import { parseTrack, trackPaths, type Track, type TrackPaths } from "../track";
import { at, boolField, intField, oneOfField, optIntField, record, strField, type Path, type Raw } from "../validate";
import { rejectUnknown } from "../validate";

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
  /**
   * Fudge §4.52 (1): "For certain types of damage - perhaps from a stun ray or a quarterstaff
   * across the ribs - the GM can use the values from +3 to -3 without requiring a roll": with the
   * `roll` Damage Capacity variant, DC counts as a defensive factor against this weapon, no DC roll.
   */
  dcWithoutRoll: boolean;
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
  /**
   * Mass, an attribute rated on the ladder within the character's Scale (Fair 0), added to the
   * defensive factor (Fudge §4.54: "If the defender has Mass other than Fair … it should also be
   * figured in").
   */
  mass: number;
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
  "mass",
  "damageCapacity",
  "willpower",
  "weapon",
  "armor",
  "shield",
  "toughHide",
  "dcGift",
  "fudgePoints",
  "track",
] as const;

const ARMOR_FIELDS = ["value", "magic"] as const;

const WEAPON_FIELDS = [
  "name",
  "kind",
  "size",
  "sharp",
  "strength",
  "scaledToAttacker",
  "heavyBlunt",
  "scalePiercing",
  "ranged",
  "stunCapable",
  "magic",
  "dcWithoutRoll",
] as const;

/** Trait levels: the ladder is −3..+4, but rolled and bought values may go beyond it. */
const TRAIT_MIN = -10;
const TRAIT_MAX = 10;

export function parseWeapon(input: unknown, path: Path): FudgeWeapon {
  const o = record(input, path) as RawWeapon;
  rejectUnknown(o, WEAPON_FIELDS, path);
  const kind = oneOfField(o.kind, path, "kind", WEAPON_KINDS, "muscle");
  // A fixed weapon's damage is its own Strength; a muscle weapon's is its size (Fudge §4.54).
  const size =
    kind === "muscle"
      ? oneOfField(o.size, path, "size", WEAPON_SIZES)
      : oneOfField(o.size, path, "size", WEAPON_SIZES, "none");
  const strength = kind === "fixed" || o.strength !== undefined ? intField(o.strength, path, "strength", -20, 50) : 0;
  return {
    name: strField(o.name, path, "name", ""),
    kind,
    size,
    sharp: boolField(o.sharp, path, "sharp", false),
    strength,
    scaledToAttacker: boolField(o.scaledToAttacker, path, "scaledToAttacker", false),
    heavyBlunt: boolField(o.heavyBlunt, path, "heavyBlunt", false),
    scalePiercing: oneOfField(o.scalePiercing, path, "scalePiercing", SCALE_PIERCING, "none"),
    ranged: boolField(o.ranged, path, "ranged", false),
    stunCapable: boolField(o.stunCapable, path, "stunCapable", false),
    magic: optIntField(o.magic, path, "magic", 0, 0, 20),
    dcWithoutRoll: boolField(o.dcWithoutRoll, path, "dcWithoutRoll", false),
  };
}

export function parseArmor(input: unknown, path: Path): FudgeArmor {
  if (input === undefined) return { value: 0, magic: 0 };
  const o = record(input, path) as RawArmor;
  rejectUnknown(o, ARMOR_FIELDS, path);
  return { value: optIntField(o.value, path, "value", 0, 0, 50), magic: optIntField(o.magic, path, "magic", 0, 0, 50) };
}

/** Input objects as they arrive (plain JSON): every field unchecked. Fields are read by name (see validate.ts). */
type RawWeapon = Raw<(typeof WEAPON_FIELDS)[number]>;
type RawArmor = Raw<(typeof ARMOR_FIELDS)[number]>;
type RawCombatant = Raw<(typeof COMBATANT_FIELDS)[number]>;

/** The paths of a combatant's parts (for errors), made once for a request's attacker and defender (see trackPaths). */
interface PartPaths {
  weapon: Path;
  armor: Path;
  track: TrackPaths;
}
const partPaths = (path: Path): PartPaths => ({
  weapon: at(path, "weapon"),
  armor: at(path, "armor"),
  track: trackPaths(at(path, "track")),
});
const ATTACKER_PARTS = partPaths("attacker");
const DEFENDER_PARTS = partPaths("defender");

/**
 * Parses a combatant. Required: name, skill, weapon, track. Omitted traits are Fair (0), no
 * armor, no shield; `defense` defaults to `skill` (in a Fudge opposed round both sides
 * usually roll the same combat skill, §4.22).
 */
export function parseCombatant(input: unknown, path: Path): FudgeCombatant {
  const o = record(input, path) as RawCombatant;
  const parts = path === "attacker" ? ATTACKER_PARTS : path === "defender" ? DEFENDER_PARTS : partPaths(path);
  rejectUnknown(o, COMBATANT_FIELDS, path);
  const name = strField(o.name, path, "name");
  const skill = intField(o.skill, path, "skill", TRAIT_MIN, TRAIT_MAX);
  return {
    name,
    pc: boolField(o.pc, path, "pc", false),
    skill,
    defense: o.defense === undefined ? skill : intField(o.defense, path, "defense", TRAIT_MIN, TRAIT_MAX),
    strength: optIntField(o.strength, path, "strength", 0, TRAIT_MIN, TRAIT_MAX),
    strengthScale: optIntField(o.strengthScale, path, "strengthScale", 0, -50, 50),
    massScale: optIntField(o.massScale, path, "massScale", 0, -50, 50),
    mass: optIntField(o.mass, path, "mass", 0, TRAIT_MIN, TRAIT_MAX),
    damageCapacity: optIntField(o.damageCapacity, path, "damageCapacity", 0, TRAIT_MIN, TRAIT_MAX),
    willpower:
      o.willpower === undefined || o.willpower === null
        ? null
        : intField(o.willpower, path, "willpower", TRAIT_MIN, TRAIT_MAX),
    weapon: parseWeapon(o.weapon, parts.weapon),
    armor: parseArmor(o.armor, parts.armor),
    shield: oneOfField(o.shield, path, "shield", SHIELDS, "none"),
    toughHide: optIntField(o.toughHide, path, "toughHide", 0, 0, 50),
    dcGift: oneOfField(o.dcGift, path, "dcGift", DC_GIFTS, "none"),
    fudgePoints:
      o.fudgePoints === undefined || o.fudgePoints === null
        ? null
        : intField(o.fudgePoints, path, "fudgePoints", 0, 999),
    track: parseTrack(o.track, parts.track),
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
