/** Preset `volt` (Volt 4.0, seed 001): its track kind, attack pipeline, recovery, duel rules and the integer sheets of its duel methods. */
export * from "./roll";
export * from "./track";
export * from "./pipeline";
export * from "./recover";
export * from "./duel";
export * from "./sheet";
export * from "./product";
export * from "./stream-kernel";
export * from "./forward-count";
export * from "./sheet-sampler";
