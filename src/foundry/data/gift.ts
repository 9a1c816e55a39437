/** Item `gift` (Fudge §4.51 High Pain Threshold, Tough Hide, Damage Resistant …). */
import { migrateItemSystem } from "../migrate-pure";
import { traitSchema } from "./trait";

export class GiftModel extends foundry.abstract.TypeDataModel<ReturnType<typeof traitSchema>, Item.Implementation> {
  static readonly type = "gift";
  static override defineSchema() {
    return traitSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    return super.migrateData(migrateItemSystem("gift", source) as never);
  }
}
