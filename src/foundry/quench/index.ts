/**
 * In-world self-test: with the Quench module active, the system registers Mocha/Chai batches on
 * `quenchReady` (FOUNDRY-V13.md "Manifest"). Each builds a scratch state from the system's packs,
 * runs its checks against the live world with real Foundry Rolls, and deletes everything it
 * created. docs/foundry.md tells a tester how to run them and what to report.
 *
 * Types: a local subset of @ethaks/fvtt-quench's API (its package pins a different fvtt-types).
 */
import { SYSTEM_ID } from "../../system/registry";
import type { QuenchLike } from "./helpers";
import { registerSheetsBatch } from "./sheets";
import { registerCardLoopBatch } from "./card-loop";
import { registerStatusesBatch } from "./statuses";
import { registerInitiativeBatch } from "./initiative";
import { registerMigrationBatch } from "./migration";
import { registerIntegrityBatch } from "./integrity";
import { registerRichTextBatch } from "./rich-text";
import { registerMiniTraitsBatch } from "./mini-traits";
import { registerGutsTableBatch } from "./guts-table";
import { registerBattleLapseBatch, registerLightWoundBatch } from "./battle";
import { registerClippedBatch } from "./clipped";
import { registerAttackerAsPostedBatch, registerGmJudgementBatch } from "./cards";
import { registerRoundsBatch } from "./rounds";
import { registerMiniTableBatch } from "./table";
import { registerPrivateCardsBatch } from "./private-cards";
import { registerTokenBarBatch } from "./token-bar";
import { registerTokenHudBatch } from "./token-hud";
import { registerCombatEndBatch } from "./combat-end";
import { registerDiceOptionsBatch } from "./dice-options";
import { registerFudgePointsBatch } from "./fudge-points";

export type { QuenchBatchContext, QuenchLike } from "./helpers";

export const QUENCH_BATCHES = [
  "sheets",
  "card-loop",
  "statuses",
  "initiative",
  "migration",
  "integrity",
  "rich-text",
  "mini-traits",
  "guts-table",
  "battle-lapse",
  "light-wound",
  "fate-clipped",
  "gm-judgement",
  "attacker-as-posted",
  "rounds",
  "mini-table",
  "private-cards",
  "token-bar",
  "token-hud",
  "combat-end",
  "dice-options",
  "fudge-points",
].map((k) => `${SYSTEM_ID}.${k}`);

export function registerQuenchBatches(quench: QuenchLike): void {
  registerSheetsBatch(quench);
  registerCardLoopBatch(quench);
  registerStatusesBatch(quench);
  registerInitiativeBatch(quench);
  registerMigrationBatch(quench);
  registerIntegrityBatch(quench);
  registerRichTextBatch(quench);
  registerMiniTraitsBatch(quench);
  registerGutsTableBatch(quench);
  registerBattleLapseBatch(quench);
  registerLightWoundBatch(quench);
  registerClippedBatch(quench);
  registerGmJudgementBatch(quench);
  registerAttackerAsPostedBatch(quench);
  registerRoundsBatch(quench);
  registerMiniTableBatch(quench);
  registerPrivateCardsBatch(quench);
  registerTokenBarBatch(quench);
  registerTokenHudBatch(quench);
  registerCombatEndBatch(quench);
  registerDiceOptionsBatch(quench);
  registerFudgePointsBatch(quench);
}
