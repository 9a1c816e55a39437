/** Preset `fudge` (Fudge 1995 §4.5x): its box and Damage Capacity track kinds, attack pipeline and duel rules. */
export * from "./options";
export * from "./combatant";
export * from "./factors";
export * from "./minMidMax";
export * from "./unopposed";
export * from "./dice";
export * from "./request";
export * from "./prepared";
export * from "./resolve";
export * from "./pipeline";
export * from "./woundLevel";
export * from "./box-track";
export * from "./dc-track";
export * from "./healing";
export * from "./duel";
export * from "./stun";
export * from "./creation";
