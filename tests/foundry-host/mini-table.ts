/**
 * A Miniatures table for host tests: the sample miniatures from the packs (all the player's),
 * a token for each name placed in one row (one grid square = 1"), and lookups by name.
 */
import { findSample } from "../../src/cli/samples";
import { table, actorOn, type Table } from "./table";
import type { Client } from "./world";

export const MINI_IDS: Record<string, string> = {
  "King Kingsley": "miniKingsley0001",
  "Yanni the Yeoman": "miniYanni0000001",
  "Sir Knightly": "miniKnightly0001",
  "Knavely Knave": "miniKnavely00001",
  "Brutas the Brute": "miniBrutas000001",
};

/** The Miniatures world with a token for each name in `place`: [grid square in the row, disposition]. */
export async function miniTable(place: Record<string, [number, number]>): Promise<Table> {
  const t = await table({
    seed: (world, ids) => {
      for (const [name, id] of Object.entries(MINI_IDS)) {
        const { _key: _k, ...doc } = structuredClone(findSample(name, "name")) as unknown as Record<string, unknown>;
        const items = (doc.items as Record<string, unknown>[]).map(({ _key: _ik, ...i }) => i);
        world.server.seed("Actor", { ...doc, _id: id, items, ownership: { default: 0, [ids.player]: 3 } });
      }
    },
  });
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, "miniatures" as never));
  const tokens = Object.entries(place).map(([name, [x, disposition]]) => ({
    name,
    actorId: MINI_IDS[name],
    actorLink: true,
    x: x * 100,
    y: 1000,
    disposition,
  }));
  await t.gm.run(() =>
    (t.gm.game.scenes.get(t.scene) as unknown as Scene.Implementation).createEmbeddedDocuments(
      "Token",
      tokens as never,
    ),
  );
  await t.world.settle();
  return t;
}

/** The token of a named miniature on the table's scene, as client `c` sees it. */
export const tokenDoc = (c: Client, t: Table, name: string) =>
  c.game.scenes
    .get(t.scene)!
    .tokens.contents.find((d) => (d as unknown as { actorId: string }).actorId === MINI_IDS[name])!;

/** The id of a named item on a named miniature. */
export const itemId = (c: Client, actor: string, name: string) =>
  (actorOn(c, MINI_IDS[actor]).items.contents as unknown as { id: string; name: string }[]).find(
    (i) => i.name === name,
  )!.id;
