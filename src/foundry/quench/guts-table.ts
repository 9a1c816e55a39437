/** The table's Guts circumstances in a live world. */
import { PREFIX, QuenchLike, Scratch } from "./helpers";
import { duelRequest } from "../../system/attack-dialog";
import { duelForecast, applyWound } from "../../rules";
import { plainActor, worldRules } from "../bridge";
import { SYSTEM_ID } from "../../system/registry";
import * as flows from "../../system/flows";
import { liveGutsCircumstances } from "../guts-table";
import { foundryPort } from "../port";
import { trackFor } from "../../system/combatant";
import { trackUpdate } from "../../system/updates";

/**
 * The table's Guts circumstances (seed 004 "Sample characters") in a live world: the standing is
 * stored on the miniature by its data model, and the check after a wound reads a fallen Leader
 * from the current combat (a scratch scene, linked tokens, an active combat; all deleted after).
 */
export function registerGutsTableBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.guts-table`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      const m = {} as { king: Actor.Implementation; yanni: Actor.Implementation };
      before(async () => {
        await s.setPreset("miniatures");
        m.king = await s.actorFromPack("miniatures", "King Kingsley");
        m.yanni = await s.actorFromPack("miniatures", "Yanni the Yeoman");
      });
      after(() => s.cleanup());
      it("the standing is stored on the miniature (all off from the packs), and a changed box is kept", async () => {
        const standing = () => ({
          ...(m.yanni.system as unknown as { gutsStanding: Record<string, boolean> }).gutsStanding,
        });
        assert.deepEqual(standing(), { defendingKing: false, peasant: false, follower: false });
        await m.yanni.update({ system: { gutsStanding: { follower: true } } } as never);
        assert.deepEqual(standing(), { defendingKing: false, peasant: false, follower: true });
      });
      it("a follower's Guts check after a wound is at −1 once the King of its side in the combat is Near Death, and the note says so", async () => {
        const scene = s.track(
          (await Scene.create({
            name: `${PREFIX}Guts`,
            tokens: [m.king, m.yanni].map((a, i) => ({
              name: a.name,
              actorId: a.id,
              actorLink: true,
              disposition: 1,
              x: 100 * i,
              y: 0,
            })),
          } as never)) as Scene.Implementation,
        );
        const combat = s.track((await Combat.create({ scene: null, active: true } as never)) as Combat.Implementation);
        await combat.createEmbeddedDocuments(
          "Combatant",
          scene.tokens.contents.map((t) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId })) as never,
        );
        assert.equal(game.combat?.id, combat.id, "the scratch combat is the current one");
        const w = applyWound(trackFor(plainActor(m.king), worldRules()), { level: "nearDeath" });
        // The King falls Near Death through the serialised write, as every track write goes.
        await foundryPort().writeActor(m.king.uuid, (turn) => turn.write(trackUpdate(w.track.state)));
        assert.equal(liveGutsCircumstances(m.yanni).leader, m.king.name);
        const before = game.messages!.size;
        const port = foundryPort();
        await port.writeActor(m.yanni.uuid, (turn) =>
          flows.gutsAfterWound(port, turn, [
            { type: "gutsCheck", target: "defender", params: { who: "self", target: 1, reason: "newWoundLevel" } },
          ]),
        );
        const notes = game.messages!.contents.slice(before);
        for (const n of notes) s.track(n);
        assert.equal(notes.length, 1, "one note");
        const line = game.i18n!.format("FUDGE.Miniatures.Step.Trait.leader", { value: "\u22121" });
        assert.ok(String(notes[0].content).includes(line), `the note says "${line}"`);
      });
      it("the table's duel forecast counts them too: Yanni, a peasant and a follower of the fallen King, dueling the King checks at −2 throughout", async () => {
        await m.yanni.update({ system: { gutsStanding: { peasant: true, follower: true } } } as never);
        const api = (
          game.system as unknown as {
            api: { forecast(a: unknown, b: unknown): Promise<{ aOut: number; bOut: number }> };
          }
        ).api;
        const got = await api.forecast(m.yanni, m.king);
        const request = duelRequest(plainActor(m.yanni), plainActor(m.king), worldRules());
        const want = duelForecast({ ...request, gutsSituation: { a: { nobleInMelee: true, leaderFallen: true } } });
        assert.deepEqual(
          [got.aOut, got.bOut],
          [want.aOut, want.bOut],
          "the forecast with Noble presence and Leader fallen",
        );
        assert.notEqual(got.aOut, duelForecast(request).aOut, "not the forecast without them");
      });
    },
    { displayName: "Fudge Combat & Wounds: the table's Guts circumstances" },
  );
}
