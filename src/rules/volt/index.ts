/** Preset `volt` (Volt 4.0, seed 001): its track kind, attack pipeline, recovery and duel rules. */
export * from "./roll";
export * from "./track";
export * from "./pipeline";
export * from "./recover";
