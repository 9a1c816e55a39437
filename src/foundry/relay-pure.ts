/**
 * The GM relay as pure functions (tests import them). A player's click that needs a write they
 * may not do (apply a wound to a foe, update a card another user posted) becomes a query to
 * the active GM. The GM's handler re-runs the same src/system action *as the requesting user*
 * with `relayed: true`, so the permission check happens again on the GM's side: src/system's
 * `authorize` must answer "allow" or "needsRelay" for that user, never "deny".
 */
import type { Verdict } from "../system/actions";

export type CardAction = "defend" | "apply" | "undo";

export interface RelayPayload {
  messageId: string;
  action: CardAction;
  /** The card target's actor reference (uuid). */
  targetId: string;
  /** Undo only: GM-forced undo (refused for players by src/system). */
  force: boolean;
  /** Apply only: the defender spends a Fudge Point (Fudge §4.64; src/system checks ownership). */
  spendFudgePoint: boolean;
}

const ID = /^[A-Za-z0-9]{16}$/;
/** Foundry uuids: "Actor.<id>" or "Scene.<id>.Token.<id>.Actor.<id>" (unlinked tokens). */
const ACTOR_UUID = /^(Scene\.[A-Za-z0-9]{16}\.Token\.[A-Za-z0-9]{16}\.)?Actor\.[A-Za-z0-9]{16}$/;

/** Validates a relayed payload; anything malformed is refused before any document is touched. */
export function parseRelayPayload(data: unknown): RelayPayload | null {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const d = data as Record<string, unknown>;
  if (typeof d.messageId !== "string" || !ID.test(d.messageId)) return null;
  if (d.action !== "defend" && d.action !== "apply" && d.action !== "undo") return null;
  if (typeof d.targetId !== "string" || !ACTOR_UUID.test(d.targetId)) return null;
  if (d.force !== undefined && typeof d.force !== "boolean") return null;
  if (d.spendFudgePoint !== undefined && typeof d.spendFudgePoint !== "boolean") return null;
  return { messageId: d.messageId, action: d.action, targetId: d.targetId, force: d.force === true, spendFudgePoint: d.spendFudgePoint === true };
}

export type RelayRoute = "local" | "relay" | "refuse";

/**
 * Where a click is carried out. `verdict` is src/system's answer for the clicking user;
 * `canWriteCard`: the user may update the chat message itself (its author or a GM).
 * Defend only writes the card; apply and undo write the target actor and the card.
 */
export function routeCardAction(verdict: Verdict, canWriteCard: boolean, isGM: boolean): RelayRoute {
  if (isGM) return "local";
  if (verdict === "deny") return "refuse";
  if (verdict === "needsRelay") return "relay";
  return canWriteCard ? "local" : "relay";
}

/** The requesting user as src/system sees it; a relay is never run as a GM unless the sender is one. */
export function requesterRef(user: { id?: string | null; isGM?: boolean } | null | undefined): { id: string; isGM: boolean } | null {
  if (!user || typeof user.id !== "string" || !ID.test(user.id)) return null;
  return { id: user.id, isGM: user.isGM === true };
}
