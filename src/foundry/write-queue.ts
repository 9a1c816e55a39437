/**
 * This client's write queue: serialised work per key (a lane). Every write to one actor on this client —
 * a wound, an undo, a heal, a box toggled, a Fudge Point — runs after the previous one ended,
 * and reads the actor as it is when its turn comes, so two cards applied to one target at
 * once keep both wounds. Different keys run side by side. A failed task does not stop the
 * queue; its error goes to its own caller.
 */
export type SerialRunner = <T>(key: string, task: () => Promise<T> | T) => Promise<T>;

export function serialQueue(): SerialRunner {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T> | T): Promise<T> => {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(() => task());
    // The lane's tail never rejects: a settled task, done or failed, only frees its key.
    const forget = () => {
      if (tails.get(key) === tail) tails.delete(key);
    };
    const tail: Promise<void> = run.then(forget, forget);
    tails.set(key, tail);
    return run;
  };
}

/** This client's write queue, one lane per actor (and per chat card). Keyed by `game`: one per client. */
const queues = new WeakMap<object, SerialRunner>();
export function writeQueue<T>(lane: string, task: () => Promise<T> | T): Promise<T> {
  let q = queues.get(game as object);
  if (!q) queues.set(game as object, (q = serialQueue()));
  return q(lane, task);
}

/** The queue lane of an actor (its uuid: a token's synthetic actor has its own). */
export const actorLane = (actor: { uuid: string }): string => `actor:${actor.uuid}`;
