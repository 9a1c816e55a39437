/** Item `skill`: a trait on the ladder (Fudge §1.3). */
import { defaultSkillData } from "../../system/data";
import { migrateItemSystem } from "../../system/migrate";
import { richText, ladder } from "./fields";

export function skillSchema() {
  return { level: ladder(defaultSkillData().level), description: richText() };
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
