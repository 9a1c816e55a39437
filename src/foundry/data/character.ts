/** Actor `character`: a Fudge PC (Fudge §4.5x), also carrying the FATE and Volt blocks. */
import { defaultCharacterData, TRACK_PRESETS } from "../../system/data";
import { deriveActorSystem, type DerivedActor } from "../bridge";
import { migrateActorSystem } from "../../system/migrate";
import { attributeLevels, choice, editableInt, richText, int, text, trackState } from "./fields";
import { STORE_BOUNDS, overJson } from "../../system/bounds";
import { character } from "../../rules";

const fields = foundry.data.fields;
const D = defaultCharacterData();

export function characterSchema() {
  return {
    // Levels by the world's attribute keys (src/system/attributes.ts), at most ATTRIBUTE_LIMITS.count keys.
    attributes: attributeLevels(D.attributes),
    // Fudge §4.58: Scale is an open number.
    scale: new fields.SchemaField({
      strength: editableInt("scale.strength", D.scale.strength),
      mass: editableInt("scale.mass", D.scale.mass),
    }),
    fudgePoints: editableInt("fudgePoints", D.fudgePoints),
    // Fudge §1.36: the spends of these points, each naming what it changed (src/system/fudge-point-spend.ts parses it); the oldest evicted past the bound.
    fudgePointLog: new fields.ArrayField(new fields.ObjectField(), {
      required: true,
      initial: [],
      max: character.MAX_FUDGE_POINT_LOG,
    }),
    woundTrack: new fields.SchemaField({
      state: trackState(),
      preset: choice(TRACK_PRESETS, D.woundTrack.preset),
      // Epic track: up to two more boxes on Hurt and Very Hurt (outside the seeds).
      epicExtraHurt: editableInt("woundTrack.epicExtraHurt", 0),
      epicExtraVeryHurt: editableInt("woundTrack.epicExtraVeryHurt", 0),
      customLevels: new fields.ArrayField(
        new fields.SchemaField({
          key: text("level", STORE_BOUNDS.key),
          label: text(""),
          boxes: int(1, 0, 10),
          penalty: int(0, -10, 0),
          threshold: int(1, 1, 99),
          // "" (no effect beyond the penalty) is a valid choice: a blank-refusing choice() would reject it.
          effect: new fields.StringField({
            required: true,
            blank: true,
            choices: ["", "cannotAct", "dying"],
            initial: "",
          }),
          // Fudge §4.51 Light Wound: the penalty after combat; null (old worlds too) = the level's one penalty.
          afterCombatPenalty: new fields.NumberField({
            required: false,
            nullable: true,
            integer: true,
            initial: null,
            min: -10,
            max: 0,
          }),
        }),
        { required: false, initial: [], max: STORE_BOUNDS.customLevels },
      ),
      label: text(D.woundTrack.label),
    }),
    volt: new fields.SchemaField({
      willpower: editableInt("volt.willpower", D.volt.willpower),
      strength: editableInt("volt.strength", D.volt.strength),
      guard: editableInt("volt.guard", D.volt.guard),
      // Volt: Tough/Fragile steps move the top penalty row.
      tough: editableInt("volt.tough", D.volt.tough),
    }),
    defenseSkill: text(""),
    defenseDefault: editableInt("defenseDefault", D.defenseDefault),
    notes: richText(),
    // Fudge §5.2: EP and the advancement log (src/system/experience.ts checks it on every read); null until the first award.
    experience: new fields.ObjectField({ required: true, nullable: true, initial: null }),
  };
}

export class CharacterModel extends foundry.abstract.TypeDataModel<
  ReturnType<typeof characterSchema>,
  Actor.Implementation
> {
  static readonly type = "character";
  declare derived: DerivedActor;
  /** Token bar: open / markable wound boxes — derived, not stored, so not editable (main.ts trackableAttributes). */
  declare openBoxes: { value: number; max: number };

  static override defineSchema() {
    return characterSchema();
  }

  static override migrateData(source: Record<string, unknown>) {
    // In place: Foundry keeps `source` and ignores the return value.
    migrateActorSystem("character", source);
    return super.migrateData(source as never);
  }

  /** The wound track's stored state is bounded as a whole (the server validates the merged data jointly). */
  static override validateJoint(data: Record<string, unknown>) {
    checkTrackStateSize(data);
  }

  override prepareDerivedData() {
    super.prepareDerivedData();
    this.derived = deriveActorSystem(this.parent);
    this.openBoxes = { ...this.derived.openBoxes };
  }
}

/** Throws when the actor's stored wound track state is over its bound (STORE_BOUNDS.trackState). */
export function checkTrackStateSize(data: Record<string, unknown>): void {
  const over = overJson(
    (data.woundTrack as { state?: unknown } | undefined)?.state,
    STORE_BOUNDS.trackState,
    "woundTrack.state",
  );
  if (over) throw new Error(over);
  const xp = overJson(data.experience, STORE_BOUNDS.experience, "experience");
  if (xp) throw new Error(xp);
  const spends = overJson(data.fudgePointLog, STORE_BOUNDS.fudgePointLog, "fudgePointLog");
  if (spends) throw new Error(spends);
}
