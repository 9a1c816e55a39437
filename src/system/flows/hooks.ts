/**
 * Hooks for modules around a wound and its Undo (as dnd5e's preApplyDamage / applyDamage): the
 * "pre" hook is `Hooks.call` and may veto (a callback returning false: nothing is written); the
 * other is `Hooks.callAll` after the write. They fire on the client that writes — the GM's for a
 * relayed click. The payload is a frozen copy: the wound is what the writing client derived, and
 * a module cannot change it.
 */
import { RulesError } from "../../rules";
import { SYSTEM_ID } from "../registry";
import { updatedState, type ActorUpdate } from "../updates";
import type { ActorDoc, AttackCardTarget } from "../data";
import type { HostPort } from "./port";

export const WOUND_HOOKS = {
  preApply: `${SYSTEM_ID}.preApplyWound`,
  apply: `${SYSTEM_ID}.applyWound`,
  preUndo: `${SYSTEM_ID}.preUndoWound`,
  undo: `${SYSTEM_ID}.undoWound`,
} as const;

/** What the wound hooks receive (docs/foundry.md "Hooks for modules"). */
export interface WoundHookPayload {
  /** The wounded actor's reference (its uuid in Foundry) and live name. */
  actorRef: string;
  actorName: string;
  /** The attack card's message id. */
  messageId: string;
  /** The user the write is for (the clicking user, or the requester of a relayed click). */
  userId: string;
  /** Run on the GM's client for a player's click (the relay). */
  relayed: boolean;
  /** The result as re-derived on this client: outcome, the wound's row key, the wound. */
  outcome: string;
  woundKey: string | null;
  wound: unknown;
  /** The track state before and after the write (an Undo: after is the restored state). */
  before: unknown;
  after: unknown;
  /** Apply with a Fudge Point spent (Fudge §4.64); Undo of such a wound gives it back. */
  fudgePointSpent: boolean;
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** The payload of a wound's hooks: a frozen copy of what is about to be written. */
export function woundHook(
  port: HostPort,
  messageId: string,
  doc: ActorDoc,
  next: AttackCardTarget,
  update: ActorUpdate,
  relayed: boolean,
): WoundHookPayload {
  const res = (next.resolution ?? {}) as { outcome?: string; woundKey?: string | null; wound?: unknown };
  const shown = next.applied[next.applied.length - 1];
  return deepFreeze(
    structuredClone({
      actorRef: doc.uuid ?? doc._id,
      actorName: doc.name,
      messageId,
      userId: port.user.id,
      relayed,
      outcome: res.outcome ?? "",
      woundKey: res.woundKey ?? null,
      wound: res.wound ?? null,
      before: (doc.system as { woundTrack?: { state?: unknown } }).woundTrack?.state ?? null,
      after: updatedState(update) ?? null,
      fudgePointSpent: shown?.fudgePointSpent === true,
    }),
  );
}

/** The refusal a user reads when a module vetoed the write. */
export const vetoed = (action: "apply" | "undo", name: string): RulesError =>
  new RulesError(
    "hook",
    action === "apply" ? "FUDGE.Error.Hook.ApplyVetoed" : "FUDGE.Error.Hook.UndoVetoed",
    `a module stopped this ${action}`,
    { name },
  );
