/**
 * Actor updates: the shape the actions return, and merging one over stored data as Foundry does.
 * Foundry merges an update into stored objects key by key, so a key that a new wound-track
 * state no longer has would survive the update (a Volt row healed, a FATE line cleared).
 * `withDeletions` adds Foundry's `-=key: null` deletion for every key the new value drops, at
 * any depth (arrays are replaced whole by Foundry, so they need nothing). It lives in
 * src/system/deletions.ts (the automatic-death record uses it too).
 */
import { withDeletions } from "./deletions";
import type { ActorDoc } from "./data";

/**
 * A track state is one JSON value: the update REPLACES it rather than merging key by key (a
 * box cleared in the new state must not survive a merge). The key is Foundry v13's forced-
 * replacement key `==state`, which Foundry's update and the playground's merge both honour.
 */
export const REPLACE_STATE_KEY = "==state";

export interface ActorUpdate {
  system: { woundTrack: { "==state": unknown } } | Record<string, unknown>;
  /** Apply/Undo: the target's wound log (src/system/integrity.ts). */
  flags?: Record<string, unknown>;
}

export const trackUpdate = (state: unknown): ActorUpdate => ({
  system: { woundTrack: { [REPLACE_STATE_KEY]: structuredClone(state) } },
});

/** The new track state an update carries (for callers that show it before saving). */
export const updatedState = (u: ActorUpdate): unknown =>
  (u.system as { woundTrack?: Record<string, unknown> }).woundTrack?.[REPLACE_STATE_KEY];

/** Whether an update changes the actor's wound track state (a healing with nothing to heal writes nothing). */
export function changesTrack(doc: ActorDoc, u: ActorUpdate): boolean {
  const wt = (u.system as { woundTrack?: Record<string, unknown> }).woundTrack;
  if (!wt) return false;
  const next = REPLACE_STATE_KEY in wt ? wt[REPLACE_STATE_KEY] : wt.state;
  return (
    JSON.stringify(next) !== JSON.stringify((doc.system as { woundTrack?: { state?: unknown } }).woundTrack?.state)
  );
}

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
