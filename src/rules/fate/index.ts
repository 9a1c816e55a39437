/** Preset `fate` (seed 003): the FATE wound-ladder track kind and the opposed attack pipeline (its duels take the engine's defaults). */
export * from "./track";
export * from "./clipped";
export * from "./pipeline";
