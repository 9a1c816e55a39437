/**
 * GM relay (CONFIG.queries, answered on the active GM's client via User#query). The handler
 * validates the payload, identifies the requesting user from Foundry (not from the payload),
 * and re-runs the card action as that user with `relayed: true`, so src/system checks the
 * permission again here. Replies are plain: { ok } or { ok: false, key, params }.
 */
import { isRulesError } from "../rules/errors";
import { performCardAction } from "./chat";
import { QUERIES, type QueryAction } from "./registry";
import { parseRelayPayload, requesterRef } from "./relay-pure";

type Reply = { ok: true } | { ok: false; key: string; params?: Record<string, string> };

async function handle(expected: QueryAction, data: unknown, options: { user?: { id: string | null; isGM: boolean } } | undefined): Promise<Reply> {
  if (!game.user?.isActiveGM) return { ok: false, key: "FUDGE.Error.Relay.NotActiveGM" };
  const p = parseRelayPayload(data);
  if (!p || p.action !== expected) return { ok: false, key: "FUDGE.Error.Relay.BadPayload" };
  const requester = requesterRef(options?.user ?? null);
  if (!requester) return { ok: false, key: "FUDGE.Error.Relay.UnknownUser" };
  const message = game.messages!.get(p.messageId) as ChatMessage.Implementation | undefined;
  if (!message || (message.type as string) !== "attackCard") return { ok: false, key: "FUDGE.Error.Relay.NoCard" };
  const target = fromUuidSync(p.targetId) as Actor.Implementation | null;
  if (!target) return { ok: false, key: "FUDGE.Error.Relay.ActorGone" };
  try {
    await performCardAction(message, p.action, target, requester, { relayed: true, force: p.force, spendFudgePoint: p.spendFudgePoint });
    return { ok: true };
  } catch (e) {
    if (isRulesError(e)) return { ok: false, key: e.key, params: Object.fromEntries(Object.entries(e.params).map(([k, v]) => [k, String(v)])) };
    console.error(e);
    return { ok: false, key: "FUDGE.Error.Relay.Failed" };
  }
}

export function registerQueries(): void {
  const queries = CONFIG.queries as unknown as Record<string, (data: unknown, options?: { user?: { id: string | null; isGM: boolean } }) => Promise<Reply>>;
  for (const action of Object.keys(QUERIES) as QueryAction[]) queries[QUERIES[action]] = (data, options) => handle(action, data, options);
}
