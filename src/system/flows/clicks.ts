/**
 * The flows that run only on a click or a later event (an attack, a card's buttons, Guts, healing,
 * trait and opposed rolls, Fudge Point spends, Experience, a battle's end): one chunk loaded on the
 * first such click (`loadClicks`, ./tables.ts), not at start-up (docs/foundry.md "What loads when").
 */
export { attack, attackWithAll, postAttack } from "./attack";
export { applyToAll, applyToSelected, clickCardAction, judge, performCardAction } from "./card";
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
export { sideOf, spendAttackFudgePoint, undoAttackFudgePoint } from "./attack-fudge-point";
export { awardExperience, awardExperienceToActors, spendExperience, undoAdvance } from "./experience";
export { endBattle, stunCountdown } from "./battle";
