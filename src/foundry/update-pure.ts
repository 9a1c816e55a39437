/**
 * Foundry merges an update into stored objects key by key, so a key that a new wound-track
 * state no longer has would survive the update (a Volt row healed, a FATE line cleared).
 * `withDeletions` adds Foundry's `-=key: null` deletion for every key the new value drops, at
 * any depth (arrays are replaced whole by Foundry, so they need nothing). Pure: tests import it.
 */
type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

export function withDeletions(stored: unknown, next: unknown): unknown {
  if (!isRec(stored) || !isRec(next)) return next;
  const out: Rec = {};
  for (const [k, v] of Object.entries(next)) out[k] = withDeletions(stored[k], v);
  for (const k of Object.keys(stored)) if (!(k in next) && !k.startsWith("-=")) out[`-=${k}`] = null;
  return out;
}

/** Applies a Foundry-style update (nested merge with `-=` deletions) to plain data: what the server does. */
export function mergeLikeFoundry(target: unknown, update: unknown): unknown {
  if (!isRec(target) || !isRec(update)) return structuredClone(update);
  const out: Rec = structuredClone(target);
  for (const [k, v] of Object.entries(update)) {
    if (k.startsWith("-=")) delete out[k.slice(2)];
    else out[k] = isRec(v) && isRec(out[k]) ? mergeLikeFoundry(out[k], v) : structuredClone(v);
  }
  return out;
}

/**
 * A src/system actor update `{ system: { woundTrack: { state } } }` made safe to merge over the
 * stored `system` (other updates pass unchanged).
 */
export function safeTrackUpdate<U extends { system: unknown }>(storedSystem: unknown, update: U): U {
  const sys = update.system as { woundTrack?: { state?: unknown } } | undefined;
  if (!isRec(sys) || !isRec(sys.woundTrack) || !("state" in sys.woundTrack)) return update;
  const storedState = isRec(storedSystem) && isRec(storedSystem.woundTrack) ? storedSystem.woundTrack.state : undefined;
  return { ...update, system: { ...sys, woundTrack: { ...sys.woundTrack, state: withDeletions(storedState, sys.woundTrack.state) } } };
}
