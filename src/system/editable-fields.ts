/**
 * The fields a sheet edits inline, with their ranges: the sheet's edit (actions/fields.ts
 * setActorField) checks a value against them, and Foundry's data models (src/foundry/data/fields.ts)
 * declare the same ranges, so the sheet, the data model and the rules core agree on each.
 */
export type FieldSpec =
  | { type: "int"; min: number; max: number }
  | { type: "bool" }
  | { type: "text" }
  | { type: "enum"; values: readonly string[] };

export const LADDER_FIELD: FieldSpec = { type: "int", min: -10, max: 10 };

/**
 * Fields a sheet edits inline, with their ranges (stored data stays valid for the rules core).
 * Attributes are the world's own keys (src/system/attributes.ts), a LADDER_FIELD each.
 */
export const EDITABLE_FIELDS: Record<string, FieldSpec> = {
  "scale.strength": { type: "int", min: -50, max: 50 },
  "scale.mass": { type: "int", min: -50, max: 50 },
  fudgePoints: { type: "int", min: 0, max: 999 },
  "woundTrack.preset": { type: "enum", values: ["standard", "cinematic", "epic", "custom"] },
  "woundTrack.epicExtraHurt": { type: "int", min: 0, max: 2 },
  "woundTrack.epicExtraVeryHurt": { type: "int", min: 0, max: 2 },
  "woundTrack.label": { type: "text" },
  "volt.willpower": { type: "int", min: 0, max: 99 },
  "volt.strength": { type: "int", min: 0, max: 99 },
  "volt.guard": { type: "int", min: 0, max: 999 },
  "volt.tough": { type: "int", min: -9, max: 20 },
  defenseSkill: { type: "text" },
  defenseDefault: LADDER_FIELD,
  // HTML: Foundry's server cleans it (system.json htmlFields); the playground's editor sanitises before saving.
  notes: { type: "text" },
  pawn: { type: "bool" },
  strength: LADDER_FIELD,
  dexterity: LADDER_FIELD,
  guts: LADDER_FIELD,
  movement: { type: "int", min: 0, max: 1000 },
  terrifying: { type: "int", min: 0, max: 20 },
  flying: { type: "bool" },
  "gutsStanding.defendingKing": { type: "bool" },
  "gutsStanding.peasant": { type: "bool" },
  "gutsStanding.follower": { type: "bool" },
};
