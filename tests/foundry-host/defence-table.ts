/**
 * A table for the defence tests: Leroy (the player's) with his own skills — Sword Great, Dodge
 * Good (his defence skill), Brawling Fair — and Theodora (the GM's) with a broadsword; fixed ids, so
 * a card stored by an earlier version (tests/fixtures/card-before-defence-dialog.json) names them.
 */
import { gmAndPlayer } from "./index";
import type { Table } from "./table";

export const DEF_IDS = {
  hero: "defLeroy00000001",
  foe: "defTheodora00001",
  scene: "defScene00000001",
  heroToken: "defTokLeroy00001",
  foeToken: "defTokTheo000001",
  sword: "defSword00000001",
  dodge: "defDodge00000001",
  brawl: "defBrawl00000001",
  broadsword: "defBroad00000001",
};

export async function defenceTable(preset: "fudge" | "fate" = "fudge"): Promise<Table> {
  const t = await gmAndPlayer({
    seed: (world, ids) => {
      world.server.seed("Actor", {
        _id: DEF_IDS.hero,
        name: "Leroy",
        type: "character",
        ownership: { default: 0, [ids.player]: 3 },
        system: { defenseSkill: "Dodge", defenseDefault: 0 },
        items: [
          { _id: DEF_IDS.sword, name: "Sword", type: "skill", system: { level: 2 } },
          { _id: DEF_IDS.dodge, name: "Dodge", type: "skill", system: { level: 1 } },
          { _id: DEF_IDS.brawl, name: "Brawling", type: "skill", system: { level: 0 } },
        ],
        effects: [],
      });
      world.server.seed("Actor", {
        _id: DEF_IDS.foe,
        name: "Theodora",
        type: "npc",
        ownership: { default: 0 },
        system: {},
        items: [{ _id: DEF_IDS.broadsword, name: "Broadsword", type: "weapon", system: { equipped: true } }],
        effects: [],
      });
      world.server.seed("Scene", {
        _id: DEF_IDS.scene,
        name: "Tavern",
        active: true,
        tokens: [
          { _id: DEF_IDS.heroToken, name: "Leroy", actorId: DEF_IDS.hero, actorLink: true, x: 0, y: 0, disposition: 1 },
          {
            _id: DEF_IDS.foeToken,
            name: "Theodora",
            actorId: DEF_IDS.foe,
            actorLink: true,
            x: 100,
            y: 0,
            disposition: -1,
          },
        ],
      });
    },
  });
  if (preset !== "fudge") {
    await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, preset as never));
    await t.world.settle();
  }
  return {
    ...t,
    hero: DEF_IDS.hero,
    foe: DEF_IDS.foe,
    scene: DEF_IDS.scene,
    heroToken: DEF_IDS.heroToken,
    foeToken: DEF_IDS.foeToken,
  };
}
