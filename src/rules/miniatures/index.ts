/** Preset `miniatures` (seed 004, Fudge Miniatures Battles): datacards, Legendary roll, Guts, movement and the attack pipeline. */
export * from "./datacard";
export * from "./legendary";
export * from "./guts";
export * from "./movement";
export * from "./pipeline";
export * from "./stat-check";
