/**
 * A write queue: serialised work per key (a lane). Every write to one actor — a wound, an undo, a
 * heal, a box toggled, a Fudge Point — runs after the previous one ended, and reads the actor as
 * it is when its turn comes, so two cards applied to one target at once keep both wounds.
 * Different keys run side by side. A failed task does not stop the queue; its error goes to its
 * own caller. Foundry keeps one per client (src/foundry/write-queue.ts), the playground one.
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
