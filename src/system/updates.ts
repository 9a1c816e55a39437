/**
 * Actor updates: the shape the actions return, merging one over stored data as Foundry does, and
 * the one translation of update keys to the running core (forCore).
 * Foundry merges an update into stored objects key by key, so a key that a new wound-track
 * state no longer has would survive the update (a Volt row healed, a FATE line cleared).
 * `withDeletions` adds Foundry's `-=key: null` deletion for every key the new value drops, at
 * any depth (arrays are replaced whole by Foundry, so they need nothing). It lives in
 * src/system/deletions.ts.
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
  /** Records for the GM's own store, not the actor (ActorDoc.gmRecords: the automatic death's record). */
  gmRecords?: Record<string, unknown>;
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

/**
 * Applies a Foundry-style update (nested merge, `-=key` deletions, `==key` replacements: v13
 * mergeObject with performDeletions) to plain data: what the server does.
 */
export function mergeLikeFoundry(target: unknown, update: unknown): unknown {
  if (!isRec(target) || !isRec(update)) return structuredClone(update);
  const out: Rec = structuredClone(target);
  for (const [k, v] of Object.entries(update)) {
    if (k.startsWith("-=")) delete out[k.slice(2)];
    else if (k.startsWith("==")) out[k.slice(2)] = structuredClone(v);
    else out[k] = isRec(v) && isRec(out[k]) ? mergeLikeFoundry(out[k], v) : structuredClone(v);
  }
  return out;
}

/** v14's update operators (`_del`, `_replace(value)`); null on a core before v14, whose legacy keys stay. */
export interface UpdateOperators {
  del: unknown;
  replace(value: unknown): unknown;
}

/**
 * An update in the running core's terms — the one translation of update keys. src/system and
 * the Foundry layer write Foundry v13's keys: `-=key: null` deletes a key, `==key: value`
 * replaces it whole. Given v14's operators they become `key: _del` and `key: _replace(value)` at
 * any depth (v14 logs a deprecation warning for each legacy key, removed in v16); without them
 * (v13) the update is returned as it is. Arrays and operator values are left alone.
 */
export function forCore<T>(update: T, ops: UpdateOperators | null): T {
  if (!ops || !isRec(update)) return update;
  const out: Rec = {};
  for (const [k, v] of Object.entries(update)) {
    if (k.startsWith("-=")) out[k.slice(2)] = ops.del;
    else if (k.startsWith("==")) out[k.slice(2)] = ops.replace(forCore(v, ops));
    else out[k] = isRec(v) && isPlain(v) ? forCore(v, ops) : v;
  }
  return out as T;
}

const isPlain = (v: Rec): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** Legacy update keys (`-=key`, `==key`, also inside dotted keys) anywhere in an update: none may reach a v14 update. */
export function legacyUpdateKeys(update: unknown, out: string[] = []): string[] {
  if (Array.isArray(update)) for (const u of update) legacyUpdateKeys(u, out);
  else if (isRec(update) && isPlain(update))
    for (const [k, v] of Object.entries(update)) {
      if (k.split(".").some((part) => part.startsWith("-=") || part.startsWith("=="))) out.push(k);
      legacyUpdateKeys(v, out);
    }
  return out;
}

/**
 * A src/system actor update made safe to merge over the stored `system` on Foundry v13. The pure
 * actions say "replace the track state" with the key `==state` (REPLACE_STATE_KEY); here that
 * becomes a plain `state` with `-=` deletions for every key the new state drops, which every
 * Foundry version merges correctly. A plain `state` gets the same treatment; other updates pass
 * unchanged.
 */
export function safeTrackUpdate<U extends { system: unknown }>(storedSystem: unknown, update: U): U {
  const sys = update.system as { woundTrack?: Record<string, unknown> } | undefined;
  if (!isRec(sys) || !isRec(sys.woundTrack)) return update;
  const wt = sys.woundTrack;
  const key = REPLACE_STATE_KEY in wt ? REPLACE_STATE_KEY : "state" in wt ? "state" : null;
  if (key === null) return update;
  const storedState = isRec(storedSystem) && isRec(storedSystem.woundTrack) ? storedSystem.woundTrack.state : undefined;
  const { [key]: next, ...rest } = wt;
  return { ...update, system: { ...sys, woundTrack: { ...rest, state: withDeletions(storedState, next) } } };
}

/** The track state as one replacement (`==state`, whether the action wrote `==state` or `state`): what v14's `_replace` does whole. */
function stateReplaced<U extends { system: unknown }>(update: U): U {
  const sys = update.system as { woundTrack?: Record<string, unknown> } | undefined;
  if (!isRec(sys) || !isRec(sys.woundTrack) || !("state" in sys.woundTrack)) return update;
  const { state, ...rest } = sys.woundTrack;
  return { ...update, system: { ...sys, woundTrack: { ...rest, [REPLACE_STATE_KEY]: state } } };
}

/**
 * A src/system actor update as the running core takes it: on v13 (no operators) the track state's
 * dropped keys are deleted one by one (safeTrackUpdate); on v14 the state is replaced whole. Then
 * forCore, the one translation of update keys.
 */
export function coreActorUpdate<U extends { system: unknown }>(
  storedSystem: unknown,
  update: U,
  ops: UpdateOperators | null,
): U {
  return forCore(ops ? stateReplaced(update) : safeTrackUpdate(storedSystem, update), ops);
}
