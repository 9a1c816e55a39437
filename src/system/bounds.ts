/**
 * How much a player can store, field by field. Everything a player may write into an actor's,
 * item's or card's `system` data is bounded by its data model (src/foundry/data: ArrayField
 * `max`, a `validate` on strings, `validateJoint` on free-form objects), so the server refuses an
 * update past a bound; the parsers refuse the same (the rules core's track and Guts parsers,
 * checkCard). Flags have no data model: their bounds live where they are read and written
 * (message-log.ts, relay.ts, guts.ts, attack-dialog.ts). Stored data over a bound (from before
 * the bounds) fails validation and is clamped by the world migration (clampSystem, here; the
 * flags' clamps with their logs), which counts what it cut. docs/foundry.md "Integrity" lists them.
 */
import { GUTS_PENDING_MAX, boundedPending } from "../rules/miniatures";
import { CARD_LIMITS } from "./card-limits";

export const STORE_BOUNDS = {
  /** A short text field: a track label, a defence skill, a weapon's skill, a custom level's label. */
  text: 200,
  /** A custom level's key (letters, digits, `_`, `-` in practice). */
  key: 64,
  /** Notes and descriptions (HTML). */
  richText: 100_000,
  /** A wound track's stored state, as JSON (a real one is well under 2,000). */
  trackState: 20_000,
  /** An actor's experience record, as JSON (its log holds at most 500 entries of ~150 characters). */
  experience: 120_000,
  /** An actor's Fudge Point spend log, as JSON (at most 200 spends of ~160 characters). */
  fudgePointLog: 50_000,
  /** Custom wound levels (the rules core's box track takes at most 12). */
  customLevels: 12,
  /** Failed Guts checks in force on one miniature (the rules core's GUTS_PENDING_MAX). */
  gutsPending: GUTS_PENDING_MAX,
} as const;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** A string field's bound as a data field's `validate` (v13 DataFieldOptions#validate: a throw fails the field). */
export function maxChars(max: number): (v: unknown) => void {
  return (v) => {
    if (typeof v === "string" && v.length > max) throw new Error(`must be at most ${max} characters`);
  };
}

/** A free-form object's bound (its JSON size), as a message for validateJoint; null when within it. */
export function overJson(v: unknown, max: number, field: string): string | null {
  if (v === undefined || v === null) return null;
  const n = JSON.stringify(v).length;
  return n > max ? `${field}: ${n} characters (at most ${max})` : null;
}

export interface Cut {
  path: string;
  /** Characters or entries dropped. */
  count: number;
}

function cutText(holder: Rec, key: string, max: number, path: string, cuts: Cut[]): void {
  const v = holder[key];
  if (typeof v === "string" && v.length > max) {
    cuts.push({ path, count: v.length - max });
    holder[key] = v.slice(0, max);
  }
}

/**
 * Room left under the bound when HTML is cut: Foundry's server cleans every write of an HTML
 * field, closing the elements the cut left open, so the cut text must stay valid after that.
 */
const HTML_CUT_MARGIN = 1_000;

/** Cuts stored HTML to fit its bound after cleaning: no partial tag or character reference at the end. */
function cutHtml(holder: Rec, key: string, max: number, path: string, cuts: Cut[]): void {
  const v = holder[key];
  if (typeof v !== "string" || v.length <= max) return;
  const cut = v
    .slice(0, Math.max(0, max - HTML_CUT_MARGIN))
    .replace(/<[^>]*$/, "")
    .replace(/&[^;\s]*$/, "");
  cuts.push({ path, count: v.length - cut.length });
  holder[key] = cut;
}

function cutList(holder: Rec, key: string, max: number, path: string, cuts: Cut[], keep: "first" | "last"): void {
  const v = holder[key];
  if (Array.isArray(v) && v.length > max) {
    cuts.push({ path, count: v.length - max });
    holder[key] = keep === "first" ? v.slice(0, max) : v.slice(-max);
  }
}

/**
 * Clamps a stored actor or item `system` to the bounds, in place: long text cut, long lists cut
 * (the worst Guts failures kept, the first custom levels), a track state too large to be one
 * reset to unhurt. Returns what was cut, for the migration's report.
 */
export function clampSystem(type: string, system: unknown): Cut[] {
  const cuts: Cut[] = [];
  if (!isRec(system)) return cuts;
  const B = STORE_BOUNDS;
  if ("notes" in system) cutHtml(system, "notes", B.richText, "notes", cuts);
  if ("description" in system) cutHtml(system, "description", B.richText, "description", cuts);
  if (type === "weapon") cutText(system, "skill", B.text, "skill", cuts);
  if (type === "character" || type === "npc") cutText(system, "defenseSkill", B.text, "defenseSkill", cuts);
  const track = system.woundTrack;
  if (isRec(track)) {
    const size = track.state === undefined || track.state === null ? 0 : JSON.stringify(track.state).length;
    if (size > B.trackState) {
      cuts.push({ path: "woundTrack.state", count: size });
      track.state = null;
    }
    cutText(track, "label", B.text, "woundTrack.label", cuts);
    cutList(track, "customLevels", B.customLevels, "woundTrack.customLevels", cuts, "first");
    if (Array.isArray(track.customLevels))
      track.customLevels.forEach((l, i) => {
        if (!isRec(l)) return;
        cutText(l, "key", B.key, `woundTrack.customLevels.${i}.key`, cuts);
        cutText(l, "label", B.text, `woundTrack.customLevels.${i}.label`, cuts);
      });
  }
  const guts = system.gutsState;
  if (isRec(guts) && Array.isArray(guts.pending) && guts.pending.length > B.gutsPending) {
    // As a new failure past the bound does: the mildest put aside, the worst effect kept.
    cuts.push({ path: "gutsState.pending", count: guts.pending.length - B.gutsPending });
    guts.pending = boundedPending(guts.pending as { effect?: unknown }[]);
  }
  return cuts;
}

/**
 * Clamps a stored attack or roll card's `system` to the card limits (CARD_LIMITS), in place:
 * lists cut to their limit, strings to theirs; a card still over its size keeps no target.
 */
export function clampCard(type: string, system: unknown): Cut[] {
  const cuts: Cut[] = [];
  if (!isRec(system)) return cuts;
  const L = CARD_LIMITS;
  const texts = (holder: Rec, keys: string[], prefix: string) =>
    keys.forEach((k) => cutText(holder, k, L.text, `${prefix}${k}`, cuts));
  if (type === "attackCard") {
    texts(system, ["userId", "attackerId", "attackerName", "weaponId", "weaponName"], "");
    cutList(system, "targets", L.targets, "targets", cuts, "first");
    if (Array.isArray(system.targets))
      system.targets.forEach((t, i) => {
        if (!isRec(t)) return;
        texts(t, ["actorId", "tokenId", "name", "gmLevel"], `targets.${i}.`);
        cutList(t, "applied", L.applied, `targets.${i}.applied`, cuts, "last");
        cutList(t, "defendDice", L.faces, `targets.${i}.defendDice`, cuts, "first");
      });
  } else if (type === "rollCard") {
    texts(system, ["actorId", "actorName", "traitKey", "traitLabelKey", "traitName", "resultName"], "");
    cutList(system, "dice", L.faces, "dice", cuts, "first");
    cutList(system, "willpowerDice", L.faces, "willpowerDice", cuts, "first");
    cutList(system, "steps", L.steps, "steps", cuts, "first");
  }
  const size = JSON.stringify(system).length;
  if (size > L.chars) {
    cuts.push({ path: type === "attackCard" ? "targets" : "steps", count: size - L.chars });
    if (type === "attackCard") system.targets = [];
    else system.steps = [];
  }
  return cuts;
}
