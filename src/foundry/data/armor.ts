/** Item `armor` (Fudge §4.54 armor values; Volt Coverage and Protection interval). */
import { defaultArmorData } from "../../system/data";
import { migrateItemSystem } from "../../system/migrate";
import { bool, richText, int } from "./fields";

const fields = foundry.data.fields;
const D = defaultArmorData();

export function armorSchema() {
  return {
    // Fudge §4.54: +1 light pliable … +4 heavy metal, advanced SF +5 or more.
    value: int(D.value, 0, 50),
    magic: int(D.magic, 0, 10),
    volt: new fields.SchemaField({
      // Volt: Coverage 20 = always struck; 1–19 = struck unless the white die is above it.
      coverage: int(D.volt.coverage, 0, 20),
      protection: new fields.SchemaField({
        min: int(D.volt.protection.min, 0, 99),
        max: int(D.volt.protection.max, 0, 99),
      }),
    }),
    equipped: bool(D.equipped),
    description: richText(),
  };
}

export class ArmorModel extends foundry.abstract.TypeDataModel<ReturnType<typeof armorSchema>, Item.Implementation> {
  static readonly type = "armor";
  static override defineSchema() {
    return armorSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    // In place: Foundry keeps `source` and ignores the return value.
    migrateItemSystem("armor", source);
    return super.migrateData(source as never);
  }
  static override validateJoint(data: { volt: { protection: { min: number; max: number } } }) {
    // Volt: the Protection interval a–b needs a ≤ b.
    if (data.volt.protection.min > data.volt.protection.max)
      throw new Error("volt.protection: min must not exceed max");
  }
}
