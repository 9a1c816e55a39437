/** Actor `npc`: as a character, with the NPC pawn track available (Fudge §4.57). */
import { defaultNpcData } from "../../system/data";
import { deriveActorSystem, type DerivedActor } from "../bridge";
import { migrateActorSystem } from "../migrate-pure";
import { characterSchema } from "./character";
import { bool } from "./fields";

export function npcSchema() {
  return { ...characterSchema(), pawn: bool(defaultNpcData().pawn) };
}

export class NpcModel extends foundry.abstract.TypeDataModel<ReturnType<typeof npcSchema>, Actor.Implementation> {
  static readonly type = "npc";
  declare derived: DerivedActor;

  static override defineSchema() {
    return npcSchema();
  }

  static override migrateData(source: Record<string, unknown>) {
    return super.migrateData(migrateActorSystem("npc", source) as never);
  }

  override prepareDerivedData() {
    super.prepareDerivedData();
    this.derived = deriveActorSystem(this.parent);
    this.openBoxes.value = this.derived.openBoxes.value;
    this.openBoxes.max = this.derived.openBoxes.max;
  }
}
