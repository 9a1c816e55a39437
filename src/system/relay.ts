/**
 * The GM relay as pure functions (tests import them). A player's click that needs a write they
 * may not do (apply a wound to a foe, update a card another user posted) becomes a query to
 * the active GM. The GM's handler re-runs the same src/system action *as the requesting user*
 * with `relayed: true`, so the permission check happens again on the GM's side: src/system's
 * `authorize` must answer "allow" or "needsRelay" for that user, never "deny".
 *
 * Who asked: Foundry v13 calls a query handler as `handler(data, {timeout})` and does not say
 * who sent it (foundryvtt#13418), and anything in `data` is written by the sender. So before
 * querying, the player writes the request into his own User document's flags
 * (`flags.fudge-wounds.relayRequests.<requestId>`): only that user and GMs may update a User
 * document, the server enforces it, so a request found there is that user's. The query's
 * `userId` is only a hint of where to look; a forger who names another user finds no request
 * of his there (and a request copied from there does only what its owner asked, once).
 */
import type { Verdict } from "./actions";

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
  /** Key of the request in the sender's User flags (see above). */
  requestId: string;
  /** Where to look for the request: a hint written by the sender, which proves nothing by itself. */
  userId: string;
}

/** What the player writes into his User flags before querying, and what the GM compares. */
export type RelayRequest = Pick<RelayPayload, "messageId" | "action" | "targetId" | "force" | "spendFudgePoint">;

export const RELAY_FLAG = "relayRequests";

export const requestOf = (p: RelayRequest): RelayRequest => ({
  messageId: p.messageId,
  action: p.action,
  targetId: p.targetId,
  force: p.force,
  spendFudgePoint: p.spendFudgePoint,
});

/** Does the user's stored request `requestId` say exactly what the query asks? */
export function requestMatches(userFlags: unknown, p: RelayPayload): boolean {
  const scope = (userFlags as Record<string, unknown> | undefined)?.["fudge-wounds"] as
    Record<string, unknown> | undefined;
  const stored = (scope?.[RELAY_FLAG] as Record<string, unknown> | undefined)?.[p.requestId] as
    Record<string, unknown> | undefined;
  if (!stored || typeof stored !== "object") return false;
  const want = requestOf(p) as unknown as Record<string, unknown>;
  return Object.keys(want).every((k) => stored[k] === want[k]);
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
  if (typeof d.requestId !== "string" || !ID.test(d.requestId)) return null;
  if (typeof d.userId !== "string" || !ID.test(d.userId)) return null;
  return {
    messageId: d.messageId,
    action: d.action,
    targetId: d.targetId,
    force: d.force === true,
    spendFudgePoint: d.spendFudgePoint === true,
    requestId: d.requestId,
    userId: d.userId,
  };
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

/** The requesting user as src/system sees it (from a User document the GM's client looked up, never from the payload); a relay is never run as a GM unless the sender is one. */
export function requesterRef(
  user: { id?: string | null; isGM?: boolean } | null | undefined,
): { id: string; isGM: boolean } | null {
  if (!user || typeof user.id !== "string" || !ID.test(user.id)) return null;
  return { id: user.id, isGM: user.isGM === true };
}
