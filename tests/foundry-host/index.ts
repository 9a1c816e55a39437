/**
 * The v13 test host: see README.md. `startWorld()` installs Foundry's globals, loads the real
 * src/foundry/main.ts (which registers its hooks as in Foundry), and returns the world; add
 * users and stored documents, then `connect` each user to boot his own client.
 */
import { installGlobals } from "./globals";
import { ROLES, World, type Client, type WorldOptions } from "./world";

export { World, Client, ROLES };
export { OWNERSHIP } from "./documents";
export type { DialogAnswer, DialogRequest } from "./apps";

let mainLoaded: Promise<unknown> | null = null;

/** The worlds started since the last check, on globalThis for the v14 guard (guard.ts) that runs after each test. */
const startedWorlds = ((globalThis as { __fudgeStartedWorlds?: World[] }).__fudgeStartedWorlds ??= []);

/** A world with the system loaded; no user connected yet. */
export async function startWorld(opts: WorldOptions = {}): Promise<World> {
  const world = new World(opts);
  startedWorlds.push(world);
  installGlobals(world);
  mainLoaded ??= import("../../src/foundry/main");
  await mainLoaded;
  return world;
}

/** The usual table: a GM and a player, both connected (GM first, so he is the active GM). */
export async function gmAndPlayer(
  opts: WorldOptions & { seed?: (world: World, ids: { gm: string; player: string }) => void } = {},
) {
  const world = await startWorld(opts);
  const ids = { gm: world.addUser("Gamemaster", ROLES.GAMEMASTER), player: world.addUser("Player", ROLES.PLAYER) };
  opts.seed?.(world, ids);
  const gm = await world.connect(ids.gm);
  const player = await world.connect(ids.player);
  await world.settle();
  return { world, gm, player, ids };
}
