/** Preset `fate` (seed 003): the FATE wound-ladder track kind and the opposed attack pipeline. */
export * from "./track";
export * from "./pipeline";
