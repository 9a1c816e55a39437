/**
 * GM relay (CONFIG.queries, answered on the active GM's client via User#query). v13 calls the
 * handler as `handler(data, {timeout})`: it is not told who asked (FOUNDRY-V13.md, Queries).
 * So the handler validates the payload, finds the requester through his own User document's
 * flags (src/system/relay.ts says why that is server-vouched), and re-runs the card action as that
 * user with `relayed: true`; src/system checks the permission again, and the apply path
 * re-derives the result from the live actors (src/system/integrity.ts). A request runs once: the
 * handler removes it from the requester's flags (and waits for the server) before running it, and
 * refuses one older than RELAY_EXPIRY_MS. Replies are plain: { ok } or { ok: false, key, params }
 * with a localizable key.
 */
import { isRulesError } from "../rules";
import { performCardAction } from "./chat";
import * as flows from "../system/flows";
import { foundryPort } from "./port";
import { QUERIES, SYSTEM_ID, type QueryAction } from "../system/registry";
import {
  defenceOfRequest,
  parseRelayPayload,
  relayRequestsUpdate,
  requestFresh,
  requestMatches,
  requesterRef,
  type RelayPayload,
  type StoredRelayRequest,
} from "../system/relay";
import { serverNow } from "./foundry-util";
import { toCore } from "./v14";

export type Reply = { ok: true; result?: unknown } | { ok: false; key: string; params?: Record<string, string> };
type QueryOptions = { timeout?: number; user?: { id: string | null; isGM: boolean } } | undefined;

/** How long the GM's client waits for the requester's flag write to arrive (it is sent before the query). */
const CONFIRM_MS = 5_000;

/**
 * Requests this client is running now: the same request sent again while it runs (a retry) waits
 * for the same reply. Only while it runs: that it ran is known from the requester's flags (the
 * request is gone) and from the logs the action wrote, never from this memory.
 */
const running = new Map<string, Promise<Reply>>();

type UserDoc = {
  id: string | null;
  isGM: boolean;
  flags: unknown;
  update(data: object): Promise<unknown>;
};
type Confirmed = { user: UserDoc; request: StoredRelayRequest };

/** Resolves once the user's flags hold the request (or after CONFIRM_MS with null). */
function confirmRequest(p: RelayPayload): Promise<Confirmed | null> {
  const user = game.users!.get(p.userId) as unknown as UserDoc | undefined;
  if (!user) return Promise.resolve(null);
  const now = requestMatches(user.flags, p);
  if (now) return Promise.resolve({ user, request: now });
  return new Promise((resolve) => {
    const hook = Hooks.on("updateUser", ((doc: UserDoc) => {
      const request = doc.id === p.userId ? requestMatches(doc.flags, p) : null;
      if (request) done({ user: doc, request });
    }) as never);
    const timer = setTimeout(() => done(null), CONFIRM_MS);
    function done(c: Confirmed | null) {
      clearTimeout(timer);
      Hooks.off("updateUser", hook as never);
      resolve(c);
    }
  });
}

/** Removes the request from its requester's flags (with any expired one), as the server confirms: after this it cannot run again. */
async function consume(c: Confirmed, requestId: string): Promise<void> {
  const { update } = relayRequestsUpdate(c.user.flags, serverNow(), { remove: requestId });
  if (update) await c.user.update(toCore(update));
}

async function run(p: RelayPayload, options: QueryOptions): Promise<Reply> {
  // A later Foundry may name the sender in the options (vouched by core); v13 does not.
  const vouched = options?.user ? requesterRef(options.user) : null;
  const confirmed = vouched ? null : await confirmRequest(p);
  const requester = vouched ?? requesterRef(confirmed?.user);
  if (!requester) return { ok: false, key: "FUDGE.Error.Relay.Unconfirmed" };
  if (confirmed) {
    const fresh = requestFresh(confirmed.request.at, serverNow());
    try {
      await consume(confirmed, p.requestId);
    } catch (e) {
      console.error(`${SYSTEM_ID} | relay`, e);
      return { ok: false, key: "FUDGE.Error.Relay.Failed" };
    }
    if (!fresh) return { ok: false, key: "FUDGE.Error.Relay.Expired" };
  }
  const target = fromUuidSync(p.targetId) as Actor.Implementation | null;
  const gone = !target || (target as unknown as { documentName?: string }).documentName !== "Actor";
  try {
    if (p.action === "write") {
      if (gone) return { ok: false, key: "FUDGE.Error.Relay.ActorGone" };
      // The write runs here, in the actor's turn, as the requester: each action checks his permission again.
      return { ok: true, result: await foundryPort(requester).changeActor(target.uuid, p.write!) };
    }
    const message = game.messages!.get(p.messageId) as ChatMessage.Implementation | undefined;
    // An opposed trait roll's side is on a roll card (Fudge §3.5); every other action on an attack card.
    const cardType = p.action === "oppose" ? "rollCard" : "attackCard";
    if (!message || (message.type as string) !== cardType) return { ok: false, key: "FUDGE.Error.Relay.NoCard" };
    if (gone) return { ok: false, key: "FUDGE.Error.Relay.ActorGone" };
    if (p.action === "oppose") {
      // Rolled here as the requester: the card's opponent must be his (performOpposed checks it against the live actor).
      if (target.uuid !== p.targetId) return { ok: false, key: "FUDGE.Error.Relay.ActorGone" };
      await (await flows.loadClicks()).performOpposed(foundryPort(requester), p.messageId);
      return { ok: true };
    }
    await performCardAction(message, p.action, target, requester, {
      relayed: true,
      force: p.force,
      spendFudgePoint: p.spendFudgePoint,
      ...(p.action === "defend" ? { defence: defenceOfRequest(p) } : {}),
    });
    return { ok: true };
  } catch (e) {
    if (isRulesError(e))
      return {
        ok: false,
        key: e.key,
        params: Object.fromEntries(Object.entries(e.params).map(([k, v]) => [k, String(v)])),
      };
    console.error(`${SYSTEM_ID} | relay`, e);
    return { ok: false, key: "FUDGE.Error.Relay.Failed" };
  }
}

/** The query handler for one card action, as v13 calls it: `handler(data, {timeout})`. */
export async function handleRelay(expected: QueryAction, data: unknown, options?: QueryOptions): Promise<Reply> {
  if (!game.user?.isActiveGM) return { ok: false, key: "FUDGE.Error.Relay.NotActiveGM" };
  const p = parseRelayPayload(data);
  if (!p || p.action !== expected) return { ok: false, key: "FUDGE.Error.Relay.BadPayload" };
  // The whole request is the key: a mismatching copy of a request id (a forger's) neither runs nor spoils the real one.
  const key = JSON.stringify(p);
  const known = running.get(key);
  if (known) return known;
  const reply = run(p, options);
  running.set(key, reply);
  // The caller gets the reply and any failure; here the request is only no longer running.
  const done = () => running.delete(key);
  reply.then(done, done);
  return reply;
}

export function registerQueries(): void {
  const queries = CONFIG.queries as unknown as Record<
    string,
    (data: unknown, options?: QueryOptions) => Promise<Reply>
  >;
  for (const action of Object.keys(QUERIES) as QueryAction[])
    queries[QUERIES[action]] = (data, options) => handleRelay(action, data, options);
}
