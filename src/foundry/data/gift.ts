/** Item `gift` (Fudge §4.51 High Pain Threshold, Tough Hide, Damage Resistant …). */
import { migrateItemSystem } from "../../system/migrate";
import { traitSchema } from "./trait";

export class GiftModel extends foundry.abstract.TypeDataModel<ReturnType<typeof traitSchema>, Item.Implementation> {
  static readonly type = "gift";
  static override defineSchema() {
    return traitSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    // In place: Foundry keeps `source` and ignores the return value.
    migrateItemSystem("gift", source);
    return super.migrateData(source as never);
  }
}
