/** Automatic death (RULES §2.2, GM only) and its undo. */
import {
  RulesError,
  isRulesError,
  type Step,
  applyWound,
  trackStatus,
  undoApplied,
  woundLevelName,
  type Track,
} from "../../rules";
import type { ActorDoc, WorldRules } from "../data";
import { trackFor } from "../combatant";
import { UserRef } from "../permissions";
import { liveTrack } from "./wound-track";
import { ActorUpdate, trackUpdate } from "../updates";

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
 * What an automatic death changed, so that the GM can take a misclick back (undoKill): the track
 * state before and after the kill (parsed states, as a wound record keeps them), the GM's user id
 * and the time. A GM's own record, kept where players cannot write (the actor's `gmRecords`: on
 * Foundry a hidden world setting only GMs may change, src/foundry/gm-records.ts; in the
 * playground its store) — never in the actor's flags, which its owner writes: an owner who could
 * rewrite `before` would have the GM's Undo restore his forged state.
 */
export interface KillRecord {
  before: unknown;
  after: unknown;
  by: string;
  at: number;
}

export const KILL_RECORD_FLAG = "killedFrom";
/** Kill records the GM's store keeps (one per actor; the oldest go first, and their kills can no longer be undone). */
export const KILL_RECORD_LIMIT = 100;

/** A stored kill record, or null (absent or malformed). */
export function parseKillRecord(raw: unknown): KillRecord | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.by !== "string" || typeof r.at !== "number" || !("before" in r) || !("after" in r)) return null;
  return { before: r.before, after: r.after, by: r.by, at: r.at };
}

/** The GM's kill record of an actor (its `gmRecords.killedFrom`), or null. */
export function killRecordOf(actor: object): KillRecord | null {
  return parseKillRecord((actor as Pick<ActorDoc, "gmRecords">).gmRecords?.[KILL_RECORD_FLAG]);
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
 * What the undo of this actor's automatic death will restore, for the GM's confirmation: the worst
 * level of the track as it was before the kill (a localizable name; "" when unhurt), its penalty,
 * who killed and when. Refused as undoKill refuses.
 */
export function killUndoSummary(
  actor: ActorDoc,
  rules: WorldRules,
  user: UserRef,
): { level: string; penalty: number; by: string; at: number } {
  undoKill(actor, rules, user);
  const record = killRecordOf(actor)!;
  const restored = killUndone(actor, rules)!;
  const status = trackStatus(restored);
  return {
    level: status.levelKey ? woundLevelName(restored, status.levelKey) : "",
    penalty: status.penalty,
    by: record.by,
    at: record.at,
  };
}

/**
 * RULES §2.2 "Automatic death: a GM-only action, no roll" (Fudge §4.51, the helpless victim): the
 * actor's track becomes Dead (the rules core's applyWound `{kill: true}`). Refused for anyone but a
 * GM, and on tracks without a Dead state (FATE, Volt). The update also writes the kill record
 * (KillRecord, to the GM's store: `gmRecords`) that undoKill restores from; an earlier one is replaced.
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
  return { update: { ...trackUpdate(r.track.state), gmRecords: { [KILL_RECORD_FLAG]: record } }, steps: r.steps };
}

/**
 * Undo of an automatic death (GM only): the track goes back to the kill record's `before`, and
 * the record is removed from the GM's store. Refused for anyone but a GM
 * (FUDGE.Error.UndoKillGmOnly, even the actor's owner), when there is no record
 * (FUDGE.Error.NoKillToUndo), and when the live track is no longer as the kill left it
 * (FUDGE.Error.KillUndoConflict).
 */
export function undoKill(actor: ActorDoc, rules: WorldRules, user: UserRef): ActorUpdate {
  if (!user?.isGM)
    throw new RulesError("user", "FUDGE.Error.UndoKillGmOnly", `only a GM may undo ${actor.name}'s automatic death`, {
      name: actor.name,
    });
  if (!killRecordOf(actor))
    throw new RulesError("gmRecords", "FUDGE.Error.NoKillToUndo", `${actor.name} has no automatic death to undo`, {
      name: actor.name,
    });
  const restored = killUndone(actor, rules);
  if (!restored)
    throw new RulesError(
      "gmRecords",
      "FUDGE.Error.KillUndoConflict",
      `${actor.name}'s wound track has changed since the automatic death`,
      { name: actor.name },
    );
  return { ...trackUpdate(restored.state), gmRecords: { [`-=${KILL_RECORD_FLAG}`]: null } };
}
