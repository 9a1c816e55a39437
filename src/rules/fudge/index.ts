/** The `fudge` preset: Fudge core combat and wounds (Fudge 1995 §4.5x). Importing it registers the pipeline. */
export * from "./options";
export * from "./combatant";
export * from "./factors";
export { factorBonus, relativeDegreeBonus, readMinMidMax, type MinMidMaxRead } from "./minMidMax";
export { unopposedOutcome, unopposedRoll, willpowerEasedPenalty, type UnopposedResult } from "./unopposed";
export {
  fudgePipeline,
  checkFudgeAttacker,
  parseFudgeRequest,
  parseSituation,
  fudgeSlots,
  resolveFudge,
  type FudgeRequest,
  type FudgeSituation,
} from "./pipeline";
export { levelScaleFor, type LevelScale } from "./woundLevel";
export * from "./creation";
