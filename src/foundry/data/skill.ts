/** Item `skill`: a trait on the ladder (Fudge §1.3). */
import { defaultSkillData } from "../../system/data";
import { migrateItemSystem } from "../../system/migrate";
import { richText, ladder } from "./fields";

const fields = foundry.data.fields;

export function skillSchema() {
  // Five-Point Fudge skill group: a short key (SRD, Fantasy Fudge: athletic, combat …), bounded.
  return {
    level: ladder(defaultSkillData().level),
    group: new fields.StringField({
      required: true,
      blank: true,
      initial: "",
      validate: (v: unknown) => typeof v === "string" && v.length <= 32,
    }),
    description: richText(),
  };
}

export class SkillModel extends foundry.abstract.TypeDataModel<ReturnType<typeof skillSchema>, Item.Implementation> {
  static readonly type = "skill";
  static override defineSchema() {
    return skillSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    // In place: Foundry keeps `source` and ignores the return value.
    migrateItemSystem("skill", source);
    return super.migrateData(source as never);
  }
}
