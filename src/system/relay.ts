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
 *
 * Once, durably: the GM's client removes the request from the requester's flags (a write the
 * server confirms) before it runs it, so a copy sent again later finds nothing, whatever the GM's
 * client remembers; a request older than RELAY_EXPIRY_MS is refused (and removed). What an action
 * did stays in the GM-written logs (the target's wound and defence logs: "applied once").
 */
import type { Verdict } from "./actions";
import { parseActorWrite, type ActorWrite } from "./flows/writes";
import { readDefenceChoice, type DefenceChoice } from "./defence";

export type CardAction = "defend" | "apply" | "undo";
/**
 * What a relay asks: a card action, the opponent's side of an opposed trait roll (Fudge §3.5), or
 * an actor write (./flows/writes.ts) routed to the one writer, the active GM's client.
 */
export type RelayAction = CardAction | "oppose" | "write";

export interface RelayPayload {
  /** The card (a card action); "" for an actor write. */
  messageId: string;
  action: RelayAction;
  /** The card target's actor reference (uuid). */
  targetId: string;
  /** Undo only: GM-forced undo (refused for players by src/system). */
  force: boolean;
  /** Apply only: the defender spends a Fudge Point (Fudge §4.64; src/system checks ownership). */
  spendFudgePoint: boolean;
  /** An actor write only: what to write, as data (parsed again by the GM's client). */
  write?: ActorWrite;
  /** Defend only: the defender's own choices (src/system/defence.ts), flat: his skill item's id ("": his usual defence), all-out defence, his modifier. Claims, read again by the flow. */
  defenceSkillId: string;
  defenceAllOut: boolean;
  defenceModifier: number;
  /** Key of the request in the sender's User flags (see above). */
  requestId: string;
  /** Where to look for the request: a hint written by the sender, which proves nothing by itself. */
  userId: string;
}

/** What the player writes into his User flags before querying, and what the GM compares. */
export type RelayRequest = Pick<
  RelayPayload,
  "messageId" | "action" | "targetId" | "force" | "spendFudgePoint" | "write"
> &
  Partial<Pick<RelayPayload, "defenceSkillId" | "defenceAllOut" | "defenceModifier">>;

/** A request as stored in the User flags: the request and when it was written (server time, ms). */
export type StoredRelayRequest = RelayRequest & { at: number };

export const RELAY_FLAG = "relayRequests";
/**
 * A request runs only this soon after it was written (server time; the query follows the write at
 * once, and the player's query gives up after 15 s), and not once it was written in the future by
 * more than the same margin (a forged stamp).
 */
export const RELAY_EXPIRY_MS = 60_000;
/** Requests a user's flags hold at most (a click writes one and the GM's client removes it). */
export const RELAY_REQUEST_LIMIT = 8;

export const requestOf = (p: RelayRequest): RelayRequest => ({
  messageId: p.messageId,
  action: p.action,
  targetId: p.targetId,
  force: p.force,
  spendFudgePoint: p.spendFudgePoint,
  ...(p.write ? { write: p.write } : {}),
  defenceSkillId: p.defenceSkillId ?? "",
  defenceAllOut: p.defenceAllOut ?? false,
  defenceModifier: p.defenceModifier ?? 0,
});

/** A defence choice as a relay request's flat fields. */
export const relayDefence = (
  c: DefenceChoice | undefined,
): Pick<RelayPayload, "defenceSkillId" | "defenceAllOut" | "defenceModifier"> => ({
  defenceSkillId: c?.skillId ?? "",
  defenceAllOut: c?.allOutDefense === true,
  defenceModifier: c?.modifier ?? 0,
});

/** The defence choice a relayed request claims (bounded by readDefenceChoice). */
export const defenceOfRequest = (p: RelayRequest): DefenceChoice =>
  readDefenceChoice({ skillId: p.defenceSkillId, allOutDefense: p.defenceAllOut, modifier: p.defenceModifier });

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** The stored requests under `flags["fudge-wounds"].relayRequests` (raw). */
const storedRequests = (userFlags: unknown): unknown =>
  ((userFlags as Rec | undefined)?.["fudge-wounds"] as Rec | undefined)?.[RELAY_FLAG];

/** A well-formed stored request (its key a request id, its fields as a payload's), or null. */
function storedRequest(id: string, v: unknown): StoredRelayRequest | null {
  if (!ID.test(id) || !isRec(v) || typeof v.at !== "number" || !Number.isFinite(v.at)) return null;
  const p = parseRelayPayload({ ...v, requestId: id, userId: "a".repeat(16) });
  return p ? { ...requestOf(p), at: v.at } : null;
}

/** Is a request written at `at` still good at `now` (both server time)? */
export const requestFresh = (at: number, now: number): boolean =>
  at >= now - RELAY_EXPIRY_MS && at <= now + RELAY_EXPIRY_MS;

/** The user's stored request `requestId` if it says exactly what the query asks (its time aside), else null. */
export function requestMatches(userFlags: unknown, p: RelayPayload): StoredRelayRequest | null {
  const raw = storedRequests(userFlags);
  const stored = isRec(raw) && Object.hasOwn(raw, p.requestId) ? storedRequest(p.requestId, raw[p.requestId]) : null;
  if (!stored) return null;
  const want = requestOf(p) as unknown as Rec;
  const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
  const keys = new Set([...Object.keys(want), ...Object.keys(stored).filter((k) => k !== "at")]);
  return [...keys].every((k) => same((stored as unknown as Rec)[k], want[k])) ? stored : null;
}

/**
 * The User flags update that leaves the user's requests bounded: `add` written (the player's own
 * click), `remove` gone (the GM's client consumes a request as it runs it), and every malformed or
 * expired request dropped, the oldest beyond the limit too. One forced replacement of the whole
 * list when it drops more than the limit or the list is no list (a flood costs one small write).
 * `update` is null when nothing changes; `dropped` counts what goes besides `remove`.
 */
export function relayRequestsUpdate(
  userFlags: unknown,
  now: number,
  change: { add?: { id: string; request: StoredRelayRequest }; remove?: string } = {},
): { update: Rec | null; dropped: number } {
  const raw = storedRequests(userFlags);
  if (raw === undefined && !change.add) return { update: null, dropped: 0 };
  const rawKeys = isRec(raw) ? Object.keys(raw) : [];
  const good = rawKeys
    .map((k) => [k, storedRequest(k, (raw as Rec)[k])] as const)
    .filter(
      (e): e is readonly [string, StoredRelayRequest] =>
        e[1] !== null && requestFresh(e[1].at, now) && e[0] !== change.remove && e[0] !== change.add?.id,
    )
    .sort((a, b) => a[1].at - b[1].at);
  if (change.add) good.push([change.add.id, change.add.request]);
  const kept = good.slice(-RELAY_REQUEST_LIMIT);
  const keptIds = new Set(kept.map(([k]) => k));
  const gone = rawKeys.filter((k) => !keptIds.has(k));
  const dropped = gone.filter((k) => k !== change.remove).length + (raw !== undefined && !isRec(raw) ? 1 : 0);
  if (!gone.length && !change.add && isRec(raw)) return { update: null, dropped: 0 };
  let list: Rec;
  if (gone.length > RELAY_REQUEST_LIMIT || (raw !== undefined && !isRec(raw)))
    list = { [`==${RELAY_FLAG}`]: Object.fromEntries(kept.map(([k, r]) => [k, { ...r }])) };
  else {
    const entries: Rec = {};
    for (const k of gone) entries[`-=${k}`] = null;
    if (change.add) entries[change.add.id] = { ...change.add.request };
    list = { [RELAY_FLAG]: entries };
  }
  return { update: { flags: { "fudge-wounds": list } }, dropped };
}

const ID = /^[A-Za-z0-9]{16}$/;
/** Foundry uuids: "Actor.<id>" or "Scene.<id>.Token.<id>.Actor.<id>" (unlinked tokens). */
const ACTOR_UUID = /^(Scene\.[A-Za-z0-9]{16}\.Token\.[A-Za-z0-9]{16}\.)?Actor\.[A-Za-z0-9]{16}$/;

/** Validates a relayed payload; anything malformed is refused before any document is touched. */
export function parseRelayPayload(data: unknown): RelayPayload | null {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const d = data as Record<string, unknown>;
  const actions: unknown[] = ["defend", "apply", "undo", "oppose", "write"];
  if (!actions.includes(d.action)) return null;
  const action = d.action as RelayAction;
  const isWrite = action === "write";
  if (typeof d.messageId !== "string" || !(isWrite ? d.messageId === "" : ID.test(d.messageId))) return null;
  const write = isWrite ? parseActorWrite(d.write) : null;
  if (isWrite ? !write : d.write !== undefined) return null;
  if (typeof d.targetId !== "string" || !ACTOR_UUID.test(d.targetId)) return null;
  if (d.force !== undefined && typeof d.force !== "boolean") return null;
  if (d.spendFudgePoint !== undefined && typeof d.spendFudgePoint !== "boolean") return null;
  if (
    d.defenceSkillId !== undefined &&
    (typeof d.defenceSkillId !== "string" || !/^[A-Za-z0-9]{0,64}$/.test(d.defenceSkillId))
  )
    return null;
  if (d.defenceAllOut !== undefined && typeof d.defenceAllOut !== "boolean") return null;
  if (
    d.defenceModifier !== undefined &&
    (typeof d.defenceModifier !== "number" || !Number.isInteger(d.defenceModifier) || Math.abs(d.defenceModifier) > 10)
  )
    return null;
  if (typeof d.requestId !== "string" || !ID.test(d.requestId)) return null;
  if (typeof d.userId !== "string" || !ID.test(d.userId)) return null;
  return {
    messageId: d.messageId,
    action,
    targetId: d.targetId,
    force: d.force === true,
    spendFudgePoint: d.spendFudgePoint === true,
    ...(write ? { write } : {}),
    defenceSkillId: typeof d.defenceSkillId === "string" ? d.defenceSkillId : "",
    defenceAllOut: d.defenceAllOut === true,
    defenceModifier: typeof d.defenceModifier === "number" ? d.defenceModifier : 0,
    requestId: d.requestId,
    userId: d.userId,
  };
}

export type RelayRoute = "local" | "relay" | "refuse";

/**
 * Where a click is carried out. `verdict` is src/system's answer for the clicking user;
 * `canWriteCard`: the user may update the chat message itself (its author or a GM); `writer`: this
 * client is the one that writes actors (the active GM's, or any when no GM is connected).
 * Defend only writes the card; apply and undo write the target actor and the card.
 */
export function routeCardAction(verdict: Verdict, canWriteCard: boolean, isGM: boolean, writer = true): RelayRoute {
  if (verdict === "deny" && !isGM) return "refuse";
  // One writer: a client that is not it (a player, or a second GM, while a GM is active) has it done there.
  if (!writer) return "relay";
  if (isGM) return "local";
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
