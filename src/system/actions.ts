/**
 * Sheet and chat-card actions as pure functions: they take plain documents and return plain
 * update objects (nested, never dotted keys) that the Foundry layer passes to `update` and the
 * playground merges into its in-memory documents. Bad input throws a RulesError with an i18n
 * key and never touches the input (nothing is mutated, nothing is lost).
 */
import { RulesError, isRulesError } from "../rules/errors";
import { type Step } from "../rules/explain";
import type { Rng } from "../rules/dice";
import { checkRecordedDice, type AttackResolution, type DiceReader, type DiceSlot } from "../rules/pipeline";
import { pipelineFor } from "../rules/presets";
import {
  applyWound,
  endBattle,
  healTrack,
  penaltyFor,
  toggleBox,
  trackStatus,
  undoApplied,
  woundLevelName,
  type BattleLapse,
  type Track,
} from "../rules/track";
import { unopposedRoll, willpowerEasedPenalty } from "../rules/fudge/unopposed";
import { statCheck } from "../rules/miniatures/stat-check";
import { voltRoll } from "../rules/volt/roll";
import { injuryToRecover, recoverAction } from "../rules/volt/recover";
import { attacksOfAction, datacard, parseDatacard, type MiniDatacard } from "../rules/miniatures/datacard";
import {
  gutsRecheck,
  gutsTrigger,
  nearDeathRoll,
  parseGutsState,
  type GutsRules,
  type GutsSituation,
} from "../rules/miniatures/guts";
import type {
  ActorDoc,
  AttackCardData,
  AttackCardTarget,
  CharacterData,
  CustomWoundLevel,
  ItemDoc,
  MiniatureData,
  SkillData,
  WorldRules,
} from "./data";
import { boxTrackConfig } from "../rules/fudge/box-track";
import {
  actorRef,
  attackRequest,
  customBoxLevels,
  defenderSituation,
  equippedOf,
  findItem,
  miniatureDatacard,
  trackFor,
  type RoundStart,
  type Situation,
} from "./combatant";
import { isDatacardStat, ladderOf } from "./view";
import { liveRecord, logUpdate, woundLogOf, type GmPick, type WoundRecord } from "./integrity";
import { fudgeDiceSlot } from "../rules/fudge/dice";
import type { LapseNote } from "./battle-end";
import { errorView } from "./error-text";
import { withDeletions } from "./deletions";
import { defenceSettledClipped } from "./clipped";
import type { SlotDice } from "./rolling";

// ─── Permissions ───────────────────────────────────────────────────────────────────────

export interface UserRef {
  id: string;
  isGM: boolean;
}

/** "allow": do it here; "needsRelay": ask a GM client to do it (it re-checks); "deny": refuse. */
export type Verdict = "allow" | "needsRelay" | "deny";

/** Foundry's OWNER permission level. */
export const OWNER = 3;

export function isOwner(user: UserRef, actor: Pick<ActorDoc, "ownership">): boolean {
  if (user.isGM) return true;
  const o = actor.ownership ?? {};
  return (o[user.id] ?? o.default ?? 0) >= OWNER;
}

/** Players act on what they own; the GM on anything; a player's click on another's actor goes through a GM relay. */
export function canAct(user: UserRef, actor: Pick<ActorDoc, "ownership">): Verdict {
  return isOwner(user, actor) ? "allow" : "needsRelay";
}

export type ActionName = "toggleWoundBox" | "rollTrait" | "heal" | "edit" | "attack" | "defend" | "apply" | "undo";

/**
 * The verdict for one action. Sheet actions (toggle, roll, heal, edit, attack) and Defend need
 * ownership of the actor: no relay. Apply: the target's owner or the GM, or the attacker (the
 * card's user) through the relay. Undo: the target's owner or the GM, or the user who applied
 * it through the relay — read from the target's wound log when `messageId` and the actor's
 * flags are at hand (the GM's client), else from the card (what a client shows as a button).
 * On the GM's client `card.userId` is the message's author (src/foundry puts it there), never
 * what the card says.
 */
export function authorize(
  action: ActionName,
  user: UserRef,
  actor: Pick<ActorDoc, "ownership"> & Partial<Pick<ActorDoc, "flags">>,
  card?: AttackCardData,
  target?: AttackCardTarget,
  messageId?: string,
): Verdict {
  if (isOwner(user, actor)) return "allow";
  if (action === "apply" && card && card.userId === user.id) return "needsRelay";
  if (action === "undo" && target) {
    const applier =
      messageId !== undefined ? liveRecord(woundLogOf(actor), messageId)?.by : liveApplied(target)?.userId;
    if (applier === user.id) return "needsRelay";
  }
  return "deny";
}

export interface ActOptions {
  /** True when a GM client runs this on behalf of `user` after a relay (the relay re-checks here). */
  relayed?: boolean;
  /** Apply/Undo: the card's message id, the key of the wound record in the target's wound log. */
  messageId?: string;
  /** Apply only: the defender spends a Fudge Point so that a deadly wound is not (Fudge §4.64). */
  spendFudgePoint?: boolean;
  /** Clock for applied records (tests pass a fixed value). */
  now?: number;
}

function check(
  action: ActionName,
  user: UserRef | undefined,
  actor: ActorDoc,
  opts: ActOptions = {},
  card?: AttackCardData,
  target?: AttackCardTarget,
  messageId?: string,
): void {
  if (!user) return;
  const v = authorize(action, user, actor, card, target, messageId);
  if (v === "allow" || (v === "needsRelay" && opts.relayed)) return;
  if (v === "needsRelay")
    throw new RulesError("user", "FUDGE.Error.NeedsRelay", `${action} on ${actor.name} must go through the GM`, {
      action,
      name: actor.name,
    });
  throw refusal(action, actor.name);
}

/** The refusal a player reads: card actions say whose it is and who may do it (localized, with the actor's name). */
export function refusal(action: ActionName, name: string): RulesError {
  const key =
    action === "defend"
      ? "FUDGE.Error.NotYoursToDefend"
      : action === "apply"
        ? "FUDGE.Error.NotYoursToApply"
        : action === "undo"
          ? "FUDGE.Error.NotYoursToUndo"
          : "FUDGE.Error.NotPermitted";
  return new RulesError("user", key, `you may not ${action} on ${name}`, { action, name });
}

// ─── Updates ───────────────────────────────────────────────────────────────────────────

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

const trackUpdate = (state: unknown): ActorUpdate => ({
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

function liveTrack(actor: ActorDoc, rules: WorldRules): Track {
  return trackFor(actor, rules);
}

/** A click (or key press) on a wound box: mark it with its own level, or clear it. */
export function toggleWoundBox(actor: ActorDoc, ref: string, rules: WorldRules, user?: UserRef): ActorUpdate {
  check("toggleWoundBox", user, actor);
  if (typeof ref !== "string" || !ref)
    throw new RulesError("ref", "FUDGE.Error.BadBoxRef", "a box reference is needed");
  const track = liveTrack(actor, rules);
  return trackUpdate(toggleBox(track, ref).state);
}

/** Healing of any kind the track supports (box: scratches/roll/natural/endRound; fate: endScene/consumeClipped; volt: rest/injuryRecovery). */
export function healWounds(
  actor: ActorDoc,
  healing: unknown,
  rules: WorldRules,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[] } {
  check("heal", user, actor);
  const track = liveTrack(actor, rules);
  // Volt: Recovery — the Injury recovery roll's value is the highest Injury: with none there is
  // nothing to roll for (refused before any die is rolled, as the hosts call this first).
  if (
    (healing as { type?: unknown } | null)?.type === "injuryRecovery" &&
    track.config.kind === "volt" &&
    injuryToRecover(track) === null
  )
    throw new RulesError("actor", "FUDGE.Volt.Error.NoInjuryToRecover", `${actor.name} has no Injury to recover from`, {
      name: actor.name,
    });
  const r = healTrack(track, healing);
  return { update: trackUpdate(r.track.state), steps: r.steps };
}

/** Clears Scratches (Fudge §4.8: after the fight). */
export function clearScratches(
  actor: ActorDoc,
  rules: WorldRules,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[] } {
  return healWounds(actor, { type: "scratches" }, rules, user);
}

/** Volt: the Injury recovery roll (monthly by default), with an optional medical result (Volt: Recovery). */
export function injuryRecovery(
  actor: ActorDoc,
  black: number,
  white: number,
  rules: WorldRules,
  medical = 0,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[] } {
  if (actor.type === "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.NotCharacter", "Injury recovery needs a Volt character", {
      name: actor.name,
    });
  return healWounds(
    actor,
    { type: "injuryRecovery", black, white, strength: (actor.system as CharacterData).volt.strength, medical },
    rules,
    user,
  );
}

/** Volt: the Recover action, from its two d20 (black, white). */
export function recover(
  actor: ActorDoc,
  black: number,
  white: number,
  rules: WorldRules,
  user?: UserRef,
): { update: ActorUpdate; steps: Step[]; success: boolean | null } {
  check("heal", user, actor);
  if (actor.type === "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.NotCharacter", "Recover needs a Volt character", {
      name: actor.name,
    });
  const d = actor.system as CharacterData;
  const track = liveTrack(actor, rules);
  // Volt: Recovery — Recover is an action: one who cannot act makes no roll (refused before any die is rolled).
  if (!trackStatus(track).canAct)
    throw new RulesError("actor", "FUDGE.Volt.Error.RecoverCannotAct", `${actor.name} cannot act, so cannot Recover`, {
      name: actor.name,
    });
  const r = recoverAction(track, d.volt.willpower, black, white);
  return { update: trackUpdate(r.track.state), steps: r.steps, success: r.roll ? r.roll.success : null };
}

/** Resets a track whose stored state no longer fits (after a preset change): GM or owner, explicit. */
export function resetTrack(actor: ActorDoc, user?: UserRef): ActorUpdate {
  check("edit", user, actor);
  return trackUpdate(null);
}

/** A player's click on automatic death: refused (RULES §2.2, GM only). */
export const killRefusal = (name: string): RulesError =>
  new RulesError("user", "FUDGE.Error.KillGmOnly", `only a GM may kill ${name} outright`, { name });

/** Track kinds with a Dead state a GM may set at once (the Fudge box track and the Damage Capacity track). */
const KILLABLE_TRACKS: readonly string[] = ["box", "dc"];

/** May this user kill this actor at once (the sheet's button)? A GM, on a Fudge track not already dead. */
export function canKill(actor: ActorDoc, rules: WorldRules, isGM: boolean): boolean {
  if (!isGM) return false;
  try {
    const track = trackFor(actor, rules);
    return KILLABLE_TRACKS.includes(track.config.kind) && trackStatus(track).condition !== "dead";
  } catch {
    return false;
  }
}

/**
 * What an automatic death changed, kept in the actor's flags (`flags["fudge-wounds"].killedFrom`)
 * so that the GM can take a misclick back (undoKill): the track state before and after the kill
 * (parsed states, as a wound record keeps them), the GM's user id and the time. Written by the
 * GM's own client as part of the kill (a GM's action: no relay, no Apply-style integrity check).
 */
export interface KillRecord {
  before: unknown;
  after: unknown;
  by: string;
  at: number;
}

export const KILL_RECORD_FLAG = "killedFrom";

/** The stored kill record of an actor, or null (absent or malformed). */
export function killRecordOf(actor: Pick<ActorDoc, "flags">): KillRecord | null {
  const raw = (actor.flags?.["fudge-wounds"] as Record<string, unknown> | undefined)?.[KILL_RECORD_FLAG];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.by !== "string" || typeof r.at !== "number" || !("before" in r) || !("after" in r)) return null;
  return { before: r.before, after: r.after, by: r.by, at: r.at };
}

/**
 * The track an undo of the automatic death would restore, or null: there is no record, or the
 * live track is no longer exactly as the kill left it (a later change is never overwritten), or
 * the record no longer fits the track (the world's track changed). The rules core's undoApplied
 * compares the states (the same check as a wound's Undo).
 */
function killUndone(actor: ActorDoc, rules: WorldRules): Track | null {
  const record = killRecordOf(actor);
  if (!record) return null;
  try {
    const track = trackFor(actor, rules);
    if (!KILLABLE_TRACKS.includes(track.config.kind) || trackStatus(track).condition !== "dead") return null;
    return undoApplied(track, record);
  } catch (e) {
    if (isRulesError(e)) return null;
    throw e;
  }
}

/** May this user undo this actor's automatic death (the sheet's button)? A GM, while the kill's record matches the live track. */
export function canUndoKill(actor: ActorDoc, rules: WorldRules, isGM: boolean): boolean {
  return isGM && killUndone(actor, rules) !== null;
}

/**
 * RULES §2.2 "Automatic death: a GM-only action, no roll" (Fudge §4.51, the helpless victim): the
 * actor's track becomes Dead (the rules core's applyWound `{kill: true}`). Refused for anyone but a
 * GM, and on tracks without a Dead state (FATE, Volt). The update also writes the kill record
 * (KillRecord) that undoKill restores from; an earlier record is replaced whole.
 */
export function killActor(
  actor: ActorDoc,
  rules: WorldRules,
  user: UserRef,
  opts: { now?: number } = {},
): { update: ActorUpdate; steps: Step[] } {
  if (!user?.isGM) throw killRefusal(actor.name);
  const track = liveTrack(actor, rules);
  if (!KILLABLE_TRACKS.includes(track.config.kind))
    throw new RulesError(
      "track.config.kind",
      "FUDGE.Error.KillTrackKind",
      `automatic death needs a "box" or "dc" track (got ${JSON.stringify(track.config.kind)})`,
      { kind: String(track.config.kind), name: actor.name },
    );
  const r = applyWound(track, { kill: true });
  const record: KillRecord = {
    before: structuredClone(track.state),
    after: structuredClone(r.track.state),
    by: user.id,
    at: opts.now ?? Date.now(),
  };
  const stored = (actor.flags?.["fudge-wounds"] as Record<string, unknown> | undefined)?.[KILL_RECORD_FLAG];
  return {
    update: {
      ...trackUpdate(r.track.state),
      flags: { "fudge-wounds": { [KILL_RECORD_FLAG]: withDeletions(stored, record) } },
    },
    steps: r.steps,
  };
}

/**
 * Undo of an automatic death (GM only): the track goes back to the kill record's `before`, and
 * the record is removed (`-=killedFrom`). Refused for anyone but a GM (FUDGE.Error.UndoKillGmOnly,
 * even the actor's owner), when there is no record (FUDGE.Error.NoKillToUndo), and when the
 * live track is no longer as the kill left it (FUDGE.Error.KillUndoConflict).
 */
export function undoKill(actor: ActorDoc, rules: WorldRules, user: UserRef): ActorUpdate {
  if (!user?.isGM)
    throw new RulesError("user", "FUDGE.Error.UndoKillGmOnly", `only a GM may undo ${actor.name}'s automatic death`, {
      name: actor.name,
    });
  if (!killRecordOf(actor))
    throw new RulesError("flags", "FUDGE.Error.NoKillToUndo", `${actor.name} has no automatic death to undo`, {
      name: actor.name,
    });
  const restored = killUndone(actor, rules);
  if (!restored)
    throw new RulesError(
      "flags",
      "FUDGE.Error.KillUndoConflict",
      `${actor.name}'s wound track has changed since the automatic death`,
      { name: actor.name },
    );
  return { ...trackUpdate(restored.state), flags: { "fudge-wounds": { [`-=${KILL_RECORD_FLAG}`]: null } } };
}

// ─── Field edits ───────────────────────────────────────────────────────────────────────

type FieldSpec =
  | { type: "int"; min: number; max: number }
  | { type: "bool" }
  | { type: "text" }
  | { type: "enum"; values: readonly string[] };
const LADDER_FIELD: FieldSpec = { type: "int", min: -10, max: 10 };

/** Fields a sheet edits inline, with their ranges (stored data stays valid for the rules core). */
export const EDITABLE_FIELDS: Record<string, FieldSpec> = {
  "attributes.strength": LADDER_FIELD,
  "attributes.damageCapacity": LADDER_FIELD,
  "attributes.willpower": LADDER_FIELD,
  "attributes.mass": LADDER_FIELD,
  "scale.strength": { type: "int", min: -50, max: 50 },
  "scale.mass": { type: "int", min: -50, max: 50 },
  fudgePoints: { type: "int", min: 0, max: 999 },
  "woundTrack.preset": { type: "enum", values: ["standard", "cinematic", "epic", "custom"] },
  "woundTrack.epicExtraHurt": { type: "int", min: 0, max: 2 },
  "woundTrack.epicExtraVeryHurt": { type: "int", min: 0, max: 2 },
  "woundTrack.label": { type: "text" },
  "volt.willpower": { type: "int", min: 0, max: 99 },
  "volt.strength": { type: "int", min: 0, max: 99 },
  "volt.guard": { type: "int", min: 0, max: 999 },
  "volt.tough": { type: "int", min: -9, max: 20 },
  defenseSkill: { type: "text" },
  defenseDefault: LADDER_FIELD,
  // HTML: Foundry's server cleans it (system.json htmlFields); the playground's editor sanitises before saving.
  notes: { type: "text" },
  pawn: { type: "bool" },
  strength: LADDER_FIELD,
  dexterity: LADDER_FIELD,
  guts: LADDER_FIELD,
  movement: { type: "int", min: 0, max: 1000 },
  terrifying: { type: "int", min: 0, max: 20 },
  flying: { type: "bool" },
  "gutsStanding.defendingKing": { type: "bool" },
  "gutsStanding.peasant": { type: "bool" },
  "gutsStanding.follower": { type: "bool" },
};

/** Sets a nested value on a fresh object: setPath("a.b", 1) → { a: { b: 1 } }. */
export function nested(path: string, value: unknown): Record<string, unknown> {
  return path
    .split(".")
    .reverse()
    .reduce<unknown>((acc, k) => ({ [k]: acc }), value) as Record<string, unknown>;
}

/**
 * Validates one edited sheet field (`path` inside `system`, e.g. "attributes.strength") and
 * returns the nested update. Strings from form inputs are parsed ("+2", "−1", "3").
 */
export function setActorField(
  actor: ActorDoc,
  path: string,
  raw: unknown,
  user?: UserRef,
): { system: Record<string, unknown> } {
  check("edit", user, actor);
  const field = `system.${path}`;
  const custom = /^woundTrack\.customLevels\.(\d+)\.(label|boxes|penalty|threshold|effect|afterCombatPenalty)$/.exec(
    path,
  );
  if (custom) return setCustomLevelField(actor, Number(custom[1]), custom[2] as keyof CustomWoundLevel, raw);
  const spec = EDITABLE_FIELDS[path];
  if (!spec || !hasPath(actor.system, path))
    throw new RulesError(field, "FUDGE.Error.UnknownField", `no editable field ${path} on ${actor.type}`, { path });
  const value = fieldValue(spec, field, raw);
  // Fudge §4.57 custom track: choosing it starts from the standard levels, which the sheet then edits.
  if (path === "woundTrack.preset" && value === "custom" && !customLevelsOf(actor).length)
    return { system: { woundTrack: { preset: "custom", customLevels: standardCustomLevels() } } };
  return { system: nested(path, value) };
}

/** A form value parsed and range-checked by its field spec ("+2" and "−1" are numbers). */
function fieldValue(spec: FieldSpec, field: string, raw: unknown): unknown {
  let value: unknown = raw;
  switch (spec.type) {
    case "int": {
      const n =
        typeof raw === "number"
          ? raw
          : typeof raw === "string"
            ? Number(
                raw
                  .trim()
                  .replace(/^\u2212/, "-")
                  .replace(/^\+/, ""),
              )
            : NaN;
      if (!Number.isInteger(n))
        throw new RulesError(field, "FUDGE.Error.NotInteger", `must be a whole number (got ${JSON.stringify(raw)})`, {
          value: String(raw),
        });
      if (n < spec.min || n > spec.max)
        throw new RulesError(field, "FUDGE.Error.OutOfRange", `must be between ${spec.min} and ${spec.max}`, {
          min: spec.min,
          max: spec.max,
          value: n,
        });
      value = n;
      break;
    }
    case "bool":
      if (typeof raw !== "boolean") throw new RulesError(field, "FUDGE.Error.NotBoolean", "must be true or false");
      break;
    case "text":
      if (typeof raw !== "string") throw new RulesError(field, "FUDGE.Error.NotString", "must be text");
      break;
    case "enum":
      if (typeof raw !== "string" || !spec.values.includes(raw))
        throw new RulesError(field, "FUDGE.Error.NotOneOf", `must be one of ${spec.values.join(", ")}`, {
          allowed: spec.values.join(", "),
        });
      break;
  }
  return value;
}

// ─── Custom wound track (Fudge §4.57: "any levels, boxes, thresholds and penalties") ───────

export const CUSTOM_FIELDS: Record<string, FieldSpec> = {
  label: { type: "text" },
  boxes: { type: "int", min: 0, max: 10 },
  penalty: { type: "int", min: -10, max: 0 },
  threshold: { type: "int", min: 1, max: 99 },
  effect: { type: "enum", values: ["", "cannotAct", "dying"] },
  // Fudge §4.51 Light Wound ("no penalty during combat … after combat … -1"); blank = none.
  afterCombatPenalty: { type: "int", min: -10, max: 0 },
};

function customLevelsOf(actor: ActorDoc): CustomWoundLevel[] {
  if (actor.type === "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.UnknownField", "miniatures have no custom wound track", {
      path: "woundTrack.customLevels",
    });
  return structuredClone((actor.system as CharacterData).woundTrack.customLevels ?? []);
}

/** The standard track (Fudge §4.57) as editable custom levels. */
export function standardCustomLevels(): CustomWoundLevel[] {
  return boxTrackConfig("standard").levels.map((l) => ({
    key: l.key,
    label: "",
    boxes: l.boxes,
    penalty: l.penalty,
    threshold: l.min ?? 1,
    effect: l.effect === "cannotAct" || l.effect === "dying" ? l.effect : "",
  }));
}

/** The levels as the rules core will read them: validated (thresholds rising, boxes, penalties). */
function checkedCustomLevels(levels: CustomWoundLevel[], field: string): { system: Record<string, unknown> } {
  try {
    boxTrackConfig("custom", { levels: customBoxLevels(levels) });
  } catch (e) {
    if (e instanceof RulesError) throw new RulesError(field, e.key, e.message.replace(/^[^:]*: /, ""), e.params);
    throw e;
  }
  return { system: { woundTrack: { customLevels: levels } } };
}

function setCustomLevelField(
  actor: ActorDoc,
  index: number,
  key: keyof CustomWoundLevel,
  raw: unknown,
): { system: Record<string, unknown> } {
  const levels = customLevelsOf(actor);
  const field = `system.woundTrack.customLevels.${index}.${key}`;
  if (!levels[index])
    throw new RulesError(field, "FUDGE.Error.UnknownField", `no custom level ${index}`, { path: field });
  // A blank after-combat penalty is none: the level's penalty in and out of combat.
  const blank = key === "afterCombatPenalty" && (raw === null || (typeof raw === "string" && raw.trim() === ""));
  (levels[index] as unknown as Record<string, unknown>)[key] = blank
    ? null
    : fieldValue(CUSTOM_FIELDS[key], field, raw);
  return checkedCustomLevels(levels, field);
}

/** Adds a level after the last one, or removes one (at least one stays). */
export function editCustomLevels(
  actor: ActorDoc,
  op: "add" | "remove",
  index: number,
  user?: UserRef,
): { system: Record<string, unknown> } {
  check("edit", user, actor);
  const levels = customLevelsOf(actor);
  const field = "system.woundTrack.customLevels";
  if (op === "add") {
    const last = levels[levels.length - 1];
    let n = levels.length + 1;
    while (levels.some((l) => l.key === `level${n}`)) n++;
    levels.push({
      key: `level${n}`,
      label: `Level ${n}`,
      boxes: 1,
      penalty: last ? Math.max(-10, last.penalty - 1) : 0,
      threshold: last ? Math.min(99, last.threshold + 2) : 1,
      effect: last?.effect ?? "",
    });
  } else {
    if (!levels[index])
      throw new RulesError(`${field}.${index}`, "FUDGE.Error.UnknownField", `no custom level ${index}`, {
        path: `${field}.${index}`,
      });
    if (levels.length === 1)
      throw new RulesError(field, "FUDGE.Error.CustomLevelsMissing", "a custom wound track needs at least one level");
    levels.splice(index, 1);
  }
  return checkedCustomLevels(levels, field);
}

function hasPath(obj: unknown, path: string): boolean {
  let o = obj as Record<string, unknown> | undefined;
  for (const k of path.split(".")) {
    if (!o || typeof o !== "object" || !(k in o)) return false;
    o = o[k] as Record<string, unknown>;
  }
  return true;
}

// ─── Trait rolls ───────────────────────────────────────────────────────────────────────

export interface RollCardData {
  actorId: string;
  actorName: string;
  traitKey: string;
  /** i18n key of the trait (attributes), or "" with `traitName` for a skill. */
  traitLabelKey: string;
  traitName: string;
  level: number;
  penalty: number;
  dice: number[];
  /** Fudge/FATE/Miniatures: rolled degree; Volt: the result die. */
  result: number;
  resultName: string;
  success: boolean;
  difficulty: number;
  steps: Step[];
  preset: string;
  /**
   * Fudge §4.51 (RULES §2.3, world option "Willpower against penalties"): the four Fudge dice of
   * the Willpower roll made before this roll to ease its wound penalty; absent (null once stored) when none was made.
   */
  willpowerDice?: number[] | null;
}

/**
 * Fudge §4.51 (RULES §1: wound penalties apply to every roll; §2.3: "Optional Willpower roll
 * against a GM-set Difficulty Level to reduce or cancel a penalty"): a Fudge character's trait
 * roll makes the Willpower roll first when the world's option is on and the roll has a wound
 * penalty — as an attack does for each side (src/rules/fudge/pipeline.ts easedPenalty).
 */
export function traitWillpowerNeeded(actor: ActorDoc, traitKey: string, rules: WorldRules, inCombat = false): boolean {
  if (rules.preset !== "fudge" || !rules.fudgeTrack.willpowerVsPenalty) return false;
  if (actor.type === "miniature" || traitKey.startsWith("volt.")) return false;
  return penaltyFor(trackStatus(liveTrack(actor, rules)), inCombat) < 0;
}

function traitLevel(
  actor: ActorDoc,
  traitKey: string,
  rules: WorldRules,
): { level: number; labelKey: string; name: string } {
  const path = "traitKey";
  if (traitKey.startsWith("skill:")) {
    const it = findItem(actor, traitKey.slice(6), path) as ItemDoc;
    if (it.type !== "skill")
      throw new RulesError(path, "FUDGE.Error.NotASkill", `${it.name} is not a skill`, { name: it.name });
    return { level: (it.system as SkillData).level, labelKey: "", name: it.name };
  }
  const [group, key] = traitKey.includes(".") ? traitKey.split(".") : ["", traitKey];
  if (actor.type === "miniature") {
    const d = actor.system as MiniatureData;
    if (group === "" && (key === "strength" || key === "dexterity" || key === "guts"))
      return { level: d[key], labelKey: `FUDGE.Attribute.${key}`, name: "" };
  } else {
    const d = actor.system as CharacterData;
    if (group === "attributes" && (key === "strength" || key === "damageCapacity" || key === "willpower"))
      return { level: d.attributes[key], labelKey: `FUDGE.Attribute.${key}`, name: "" };
    if (group === "volt" && (key === "willpower" || key === "strength"))
      return { level: d.volt[key], labelKey: `FUDGE.Volt.Attribute.${key}`, name: "" };
  }
  void rules;
  throw new RulesError(path, "FUDGE.Error.UnknownTrait", `no trait ${JSON.stringify(traitKey)} on ${actor.name}`, {
    trait: traitKey,
  });
}

/**
 * Rolls a trait with the wound penalty applied, the result named on the ladder (Fudge §3.4,
 * §4.51). Volt traits roll 2d20 against the value minus the penalty (Volt: Rolls). Miniatures:
 * penalties lower the stat itself (Miniatures: Wounds), which is the same number here.
 * `faces`: four Fudge dice (in a Miniatures world, with each Legendary re-roll's four after them:
 * Miniatures: Ground rules), or [black, white] for Volt. `inCombat`: the actor is in a started combat
 * (a level's after-combat penalty applies outside it, Fudge §4.51); absent = not in combat.
 */
export function rollTrait(
  actor: ActorDoc,
  traitKey: string,
  faces: number[],
  rules: WorldRules,
  opts: { difficulty?: number; modifier?: number; user?: UserRef; inCombat?: boolean; willpowerDice?: number[] } = {},
): RollCardData {
  check("rollTrait", opts.user, actor);
  const t = traitLevel(actor, traitKey, rules);
  const status = trackStatus(liveTrack(actor, rules));
  if (!status.canAct)
    throw new RulesError("actor", "FUDGE.Error.CannotAct", `${actor.name} cannot act`, { name: actor.name });
  // Fudge §4.51 Light Wound: "no penalty during combat … but after combat … -1" (not in a started combat: after).
  let wound = penaltyFor(status, opts.inCombat ?? false);
  const difficulty = opts.difficulty ?? rules.defaultDifficulty;
  // Fudge §4.51 (RULES §2.3): the world's Willpower roll against the wound penalty, made first.
  const will = traitWillpowerNeeded(actor, traitKey, rules, opts.inCombat ?? false)
    ? willpowerEase(actor, wound, opts.willpowerDice, rules)
    : null;
  if (will) wound = will.penalty;
  const penalty = wound + (opts.modifier ?? 0);
  const base = {
    actorId: actorRef(actor),
    actorName: actor.name,
    traitKey,
    traitLabelKey: t.labelKey,
    traitName: t.name,
    level: t.level,
    penalty,
    dice: [...faces],
    difficulty,
    preset: rules.preset,
    ...(will ? { willpowerDice: will.dice } : {}),
  };
  if (traitKey.startsWith("volt.")) {
    if (!Array.isArray(faces) || faces.length !== 2)
      throw new RulesError("dice", "FUDGE.Error.BadLength", "a Volt roll needs two d20 (black, white)", {
        min: 2,
        max: 2,
      });
    const r = voltRoll(t.level + penalty, faces[0], faces[1]);
    return { ...base, result: r.result, resultName: String(r.result), success: r.success, steps: [] };
  }
  const ladder = ladderOf(rules);
  // Miniatures: a datacard's stat rolls in numbers, as the datacard shows it.
  const numbers = isDatacardStat(traitKey);
  // The card says why the wound penalty is not the combat one.
  const afterCombat = [
    ...(opts.inCombat ? [] : status.steps.filter((x) => x.key === "FUDGE.Step.Box.AfterCombat")),
    ...(will ? [will.step] : []),
  ];
  if (rules.preset === "miniatures") {
    // Miniatures: Ground rules — every 4dF is the Legendary roll; Guts — a failure by 1 in force is −1 to rolls.
    const gutsState =
      actor.type === "miniature"
        ? parseGutsState((actor.system as MiniatureData).gutsState, "system.gutsState")
        : undefined;
    const r = statCheck(t.level, faces, difficulty, penalty, { numbers, ladder, gutsState, rules: gutsRules(rules) });
    return {
      ...base,
      penalty: penalty + r.gutsPenalty,
      result: r.rolled,
      resultName: r.name,
      success: r.success,
      steps: [...afterCombat, ...r.steps],
    };
  }
  const r = unopposedRoll(t.level, faces, difficulty, penalty, ladder, numbers);
  return { ...base, result: r.rolled, resultName: r.name, success: r.success, steps: [...afterCombat, ...r.steps] };
}

// ─── The attack card ───────────────────────────────────────────────────────────────────

/**
 * Recorded dice, a random source that rolls each slot, or faces per slot and target rolled
 * beforehand by the host (src/system/rolling.ts: Foundry Rolls, the playground's dice).
 */
export type DiceSource = Rng | Record<string, number[]> | SlotDice;

/** Slots the defender rolls on the card (Defend button): the opposed defence roll. */
export const isDefenderSlot = (id: string): boolean => id === "defense" || id === "defence";

/**
 * Fudge §4.55 GM judgement: "The GM can also use a Situational roll … Roll the dice behind a GM
 * screen" after deciding the wound. The one slot the attacker does not roll: the GM's client
 * rolls it when he applies his pick (judgeWound), and only that roll is read.
 */
export const GM_SLOT = "situational";

const isSlotDice = (s: DiceSource): s is SlotDice => typeof (s as Partial<SlotDice>).faces === "function";

function rollSlot(slot: DiceSlot, source: DiceSource, targetIndex: number): number[] {
  if (typeof source === "function") return slot.roll(source);
  if (isSlotDice(source)) return [...source.faces(slot, targetIndex)];
  const v = source[slot.id];
  if (v === undefined)
    throw new RulesError(
      `dice.${slot.id}`,
      "FUDGE.Error.MissingDice",
      `this attack needs the ${slot.formula} roll "${slot.id}"`,
      { slot: slot.id },
    );
  if (!Array.isArray(v)) throw new RulesError(`dice.${slot.id}`, "FUDGE.Error.NotArray", "must be a list of die faces");
  return [...v];
}

function reader(record: Record<string, number[]>): DiceReader {
  return (id) => {
    const v = record[id];
    if (v === undefined)
      throw new RulesError(`dice.${id}`, "FUDGE.Error.MissingDice", `missing dice "${id}"`, { slot: id });
    return v;
  };
}

/**
 * Fudge §4.51: the Willpower roll (Willpower + 4dF, recorded) against the world's Difficulty eases
 * the wound penalty (rules core willpowerEasedPenalty). Without its dice the roll cannot be read:
 * refused, as a missing Legendary re-roll is.
 */
function willpowerEase(
  actor: ActorDoc,
  penalty: number,
  dice: number[] | undefined,
  rules: WorldRules,
): { penalty: number; dice: number[]; step: Step } {
  if (dice === undefined)
    throw new RulesError(
      "willpowerDice",
      "FUDGE.Error.WillpowerRollMissing",
      "the Willpower roll against the wound penalty is missing",
    );
  const r = willpowerEasedPenalty(
    (actor.system as CharacterData).attributes.willpower,
    dice,
    rules.fudgeTrack.willpowerDifficulty,
    penalty,
    ladderOf(rules),
  );
  return { penalty: r.penalty, dice: [...dice], step: r.step };
}

/** Resolves a target's recorded request and dice (re-derivable at any time). */
export function resolveTarget(target: Pick<AttackCardTarget, "request" | "dice">): AttackResolution {
  const p = pipelineFor((target.request as { preset?: unknown })?.preset, "request.preset");
  const req = p.parseRequest(target.request);
  // The card's recorded dice, each slot known and its faces valid before any is read.
  checkRecordedDice(target.dice, p.slots(req));
  return p.resolve(req, reader(target.dice));
}

const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * Miniatures: "Melee attack with all wielded melee weapons" / "Shoot all wielded ranged weapons"
 * — one attack per weapon (Miniatures: Melee Combat, Ranged Combat). Returns the weapon item ids
 * of the action, in datacard order. An equipped weapon is one the model carries ready; the action
 * wields those of its kind (the bow to shoot, the dagger to stab), and those must fit the model's
 * two hands (Miniatures: Melee Combat, "A model cannot wield more weapons than will fit in its
 * available hands"): Yanni's 2h Shortbow and 1h Dagger are each an action of their own.
 */
export function wieldedAttacks(actor: ActorDoc, kind: "melee" | "ranged", rules: WorldRules): string[] {
  if (actor.type !== "miniature")
    throw new RulesError(
      "actor.type",
      "FUDGE.Error.NotAMiniature",
      "only a miniature attacks with all wielded weapons",
    );
  const card = parseDatacard(miniatureDatacard(actor, rules), "actor");
  const equipped = equippedOf(actor, "weapon");
  // The datacard's weapons are the equipped ones, in the same order (combatant.ts miniatureDatacard).
  const wielded = card.weapons.map((w, i) => (w.kind === kind ? i : -1)).filter((i) => i >= 0);
  const indices = attacksOfAction(card, wielded, kind, 2, "weapons");
  if (!indices.length)
    throw new RulesError("weapons", "FUDGE.Error.NoWieldedWeapon", `no wielded ${kind} weapon`, { kind });
  return indices.map((i) => equipped[i]._id);
}

/**
 * Starts an attack: builds each target's request, rolls (or reads) the attacker's dice and any
 * later dice the rules may need, and resolves at once unless the defender rolls (Fudge and
 * FATE opposed rolls wait for Defend). One attack roll is shared by every target.
 */
export function startAttack(
  attacker: ActorDoc,
  weaponId: string | null,
  targets: ActorDoc[],
  situation: Situation,
  dice: DiceSource,
  rules: WorldRules,
  user: UserRef,
  perTarget: readonly Situation[] = [],
  opts: { roundStart?: (target: ActorDoc) => RoundStart | null } = {},
): AttackCardData {
  check("attack", user, attacker);
  if (!targets.length) throw new RulesError("targets", "FUDGE.Error.NoTargets", "select at least one target");
  const weapon = weaponId ? (findItem(attacker, weaponId, "weaponId") as ItemDoc<"weapon">) : null;
  if (weapon && weapon.type !== "weapon")
    throw new RulesError("weaponId", "FUDGE.Error.NotAWeapon", `${weapon.name} is not a weapon`, { name: weapon.name });
  const pipeline = pipelineFor(rules.preset);
  const shared: Record<string, number[]> = {};
  const cardTargets: AttackCardTarget[] = targets.map((t, index) => {
    // What the table measured for this target (its range, gang-up, contact) over the dialog's situation;
    // Fudge §4.64: whether this defender began the round Incapacitated is the table's, not the attacker's.
    const own = perTarget[index] ?? {};
    const request = plain(
      attackRequest(
        attacker,
        weapon,
        t,
        rules,
        defenderSituation({ ...situation, ...own }, t, rules, opts.roundStart?.(t) ?? null),
      ),
    );
    const parsed = pipeline.parseRequest(request);
    // The attacker's own refusals (Fudge §4.57, §4.62; FATE Taken Out), before any die is rolled:
    // an opposed card waits for Defend, which would otherwise be the first to refuse it.
    pipeline.checkAttacker?.(parsed);
    const slots = pipeline.slots(parsed);
    const record: Record<string, number[]> = {};
    for (const s of slots) {
      if (isDefenderSlot(s.id) || s.id === GM_SLOT) continue;
      // The attack roll itself is shared by all targets; other dice are per target.
      if (s.id === "attack") record[s.id] = shared[s.id] ??= rollSlot(s, dice, index);
      else record[s.id] = rollSlot(s, dice, index);
    }
    const waits = pipeline.exchange === "opposed" && slots.some((s) => isDefenderSlot(s.id));
    const target: AttackCardTarget = {
      actorId: actorRef(t),
      name: t.name,
      defend: waits ? "pending" : "none",
      defendDice: null,
      defendUserId: null,
      request,
      dice: record,
      resolution: null,
      applied: [],
    };
    if (Object.keys(own).length) target.situation = plain(own);
    if (!waits) target.resolution = plain(resolveTarget(target));
    return target;
  });
  return {
    preset: rules.preset,
    userId: user.id,
    attackerId: actorRef(attacker),
    attackerName: attacker.name,
    weaponId: weapon?._id ?? "",
    weaponName: weapon?.name ?? "",
    situation: plain(situation),
    attackDice: shared,
    targets: cardTargets,
  };
}

export interface CardUpdate {
  system: { targets: AttackCardTarget[] };
}

function targetIndex(card: AttackCardData, actor: ActorDoc): number {
  const ref = actorRef(actor);
  const i = card.targets.findIndex((t) => t.actorId === ref);
  if (i < 0)
    throw new RulesError("target", "FUDGE.Error.NotATarget", `${actor.name} is not a target of this attack`, {
      name: actor.name,
    });
  return i;
}

function withTarget(card: AttackCardData, i: number, t: AttackCardTarget): CardUpdate {
  const targets = card.targets.map((x, j) => (j === i ? t : structuredClone(x)));
  return { system: { targets } };
}

/** The defender's opposed roll (Fudge §3.5, FATE): records the faces and resolves the card. */
export function defend(
  card: AttackCardData,
  defender: ActorDoc,
  faces: number[],
  user: UserRef,
  opts: ActOptions = {},
): CardUpdate {
  const i = targetIndex(card, defender);
  const t = card.targets[i];
  check("defend", user, defender, opts, card, t);
  if (t.defend !== "pending")
    throw new RulesError(
      "defend",
      t.defend === "rolled" ? "FUDGE.Error.AlreadyDefended" : "FUDGE.Error.NoDefenseRoll",
      "this target does not roll to defend now",
      { name: t.name },
    );
  const next: AttackCardTarget = {
    ...structuredClone(t),
    defend: "rolled",
    defendDice: [...faces],
    defendUserId: user.id,
    dice: { ...structuredClone(t.dice), defense: [...faces] },
  };
  next.resolution = plain(resolveTarget(next)); // throws (nothing changed) on bad faces
  return withTarget(card, i, next);
}

export const liveApplied = (t: AttackCardTarget): AttackCardTarget["applied"][number] | undefined =>
  t.applied.find((a) => !a.undone);

/**
 * Apply: marks the target's live track with the wound and records the exact before/after states
 * in the target's wound log (flags), which alone decides "applied once", Undo and Fudge Point
 * refunds. The wound is `opts.resolution` — on Foundry the result src/foundry re-derived from the
 * live actors (src/system/integrity.ts) — else the card's recorded request and dice resolved
 * again here; the card's stored resolution is never applied.
 */
export function applyDamage(
  card: AttackCardData,
  target: ActorDoc,
  user: UserRef,
  rules: WorldRules,
  opts: ActOptions & { resolution?: AttackResolution; differs?: boolean } = {},
): { actorUpdate: ActorUpdate; cardUpdate: CardUpdate; steps: Step[]; ended: boolean } {
  const i = targetIndex(card, target);
  const t = card.targets[i];
  const messageId = opts.messageId ?? "";
  check("apply", user, target, opts, card, t);
  const log = woundLogOf(target);
  if (liveRecord(log, messageId))
    throw new RulesError("applied", "FUDGE.Error.AlreadyApplied", `this wound is already applied to ${target.name}`, {
      name: target.name,
    });
  if (!opts.resolution && !t.resolution)
    throw new RulesError(
      "resolution",
      "FUDGE.Error.NotResolved",
      "the attack is not resolved yet (waiting for the defence roll)",
      { name: target.name },
    );
  const res = opts.resolution ?? resolveTarget(t);
  if (res.wound === null || res.wound === undefined)
    throw new RulesError("resolution.wound", "FUDGE.Error.NothingToApply", "this attack dealt no wound", {
      name: target.name,
    });
  let track = trackFor(target, rules);
  const before = structuredClone(track.state);
  const steps: Step[] = [];
  // Follow-ups the result names for the defender's track (FATE: Clipped used up by the defence roll,
  // unless that roll's record says it already was — src/system/clipped.ts — and a Clipped taken since stays).
  const settled = defenceSettledClipped(target, messageId);
  for (const f of res.followUps ?? []) {
    if (
      f.target === "defender" &&
      typeof f.params?.healing === "string" &&
      !(f.type === "clippedConsumed" && settled)
    ) {
      const h = healTrack(track, { type: f.params.healing });
      track = h.track;
      steps.push(...h.steps);
    }
  }
  const spend = opts.spendFudgePoint === true;
  if (spend) {
    // Fudge §4.64: the defender's own choice, for a wound that would kill, while he has a point.
    if (!isOwner(user, target))
      throw new RulesError(
        "user",
        "FUDGE.Error.FudgePointNotYours",
        "only the defender's owner spends his Fudge Points",
        { name: target.name },
      );
    if (card.preset !== "fudge" || !fudgePointSaves(res.wound, target, rules))
      throw new RulesError(
        "fudgePoints",
        "FUDGE.Error.NoFudgePointSave",
        `${target.name} cannot spend a Fudge Point on this wound`,
        { name: target.name },
      );
  }
  let r = applyWound(track, spend ? { ...(res.wound as object), spendFudgePoint: true } : res.wound);
  steps.push(...r.steps);
  // A second wound the result names for the defender (Miniatures: a flying model's crash wound).
  for (const f of res.followUps ?? []) {
    if (f.target === "defender" && f.type === "crashWound" && typeof f.params?.level === "string" && !r.ended) {
      r = applyWound(r.track, { level: f.params.level });
      steps.push(...r.steps);
    }
  }
  const after = structuredClone(r.track.state);
  const at = opts.now ?? Date.now();
  const spent = spend && steps.some((s) => s.key.startsWith("FUDGE.Step.Box.Safeguard.FudgePoint"));
  const record: WoundRecord = {
    messageId,
    by: user.id,
    at,
    before,
    after,
    fudgePointSpent: spent,
    undone: false,
    undoneBy: "",
  };
  // Fudge §4.52 (4): a Willpower adjustment that holds until the battle is over (endBattleFor).
  const lapses = (res.followUps ?? [])
    .filter((f) => f.target === "defender" && f.type === "battleLapse")
    .map((f) => ({ from: String(f.params.from), to: String(f.params.to) }));
  if (lapses.length > 0 && !r.ended) record.lapses = lapses;
  const next: AttackCardTarget = structuredClone(t);
  next.resolution = plain(res);
  if (opts.differs !== undefined) next.differs = opts.differs;
  next.applied.push({
    userId: user.id,
    at,
    before,
    after,
    undone: false,
    steps: plain(steps),
    ended: r.ended,
    ...(spent ? { fudgePointSpent: true } : {}),
  });
  next.applied = next.applied.slice(-12);
  const actorUpdate = withFudgePoints(trackUpdate(after), target, spent ? -1 : 0);
  return {
    actorUpdate: { ...actorUpdate, flags: logUpdate(log, record) },
    cardUpdate: withTarget(card, i, next),
    steps,
    ended: r.ended,
  };
}

/**
 * GM judgement (Fudge §4.55: "the GM assesses the factors and announces the wound"): the GM's
 * pick — a level of the defender's track or "none" — and, when the world rolls it, the
 * Situational 4dF his own client rolled after the pick ("-1 to +1 … no change … +3 or +4 adds a
 * wound level or two"). Only a GM picks: the level is not the attacker's claim (integrity.ts
 * CLAIMABLE_SITUATION) nor the defender's. The wound is `opts.resolution` — on Foundry and in the
 * playground the result rederiveTarget derived from the live actors with `gm: pick` — else the
 * card's recorded request resolved with the pick. A wound is applied as Apply does (wound log,
 * Undo); "no wound" writes no actor. Either way the card records the pick (`gmLevel`), the GM's
 * roll (dice.situational) and the result, so it renders as the GM ruled.
 */
export function judgeWound(
  card: AttackCardData,
  target: ActorDoc,
  user: UserRef,
  rules: WorldRules,
  pick: GmPick,
  opts: ActOptions & { resolution?: AttackResolution; differs?: boolean } = {},
): { actorUpdate: ActorUpdate | null; cardUpdate: CardUpdate; steps: Step[]; ended: boolean } {
  if (!user.isGM)
    throw new RulesError("user", "FUDGE.Error.GmJudgement.GmOnly", "only the GM picks the wound in GM judgement", {
      name: target.name,
    });
  const i = targetIndex(card, target);
  const t = card.targets[i];
  if (liveRecord(woundLogOf(target), opts.messageId ?? ""))
    throw new RulesError("applied", "FUDGE.Error.AlreadyApplied", `this wound is already applied to ${target.name}`, {
      name: target.name,
    });
  if (!opts.resolution && !t.resolution)
    throw new RulesError(
      "resolution",
      "FUDGE.Error.NotResolved",
      "the attack is not resolved yet (waiting for the defence roll)",
      { name: target.name },
    );
  const res = opts.resolution ?? judgedOnCard(t, pick, target.name);
  const recorded = (next: AttackCardTarget): AttackCardTarget => {
    next.gmLevel = pick.level;
    if (pick.situational) next.dice = { ...next.dice, [GM_SLOT]: [...pick.situational] };
    return next;
  };
  if (res.wound === null || res.wound === undefined) {
    const next: AttackCardTarget = structuredClone(t);
    next.resolution = plain(res);
    if (opts.differs !== undefined) next.differs = opts.differs;
    return { actorUpdate: null, cardUpdate: withTarget(card, i, recorded(next)), steps: [], ended: false };
  }
  const r = applyDamage(card, target, user, rules, { ...opts, resolution: res });
  recorded(r.cardUpdate.system.targets[i]);
  return r;
}

/** Without live documents (pure callers): the card's recorded request and dice with the GM's pick; the target must await the pick. */
function judgedOnCard(t: AttackCardTarget, pick: GmPick, name: string): AttackResolution {
  if (resolveTarget(t).outcome !== "gmJudgement")
    throw new RulesError(
      "gmLevel",
      "FUDGE.Error.GmJudgement.NotPending",
      `${name}'s wound is not the GM's to judge on this card`,
      { name },
    );
  const request = structuredClone(t.request) as { situation?: Record<string, unknown> };
  request.situation = { ...(request.situation ?? {}), gmLevel: pick.level };
  const dice = { ...t.dice };
  delete dice[GM_SLOT];
  if (pick.situational) dice[GM_SLOT] = [...pick.situational];
  return resolveTarget({ request, dice });
}

/** The dice the GM's client rolls with his pick: Fudge §4.55's Situational 4dF, when the world's option rolls it; else null. */
export function gmRollSlot(rules: WorldRules): DiceSlot | null {
  if (rules.preset !== "fudge" || rules.fudge.woundMode !== "gmJudgement" || !rules.fudge.gmSituationalRoll)
    return null;
  return fudgeDiceSlot(GM_SLOT, 4, "FUDGE.Dice.Fudge.situational");
}

/** The update plus a change of the actor's Fudge Points (spent on a wound, or given back by Undo). */
function withFudgePoints(update: ActorUpdate, actor: ActorDoc, delta: number): ActorUpdate {
  if (delta === 0) return update;
  const points = (actor.system as { fudgePoints?: number }).fudgePoints ?? 0;
  return { system: { ...(update.system as Record<string, unknown>), fudgePoints: Math.max(0, points + delta) } };
}

/**
 * The battle is over (a combat ended): the Willpower adjustments of the wounds this actor took
 * that hold "until the battle is over" (Fudge §4.52 (4)) lapse — each such wound goes to the
 * level it would have had (rules: endBattle, which also refuses a lapse of more than one level or
 * one point). Reads only the actor's own wound log (records the applier wrote: claims) and its
 * live track; undone records are skipped. A record the rules refuse (malformed, or claiming more
 * than the adjustment) is left as it is — none of its lapses apply — and the others still apply.
 * Null when nothing lapses. The records are marked lapsed, so a second call changes nothing.
 * `notes`: what happened to each lapse, for the battle's-end chat note (src/system/battle-end.ts).
 */
export function endBattleFor(
  actor: ActorDoc,
  rules: WorldRules,
): { update: ActorUpdate; steps: Step[]; notes: LapseNote[] } | null {
  const pending = woundLogOf(actor).filter(
    (r) => !r.undone && r.lapsed !== true && Array.isArray(r.lapses) && r.lapses.length > 0,
  );
  if (pending.length === 0) return null;
  let track = liveTrack(actor, rules);
  const steps: Step[] = [];
  const notes: LapseNote[] = [];
  const marked: Record<string, WoundRecord> = {};
  for (const rec of pending) {
    try {
      const r = endBattle(track, rec.lapses as unknown[] as BattleLapse[]);
      const name = (key: string) => woundLevelName(track, key);
      notes.push(
        ...r.outcomes.map((o): LapseNote => ({
          result: o.lapsed ? "lapsed" : "gone",
          from: name(o.from),
          to: name(o.to),
        })),
      );
      track = r.track;
      steps.push(...r.steps);
    } catch (e) {
      if (!isRulesError(e)) throw e; // refused by the rules: the record is left as it is
      notes.push({ result: "refused", from: "", to: "", reason: errorView(e) });
    }
    marked[rec.messageId] = { ...structuredClone(rec), lapsed: true };
  }
  return { update: { ...trackUpdate(track.state), flags: { "fudge-wounds": { woundLog: marked } } }, steps, notes };
}

/** Fudge §4.64: would this wound kill the defender, on a track that lets a Fudge Point save him, while he has one? */
function fudgePointSaves(wound: unknown, target: ActorDoc, rules: WorldRules): boolean {
  if (wound === null || wound === undefined) return false;
  if (
    (target.system as { fudgePoints?: number }).fudgePoints === undefined ||
    ((target.system as { fudgePoints: number }).fudgePoints ?? 0) < 1
  )
    return false;
  const track = trackFor(target, rules);
  const config = track.config as { kind: string; safeguards?: { fudgePointSaves?: boolean } };
  if (config.kind !== "box" || !config.safeguards?.fudgePointSaves) return false;
  return applyWound(track, wound).status.condition === "dead";
}

/**
 * Fudge §4.64 (PC safeguard, a world setting): may the defender spend a Fudge Point on this card's
 * wound? Yes when the track allows it, the wound as it stands would kill him, and he has a point.
 * (The card's offer; Apply checks again against the re-derived wound.)
 */
export function fudgePointOffer(
  card: AttackCardData,
  t: AttackCardTarget,
  target: ActorDoc,
  rules: WorldRules,
): boolean {
  if (card.preset !== "fudge" || liveApplied(t) || !t.resolution) return false;
  return fudgePointSaves((t.resolution as AttackResolution).wound, target, rules);
}

/**
 * Undo: restores the exact track before the wound, from the record in the target's wound log
 * (never from the card), when the track is still as the wound left it; refuses
 * (FUDGE.Error.UndoConflict) when something changed it since, unless a GM forces it. A Fudge
 * Point comes back only when that record says one was spent.
 */
export function undoDamage(
  card: AttackCardData,
  target: ActorDoc,
  user: UserRef,
  rules: WorldRules,
  opts: ActOptions & { force?: boolean } = {},
): { actorUpdate: ActorUpdate; cardUpdate: CardUpdate } {
  const i = targetIndex(card, target);
  const t = card.targets[i];
  const messageId = opts.messageId ?? "";
  const log = woundLogOf(target);
  const live = liveRecord(log, messageId);
  check("undo", user, target, opts, card, t, messageId);
  if (!live)
    throw new RulesError("applied", "FUDGE.Error.NothingToUndo", `nothing applied to ${target.name} to undo`, {
      name: target.name,
    });
  if (opts.force && !user.isGM)
    throw new RulesError("force", "FUDGE.Error.NotPermitted", "only a GM may force an undo", {
      action: "undo",
      name: target.name,
    });
  const restored = undoApplied(trackFor(target, rules), live, opts.force ?? false);
  const next: AttackCardTarget = structuredClone(t);
  const shown = [...next.applied].reverse().find((a) => !a.undone);
  if (shown) Object.assign(shown, { undone: true, undoneBy: user.id });
  const done: WoundRecord = { ...structuredClone(live), undone: true, undoneBy: user.id };
  const actorUpdate = withFudgePoints(trackUpdate(restored.state), target, live.fudgePointSpent ? 1 : 0);
  return { actorUpdate: { ...actorUpdate, flags: logUpdate(log, done) }, cardUpdate: withTarget(card, i, next) };
}

// ─── Miniatures: Guts ──────────────────────────────────────────────────────────────────

/** A miniature's Guts as its wounds leave it, its datacard and its failed checks in force (every Guts check at the table starts here). */
export function miniGuts(
  actor: ActorDoc,
  rules: WorldRules,
): {
  guts: number;
  card: MiniDatacard;
  state: ReturnType<typeof parseGutsState>;
  traits: Pick<GutsSituation, "gift" | "fault">;
} {
  if (actor.type !== "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.NotMiniature", `${actor.name} is not a miniature`, {
      name: actor.name,
    });
  const card = parseDatacard(miniatureDatacard(actor, rules), "actor");
  // Miniatures: Wounds — penalties lower the stats, Guts included.
  const d = datacard(card, trackStatus(card.track).penalty);
  // The datacard's gift and fault: Steadfast, Faithful and Mercenary act on the model's own checks.
  return {
    guts: d.guts,
    card,
    state: parseGutsState((actor.system as MiniatureData).gutsState, "system.gutsState"),
    traits: { gift: card.gift, fault: card.fault },
  };
}

/** The world's rules of a model's Guts rolls (Miniatures: Guts — which rolls a failure by 1 lowers). */
export function gutsRules(rules: WorldRules): GutsRules {
  return { gutsRollPenalty: rules.miniatures.gutsRollPenalty };
}

/** What the table tells a Guts check about the model's situation (Miniatures: Sample characters): each flag counts only where the datacards give it a rule. */
export type GutsFlags = Pick<GutsSituation, "beingCharged" | "defendingKing" | "nobleInMelee" | "leaderFallen">;

export interface GutsUpdate {
  system: { "==gutsState": unknown };
}

/**
 * A Guts check the card or the GM calls for (Miniatures: Guts): new wound level (+1), two levels
 * (+2), a friend shooting into the melee (+0), a Terrifying charge. `faces`: 4dF (Legendary).
 */
export function gutsCheckAction(
  actor: ActorDoc,
  trigger: {
    target: number;
    reason: "newWoundLevel" | "twoWoundLevels" | "friendShoots" | "terrifying" | "other";
    turn: number;
    modifiers?: number;
  } & GutsFlags,
  faces: number[],
  rules: WorldRules,
  user?: UserRef,
): GutsActionResult {
  check("rollTrait", user, actor);
  const g = miniGuts(actor, rules);
  const { beingCharged, defendingKing, nobleInMelee, leaderFallen } = trigger;
  const r = gutsTrigger(
    g.state,
    {
      ...g.traits,
      ...{ beingCharged, defendingKing, nobleInMelee, leaderFallen },
      guts: g.guts,
      modifiers: trigger.modifiers ?? 0,
      faces,
      target: trigger.target,
      turn: trigger.turn,
      reason: trigger.reason,
    },
    gutsRules(rules),
  );
  return {
    update: { system: { "==gutsState": plain(r.state) } },
    passed: r.check.passed,
    effect: r.check.effect,
    total: r.check.total,
    target: r.check.target,
    fleesCombat: r.fleesCombat,
    steps: r.steps,
  };
}

export interface GutsActionResult {
  update: GutsUpdate;
  passed: boolean;
  effect: number;
  total: number;
  target: number;
  /** Mercenary: the check failed and the model flees the combat (the GM moves it off; nothing else changes). */
  fleesCombat: boolean;
  steps: Step[];
}

/** The turn-by-turn re-check of a failed Guts check (Miniatures: Guts). */
export function gutsRecheckAction(
  actor: ActorDoc,
  faces: number[],
  turn: number,
  rules: WorldRules,
  user?: UserRef,
  index = 0,
  flags: GutsFlags = {},
): GutsActionResult {
  check("rollTrait", user, actor);
  const g = miniGuts(actor, rules);
  const r = gutsRecheck(g.state, faces, turn, g.guts, 0, index, { ...g.traits, ...flags }, gutsRules(rules));
  return {
    update: { system: { "==gutsState": plain(r.state) } },
    passed: r.check.passed,
    effect: r.check.effect,
    total: r.check.total,
    target: r.check.target,
    fleesCombat: r.fleesCombat,
    steps: r.steps,
  };
}

/**
 * The Near Death Guts roll at the start of the model's turn (Miniatures: Wounds). "dead" marks
 * the track dead (the update); "veryHurt" and "nearDeath" leave the track to the GM (the rules
 * core has no "recover to Very Hurt" change yet) and return no update.
 */
export function nearDeathAction(
  actor: ActorDoc,
  faces: number[],
  rules: WorldRules,
  user?: UserRef,
): { result: string; total: number; steps: Step[]; update: ActorUpdate | null } {
  check("rollTrait", user, actor);
  const g = miniGuts(actor, rules);
  const status = trackStatus(liveTrack(actor, rules));
  if (status.condition !== "dying")
    throw new RulesError("actor", "FUDGE.Error.NotNearDeath", `${actor.name} is not Near Death`, { name: actor.name });
  // Miniatures: Guts — a failure by 1 still in force lowers the Near Death roll too (gutsRollPenalty "allRolls").
  const r = nearDeathRoll(g.guts, faces, 0, "faces", g.state, gutsRules(rules));
  if (r.result !== "dead") return { result: r.result, total: r.total, steps: r.steps, update: null };
  const w = applyWound(liveTrack(actor, rules), { level: "dead" });
  return { result: r.result, total: r.total, steps: [...r.steps, ...w.steps], update: trackUpdate(w.track.state) };
}

/** Guts/Near Death and other follow-ups the card asks for (shown as prompts). */
export function followUpsOf(t: AttackCardTarget): AttackResolution["followUps"] {
  return ((t.resolution as AttackResolution | null)?.followUps ?? []).map((f) => ({ ...f }));
}

/** Miniatures: derived datacard numbers (for the playground's token panel and Guts prompts). */
export function miniatureNumbers(actor: ActorDoc, rules: WorldRules) {
  const c = parseDatacard(miniatureDatacard(actor, rules), "actor");
  return datacard(c, trackStatus(c.track).penalty);
}
