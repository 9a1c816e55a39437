/**
 * In-world self-test of what the Miniatures table measures for an attack (seed 004 "Melee
 * Combat", "Ranged Combat"; src/rules/miniatures/table.ts tableSituation), for a GM with the Quench module: on a
 * scratch scene (one grid square = 1"), viewed for the test and the GM's view put back after,
 * the sample miniatures' tokens in one row give each target its own range, gang-up and base
 * contact (measure.ts targetMeasures, as the sheet's tooltips and the attack dialog take them), and
 * the attack card carries them per target. The dice are real and random: nothing here depends
 * on them (the Legendary re-roll may add Rolls). Registered by quench.ts; everything it creates is deleted.
 */
import { targetMeasures } from "../measure";
import { foundryRoller } from "../dice";
import { Scratch, postAttackOf, type QuenchCardTarget, type QuenchLike } from "./helpers";
import { SYSTEM_ID } from "../../system/registry";
import type { TokenLike } from "../guts-table";
import type { Situation } from "../../system/combatant";

const NAMES = ["Yanni the Yeoman", "Knavely Knave", "Sir Knightly", "Brutas the Brute", "King Kingsley"] as const;
type Name = (typeof NAMES)[number];
/** The row: grid square and disposition. Yanni shoots from 0; Knavely, Sir Knightly and Brutas stand base to base; the King is 40" away. */
const ROW: Record<Name, [number, number]> = {
  "Yanni the Yeoman": [0, 1],
  "Knavely Knave": [10, -1],
  "Sir Knightly": [11, 1],
  "Brutas the Brute": [12, -1],
  "King Kingsley": [40, -1],
};

type Viewable = { id: string | null; view(): Promise<unknown> };

export function registerMiniTableBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.mini-table`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      const m = {} as Record<Name, Actor.Implementation>;
      let scene: Scene.Implementation;
      let viewed: Viewable | null = null;
      before(async () => {
        await s.setPreset("miniatures");
        for (const name of NAMES) m[name] = await s.actorFromPack("miniatures", name);
        const tokens = NAMES.map((name) => ({
          name: m[name].name,
          actorId: m[name].id,
          actorLink: true,
          x: ROW[name][0] * 100,
          y: 200,
          width: 1,
          height: 1,
          disposition: ROW[name][1],
        }));
        scene = s.track(
          (await Scene.create({
            name: "[Quench] Miniatures table",
            width: 5000,
            height: 600,
            padding: 0,
            grid: { size: 100, distance: 1, units: '"' },
            tokens,
          } as never)) as Scene.Implementation,
        );
        viewed = (canvas?.scene as unknown as Viewable | null) ?? null;
        await (scene as unknown as Viewable).view();
      });
      after(async () => {
        // The GM's view back on the scene he had, before the scratch scene goes.
        if (viewed && viewed.id !== scene?.id && game.scenes!.has(viewed.id!)) await viewed.view();
        await s.cleanup();
      });
      const token = (name: Name) => scene.tokens.contents.find((t) => t.actorId === m[name].id) as unknown as TokenLike;
      const weaponId = (name: Name, weapon: string) =>
        m[name].items.contents.find((i) => i.type === "weapon" && i.name === weapon)!.id!;
      /** `attacker`'s attack with `weapon` on `targets`, each with the table's measures, posted as a card (as the sheet's Attack does). */
      const attack = async (attacker: Name, weapon: string, targets: Name[], measured: Situation[]) => {
        const id = await postAttackOf(
          m[attacker],
          weaponId(attacker, weapon),
          targets.map((n) => m[n]),
          measured,
        );
        const message = s.track(game.messages!.get(id) as ChatMessage.Implementation);
        return (message.system as unknown as { targets: QuenchCardTarget[] }).targets;
      };

      it('Ranged Combat: one Shortbow shot (Range 18") at Knavely (10") and the King (40") — each target its own range, 0 and −2', async () => {
        const measures = targetMeasures(m["Yanni the Yeoman"], [token("Knavely Knave"), token("King Kingsley")]).map(
          (x) => x.ranged,
        );
        assert.deepEqual(
          measures.map((x) => [x.rangeInches, x.inContact]),
          [
            [10, false],
            [40, false],
          ],
          "measured from the tokens",
        );
        const [knave, king] = await attack(
          "Yanni the Yeoman",
          "Shortbow",
          ["Knavely Knave", "King Kingsley"],
          measures,
        );
        assert.deepEqual(
          [knave.situation?.rangeInches, king.situation?.rangeInches],
          [10, 40],
          "the card keeps each target's range",
        );
        assert.deepEqual(
          [knave.resolution?.numbers.rangePenalty, king.resolution?.numbers.rangePenalty],
          [0, -2],
          "range penalties 0 and −2",
        );
      });

      it("Melee Combat: Sir Knightly's Longsword at Knavely (Yanni steps up to touch him too) gangs up, at Brutas (alone) it does not; both in base contact", async () => {
        await (token("Yanni the Yeoman") as unknown as { update(d: object): Promise<unknown> }).update({ x: 900 });
        const measures = targetMeasures(m["Sir Knightly"], [token("Knavely Knave"), token("Brutas the Brute")]).map(
          (x) => x.melee,
        );
        assert.deepEqual(
          measures.map((x) => [x.gangUp, x.inContact]),
          [
            [1, true],
            [0, true],
          ],
          "measured from the tokens",
        );
        const [knave, brutas] = await attack(
          "Sir Knightly",
          "Longsword",
          ["Knavely Knave", "Brutas the Brute"],
          measures,
        );
        assert.deepEqual(
          [knave.resolution?.numbers.gangUp, brutas.resolution?.numbers.gangUp],
          [1, 0],
          "+1 gang-up at Knavely only",
        );
      });

      it('"Melee attacks must be made in base-to-base contact with the target model": Brutas, touching Sir Knightly, may not strike Yanni beyond him — refused before any die', async () => {
        const measures = targetMeasures(m["Brutas the Brute"], [token("Yanni the Yeoman")]).map((x) => x.melee);
        assert.equal(measures[0].inContact, false, "not in contact with Yanni");
        let rolled = 0;
        const roller: typeof foundryRoller = (formula) => (rolled++, foundryRoller(formula));
        const key = await postAttackOf(
          m["Brutas the Brute"],
          weaponId("Brutas the Brute", "Longsword"),
          [m["Yanni the Yeoman"]],
          measures,
          roller,
        ).then(
          () => null,
          (e: { key?: string }) => e.key ?? String(e),
        );
        assert.deepEqual([key, rolled], ["FUDGE.Error.Miniatures.MeleeNotInContact", 0]);
      });
    },
    { displayName: "Fudge Combat & Wounds: the Miniatures table measures range, gang-up and contact per target" },
  );
}
