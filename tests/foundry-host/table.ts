/**
 * Test fixtures on the host: a table with a GM, a player, the player's character and an NPC on
 * an active scene, each connected client seeing the same world.
 */
import { gmAndPlayer } from "./index";
import type { Client, World } from "./world";

export interface Table {
  world: World;
  gm: Client;
  player: Client;
  ids: { gm: string; player: string };
  /** Actor ids. */
  hero: string;
  foe: string;
  scene: string;
  /** Token ids on the scene. */
  heroToken: string;
  foeToken: string;
}

/** Leroy (owned by the player) and Theodora (the GM's NPC), both on the active scene. */
export async function table(opts: Parameters<typeof gmAndPlayer>[0] = {}): Promise<Table> {
  let hero = "";
  let foe = "";
  let scene = "";
  const heroToken = "tokHero000000001";
  const foeToken = "tokFoe0000000001";
  const t = await gmAndPlayer({
    ...opts,
    seed: (world, ids) => {
      hero = world.server.seed("Actor", {
        name: "Leroy",
        type: "character",
        ownership: { default: 0, [ids.player]: 3 },
        system: {},
        items: [],
        effects: [],
      });
      foe = world.server.seed("Actor", {
        name: "Theodora",
        type: "npc",
        ownership: { default: 0 },
        system: {},
        items: [],
        effects: [],
      });
      scene = world.server.seed("Scene", {
        name: "Tavern",
        active: true,
        tokens: [
          { _id: heroToken, name: "Leroy", actorId: hero, actorLink: true, x: 0, y: 0, disposition: 1 },
          { _id: foeToken, name: "Theodora", actorId: foe, actorLink: true, x: 100, y: 0, disposition: -1 },
        ],
      });
      opts.seed?.(world, ids);
    },
  });
  return { ...t, hero, foe, scene, heroToken, foeToken };
}

/** The document with this id as `client` sees it. */
export function actorOn(client: Client, id: string) {
  const a = client.game.actors.get(id);
  if (!a) throw new Error(`no actor ${id} on ${client.user.name}'s client`);
  return a as unknown as Actor.Implementation;
}

type SheetApp = { element: HTMLElement };

/** Gives Leroy an equipped Broadsword (made by the GM) and has the player target Theodora; the weapon's id. */
export async function armHero(t: Table): Promise<string> {
  const [weapon] = await t.gm.run(() =>
    actorOn(t.gm, t.hero).createEmbeddedDocuments("Item", [
      { name: "Broadsword", type: "weapon", system: { equipped: true } } as never,
    ]),
  );
  await t.world.settle();
  t.player.target(t.player.game.scenes.get(t.scene)!.tokens.get(t.foeToken)!);
  return weapon.id!;
}

/** The actor's sheet, rendered on `client`. */
export function openSheetOn(client: Client, id: string): Promise<SheetApp> {
  return client.run(() =>
    (actorOn(client, id).sheet as unknown as { render(o: object): Promise<SheetApp> }).render({ force: true }),
  );
}
