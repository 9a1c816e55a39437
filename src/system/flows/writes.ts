/**
 * The actor writes a click asks for, as data: a flow asks for one (its dialog answered and its dice
 * rolled on the clicking client) and the host carries it out in the actor's turn of the serialised
 * write, on the one client that writes (HostPort.changeActor: the active GM's in Foundry). Being
 * data, a write can be relayed: the writer computes it from the actor as it is when its turn comes,
 * as the requester (each action checks his permission again), so two clients' clicks never
 * overwrite each other. Every field of a write from another client is a claim: it is parsed here
 * (parseActorWrite) and range-checked again by the action it feeds.
 */
import * as actions from "../actions";
import { readActor, trackFor } from "../combatant";
import type { ActorDoc, WorldRules } from "../data";
import { attackClippedUpdate, traitClippedUpdate } from "../clipped";
import { healingRequest, type HealDice } from "../heal";
import { RulesError, renderTrack, type Step } from "../../rules";
import type { ActorTurn, HostPort } from "./port";
import { checkRollCard } from "../integrity";
import {
  autoSuccessOnRoll,
  reduceWound,
  refundOnRoll,
  refundWound,
  spendOnRoll,
  type AttackSide,
} from "../fudge-point-spend";

type GutsTrigger = Parameters<typeof actions.gutsCheckAction>[1];

export type ActorWrite =
  /**
   * A wound box clicked: `mark` is what the click asks as the user saw the box (true: mark it), so a
   * box another write marked meanwhile is not cleared by a click that meant to mark it; `level`
   * (the Token HUD's + and −) names the row whose first open box is marked, or last marked box
   * cleared, as the track is in the writer's turn. Neither: toggled as it is then.
   */
  | { kind: "toggleBox"; ref: string; mark?: boolean; level?: string }
  | { kind: "resetTrack" }
  | { kind: "customLevels"; op: "add" | "remove"; index: number }
  | { kind: "field"; path: string; raw: string | number | boolean | null }
  | { kind: "heal"; type: string; inputs: Record<string, number>; dice: HealDice }
  | { kind: "recover"; black: number; white: number }
  | { kind: "gutsCheck"; trigger: GutsTrigger; faces: number[] }
  | { kind: "attackClipped"; messageId: string }
  | { kind: "traitClipped" }
  | { kind: "kill" }
  | { kind: "undoKill" }
  /** Fudge §5.2: EP spent to raise a trait one level, priced again in the writer's turn. */
  | { kind: "raise"; trait: string; used: boolean }
  /** Fudge §1.36: a Fudge Point spent on a trait roll's card (one level up or down), or refunded by its Undo. */
  | { kind: "rollFudgePoint"; messageId: string; direction: 1 | -1 }
  | { kind: "refundRollFudgePoint"; messageId: string }
  /**
   * Fudge §1.36: a Fudge Point for an automatic success on an unopposed trait roll's card (refunded
   * by refundRollFudgePoint); `atRoll`: spent in place of the roll, from its dialog.
   */
  | { kind: "rollAutoSuccess"; messageId: string; atRoll: boolean }
  /** Fudge §1.36: a Fudge Point spent to reduce a wound on the track one level, or refunded. */
  | { kind: "reduceWound"; level: string }
  | { kind: "refundWound"; spend: string }
  /** Fudge §1.36: a Fudge Point spent on one side's roll of an attack card (written to the spender), or refunded by its Undo. */
  | { kind: "attackFudgePoint"; messageId: string; side: AttackSide; direction: 1 | -1 }
  | { kind: "refundAttackFudgePoint"; messageId: string; side: AttackSide };

/** What a write answers (plain data: it may come back through the relay). */
export type WriteResult = { steps?: Step[]; guts?: ReturnType<typeof actions.gutsCheckAction> } | null;

/** Carries out a write in the actor's turn, as `port.user`: read the actor as it is, compute, write. */
export async function runActorWrite(
  port: HostPort,
  turn: ActorTurn,
  w: ActorWrite,
  actorRef: string,
): Promise<WriteResult> {
  const rules = port.rules();
  const doc = readActor(turn.read(), rules);
  const user = port.user;
  const put = async (u: { system?: unknown; flags?: unknown } | null): Promise<null> => {
    if (u) await turn.write(u);
    return null;
  };
  switch (w.kind) {
    case "toggleBox": {
      actions.refuseUnless(actions.canToggleBox(doc, user));
      const ref = liveBoxRef(doc, w, rules);
      return ref ? put(actions.toggleWoundBox(doc, ref, rules, user)) : null;
    }
    case "resetTrack":
      return put(actions.resetTrack(doc, user));
    case "customLevels":
      return put(actions.editCustomLevels(doc, w.op, w.index, user));
    case "field":
      return put(actions.setActorField(doc, w.path, w.raw, user));
    case "heal": {
      const r = actions.healWounds(doc, healingRequest(w.type, doc, w.inputs, w.dice, rules), rules, user);
      await turn.write(r.update);
      return { steps: r.steps };
    }
    case "recover": {
      const r = actions.recover(doc, w.black, w.white, rules, user);
      await turn.write(r.update);
      return { steps: r.steps };
    }
    case "gutsCheck": {
      const r = actions.gutsCheckAction(doc, w.trigger, w.faces, rules, user);
      await turn.write(r.update);
      return { guts: r };
    }
    case "attackClipped":
      // The server's stamp of the card, as this client reads it; the time is this writer's.
      return put(attackClippedUpdate(doc, rules, user, w.messageId, Date.now(), port.card(w.messageId)?.createdAt));
    case "traitClipped":
      return put(traitClippedUpdate(doc, rules, user));
    case "kill":
      return put(actions.killActor(doc, rules, user).update);
    case "undoKill":
      return put(actions.undoKill(doc, rules, user));
    case "rollFudgePoint":
    case "rollAutoSuccess":
    case "refundRollFudgePoint":
      return rollCardSpend(port, turn, w, doc, rules);
    case "attackFudgePoint":
    case "refundAttackFudgePoint":
      // Its module is loaded with the clicks that ask for it (./clicks.ts), not at start-up.
      return (await import("./attack-fudge-point")).writeAttackFudgePoint(port, turn, doc, w);
    case "reduceWound":
      return put(reduceWound(doc, w.level, rules, user, new Date().toISOString()));
    case "refundWound":
      return put(refundWound(doc, w.spend, rules, user));
    case "raise": {
      // Its module is loaded with the clicks that ask for it (./clicks.ts), not at start-up.
      const { raiseUpdate } = await import("../advancement");
      const adv = raiseUpdate(turn.read(), rules, { trait: w.trait, used: w.used }, user, new Date().toISOString());
      await turn.write(adv.actor);
      // A skill's level lives on its item, written in the same turn.
      if (adv.item) await port.items.update(actorRef, adv.item.id, adv.item.update);
      return null;
    }
  }
}

/**
 * A Fudge Point spent on a trait roll's card, or refunded. The spender's log is the record (the
 * card's view and every later spend read it); the card only shows it. So the log is written first
 * on a spend and last on a refund: a failure between the two writes leaves the log holding the
 * spend, which the card then shows from the log, with its Undo.
 */
async function rollCardSpend(
  port: HostPort,
  turn: ActorTurn,
  w: Extract<ActorWrite, { kind: "rollFudgePoint" | "rollAutoSuccess" | "refundRollFudgePoint" }>,
  doc: ActorDoc,
  rules: WorldRules,
): Promise<null> {
  // The card is read as stored now (its roller a claim: the spend checks it names this actor).
  const stored = port.rollCard(w.messageId);
  if (!stored) throw new RulesError("card", "FUDGE.Error.Relay.NoCard", "the card is no longer in the chat log");
  const card = checkRollCard(stored.system);
  const at = new Date().toISOString();
  if (w.kind === "refundRollFudgePoint") {
    const r = refundOnRoll(doc, card, w.messageId, rules, port.user);
    await port.writeRollCard(w.messageId, r.card);
    await turn.write(r.actor);
    return null;
  }
  const r =
    w.kind === "rollFudgePoint"
      ? spendOnRoll(doc, card, w.messageId, w.direction, rules, port.user, at)
      : autoSuccessOnRoll(doc, card, w.messageId, rules, port.user, at, w.atRoll);
  await turn.write(r.actor);
  await port.writeRollCard(w.messageId, r.card);
  return null;
}

/** The box a click toggles, from the track as it is in the writer's turn; null: it already is as the click asked. */
function liveBoxRef(doc: ActorDoc, w: Extract<ActorWrite, { kind: "toggleBox" }>, rules: WorldRules): string | null {
  if (w.mark === undefined) return w.ref;
  const rows = renderTrack(trackFor(doc, rules)).rows;
  if (w.level !== undefined) {
    const boxes = rows.find((r) => r.key === w.level)?.boxes ?? [];
    const box = w.mark ? boxes.find((b) => !b.marked && !b.disabled) : boxes.filter((b) => b.marked).at(-1);
    return box?.ref ?? null;
  }
  const box = rows.flatMap((r) => r.boxes).find((b) => b.ref === w.ref);
  return box && box.marked === w.mark ? null : w.ref;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const short = (v: unknown, max = 200): v is string => typeof v === "string" && v.length <= max;
const int = (v: unknown, min: number, max: number): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
const faces = (v: unknown, n: number, min: number, max: number): v is number[] =>
  Array.isArray(v) && v.length <= n && v.every((f) => int(f, min, max));
const numbers = (v: unknown): v is Record<string, number> =>
  isRec(v) && Object.keys(v).length <= 8 && Object.entries(v).every(([k, x]) => short(k, 32) && int(x, -1000, 1000));

const isSide = (v: unknown): v is AttackSide => v === "attacker" || v === "defender";

/** Largest write a relay carries (JSON characters): far above any honest one. */
export const ACTOR_WRITE_MAX = 4_000;

/** A write from another client, parsed (unknown fields dropped), or null when malformed. */
export function parseActorWrite(v: unknown): ActorWrite | null {
  if (!isRec(v) || JSON.stringify(v).length > ACTOR_WRITE_MAX) return null;
  switch (v.kind) {
    case "toggleBox": {
      if (!short(v.ref, 100) || (v.mark !== undefined && typeof v.mark !== "boolean")) return null;
      if (v.level !== undefined && (!short(v.level, 64) || v.mark === undefined)) return null;
      const mark = v.mark === undefined ? {} : { mark: v.mark };
      return { kind: "toggleBox", ref: v.ref, ...mark, ...(v.level !== undefined ? { level: v.level } : {}) };
    }
    case "resetTrack":
    case "traitClipped":
    case "kill":
    case "undoKill":
      return { kind: v.kind };
    case "customLevels":
      return (v.op === "add" || v.op === "remove") && int(v.index, 0, 64)
        ? { kind: "customLevels", op: v.op, index: v.index }
        : null;
    case "field": {
      const raw = v.raw;
      const ok = raw === null || typeof raw === "number" || typeof raw === "boolean" || short(raw, 2_000);
      return short(v.path, 200) && ok ? { kind: "field", path: v.path, raw } : null;
    }
    case "heal": {
      const d = v.dice;
      if (!short(v.type, 64) || !numbers(v.inputs) || !isRec(d)) return null;
      if (!faces(d.fudge, 4, -1, 1) || !faces(d.d20, 2, 1, 20) || (d.d20 as number[]).length !== 2) return null;
      if (d.medical !== undefined && (!faces(d.medical, 2, 1, 20) || (d.medical as number[]).length !== 2)) return null;
      const dice: HealDice = {
        fudge: d.fudge,
        d20: d.d20 as [number, number],
        ...(d.medical ? { medical: d.medical as [number, number] } : {}),
      };
      return { kind: "heal", type: v.type, inputs: { ...v.inputs }, dice };
    }
    case "recover":
      return int(v.black, 1, 20) && int(v.white, 1, 20) ? { kind: "recover", black: v.black, white: v.white } : null;
    case "gutsCheck": {
      const t = v.trigger;
      const reasons = ["newWoundLevel", "twoWoundLevels", "friendShoots", "terrifying", "other"];
      if (!isRec(t) || !reasons.includes(String(t.reason)) || !faces(v.faces, 4, -1, 1)) return null;
      if (!int(t.target, -10, 10) || !int(t.turn, 0, 100_000) || !int(t.modifiers ?? 0, -10, 10)) return null;
      const flag = (k: string) => t[k] === true;
      const trigger = {
        reason: t.reason as GutsTrigger["reason"],
        target: t.target,
        turn: t.turn,
        modifiers: (t.modifiers as number | undefined) ?? 0,
        beingCharged: flag("beingCharged"),
        defendingKing: flag("defendingKing"),
        nobleInMelee: flag("nobleInMelee"),
        leaderFallen: flag("leaderFallen"),
      };
      return { kind: "gutsCheck", trigger, faces: v.faces };
    }
    case "attackClipped":
      return short(v.messageId, 64) ? { kind: "attackClipped", messageId: v.messageId } : null;
    case "rollFudgePoint":
      return short(v.messageId, 64) && (v.direction === 1 || v.direction === -1)
        ? { kind: "rollFudgePoint", messageId: v.messageId, direction: v.direction }
        : null;
    case "refundRollFudgePoint":
      return short(v.messageId, 64) ? { kind: "refundRollFudgePoint", messageId: v.messageId } : null;
    case "attackFudgePoint":
      return short(v.messageId, 64) && isSide(v.side) && (v.direction === 1 || v.direction === -1)
        ? { kind: "attackFudgePoint", messageId: v.messageId, side: v.side, direction: v.direction }
        : null;
    case "refundAttackFudgePoint":
      return short(v.messageId, 64) && isSide(v.side)
        ? { kind: "refundAttackFudgePoint", messageId: v.messageId, side: v.side }
        : null;
    case "rollAutoSuccess":
      return short(v.messageId, 64) && typeof v.atRoll === "boolean"
        ? { kind: "rollAutoSuccess", messageId: v.messageId, atRoll: v.atRoll }
        : null;
    case "reduceWound":
      return short(v.level, 64) ? { kind: "reduceWound", level: v.level } : null;
    case "refundWound":
      return short(v.spend, 64) ? { kind: "refundWound", spend: v.spend } : null;
    case "raise":
      return short(v.trait, 200) && typeof v.used === "boolean"
        ? { kind: "raise", trait: v.trait, used: v.used }
        : null;
    default:
      return null;
  }
}
