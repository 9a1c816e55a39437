/** Actor `npc`: as a character, with the NPC pawn track available (Fudge §4.57). */
import { defaultNpcData } from "../../system/data";
import { deriveActorSystem, type DerivedActor } from "../bridge";
import { migrateActorSystem } from "../../system/migrate";
import { characterSchema, checkTrackStateSize } from "./character";
import { bool } from "./fields";

export function npcSchema() {
  return { ...characterSchema(), pawn: bool(defaultNpcData().pawn) };
}

export class NpcModel extends foundry.abstract.TypeDataModel<ReturnType<typeof npcSchema>, Actor.Implementation> {
  static readonly type = "npc";
  declare derived: DerivedActor;
  /** Token bar: open / markable wound boxes — derived, not stored, so not editable (main.ts trackableAttributes). */
  declare openBoxes: { value: number; max: number };

  static override defineSchema() {
    return npcSchema();
  }

  static override migrateData(source: Record<string, unknown>) {
    // In place: Foundry keeps `source` and ignores the return value.
    migrateActorSystem("npc", source);
    return super.migrateData(source as never);
  }

  static override validateJoint(data: Record<string, unknown>) {
    checkTrackStateSize(data);
  }

  override prepareDerivedData() {
    super.prepareDerivedData();
    this.derived = deriveActorSystem(this.parent);
    this.openBoxes = { ...this.derived.openBoxes };
  }
}
