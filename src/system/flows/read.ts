/**
 * What a flow reads from the host before it acts: each actor once (its track parsed once under
 * the flow's rules, combatant.ts readActor), a card checked against the card limits with its
 * author as the host vouches for it, and the live sides of a card target for the integrity rule.
 */
import { RulesError, STANDARD_RUNGS } from "../../rules";
import type { SystemI18n } from "../i18n";
import { readActor } from "../combatant";
import type { ActorDoc, AttackCardData, AttackCardTarget, WorldRules } from "../data";
import { checkCard, type LiveSides } from "../integrity";
import { defenceChoiceOf, defenceFacesOf } from "../actor-logs";
import type { HostPort, StoredCard } from "./port";

/** Localized ladder rung names (FUDGE.Ladder.<id>) for the dialogs' context builders. */
export function ladderNames(i18n: SystemI18n): Partial<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const r of STANDARD_RUNGS) {
    const k = `FUDGE.Ladder.${r.id}`;
    if (i18n.has(k)) out[r.id] = i18n.localize(k);
  }
  return out;
}

/** The actor as it is now, read once for this flow; a RulesError when it is gone. */
export function liveActor(port: HostPort, ref: string, rules: WorldRules): ActorDoc {
  const doc = port.actor(ref);
  if (!doc) throw new RulesError("target", "FUDGE.Error.Relay.ActorGone", "the actor is no longer in this world");
  return readActor(doc, rules);
}

/** The same, or null when it is gone. */
export function maybeActor(port: HostPort, ref: string, rules: WorldRules): ActorDoc | null {
  const doc = port.actor(ref);
  return doc ? readActor(doc, rules) : null;
}

/** A stored card, or a RulesError when the message is gone. */
export function storedCard(port: HostPort, messageId: string): StoredCard {
  const stored = port.card(messageId);
  if (!stored) throw new RulesError("card", "FUDGE.Error.Relay.NoCard", "the card is no longer in the chat log");
  return stored;
}

/**
 * The card's data, checked against the card limits (src/system/integrity.ts), with `userId`
 * taken from the message's author: what the card itself says about its user is ignored.
 */
export function cardOf(stored: StoredCard): AttackCardData {
  const raw = stored.system;
  return checkCard(
    raw !== null && typeof raw === "object" && !Array.isArray(raw) ? { ...raw, userId: stored.author?.id ?? "" } : raw,
  );
}

/** The card's target for this actor, or the localized refusal. */
export function targetOf(card: AttackCardData, ref: string, name: string): AttackCardTarget {
  const t = card.targets.find((x) => x.actorId === ref);
  if (!t) throw new RulesError("target", "FUDGE.Error.NotATarget", `${name} is not a target of this attack`, { name });
  return t;
}

/**
 * The live sides of a card target (src/system/integrity.ts rederiveTarget): the live attacker
 * (by the card's attacker id), the defender as read, the author as the host vouches, the defence
 * roll kept on the defender, the card's time (the attacker counts as he rolled) and what the
 * round-start record says of the defender (Fudge §4.64).
 */
export function sidesOf(
  port: HostPort,
  stored: StoredCard,
  card: AttackCardData,
  defender: ActorDoc,
  rules: WorldRules,
): LiveSides {
  return {
    attacker: maybeActor(port, card.attackerId, rules),
    defender,
    author: stored.author,
    defenceFaces: defenceFacesOf(defender, stored.id),
    defenceChoice: defenceChoiceOf(defender, stored.id),
    messageId: stored.id,
    postedAt: stored.postedAt,
    roundStart: port.table.roundStart(defender),
  };
}
