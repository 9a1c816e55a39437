/** The rules core: every preset of RULES.md, importing nothing from Foundry. */
export * from "./errors";
export * from "./validate";
export * from "./explain";
export * from "./ladder";
export * from "./dice";
export * from "./track";
export * from "./pipeline";
