/**
 * In-world self-test of private rolls on cards (issue 25, item 1), for a GM with the Quench
 * module: a card's content, buttons and odds are drawn only where `message.isContentVisible`
 * holds; elsewhere core's "privately rolled" form stays. A scratch player user is the author of
 * the private cards (a GM may post as another user), so the GM's own client shows both sides.
 * Registered by index.ts; the scratch user, actors and cards are deleted afterwards.
 */
import { fudgeDuel, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";

type Rendered = { isContentVisible: boolean; renderHTML(): Promise<HTMLElement> };

export function registerPrivateCardsBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.private-cards`,
    ({ it, before, assert, after }) => {
      const { s, duel } = fudgeDuel({ before, after });
      let onlooker: { id: string | null };
      before(async () => {
        onlooker = s.track((await User.create({ name: "[Quench] Onlooker", role: 1 } as never)) as never);
      });
      /** Leroy's attack card posted again as the onlooker's, with these whisper and blind settings. */
      const privateCard = async (whisper: string[], blind: boolean) => {
        const { card, rolls, message } = await s.postAttack(duel.leroy, duel.theodora);
        const copy = s.track(
          (await ChatMessage.create({
            type: "attackCard",
            system: card,
            rolls: [...rolls],
            speaker: (message as unknown as { speaker: unknown }).speaker,
            author: onlooker.id,
            whisper,
            blind,
          } as never)) as unknown as Rendered,
        );
        return { copy, html: await copy.renderHTML() };
      };
      it("a player's self roll (whispered to him alone): the GM's client shows core's private form — no card, no buttons", async () => {
        const { copy, html } = await privateCard([onlooker.id!], false);
        assert.equal(copy.isContentVisible, false, "the GM may not read another user's self roll");
        assert.equal(html.querySelector(".fudge-target"), null, "no card drawn");
        assert.equal(html.querySelectorAll(".message-content [data-action]").length, 0, "no buttons");
        assert.ok(html.querySelector(".message-content .dice-roll"), "core's hidden dice are there");
      });
      it("a player's blind roll (whispered to the GMs, blind): the GM sees the whole card and its buttons", async () => {
        const gms = game.users!.filter((u) => u.isGM).map((u) => u.id!);
        const { copy, html } = await privateCard(gms, true);
        assert.equal(copy.isContentVisible, true, "the GMs read a blind roll");
        assert.ok(html.querySelector(".fudge-target"), "the card is drawn");
        assert.ok(html.querySelector('.message-content [data-action="defend"]'), "with its Defend button");
      });
      it("the card the chat log shows for the GM's own public attack is drawn before it is inserted", async () => {
        const { message } = await s.postAttack(duel.leroy, duel.theodora);
        const html = await (message as unknown as Rendered).renderHTML();
        assert.ok(html.querySelector(".fudge-target"), "renderHTML resolves with the card filled");
      });
    },
    { displayName: "Fudge Combat & Wounds: private rolls stay private on cards" },
  );
}
