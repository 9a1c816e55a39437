/**
 * A table for the relay's integrity and concurrency tests on the v13 test host: a GM and three
 * players, each on his own client. Leroy is player 1's, Theodora player 2's, the Goblin the
 * GM's; player 3 owns nothing. Helpers run the REAL src/foundry code: the attack flow, the card
 * buttons' action (clickCardAction), and the query handler as v13 calls it.
 */
import { startWorld, ROLES, type Client, type World } from "../foundry-host";
import { actorOn } from "../foundry-host/table";
import type { WorldOptions } from "../foundry-host/world";
import { userRef } from "../../src/foundry/foundry-util";
import { QUERIES } from "../../src/system/registry";
import type { CardAction } from "../../src/system/relay";
import * as actions from "../../src/system/actions";
import { trackFor } from "../../src/system/combatant";
import type { ActorDoc, AttackCardData, WorldRules } from "../../src/system/data";
import { defenceFacesOf, woundLogOf } from "../../src/system/integrity";
import { rederiveTarget } from "../../src/system/rederive";
import { changeActor, plainActor, worldRules } from "../../src/foundry/bridge";
import { mergeLikeFoundry } from "../../src/system/updates";

export { actorOn };

export interface RelayTable {
  world: World;
  gm: Client;
  p1: Client;
  p2: Client;
  p3: Client;
  leroy: string;
  theodora: string;
  goblin: string;
  tokens: { leroy: string; theodora: string; goblin: string };
}

const BROADSWORD = {
  _id: "broadsword000001",
  name: "Broadsword",
  type: "weapon",
  system: { equipped: true, size: "medium", sharp: true, skill: "Sword" },
};
const SWORD_SKILL = { _id: "swordskill000001", name: "Sword", type: "skill", system: { level: 1 } };

/** src/foundry/chat.ts loads after the host's globals (it defines a Combat subclass), as in Foundry. */
let chat: typeof import("../../src/foundry/chat");

export async function relayTable(opts: WorldOptions = {}): Promise<RelayTable> {
  const world = await startWorld(opts);
  chat ??= await import("../../src/foundry/chat");
  const gmId = world.addUser("Gamemaster", ROLES.GAMEMASTER);
  const p1Id = world.addUser("Paula", ROLES.PLAYER);
  const p2Id = world.addUser("Quentin", ROLES.PLAYER);
  const p3Id = world.addUser("Rita", ROLES.PLAYER);
  const pc = (name: string, owner: string) =>
    world.server.seed("Actor", {
      name,
      type: "character",
      ownership: { default: 0, [owner]: 3 },
      system: { fudgePoints: 2 },
      items: [structuredClone(BROADSWORD), structuredClone(SWORD_SKILL)],
      effects: [],
    });
  const leroy = pc("Leroy", p1Id);
  const theodora = pc("Theodora", p2Id);
  const goblin = world.server.seed("Actor", {
    name: "Goblin",
    type: "npc",
    ownership: { default: 0 },
    system: {},
    items: [structuredClone(BROADSWORD)],
    effects: [],
  });
  const tokens = { leroy: "tokLeroy00000001", theodora: "tokTheodora00001", goblin: "tokGoblin0000001" };
  world.server.seed("Scene", {
    name: "Tavern",
    active: true,
    tokens: [
      { _id: tokens.leroy, name: "Leroy", actorId: leroy, actorLink: true, x: 0, y: 0, disposition: 1 },
      { _id: tokens.theodora, name: "Theodora", actorId: theodora, actorLink: true, x: 100, y: 0, disposition: 1 },
      { _id: tokens.goblin, name: "Goblin", actorId: goblin, actorLink: true, x: 200, y: 0, disposition: -1 },
    ],
  });
  const gm = await world.connect(gmId);
  const p1 = await world.connect(p1Id);
  const p2 = await world.connect(p2Id);
  const p3 = await world.connect(p3Id);
  await world.settle();
  return { world, gm, p1, p2, p3, leroy, theodora, goblin, tokens };
}

/** Fudge dice from this client's random source: +1, 0 or −1 per die in order. */
export function fixDice(client: Client, faces: number[]): void {
  const queue = [...faces];
  client.CONFIG.Dice.randomUniform = () => {
    const f = queue.length ? queue.shift()! : 0;
    return f > 0 ? 0.9 : f < 0 ? 0.1 : 0.5;
  };
}

/** `client` attacks with `attacker`'s broadsword at the tokens, with these attack dice; returns the card's message id. */
export async function attack(
  t: RelayTable,
  client: Client,
  attacker: string,
  tokenIds: string[],
  faces: number[],
): Promise<string> {
  fixDice(client, faces);
  const scene = client.game.scenes.contents.find((s) => s.active)!;
  client.target(...tokenIds.map((id) => (scene as unknown as { tokens: { get(id: string): never } }).tokens.get(id)));
  const before = new Set(client.game.messages.contents.map((m) => m.id));
  await client.run(() => chat.startAttackFlow(actorOn(client, attacker), BROADSWORD._id));
  await t.world.settle();
  const m = client.game.messages.contents.find((x) => !before.has(x.id));
  if (!m) throw new Error("no card was posted");
  return String(m.id);
}

/** A card button's action, as clicked on `client` (routes locally or through the GM relay). */
export async function click(
  t: RelayTable,
  client: Client,
  messageId: string,
  action: CardAction,
  actorId: string,
  opts: { force?: boolean; spendFudgePoint?: boolean } = {},
): Promise<void> {
  const message = client.game.messages.get(messageId)!;
  await client.run(() =>
    chat.clickCardAction(
      message as never,
      action,
      `Actor.${actorId}`,
      opts.force ?? false,
      opts.spendFudgePoint ?? false,
    ),
  );
  await t.world.settle();
}

/**
 * A modified client's query: optionally writes the request into its own User flags as the real
 * client does, then asks the active GM — v13 runs the handler as `handler(data, {timeout})`.
 */
export async function forgeQuery(
  t: RelayTable,
  client: Client,
  action: CardAction,
  data: Record<string, unknown>,
  writeOwnFlag = true,
): Promise<{ ok: boolean; key?: string }> {
  const payload = {
    force: false,
    spendFudgePoint: false,
    requestId: `req${Math.random().toString(36).slice(2, 15).padEnd(13, "x")}`,
    userId: client.user.id,
    action,
    ...data,
  };
  if (writeOwnFlag) {
    // As the real client writes it: the request and the server time it was written (`at`, unless given).
    const { requestId, userId: _u, ...rest } = payload as Record<string, unknown>;
    const request = { at: Date.now(), ...rest };
    await client.run(() =>
      (client.game.user as unknown as { update(d: object): Promise<unknown> }).update({
        flags: { "fudge-wounds": { relayRequests: { [String(requestId)]: request } } },
      }),
    );
  }
  const reply = await client.run(() =>
    (client.game.users.activeGM as unknown as { query(n: string, d: unknown, o: object): Promise<unknown> }).query(
      QUERIES[action],
      payload,
      { timeout: 2_000 },
    ),
  );
  await t.world.settle();
  return reply as { ok: boolean; key?: string };
}

/** Every actor as the server stores it (what "left exactly as it was" compares). */
export function actorsOnServer(t: RelayTable): unknown {
  return JSON.parse(JSON.stringify([...t.world.server.db.Actor.values()]));
}

/** The wound level of an actor's track as the GM's client derives it. */
export function levelOf(t: RelayTable, actorId: string): string | null {
  const d = (
    actorOn(t.gm, actorId).system as unknown as {
      derived: { status: { levelKey: string | null; condition: string } | null };
    }
  ).derived;
  return d.status?.levelKey ?? null;
}

export const fudgePoints = (t: RelayTable, actorId: string): number =>
  (actorOn(t.gm, actorId).system as unknown as { fudgePoints: number }).fudgePoints;

/** The card as stored, for a forging author to rewrite. */
export function cardOf(
  t: RelayTable,
  messageId: string,
): Record<string, unknown> & { targets: Record<string, unknown>[] } {
  return JSON.parse(JSON.stringify(t.world.server.db.ChatMessage.get(messageId)!.system));
}

/** Warnings shown on a client since `from`. */
export const warnings = (client: Client, from = 0): string[] => client.notifications.slice(from).map((n) => n.message);

// ─── The serial oracle: what one-at-a-time execution could have produced ───────────────

export type Op = { kind: "apply" | "undo"; messageId: string } | { kind: "toggle"; ref: string } | { kind: "heal" };

export const plainOn = (client: Client, id: string): ActorDoc => client.run(() => plainActor(actorOn(client, id)));
export const rulesOn = (client: Client): WorldRules => client.run(() => worldRules());

export interface OracleContext {
  cards: Record<string, AttackCardData>;
  attacker: ActorDoc;
  author: { id: string; isGM: boolean };
  rules: WorldRules;
}

const GM_REF = { id: "oracle", isGM: true };

function withUpdate(doc: ActorDoc, u: { system: unknown; flags?: unknown }): ActorDoc {
  const out = structuredClone(doc);
  const state = actions.updatedState(u as actions.ActorUpdate);
  if (state !== undefined) (out.system as { woundTrack: { state: unknown } }).woundTrack.state = structuredClone(state);
  const fp = (u.system as { fudgePoints?: number }).fudgePoints;
  if (fp !== undefined) (out.system as { fudgePoints: number }).fudgePoints = fp;
  if (u.flags) out.flags = mergeLikeFoundry(out.flags ?? {}, u.flags) as Record<string, unknown>;
  return out;
}

/** One operation on a plain target with the pure functions; throws when it would be refused. */
export function replayStep(doc: ActorDoc, op: Op, ctx: OracleContext): ActorDoc {
  const rules = ctx.rules;
  if (op.kind === "toggle") return withUpdate(doc, actions.toggleWoundBox(doc, op.ref, rules));
  if (op.kind === "heal") return withUpdate(doc, actions.healWounds(doc, { type: "scratches" }, rules).update);
  const card = ctx.cards[op.messageId];
  if (op.kind === "undo")
    return withUpdate(doc, actions.undoDamage(card, doc, GM_REF, rules, { messageId: op.messageId }).actorUpdate);
  const t = card.targets.find((x) => x.actorId === (doc.uuid ?? doc._id))!;
  const live = rederiveTarget(
    card,
    t,
    { attacker: ctx.attacker, defender: doc, author: ctx.author, defenceFaces: defenceFacesOf(doc, op.messageId) },
    rules,
  );
  return withUpdate(
    doc,
    actions.applyDamage(card, doc, GM_REF, rules, { messageId: op.messageId, resolution: live.resolution }).actorUpdate,
  );
}

/** A value as a string with its object keys sorted, so equal states compare equal. */
export const canon = (v: unknown): string =>
  v === null || typeof v !== "object"
    ? JSON.stringify(v)
    : Array.isArray(v)
      ? `[${v.map(canon).join(",")}]`
      : `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`)
          .join(",")}}`;

/** What matters of a target: its track (as the rules read it) and which cards' wounds are live on it. */
export function outcomeOf(doc: ActorDoc, rules: WorldRules): string {
  return canon({
    track: trackFor(doc, rules).state,
    live: woundLogOf(doc)
      .filter((r) => !r.undone)
      .map((r) => r.messageId)
      .sort(),
    fudgePoints: (doc.system as { fudgePoints?: number }).fudgePoints ?? null,
  });
}

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** Every outcome some one-at-a-time order of `ops` gives, where each op succeeds in that order. */
export function serialOutcomes(start: ActorDoc, ops: Op[], ctx: OracleContext): Set<string> {
  const out = new Set<string>();
  for (const order of permutations(ops)) {
    try {
      out.add(
        outcomeOf(
          order.reduce((d, op) => replayStep(d, op, ctx), start),
          ctx.rules,
        ),
      );
    } catch {
      /* this order would refuse an op that succeeded */
    }
  }
  return out;
}

/** The cards as the GM's client reads them (author from the message, as src/foundry does). */
export function cardsOn(t: RelayTable, ids: string[]): Record<string, AttackCardData> {
  return Object.fromEntries(ids.map((id) => [id, cardOf(t, id) as unknown as AttackCardData]));
}

/** Runs one op the way the table does it: players' clicks through the relay protocol, the GM's on his own client. */
export async function perform(t: RelayTable, who: Client, op: Op, targetId: string): Promise<boolean> {
  if (op.kind === "apply" || op.kind === "undo") {
    if (who === t.gm) {
      const message = t.gm.game.messages.get(op.messageId)!;
      try {
        await t.gm.run(() =>
          chat.performCardAction(message as never, op.kind as CardAction, actorOn(t.gm, targetId), {
            id: t.gm.user.id!,
            isGM: true,
          }),
        );
        return true;
      } catch {
        return false;
      }
    }
    const reply = await forgeQuery(t, who, op.kind, { messageId: op.messageId, targetId: `Actor.${targetId}` });
    return reply.ok;
  }
  // The sheet's box click and the heal button write through changeActor, in the actor's lane.
  try {
    await who.run(() =>
      changeActor(actorOn(who, targetId), (doc) =>
        op.kind === "toggle"
          ? actions.toggleWoundBox(doc, op.ref, worldRules(), userRef())
          : actions.healWounds(doc, { type: "scratches" }, worldRules(), userRef()).update,
      ),
    );
    return true;
  } catch {
    return false;
  }
}
