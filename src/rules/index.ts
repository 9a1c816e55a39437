/**
 * The rules core: every preset of RULES.md as pure functions over plain data, importing nothing
 * from Foundry. Importing this module registers all track kinds and preset pipelines.
 */
import "./presets";

export * from "./errors";
export * from "./validate";
export * from "./explain";
export * from "./ladder";
export * from "./dice";
export * from "./track";
export * from "./pipeline";
export * from "./odds";
export * from "./exchange";
export * from "./forecast";
export * as box from "./tracks/box";
export * as dc from "./tracks/dc";
export * as fudge from "./fudge";
export * as miniatures from "./miniatures";
export * as fate from "./fate";
export * as volt from "./volt";
