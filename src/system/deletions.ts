/**
 * Foundry merges an update into stored objects key by key, so a key that a new value no longer
 * has would survive the update. `withDeletions` adds Foundry's `-=key: null` deletion for every
 * key the new value drops, at any depth (arrays are replaced whole by Foundry, so they need
 * nothing). Pure: the wound-track state (src/system/updates.ts) uses it.
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
