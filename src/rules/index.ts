/**
 * The rules core: every preset of RULES.md as pure functions over plain data, importing nothing
 * from Foundry.
 */

export * from "./errors";
export * from "./validate";
export * from "./explain";
export * from "./ladder";
export * from "./dice";
export * from "./track";
export * from "./pipeline";
export * from "./presets";
export * from "./odds";
export * from "./exchange";
export * from "./forecast";
export * from "./dice-options";
export * as character from "./character";
export * as box from "./fudge/box-track";
export * as dc from "./fudge/dc-track";
export * as fudge from "./fudge";
export * as miniatures from "./miniatures";
export * as fate from "./fate";
export * as volt from "./volt";
