/**
 * GM relay (CONFIG.queries, answered on the active GM's client via User#query). v13 calls the
 * handler as `handler(data, {timeout})`: it is not told who asked (FOUNDRY-V13.md, Queries).
 * So the handler validates the payload, finds the requester through his own User document's
 * flags (src/system/relay.ts says why that is server-vouched), and re-runs the card action as that
 * user with `relayed: true`; src/system checks the permission again, and the apply path
 * re-derives the result from the live actors (src/system/integrity.ts). Replies are plain:
 * { ok } or { ok: false, key, params } with a localizable key.
 */
import { isRulesError } from "../rules";
import { performCardAction } from "./chat";
import { QUERIES, SYSTEM_ID, type QueryAction } from "../system/registry";
import { parseRelayPayload, requestMatches, requesterRef, type RelayPayload } from "../system/relay";

export type Reply = { ok: true } | { ok: false; key: string; params?: Record<string, string> };
type QueryOptions = { timeout?: number; user?: { id: string | null; isGM: boolean } } | undefined;

/** How long the GM's client waits for the requester's flag write to arrive (it is sent before the query). */
const CONFIRM_MS = 5_000;

/** Requests handled by this client: the same request sent again (a replay, a retry) gets the same reply and runs once. */
const handled = new Map<string, Promise<Reply>>();
const HANDLED_LIMIT = 500;

type UserDoc = { id: string | null; isGM: boolean; flags: unknown };

/** Resolves once the user's flags hold the request (or after CONFIRM_MS with false). */
function confirmRequest(p: RelayPayload): Promise<UserDoc | null> {
  const user = game.users!.get(p.userId) as unknown as UserDoc | undefined;
  if (!user) return Promise.resolve(null);
  if (requestMatches(user.flags, p)) return Promise.resolve(user);
  return new Promise((resolve) => {
    const hook = Hooks.on("updateUser", ((doc: UserDoc) => {
      if (doc.id !== p.userId || !requestMatches(doc.flags, p)) return;
      done(doc);
    }) as never);
    const timer = setTimeout(() => done(null), CONFIRM_MS);
    function done(doc: UserDoc | null) {
      clearTimeout(timer);
      Hooks.off("updateUser", hook as never);
      resolve(doc);
    }
  });
}

async function run(p: RelayPayload, options: QueryOptions): Promise<Reply> {
  // A later Foundry may name the sender in the options (vouched by core); v13 does not.
  const vouched = options?.user ? requesterRef(options.user) : null;
  const requester = vouched ?? requesterRef(await confirmRequest(p));
  if (!requester) return { ok: false, key: "FUDGE.Error.Relay.Unconfirmed" };
  const message = game.messages!.get(p.messageId) as ChatMessage.Implementation | undefined;
  if (!message || (message.type as string) !== "attackCard") return { ok: false, key: "FUDGE.Error.Relay.NoCard" };
  const target = fromUuidSync(p.targetId) as Actor.Implementation | null;
  if (!target || (target as unknown as { documentName?: string }).documentName !== "Actor")
    return { ok: false, key: "FUDGE.Error.Relay.ActorGone" };
  try {
    await performCardAction(message, p.action, target, requester, {
      relayed: true,
      force: p.force,
      spendFudgePoint: p.spendFudgePoint,
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
  const known = handled.get(key);
  if (known) return known;
  const reply = run(p, options);
  handled.set(key, reply);
  if (handled.size > HANDLED_LIMIT) handled.delete(handled.keys().next().value!);
  // The caller gets the reply and any failure; here an unconfirmed or failed request is only forgotten.
  reply.then(
    (r) => {
      if (!r.ok && r.key === "FUDGE.Error.Relay.Unconfirmed") handled.delete(key);
    },
    () => handled.delete(key),
  );
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
