/** Item `weapon` (Fudge §4.54 size classes; Miniatures datacard weapons; Volt attack values). */
import { defaultWeaponData, STAT_BASES, WEAPON_SIZES } from "../../system/data";
import { migrateItemSystem } from "../../system/migrate";
import { bool, choice, richText, int, text } from "./fields";

const fields = foundry.data.fields;
const D = defaultWeaponData();

export function weaponSchema() {
  return {
    size: choice(WEAPON_SIZES, D.size),
    sharp: bool(D.sharp),
    heavyBlunt: bool(D.heavyBlunt),
    // Fudge §4.7: a magic weapon's bonus to the ODF (rules core limit 0–20).
    magic: int(D.magic, 0, 20),
    power: choice(["muscle", "fixed"] as const, D.power),
    // Fudge §4.54: a gun's own Strength; Scale-sized weapons may go far beyond the ladder.
    strength: int(D.strength, -20, 50),
    statBasis: choice(STAT_BASES, D.statBasis),
    hands: new fields.NumberField({
      required: true,
      nullable: false,
      integer: true,
      initial: D.hands,
      choices: [1, 2],
    }),
    range: int(D.range, 0, 999),
    ranged: bool(D.ranged),
    stunCapable: bool(D.stunCapable),
    // Fudge §4.52 (1): with the DC roll variant, DC is a factor against this damage, no roll.
    dcWithoutRoll: bool(D.dcWithoutRoll),
    // Fudge §4.58: on a good hit the target's Scale is halved or ignored.
    scalePiercing: choice(["none", "halve", "ignore"] as const, D.scalePiercing),
    // Fudge §4.54 note: a projectile weapon scaled to the attacker counts his Strength Scale.
    scaledToAttacker: bool(D.scaledToAttacker),
    skill: text(D.skill),
    // Miniatures: datacard numbers (rules core STAT_LIMIT ±20).
    miniaturesDamage: int(D.miniaturesDamage, -20, 20),
    shootInContact: bool(D.shootInContact),
    volt: new fields.SchemaField({
      // Volt 4.0: values over 20 are allowed (the dice add 20 while they still succeed).
      attack: int(D.volt.attack, 0, 99),
      pierce: int(D.volt.pierce, 0, 99),
      damage: int(D.volt.damage, 0, 99),
      stun: bool(D.volt.stun),
    }),
    equipped: bool(D.equipped),
    description: richText(),
  };
}

export class WeaponModel extends foundry.abstract.TypeDataModel<ReturnType<typeof weaponSchema>, Item.Implementation> {
  static readonly type = "weapon";
  static override defineSchema() {
    return weaponSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    // In place: Foundry keeps `source` and ignores the return value.
    migrateItemSystem("weapon", source);
    return super.migrateData(source as never);
  }
}
