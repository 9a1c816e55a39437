/** Actor `miniature`: a Fudge Miniatures Battles datacard (Miniatures: datacards). */
import { defaultMiniatureData } from "../../system/data";
import { deriveActorSystem, type DerivedActor } from "../bridge";
import { migrateActorSystem } from "../../system/migrate";
import { GUTS_REASONS } from "../../rules/miniatures";
import { bool, choice, editableInt, richText, int, trackState } from "./fields";
import { STORE_BOUNDS } from "../../system/bounds";
import { checkTrackStateSize } from "./character";

const fields = foundry.data.fields;
const D = defaultMiniatureData();

export function miniatureSchema() {
  return {
    // Miniatures: stats start at +0 with four free levels to buy.
    strength: editableInt("strength", D.strength),
    dexterity: editableInt("dexterity", D.dexterity),
    guts: editableInt("guts", D.guts),
    movement: editableInt("movement", D.movement),
    terrifying: editableInt("terrifying", D.terrifying),
    flying: bool(D.flying),
    woundTrack: new fields.SchemaField({ state: trackState() }),
    // Miniatures: Guts — failed checks still in force, re-checked each later turn (src/rules/miniatures/guts.ts).
    gutsState: new fields.SchemaField({
      pending: new fields.ArrayField(
        new fields.SchemaField({
          reason: choice(GUTS_REASONS, "other"),
          target: int(0, -50, 50),
          sinceTurn: int(0, 0, 9999),
          bonus: int(0, 0, 9999),
          forfeitNext: int(0, 0, 99),
          lastTurn: int(0, 0, 9999),
          // Failure by 1–4: −1 to rolls … falls down terrified (0 = passed, never stored).
          effect: int(1, 1, 4),
        }),
        { required: true, initial: [], max: STORE_BOUNDS.gutsPending },
      ),
      effect: int(0, 0, 4),
    }),
    // Seed 004 "Sample characters": what the GM sets for the model's Guts checks (src/system/guts.ts).
    gutsStanding: new fields.SchemaField({
      defendingKing: bool(D.gutsStanding.defendingKing),
      peasant: bool(D.gutsStanding.peasant),
      follower: bool(D.gutsStanding.follower),
    }),
    notes: richText(),
  };
}

export class MiniatureModel extends foundry.abstract.TypeDataModel<
  ReturnType<typeof miniatureSchema>,
  Actor.Implementation
> {
  static readonly type = "miniature";
  declare derived: DerivedActor;
  /** Token bar: open / markable wound boxes — derived, not stored, so not editable (main.ts trackableAttributes). */
  declare openBoxes: { value: number; max: number };

  static override defineSchema() {
    return miniatureSchema();
  }

  static override migrateData(source: Record<string, unknown>) {
    // In place: Foundry keeps `source` and ignores the return value.
    migrateActorSystem("miniature", source);
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
