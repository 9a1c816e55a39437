/** The `fudge` preset: Fudge core combat and wounds (Fudge 1995 §4.5x): its box and Damage Capacity track kinds, attack pipeline and duel rules. */
export * from "./options";
export * from "./combatant";
export * from "./factors";
export { factorBonus, relativeDegreeBonus, readMinMidMax, type MinMidMaxRead } from "./minMidMax";
export { unopposedOutcome, unopposedRoll, willpowerEasedPenalty, type UnopposedResult } from "./unopposed";
export { fudgePipeline, fudgePairedOutcomes } from "./pipeline";
export { parseFudgeRequest, parseSituation, fudgeSlots, type FudgeRequest, type FudgeSituation } from "./request";
export { checkFudgeAttacker, resolveFudge } from "./resolve";
export { fudgeWithTracks } from "./prepared";
export { levelScaleFor, type LevelScale } from "./woundLevel";
