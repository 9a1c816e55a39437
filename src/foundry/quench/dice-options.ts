/**
 * In-world self-test of the world's dice option (Fudge §3.21–3.22) for a GM with the Quench module:
 * in a Fudge world, scratch Leroy rolls Strength under each option; the card records the option,
 * every throw is a Foundry Roll with the option's formula (a table's "roll again" thrown again) whose
 * dice are the card's, and the rules core re-derives the card's result from those dice.
 * Registered by index.ts; the dice setting and the preset are restored, the cards deleted.
 */
import { DICE_OPTION_FORMULAS, DICE_OPTION_IDS, parseDiceOption, type DiceOptionId } from "../../rules";
import * as flows from "../../system/flows";
import { SYSTEM_ID } from "../../system/registry";
import { plainActor, worldRules } from "../bridge";
import { foundryPort } from "../port";
import { fudgeDuel, type QuenchLike } from "./helpers";

type DieResult = { result: number; active?: boolean };
type RolledTerm = { results?: DieResult[] };

/** A Roll's dice in order, as the card records them (d6 − d6: [plus, minus]). */
const diceOf = (roll: Roll): number[] =>
  ((roll as unknown as { dice: RolledTerm[] }).dice ?? []).flatMap((d) =>
    (d.results ?? []).filter((r) => r.active !== false).map((r) => r.result),
  );

export function registerDiceOptionsBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.dice-options`,
    ({ it, before, after, assert }) => {
      const { s, duel } = fudgeDuel({ before, after });
      for (const id of DICE_OPTION_IDS)
        it(`${id}: Leroy's Strength roll is thrown as ${DICE_OPTION_FORMULAS[id]} and its card re-derives from its dice`, async () => {
          await s.setRule("dice", id);
          const known = new Set(game.messages!.contents.map((m) => m.id));
          await flows.rollTrait(foundryPort(), duel.leroy.uuid, "attributes.strength", { fastForward: true });
          const message = game.messages!.contents.find((m) => !known.has(m.id));
          assert.ok(message, "a roll card was posted");
          s.track(message);
          const card = message!.system as unknown as flows.RollCardData;
          assert.equal(card.diceOption || "4dF", id, "the card records the dice (none stored for 4dF)");
          const rolls = (message as unknown as { rolls: Roll[] }).rolls;
          const formula = (f: string) => f.replace(/\s+/g, "");
          assert.ok(rolls.length > 0, "the throws are Foundry Rolls");
          for (const r of rolls)
            assert.equal(formula(r.formula), formula(DICE_OPTION_FORMULAS[id]), "each throw's formula");
          assert.deepEqual(rolls.flatMap(diceOf), card.dice, "the Rolls' dice are the card's");
          const again = rederive(card, id, duel.leroy);
          assert.equal(card.result, again.result, "the rules core gives the card's result from its dice");
          assert.equal(card.success, again.success, "and its success");
        });
    },
    { displayName: "Fudge Combat & Wounds: the world's dice option on trait rolls" },
  );
}

/** The card's roll made again by the rules core from its recorded throws. */
function rederive(card: flows.RollCardData, id: DiceOptionId, leroy: Actor.Implementation) {
  const count = parseDiceOption(id).count;
  const throws = Array.from({ length: card.dice.length / count }, (_, i) =>
    card.dice.slice(i * count, (i + 1) * count),
  );
  return flows.traitRollCard(plainActor(leroy), card.traitKey, card.dice, worldRules(), {
    difficulty: card.difficulty,
    ...(id === "4dF" ? {} : { throws }),
  });
}
