/**
 * In-world self-test of Fudge §4.52 (4) "temporary - until the battle is over", for a GM with
 * the Quench module: a wound whose Willpower adjustment holds until the battle is over goes to
 * its unadjusted level when the combat is deleted (End Combat), and a chat note says so.
 * Registered by quench.ts; everything it creates is deleted afterwards.
 */
import { applyWound, penaltyFor, trackStateKey, trackStatus } from "../../rules";
import { trackFor } from "../../system/combatant";
import { woundLogOf } from "../../system/integrity";
import * as flows from "../../system/flows";
import { actorInCombat, plainActor, updateActor, worldRules } from "../bridge";
import { foundryPort } from "../port";
import { theodoraBatch, until, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";

export function registerBattleLapseBatch(quench: QuenchLike): void {
  theodoraBatch(
    quench,
    "battle-lapse",
    "Fudge Combat & Wounds: Willpower adjustment until the battle is over",
    "ending the combat moves a wound recorded at its Willpower-adjusted level to the level it would have had",
    async (theodora, s, assert) => {
      const rules = worldRules();
      const unhurt = trackFor(plainActor(theodora), rules);
      const hurt = applyWound(unhurt, { level: "hurt" }).track;
      // As Apply writes it under the setting (src/system/actions/attack-card.ts applyDamage): the track and the record.
      const record = {
        messageId: "quenchLapse0001",
        by: game.user!.id,
        at: Date.now(),
        before: unhurt.state,
        after: hurt.state,
        fudgePointSpent: false,
        undone: false,
        undoneBy: "",
        lapses: [{ from: "hurt", to: "veryHurt" }],
      };
      await updateActor(theodora, {
        system: { woundTrack: { "==state": hurt.state } },
        flags: { [SYSTEM_ID]: { woundLog: { [record.messageId]: record } } },
      });
      const combat = s.track((await Combat.create({ scene: null, active: true } as never)) as Combat.Implementation);
      await combat.createEmbeddedDocuments("Combatant", [{ actorId: theodora.id }] as never);
      await combat.delete();
      const wanted = trackStateKey(applyWound(unhurt, { level: "veryHurt" }).track);
      assert.ok(
        await until(() => trackStateKey(trackFor(plainActor(theodora), worldRules())) === wanted),
        "Very Hurt once the combat is over",
      );
      assert.equal(
        woundLogOf(plainActor(theodora)).find((r) => r.messageId === record.messageId)?.lapsed,
        true,
        "the record is marked lapsed",
      );
      // One chat note for the combat's end (combat.ts postBattleEndNote), naming her and the lapse.
      const note = () =>
        game.messages!.contents.find(
          (m) =>
            (m.getFlag(SYSTEM_ID as never, "battleEnd" as never) as { combatId?: string } | undefined)?.combatId ===
            combat.id,
        );
      assert.ok(await until(() => note() !== undefined), "a chat note says what lapsed");
      const message = s.track(note()!);
      const line = new DOMParser()
        .parseFromString(String(message.content), "text/html")
        .querySelector('[data-lapse-result="lapsed"]');
      assert.ok(line?.textContent?.includes(String(theodora.name)), "the note's line names her");
    },
  );
}

/**
 * In-world self-test of Fudge §4.51's Light Wound ("no penalty during combat … but after combat the
 * character will be at -1 to all skills until it's healed"): a custom level's after-combat penalty,
 * read from the live combats (actorInCombat) by the sheet's trait roll.
 */
export function registerLightWoundBatch(quench: QuenchLike): void {
  theodoraBatch(
    quench,
    "light-wound",
    "Fudge Combat & Wounds: a Light Wound in and after combat (Fudge §4.51)",
    "a Light Wound is −1 outside a started combat, 0 in it, and stays when the combat ends",
    async (theodora, s, assert) => {
      const edit = (path: string, value: string) => flows.editField(foundryPort(), theodora.uuid, path, value);
      await edit("woundTrack.preset", "custom");
      await edit("woundTrack.customLevels.1.penalty", "0");
      await edit("woundTrack.customLevels.1.afterCombatPenalty", "-1");
      await flows.toggleBox(foundryPort(), theodora.uuid, "hurt:0");
      // The wound penalty a trait roll takes now (Fudge §4.51: in a started combat or after it).
      const roll = () => penaltyFor(trackStatus(trackFor(plainActor(theodora), worldRules())), actorInCombat(theodora));
      assert.equal(roll(), -1, "out of combat: −1");
      const combat = s.track((await Combat.create({ scene: null, active: true } as never)) as Combat.Implementation);
      await combat.createEmbeddedDocuments("Combatant", [{ actorId: theodora.id }] as never);
      assert.equal(roll(), -1, "a combat not yet started: still −1");
      await combat.startCombat();
      assert.equal(roll(), 0, "in a started combat: 0");
      await combat.delete();
      assert.ok(await until(() => roll() === -1), "the combat over: −1 again, the wound kept");
    },
  );
}
