/** Item `fault` (Fudge §4.51 Low Pain Threshold, Fragile, Pain Intolerant …). */
import { migrateItemSystem } from "../../system/migrate";
import { traitSchema } from "./trait";

export class FaultModel extends foundry.abstract.TypeDataModel<ReturnType<typeof traitSchema>, Item.Implementation> {
  static readonly type = "fault";
  static override defineSchema() {
    return traitSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    // In place: Foundry keeps `source` and ignores the return value.
    migrateItemSystem("fault", source);
    return super.migrateData(source as never);
  }
}
