/** This client's write queue (src/system/serial-queue.ts): every write to one actor on this client waits for the previous one. */
import { serialQueue, type SerialRunner } from "../system/serial-queue";

export { serialQueue, type SerialRunner };

/** This client's write queue, one lane per actor (and per chat card). Keyed by `game`: one per client. */
const queues = new WeakMap<object, SerialRunner>();
export function writeQueue<T>(lane: string, task: () => Promise<T> | T): Promise<T> {
  let q = queues.get(game as object);
  if (!q) queues.set(game as object, (q = serialQueue()));
  return q(lane, task);
}

/** The queue lane of an actor (its uuid: a token's synthetic actor has its own). */
export const actorLane = (actor: { uuid: string }): string => `actor:${actor.uuid}`;

/**
 * This client is the one writer of actors: the active GM's client, or any client while no GM is
 * connected (then each owner's client writes his own actors, ordered per client only). Every other
 * client's actor writes are relayed to it (src/foundry/port.ts changeActor, the card relay).
 */
export function writesHere(): boolean {
  const gm = game.users?.activeGM;
  return !gm || gm.id === game.user?.id;
}
