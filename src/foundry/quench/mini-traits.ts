/** Miniatures gifts and faults with a rule in a live world. */
import { duelRequest } from "../../system/attack-dialog";
import { plainActor, worldRules } from "../bridge";
import { foundryRoller } from "../dice";
import { SYSTEM_ID } from "../../system/registry";
import { QuenchLike, Scratch, postAttackOf } from "./helpers";

/** Miniatures gifts and faults with a rule (seed 004 "Sample characters") in a live world, from the packs. */
export function registerMiniTraitsBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.mini-traits`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      const m = {} as { knightly: Actor.Implementation; brutas: Actor.Implementation };
      before(async () => {
        await s.setPreset("miniatures");
        m.knightly = await s.actorFromPack("miniatures", "Sir Knightly");
        m.brutas = await s.actorFromPack("miniatures", "Brutas the Brute");
      });
      after(() => s.cleanup());
      it("the datacards carry their gifts' and faults' rules to the rules core and the duel forecast", () => {
        const req = duelRequest(plainActor(m.knightly), plainActor(m.brutas), worldRules()) as {
          a: Record<string, { rule?: string }>;
          b: Record<string, { rule?: string }>;
        };
        assert.deepEqual(
          [req.a.gift?.rule, req.a.fault?.rule, req.b.fault?.rule],
          ["faithful", "chivalrous", "mercenary"],
        );
      });
      it("Chivalrous: Sir Knightly's attack on a helpless Brutas is refused before any die is rolled", async () => {
        const weapon = m.knightly.items.contents.find((i) => i.type === "weapon") ?? null;
        let rolled = 0;
        const roller: typeof foundryRoller = (formula) => (rolled++, foundryRoller(formula));
        const key = await postAttackOf(m.knightly, weapon?.id ?? null, [m.brutas], [], roller, { helpless: true }).then(
          () => null,
          (e: { key?: string }) => e.key ?? String(e),
        );
        assert.deepEqual([key, rolled], ["FUDGE.Error.Miniatures.Chivalrous", 0]);
      });
    },
    { displayName: "Fudge Combat & Wounds: Miniatures gifts and faults with a rule" },
  );
}
