/**
 * The playground's world: its rules from the stored settings, and its documents changed as
 * Foundry's database would (a merged update, a posted message). Shared by the page's rendering
 * (ui.ts) and its port (port.ts).
 */
import { newId, type PlaygroundState, type Store } from "./store";
import { i18n } from "./i18n";
import { setLadder } from "./templates";
import { ladderOf } from "../src/system/view";
import { worldRulesFrom, type WorldRules } from "../src/system/data";
import { STANDARD_RUNGS } from "../src/rules";

/** The world rules, read once per settings object (the store replaces it when a setting changes). */
const rulesCache = new WeakMap<object, WorldRules>();
export function rulesOf(s: PlaygroundState): WorldRules {
  let rules = rulesCache.get(s.settings);
  if (!rules) rulesCache.set(s.settings, (rules = worldRulesFrom((k) => s.settings[k])));
  const r = rules;
  setLadder(() => ladderOf(r, ladderNames()));
  return rules;
}

export function ladderNames(): Partial<Record<string, string>> {
  const names: Record<string, string> = {};
  for (const r of STANDARD_RUNGS)
    if (i18n.has(`FUDGE.Ladder.${r.id}`)) names[r.id] = i18n.localize(`FUDGE.Ladder.${r.id}`);
  return names;
}

// ─── Updates: Foundry's update semantics ─────────────────────────────────────────────────
// Foundry merges an update into the stored document (mergeObject): nested objects merge key by
// key — including inside an ObjectField such as woundTrack.state — so a key missing from the
// update is NOT removed. Arrays and other values replace. "-=key" deletes a key and "==key"
// replaces an object whole (Foundry's deletion / forced-replacement keys). The playground keeps
// exactly these semantics so that an update which would leave stale keys in Foundry does here too.

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function mergeUpdate(target: object, update: object): void {
  const t = target as Record<string, unknown>;
  for (const [k, v] of Object.entries(update)) {
    if (k.startsWith("-=")) delete t[k.slice(2)];
    else if (k.startsWith("==")) t[k.slice(2)] = structuredClone(v);
    else if (isPlainObject(v) && isPlainObject(t[k])) mergeUpdate(t[k] as object, v);
    else t[k] = structuredClone(v);
  }
}

export function updateActor(store: Store, id: string, update: object): void {
  store.updateDocs({ actors: [id] }, (d) => {
    const a = d.actors.find((x) => x._id === id);
    if (a) mergeUpdate(a, update);
  });
}

/** Posts a chat message; returns its id. */
export function postMessage(store: Store, type: string, system: unknown, alias: string): string {
  const _id = newId();
  store.updateDocs({}, (d) => {
    d.messages.push({
      _id,
      type,
      system: structuredClone(system) as Record<string, unknown>,
      speaker: { alias },
      timestamp: Date.now(),
    });
  });
  return _id;
}
