/** Item `shield` (Fudge §4.31, outside the seeds: small, medium, large; Miniatures DDF bonus). */
import { defaultShieldData, SHIELD_SIZES } from "../../system/data";
import { migrateItemSystem } from "../../system/migrate";
import { bool, choice, richText, int } from "./fields";

const D = defaultShieldData();

export function shieldSchema() {
  return {
    size: choice(SHIELD_SIZES, D.size),
    miniaturesBonus: int(D.miniaturesBonus, 0, 20),
    equipped: bool(D.equipped),
    description: richText(),
  };
}

export class ShieldModel extends foundry.abstract.TypeDataModel<ReturnType<typeof shieldSchema>, Item.Implementation> {
  static readonly type = "shield";
  static override defineSchema() {
    return shieldSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    // In place: Foundry keeps `source` and ignores the return value.
    migrateItemSystem("shield", source);
    return super.migrateData(source as never);
  }
}
