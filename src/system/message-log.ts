/**
 * A message-keyed log in an actor's flags (the wound, defence and Clipped logs): an object of
 * records keyed by the card's message id, so an update sends one record, not the whole log; the
 * oldest records go past the log's limit.
 */
import type { ActorDoc } from "./data";

const isRec = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The log under `flags["fudge-wounds"][flag]`, oldest first; entries that are not `valid` records of their key are ignored. */
export function messageLogOf<T extends { messageId: string; at: number }>(
  actor: Pick<ActorDoc, "flags">,
  flag: string,
  valid: (r: Record<string, unknown>) => boolean,
): T[] {
  const raw = (actor.flags?.["fudge-wounds"] as Record<string, unknown> | undefined)?.[flag];
  if (!isRec(raw)) return [];
  return Object.entries(raw)
    .filter(([k, r]) => isRec(r) && r.messageId === k && valid(r))
    .map(([, r]) => r as unknown as T)
    .sort((a, b) => a.at - b.at);
}

/** The log entries that write `entry` (replacing its message's record) and drop the oldest others beyond `limit`. */
export function boundedLogEntries<T extends { messageId: string }>(
  log: readonly { messageId: string }[],
  entry: T,
  limit: number,
): Record<string, T | null> {
  const out: Record<string, T | null> = { [entry.messageId]: entry };
  const others = log.filter((r) => r.messageId !== entry.messageId);
  for (const r of others.slice(0, Math.max(0, others.length + 1 - limit))) out[`-=${r.messageId}`] = null;
  return out;
}
