/**
 * Issue 28: what the one-writer property test needs — a Fudge table where Leroy (player 1's) is
 * wounded by player 2's Theodora and the GM's Goblin; operations run the way each client runs them
 * (the real flows through this client's Foundry port, the HUD's real buttons); and the serial
 * oracle, which replays the same flows one at a time on plain copies through an in-memory port.
 */
import type { Client } from "../foundry-host";
import type { RelayTable } from "./relay-table";
import { actorOn, attack, canon, fixDice, click, plainOn, rulesOn } from "./relay-table";
import * as flows from "../../src/system/flows";
import { foundryPort } from "../../src/foundry/port";
import { runActorWrite, type HostPort, type StoredCard } from "../../src/system/flows";
import type { ActorDoc, WorldRules } from "../../src/system/data";
import { trackFor } from "../../src/system/combatant";
import { woundLogOf } from "../../src/system/integrity";
import { mergeLikeFoundry } from "../../src/system/updates";
import { gutsCircumstances } from "../../src/system/guts";
import type { TokenHUD } from "../foundry-host/canvas";

export type Who = "gm" | "p1" | "p2";
export type Op =
  | { kind: "apply"; card: 0 | 1 }
  | { kind: "undo"; card: 0 | 1; force: boolean }
  | { kind: "heal" }
  | { kind: "toggle"; ref: string; mark: boolean }
  | { kind: "hud"; row: number; mark: boolean }
  | { kind: "kill" };

export interface Scene {
  t: RelayTable;
  cards: [string, string];
  leroy: string;
  rows: string[];
}

/** Theodora (player 2) and the Goblin (the GM) each post an attack on Leroy; the GM rolls Leroy's defences and applies the Goblin's. */
export async function scene(t: RelayTable): Promise<Scene> {
  const a = await attack(t, t.p2, t.theodora, [t.tokens.leroy], [1, 1, 0, 0]);
  const b = await attack(t, t.gm, t.goblin, [t.tokens.leroy], [1, 1, 1, 0]);
  for (const id of [a, b]) {
    fixDice(t.gm, [-1, -1, 0, 0]);
    await click(t, t.gm, id, "defend", t.leroy);
  }
  // The Goblin's wound is on Leroy already: its Undo can race the others.
  await click(t, t.gm, b, "apply", t.leroy);
  const rows = trackFor(plainOn(t.gm, t.leroy), rulesOn(t.gm)).config as unknown as { levels?: { key: string }[] };
  return { t, cards: [a, b], leroy: `Actor.${t.leroy}`, rows: (rows.levels ?? []).map((l) => l.key) };
}

const hudOf = (c: Client) => c.canvasTokens.hud as TokenHUD;

/** Opens Leroy's Token HUD wound panel on this client (as its user clicks the HUD's wound button). */
export async function openHud(s: Scene, c: Client): Promise<void> {
  await c.run(() => hudOf(c).bind(c.canvasTokens.get(s.t.tokens.leroy)! as never));
  c.click(hudOf(c).element.querySelector(".fudge-hud-wounds-toggle"));
}

/** One op as its user's client runs it; resolves true when it was carried out (not refused). */
export async function perform(s: Scene, c: Client, op: Op): Promise<boolean> {
  try {
    await c.run(async () => {
      const port = foundryPort();
      if (op.kind === "apply") return flows.clickCardAction(port, s.cards[op.card], "apply", s.leroy);
      if (op.kind === "undo")
        return flows.clickCardAction(port, s.cards[op.card], "undo", s.leroy, { force: op.force });
      if (op.kind === "heal") return flows.heal(port, s.leroy, "scratches");
      if (op.kind === "toggle") return flows.toggleBox(port, s.leroy, op.ref, { mark: op.mark });
      if (op.kind === "kill") return flows.kill(port, s.leroy);
      // The HUD's own button, as drawn on this client now (its listener runs exactly this).
      const b = hudOf(c).element.querySelector<HTMLButtonElement>(
        `[data-fudge-hud="${op.row}${op.mark ? "+" : "\u2212"}"]`,
      );
      if (!b || b.disabled) throw new Error("nothing to mark or clear");
      return flows.runSheetAction(port, flows.clickOf(b, s.leroy));
    });
    return true;
  } catch {
    return false;
  }
}

// ─── The serial oracle ─────────────────────────────────────────────────────────────

/** A track state as the rules core reads it (stored shapes aside). */
export function stateKey(doc: ActorDoc, rules: WorldRules, state?: unknown): string {
  if (state === undefined) return canon(trackFor(doc, rules).state);
  const copy = structuredClone(doc);
  (copy.system.woundTrack as { state: unknown }).state = structuredClone(state);
  return canon(trackFor(copy, rules).state);
}

/** What matters of Leroy: his track, which cards' wounds are live on it, his Fudge Points. */
export function outcomeOf(doc: ActorDoc, rules: WorldRules): string {
  return canon({
    track: stateKey(doc, rules),
    live: woundLogOf(doc)
      .filter((r) => !r.undone)
      .map((r) => r.messageId)
      .sort(),
    fudgePoints: (doc.system as { fudgePoints?: number }).fudgePoints ?? null,
  });
}

export interface Oracle {
  rules: WorldRules;
  start: ActorDoc;
  attackers: Record<string, ActorDoc>;
  cards: Record<string, StoredCard>;
}

export function oracleOf(s: Scene): Oracle {
  const { t } = s;
  const cards = Object.fromEntries(
    s.cards.map((id) => {
      const m = t.gm.game.messages.get(id)! as unknown as { author: { id: string; isGM: boolean }; timestamp: number };
      const src = t.world.server.db.ChatMessage.get(id)!;
      const stats = src._stats as { createdTime?: number } | undefined;
      return [
        id,
        {
          id,
          system: structuredClone(src.system),
          author: { id: m.author.id, isGM: m.author.isGM },
          postedAt: m.timestamp,
          createdAt: stats?.createdTime,
          writable: true,
        },
      ];
    }),
  );
  const attackers = Object.fromEntries([t.theodora, t.goblin].map((id) => [`Actor.${id}`, plainOn(t.gm, id)]));
  return { rules: rulesOn(t.gm), start: plainOn(t.gm, t.leroy), attackers, cards };
}

/** A port over plain copies, acting as a GM, whose dice never roll (no op here rolls): the flows run one at a time. */
function memoryPort(o: Oracle, docs: Map<string, ActorDoc>): HostPort {
  const no = () => Promise.resolve();
  const i18n = { localize: (k: string) => k, format: (k: string) => k, has: () => true };
  const port: HostPort = {
    user: { id: "oracleGmUser0001", isGM: true },
    rules: () => o.rules,
    setRule: no,
    i18n,
    roll: () => Promise.reject(new Error("the oracle rolls no dice")),
    actor: (ref) => structuredClone(docs.get(ref) ?? o.attackers[ref] ?? null),
    card: (id) => o.cards[id] ?? null,
    userName: (id) => id,
    writeActor: (ref, task) =>
      task({
        read: () => structuredClone(docs.get(ref)!),
        write: async (u) => {
          const d = structuredClone(docs.get(ref)!);
          const x = u as { system?: object; flags?: object; gmRecords?: object };
          if (x.system) d.system = mergeLikeFoundry(d.system, x.system) as ActorDoc["system"];
          if (x.flags) d.flags = mergeLikeFoundry(d.flags ?? {}, x.flags) as ActorDoc["flags"];
          if (x.gmRecords) d.gmRecords = mergeLikeFoundry(d.gmRecords ?? {}, x.gmRecords) as ActorDoc["gmRecords"];
          docs.set(ref, d);
        },
      }),
    changeActor: (ref, w) => port.writeActor(ref, (turn) => runActorWrite(port, turn, w, ref)),
    writesHere: () => true,
    writeCardTarget: no,
    postAttackCard: () => Promise.resolve(""),
    postRollCard: () => Promise.resolve(""),
    postNote: no,
    showRolls: no,
    items: { create: no, remove: no, update: no, open: no, editImage: no },
    rename: no,
    relay: no,
    dialog: () => Promise.resolve(null),
    confirm: () => Promise.resolve(true),
    rememberedSituation: () => [],
    rememberSituation: no,
    rememberedDefence: () => ({}),
    rememberDefence: no,
    ownActors: () => [],
    rollCard: () => null,
    writeRollCard: no,
    notify: () => undefined,
    report: () => undefined,
    hooks: { call: () => true, callAll: () => undefined },
    table: {
      targets: () => [],
      selected: () => [],
      measure: () => [],
      disposition: () => null,
      roundStart: () => null,
      inCombat: () => false,
      combatTurn: () => 1,
      gutsCircumstances: (a, r) => gutsCircumstances(a, { self: null, others: [] }, r),
    },
  };
  return port;
}

/** The op replayed on the oracle's plain copy: the same flow, its HUD row read from the copy (as the writer reads it). */
async function replay(o: Oracle, s: Scene, docs: Map<string, ActorDoc>, op: Op): Promise<void> {
  const port = memoryPort(o, docs);
  if (op.kind === "apply") return flows.performCardAction(port, s.cards[op.card], "apply", s.leroy, {});
  if (op.kind === "undo") return flows.performCardAction(port, s.cards[op.card], "undo", s.leroy, { force: op.force });
  if (op.kind === "heal") return flows.heal(port, s.leroy, "scratches");
  if (op.kind === "toggle") return flows.toggleBox(port, s.leroy, op.ref, { mark: op.mark });
  if (op.kind === "kill") return flows.kill(port, s.leroy);
  const level = s.rows[op.row];
  await port.changeActor(s.leroy, { kind: "toggleBox", ref: "", mark: op.mark, level });
}

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** Every outcome some one-at-a-time order of `ops` gives, where each op is carried out in that order. */
export async function serialOutcomes(o: Oracle, s: Scene, ops: Op[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const order of permutations(ops)) {
    const docs = new Map([[s.leroy, structuredClone(o.start)]]);
    try {
      for (const op of order) await replay(o, s, docs, op);
      out.add(outcomeOf(docs.get(s.leroy)!, o.rules));
    } catch {
      /* this order refuses an op that was carried out */
    }
  }
  return out;
}

export { actorOn };
