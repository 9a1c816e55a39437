/**
 * Sheet and chat-card actions as functions over plain documents: they return plain update
 * objects (nested, never dotted keys) that the Foundry layer passes to `update` and the
 * playground merges into its in-memory documents. Bad input throws a RulesError with an i18n
 * key and never touches the input (nothing is mutated, nothing is lost). One file per concern;
 * callers use them as one namespace (`import * as actions`).
 */
export * from "../permissions";
export * from "../updates";
export * from "../card-target";
export * from "./wound-track";
export * from "./kill";
export * from "./fields";
export * from "./custom-track";
export * from "./trait-roll";
export * from "./attack-card";
export * from "./miniature-guts";
