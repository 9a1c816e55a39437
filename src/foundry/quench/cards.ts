/**
 * In-world self-tests of two card flows in a Fudge world, for a GM with the Quench module:
 *  - GM judgement (world option woundMode "gmJudgement", Fudge §4.55): the card awaits the GM's
 *    pick; his pick and his Situational 4dF (rolled on his client, joined to the card) decide the
 *    wound written to the target; Undo takes it back;
 *  - Apply counts the attacker as he rolled (integrity.ts attackerAsPosted): a wound applied to
 *    the attacker after his card was posted does not change his attack.
 * Registered by quench.ts; everything they create is deleted and the settings they change restored.
 */
import { applyWound, trackStateKey, trackStatus } from "../../rules";
import { trackFor } from "../../system/combatant";
import { plainActor, updateActor, worldRules } from "../bridge";
import { clickCardAction, clickJudgement } from "../chat";
import { cardTarget, defendedCard, fudgeDuel, until, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";

const trackKey = (a: Actor.Implementation) => trackStateKey(trackFor(plainActor(a), worldRules()));
const messageOf = (id: string) => game.messages!.get(id) as ChatMessage.Implementation;
const rollCount = (id: string) => ((game.messages!.get(id) as unknown as { rolls?: unknown[] }).rolls ?? []).length;

export function registerGmJudgementBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.gm-judgement`,
    ({ it, before, after, assert }) => {
      const { s, duel } = fudgeDuel({ before, after });
      before(() => s.setRule("fudge", { ...worldRules().fudge, woundMode: "gmJudgement", gmSituationalRoll: true }));
      it("the card awaits the GM's pick; his pick of Hurt and his Situational 4dF decide the wound written; Undo takes it back", async () => {
        const { leroy, theodora } = duel;
        const unhurt = trackFor(plainActor(theodora), worldRules());
        const id = await defendedCard(s, leroy, theodora, (t) => t.resolution?.outcome === "gmJudgement");
        const targetId = cardTarget(id).actorId;
        assert.equal(cardTarget(id).resolution?.woundKey ?? null, null, "no wound until the GM picks one");
        assert.equal(trackKey(theodora), trackStateKey(unhurt), "nothing written yet");
        const rolls = rollCount(id);
        await clickJudgement(messageOf(id), targetId, "hurt");
        assert.ok(await until(() => cardTarget(id).applied.length === 1), "applied once");
        const t = cardTarget(id);
        assert.equal(t.gmLevel, "hurt", "the card records the GM's pick");
        assert.equal(t.dice.situational?.length, 4, "the Situational 4dF is recorded on the card");
        assert.equal(rollCount(id), rolls + 1, "its Roll joined the card's rolls");
        // Fudge §4.55: +3 adds a wound level, +4 two; anything else leaves the GM's pick.
        const sum = t.dice.situational.reduce((a, b) => a + b, 0);
        const level = ["hurt", "veryHurt", "incapacitated"][sum >= 4 ? 2 : sum === 3 ? 1 : 0];
        assert.equal(t.resolution?.woundKey, level, `Hurt after a Situational roll of ${sum}`);
        assert.equal(
          trackKey(theodora),
          trackStateKey(applyWound(unhurt, { level }).track),
          `${level} is on her track`,
        );
        await clickCardAction(messageOf(id), "undo", targetId);
        assert.ok(await until(() => cardTarget(id).applied[0]?.undone === true), "undone");
        assert.equal(trackKey(theodora), trackStateKey(unhurt), "the track is as before");
      });
    },
    { displayName: "Fudge Combat & Wounds: GM judgement — the GM picks the wound on the card" },
  );
}

export function registerAttackerAsPostedBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.attacker-as-posted`,
    ({ it, before, after, assert }) => {
      const { s, duel } = fudgeDuel({ before, after });
      it("a wound applied to the attacker after his card was posted does not change his attack (Fudge §4.51: the penalty in force when he rolled)", async () => {
        const { leroy, theodora } = duel;
        const id = await defendedCard(
          s,
          leroy,
          theodora,
          (t) => t.resolution?.wound !== null && t.resolution?.wound !== undefined,
        );
        const shown = structuredClone(cardTarget(id).resolution!);
        // Theodora's counter-blow applied to Leroy first, as Apply records it (src/system/actions/attack-card.ts applyDamage): Hurt, after the card's time.
        const unhurt = trackFor(plainActor(leroy), worldRules());
        const hurt = applyWound(unhurt, { level: "hurt" }).track;
        const at = (game.messages!.get(id) as unknown as { timestamp: number }).timestamp + 1000;
        const record = {
          messageId: "quenchCounter001",
          by: game.user!.id,
          at,
          before: unhurt.state,
          after: hurt.state,
          fudgePointSpent: false,
          undone: false,
          undoneBy: "",
        };
        await updateActor(leroy, {
          system: { woundTrack: { "==state": hurt.state } },
          flags: { [SYSTEM_ID]: { woundLog: { [record.messageId]: record } } },
        });
        assert.equal(trackStatus(trackFor(plainActor(leroy), worldRules())).penalty, -1, "Leroy is at −1 now");
        const targetId = cardTarget(id).actorId;
        await clickCardAction(messageOf(id), "apply", targetId);
        assert.ok(await until(() => cardTarget(id).applied.length === 1), "applied once");
        const t = cardTarget(id);
        assert.equal(t.differs ?? false, false, "re-derived as shown, not 'differs'");
        assert.equal(t.resolution?.woundKey, shown.woundKey, "the wound the card showed");
        assert.deepEqual(t.resolution?.numbers, shown.numbers, "the card's numbers, with Leroy as he rolled");
        await clickCardAction(messageOf(id), "undo", targetId);
        assert.ok(await until(() => cardTarget(id).applied[0]?.undone === true), "undone");
      });
    },
    { displayName: "Fudge Combat & Wounds: Apply counts the attacker as he rolled" },
  );
}
