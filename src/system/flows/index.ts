/**
 * One flow per click, each written once against the host port (./port.ts) and run by Foundry
 * (src/foundry/port.ts) and the playground (playground/port.ts) alike; the action tables
 * (./tables.ts) map every `data-action` to one. docs/foundry.md "Flows and the host port".
 */
export * from "./port";
export { parseActorWrite, runActorWrite, type ActorWrite, type WriteResult } from "./writes";
export { cardOf, ladderNames, liveActor, maybeActor, sidesOf, storedCard, targetOf } from "./read";
export { attack, attackWithAll, postAttack } from "./attack";
export { applyToAll, applyToSelected, clickCardAction, judge, performCardAction, type CardActionOptions } from "./card";
export { gutsAfterWound, gutsCheck, gutsForFriends, nearDeathTurn, runGutsChecks, runGutsRechecks } from "./guts";
export { heal, healQuietly, recover } from "./heal";
export {
  performOpposed,
  rollOpposed,
  rollTrait,
  spendRollAutoSuccess,
  spendRollFudgePoint,
  undoRollFudgePoint,
} from "./trait-roll";
export {
  editCustomLevels,
  editField,
  kill,
  reduceWoundWithFudgePoint,
  refundWoundFudgePoint,
  resetTrack,
  toggleBox,
  undoKill,
} from "./track";
export { createItem, needItem, toggleEquipped } from "./items";
export { carryAttributes, editItemField, pickCreationMethod } from "./creation";
export { endBattle, stunCountdown } from "./battle";
export { awardExperience, awardExperienceToActors, spendExperience, undoAdvance } from "./experience";
export { WOUND_HOOKS, type WoundHookPayload } from "./hooks";
export {
  CARD_ACTIONS,
  HOST_ACTIONS,
  SHEET_ACTIONS,
  clickOf,
  loadClicks,
  loadedClicks,
  runCardAction,
  runSheetAction,
  type ActionEntry,
  type Click,
} from "./tables";
export type { RollCardData } from "../actions/trait-roll";
/** A trait roll's card data from recorded dice (the Quench batches re-derive a card with it). */
export { rollTrait as traitRollCard } from "../actions/trait-roll";
export { KILL_RECORD_FLAG } from "../actions/kill";
export { withGmRecords } from "../gm-records";
