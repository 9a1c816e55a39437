/** Preset `volt` (Volt 4.0, seed 001): importing this module registers the track kind and the pipeline. */
export * from "./roll";
export * from "../tracks/volt";
export * from "./pipeline";
export * from "./recover";
