/** Every sample actor's sheet opens and re-renders in every preset. */
import { PRESETS } from "../../rules";
import { SYSTEM_ID } from "../../system/registry";
import type { ActorType } from "../../system/data";
import { QuenchLike, Scratch } from "./helpers";

const SAMPLES: { pack: string; name: string; type: ActorType }[] = [
  { pack: "characters", name: "Leroy", type: "character" },
  { pack: "characters", name: "Theodora", type: "npc" },
  { pack: "miniatures", name: "Sir Knightly", type: "miniature" },
];

export function registerSheetsBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.sheets`,
    ({ describe, it, before, after, assert }) => {
      const s = new Scratch();
      const actors: Actor.Implementation[] = [];
      before(async () => {
        for (const x of SAMPLES) actors.push(await s.actorFromPack(x.pack, x.name));
      });
      after(() => s.cleanup());
      for (const preset of PRESETS)
        describe(`preset ${preset}`, () => {
          it("every sample actor's sheet opens and re-renders", async () => {
            await s.setPreset(preset);
            for (const a of actors) {
              const sheet = a.sheet as unknown as {
                render(o?: object): Promise<unknown>;
                close(): Promise<unknown>;
                rendered: boolean;
                element: HTMLElement;
              };
              await sheet.render({ force: true });
              assert.ok(sheet.rendered, `${a.name} rendered`);
              assert.ok(sheet.element?.querySelector(".fudge-wounds, .window-content"), `${a.name} has content`);
              await sheet.render();
              await sheet.close();
            }
          });
        });
    },
    { displayName: "Fudge Combat & Wounds: every sheet in every preset" },
  );
}
