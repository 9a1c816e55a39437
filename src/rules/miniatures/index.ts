/** Preset `miniatures` (seed 004, Fudge Miniatures Battles): datacards, Legendary roll, Guts, movement, the attack pipeline and duel rules. */
export * from "./datacard";
export * from "./legendary";
export * from "./guts";
export * from "./movement";
export * from "./pipeline";
export * from "./stat-check";
export * from "./duel-minds";
export * from "./duel";
export * from "./table";
export * from "./guts-circumstances";
