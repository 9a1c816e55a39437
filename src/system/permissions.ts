/** Who may do what: the permission checks of every sheet and card action (Foundry's ownership levels over plain documents). */
import { RulesError } from "../rules";
import type { ActorDoc, AttackCardData, AttackCardTarget } from "./data";
import { liveRecord, woundLogOf } from "./actor-logs";
import { liveApplied } from "./card-target";

export interface UserRef {
  id: string;
  isGM: boolean;
}

/** "allow": do it here; "needsRelay": ask a GM client to do it (it re-checks); "deny": refuse. */
export type Verdict = "allow" | "needsRelay" | "deny";

/** Foundry's OWNER permission level. */
export const OWNER = 3;

export function isOwner(user: UserRef, actor: Pick<ActorDoc, "ownership">): boolean {
  if (user.isGM) return true;
  const o = actor.ownership ?? {};
  return (o[user.id] ?? o.default ?? 0) >= OWNER;
}

/** Players act on what they own; the GM on anything; a player's click on another's actor goes through a GM relay. */
export function canAct(user: UserRef, actor: Pick<ActorDoc, "ownership">): Verdict {
  return isOwner(user, actor) ? "allow" : "needsRelay";
}

export type ActionName = "toggleWoundBox" | "rollTrait" | "heal" | "edit" | "attack" | "defend" | "apply" | "undo";

/**
 * The verdict for one action. Sheet actions (toggle, roll, heal, edit, attack) and Defend need
 * ownership of the actor: no relay. Apply: the target's owner or the GM, or the attacker (the
 * card's user) through the relay. Undo: the target's owner or the GM, or the user who applied
 * it through the relay — read from the target's wound log when `messageId` and the actor's
 * flags are at hand (the GM's client), else from the card (what a client shows as a button).
 * On the GM's client `card.userId` is the message's author (src/foundry puts it there), never
 * what the card says.
 */
export function authorize(
  action: ActionName,
  user: UserRef,
  actor: Pick<ActorDoc, "ownership"> & Partial<Pick<ActorDoc, "flags">>,
  card?: AttackCardData,
  target?: AttackCardTarget,
  messageId?: string,
): Verdict {
  if (isOwner(user, actor)) return "allow";
  if (action === "apply" && card && card.userId === user.id) return "needsRelay";
  if (action === "undo" && target) {
    const applier =
      messageId !== undefined ? liveRecord(woundLogOf(actor), messageId)?.by : liveApplied(target)?.userId;
    if (applier === user.id) return "needsRelay";
  }
  return "deny";
}

export interface ActOptions {
  /** True when a GM client runs this on behalf of `user` after a relay (the relay re-checks here). */
  relayed?: boolean;
  /** Apply/Undo: the card's message id, the key of the wound record in the target's wound log. */
  messageId?: string;
  /** Apply only: the defender spends a Fudge Point so that a deadly wound is not (Fudge §4.64). */
  spendFudgePoint?: boolean;
  /** Clock for applied records (tests pass a fixed value). */
  now?: number;
  /**
   * When the card was posted, as Foundry's server stamped it (the live message's
   * `_stats.createdTime`): kept in the records, and a card older than its target's log horizon
   * is refused (src/system/message-log.ts). Absent (the playground): no horizon check.
   */
  posted?: number;
}

/** A precondition's answer (canHeal, canRecover, …): null when the action may go ahead, else the refusal the user reads. */
export type Check = RulesError | null;

/** Throws a precondition's refusal (the action is refused before anything is rolled or written). */
export function refuseUnless(check: Check): void {
  if (check) throw check;
}

/** May `user` do `action` here (a relayed request counts as the GM's)? No user: yes (trusted callers). */
export function allowed(
  action: ActionName,
  user: UserRef | undefined,
  actor: ActorDoc,
  opts: ActOptions = {},
  card?: AttackCardData,
  target?: AttackCardTarget,
  messageId?: string,
): Check {
  if (!user) return null;
  const v = authorize(action, user, actor, card, target, messageId);
  if (v === "allow" || (v === "needsRelay" && opts.relayed)) return null;
  if (v === "needsRelay")
    return new RulesError("user", "FUDGE.Error.NeedsRelay", `${action} on ${actor.name} must go through the GM`, {
      action,
      name: actor.name,
    });
  return refusal(action, actor.name);
}

/** Throws unless `user` may do `action` here (allowed). */
export function checkAllowed(
  action: ActionName,
  user: UserRef | undefined,
  actor: ActorDoc,
  opts: ActOptions = {},
  card?: AttackCardData,
  target?: AttackCardTarget,
  messageId?: string,
): void {
  refuseUnless(allowed(action, user, actor, opts, card, target, messageId));
}

/** The refusal a player reads: card actions say whose it is and who may do it (localized, with the actor's name). */
export function refusal(action: ActionName, name: string): RulesError {
  const key =
    action === "defend"
      ? "FUDGE.Error.NotYoursToDefend"
      : action === "apply"
        ? "FUDGE.Error.NotYoursToApply"
        : action === "undo"
          ? "FUDGE.Error.NotYoursToUndo"
          : "FUDGE.Error.NotPermitted";
  return new RulesError("user", key, `you may not ${action} on ${name}`, { action, name });
}
