/**
 * Foundry merges an update into stored objects key by key, so a key that a new wound-track
 * state no longer has would survive the update (a Volt row healed, a FATE line cleared).
 * `withDeletions` adds Foundry's `-=key: null` deletion for every key the new value drops, at
 * any depth (arrays are replaced whole by Foundry, so they need nothing). It lives in
 * src/system/deletions.ts (the automatic-death record uses it too). Pure: tests import it.
 */
import { REPLACE_STATE_KEY } from "./actions";
import { withDeletions } from "./deletions";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

export { withDeletions };

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
 * A src/system actor update made safe to merge over the stored `system`. The pure actions say
 * "replace the track state" with the key `==state` (REPLACE_STATE_KEY); here that becomes a plain
 * `state` with `-=` deletions for every key the new state drops, which every Foundry version
 * merges correctly. A plain `state` gets the same treatment; other updates pass unchanged.
 * With v14's `_replace` operator given (`replace`), the state is replaced by it instead.
 */
export function safeTrackUpdate<U extends { system: unknown }>(
  storedSystem: unknown,
  update: U,
  replace: ((value: unknown) => unknown) | null = null,
): U {
  const sys = update.system as { woundTrack?: Record<string, unknown> } | undefined;
  if (!isRec(sys) || !isRec(sys.woundTrack)) return update;
  const wt = sys.woundTrack;
  const key = REPLACE_STATE_KEY in wt ? REPLACE_STATE_KEY : "state" in wt ? "state" : null;
  if (key === null) return update;
  const storedState = isRec(storedSystem) && isRec(storedSystem.woundTrack) ? storedSystem.woundTrack.state : undefined;
  const { [key]: next, ...rest } = wt;
  // v14: the ForcedReplacement operator replaces the state whole (no deletions needed).
  const state = replace ? replace(next) : withDeletions(storedState, next);
  return { ...update, system: { ...sys, woundTrack: { ...rest, state } } };
}
