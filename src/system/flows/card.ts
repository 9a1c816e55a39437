/**
 * The attack card's buttons: Defend, Apply (with or without a Fudge Point), Undo, the GM's ruling,
 * Apply to all targets and to selected tokens. A click is carried out on the clicking client or
 * relayed to the active GM's (src/system/relay.ts routeCardAction); the GM's client runs the same
 * flow for the requester (`relayed`). Each runs in the target actor's turn of the serialised write,
 * so it reads the target, its wound log and the card once every earlier write to that actor has landed.
 */
import { RulesError } from "../../rules";
import { pipelineFor } from "../../rules";
import * as actions from "../actions";
import { rederiveTarget } from "../rederive";
import { readActor } from "../combatant";
import { checkDefendable } from "../actor-logs";
import { defenceRollUpdate } from "../clipped";
import { rollSlot } from "../rolling";
import { relayDefence, routeCardAction, type CardAction } from "../relay";
import { defenceDialogContext, defenceShown, hasChoice, readDefenceChoice, type DefenceChoice } from "../defence";
import { TEMPLATES } from "../handlebars";
import type { ActorDoc, AttackCardData, WorldRules } from "../data";
import type { HostPort, StoredCard } from "./port";
import { cardOf, ladderNames, liveActor, sidesOf, storedCard, targetOf } from "./read";
import { gutsAfterWound } from "./guts";
import { loadCardPresets } from "../presets";
import { vetoed, woundHook, WOUND_HOOKS } from "./hooks";

export interface CardActionOptions {
  /** A relayed request, run on the GM's client as the requester (src/system re-checks the permission for him). */
  relayed?: boolean;
  /** Undo: a GM's forced undo. */
  force?: boolean;
  /** Apply: the defender spends a Fudge Point (Fudge §4.64). */
  spendFudgePoint?: boolean;
  /** Defend: the defender's own choices (his Defend dialog; on the GM's client, the relayed claim). */
  defence?: DefenceChoice;
  /** Defend: Shift held — no dialog, his last choices. */
  fastForward?: boolean;
}

/** A click on Defend / Apply / Undo: carried out here, or relayed to the active GM. */
export async function clickCardAction(
  port: HostPort,
  messageId: string,
  action: CardAction,
  targetRef: string,
  opts: Pick<CardActionOptions, "force" | "spendFudgePoint" | "fastForward"> = {},
): Promise<void> {
  await loadCardPresets(port.card(messageId)?.system);
  const rules = port.rules();
  const target = liveActor(port, targetRef, rules);
  const stored = storedCard(port, messageId);
  const card = cardOf(stored);
  const t = card.targets.find((x) => x.actorId === targetRef);
  const verdict = actions.authorize(action, port.user, target, card, t, messageId);
  const route = routeCardAction(verdict, stored.writable, port.user.isGM, port.writesHere());
  if (route === "refuse") throw actions.refusal(action, target.name);
  let defence: DefenceChoice | undefined;
  if (action === "defend") {
    // Refused before the dialog (not his, not waiting for him); then he chooses his defence.
    actions.refuseUnless(actions.canDefend(card, target, port.user, { relayed: route === "relay" }));
    const chosen = await askDefence(port, card, target, rules, opts.fastForward === true);
    if (chosen === null) return;
    defence = chosen;
  }
  const { fastForward: _ff, ...rest } = opts;
  if (route === "local") return performCardAction(port, messageId, action, targetRef, { ...rest, defence });
  await port.relay(
    {
      messageId,
      action,
      targetId: targetRef,
      force: opts.force ?? false,
      spendFudgePoint: opts.spendFudgePoint ?? false,
      ...relayDefence(defence),
    },
    target.name,
  );
}

/**
 * The defender's Defend dialog (templates/dialog/defence-dialog.hbs): a skill of his own, all-out
 * defence (Fudge §4.31), a modifier; Shift skips it with his last choices (remembered per user and
 * actor). Null when he closes it.
 */
async function askDefence(
  port: HostPort,
  card: AttackCardData,
  defender: ActorDoc,
  rules: WorldRules,
  fastForward: boolean,
): Promise<DefenceChoice | null> {
  const ref = defender.uuid ?? defender._id;
  const last = readDefenceChoice(port.rememberedDefence(ref));
  // A skill he no longer has is not chosen again.
  if (last.skillId && !(defender.items ?? []).some((i) => i._id === last.skillId && i.type === "skill"))
    delete last.skillId;
  if (fastForward) return last;
  const choice = await port.dialog<DefenceChoice>({
    titleKey: "FUDGE.Defence.DialogTitle",
    okKey: "FUDGE.Defence.Roll",
    icon: "fa-solid fa-shield-halved",
    template: TEMPLATES.defenceDialog,
    context: () =>
      defenceDialogContext(
        defender,
        port.actor(card.attackerId)?.name ?? card.attackerName,
        rules,
        last,
        ladderNames(port.i18n),
        port.i18n.localize("FUDGE.Defence.Usual"),
      ),
    read: (entries) => readDefenceChoice(entries),
  });
  if (choice === null) return null;
  await port.rememberDefence(ref, choice);
  return choice;
}

/**
 * Carries out a card action as `port.user` (the clicking user, or on the GM's client the requester
 * the relay confirmed, with `relayed`), in the target actor's turn.
 */
export async function performCardAction(
  port: HostPort,
  messageId: string,
  action: CardAction,
  targetRef: string,
  opts: CardActionOptions = {},
): Promise<void> {
  // The relay's way in on the GM's client: the card's presets are loaded before its turn.
  await loadCardPresets(port.card(messageId)?.system);
  const rules = port.rules();
  await port.writeActor(targetRef, async (turn) => {
    const stored = storedCard(port, messageId);
    const card = cardOf(stored);
    const doc = readActor(turn.read(), rules);
    if (action === "defend") return defend(port, stored, card, doc, rules, opts, turn);
    if (action === "apply") return apply(port, stored, card, doc, rules, opts, turn);
    return undo(port, stored, card, doc, rules, opts, turn);
  });
}

type Turn = Parameters<Parameters<HostPort["writeActor"]>[1]>[0];

/** The defender's opposed roll (Fudge §3.5, FATE): rolled here, kept on the defender, added to the card. */
async function defend(
  port: HostPort,
  stored: StoredCard,
  card: AttackCardData,
  doc: ActorDoc,
  rules: WorldRules,
  opts: CardActionOptions,
  turn: Turn,
): Promise<void> {
  const ref = doc.uuid ?? doc._id;
  // One defence roll per card and target, whatever the card's author later writes on his card.
  checkDefendable(doc, stored.id, stored.createdAt);
  const t = targetOf(card, ref, doc.name);
  const p = pipelineFor((t.request as { preset?: unknown }).preset);
  const slot = p.slots(p.parseRequest(t.request)).find((s) => actions.isDefenderSlot(s.id));
  if (!slot) throw new RulesError("defend", "FUDGE.Error.NoDefenseRoll", "this attack has no defence roll");
  // Refused before the die is rolled (permission, not waiting for this defender).
  actions.refuseUnless(actions.canDefend(card, doc, port.user, { relayed: opts.relayed }));
  // His choices are checked against his own skills before the die is rolled (a claim when relayed).
  const choice = readDefenceChoice({ ...(opts.defence ?? {}) });
  defenceShown(doc, choice, rules);
  const roll = await rollSlot(slot, (f) => port.roll(f));
  const u = actions.defend(card, doc, roll.faces, port.user, { relayed: opts.relayed, choice, rules });
  // The roll is kept on the defender, where the card's author cannot rewrite it; Apply reads it there.
  // FATE: a roll made while Clipped resets the box in the same write (src/system/clipped.ts).
  await turn.write(
    defenceRollUpdate(doc, rules, {
      messageId: stored.id,
      faces: roll.faces,
      by: port.user.id,
      at: Date.now(),
      posted: stored.createdAt,
      ...(hasChoice(choice) ? { choice } : {}),
    }),
  );
  await port.writeCardTarget(
    stored.id,
    u.system.targets.find((x) => x.actorId === ref)!,
    roll.rolls,
  );
  await port.showRolls(roll.rolls);
}

/**
 * Apply: the result re-derived from the live attacker (owned by the message's author) and the live
 * target under the world's rules, with the card's recorded dice — never the card's claim. A module
 * may veto it first (fudge-wounds.preApplyWound); it hears of it after the write (applyWound).
 */
async function apply(
  port: HostPort,
  stored: StoredCard,
  card: AttackCardData,
  doc: ActorDoc,
  rules: WorldRules,
  opts: CardActionOptions,
  turn: Turn,
): Promise<void> {
  const ref = doc.uuid ?? doc._id;
  const t = targetOf(card, ref, doc.name);
  const live = rederiveTarget(card, t, sidesOf(port, stored, card, doc, rules), rules);
  const r = actions.applyDamage(card, doc, port.user, rules, {
    relayed: opts.relayed,
    spendFudgePoint: opts.spendFudgePoint,
    messageId: stored.id,
    posted: stored.createdAt,
    resolution: live.resolution,
    differs: live.differs,
  });
  await writeWound(port, stored, doc, r, live.resolution, turn, opts.relayed === true);
}

/** Writes a wound (Apply, the GM's ruling): the hooks around it, the actor, the card, then Miniatures' Guts checks. */
async function writeWound(
  port: HostPort,
  stored: StoredCard,
  doc: ActorDoc,
  r: { actorUpdate: actions.ActorUpdate | null; cardUpdate: actions.CardUpdate; steps: unknown[] },
  resolution: { followUps: readonly { type: string; target: string; params: Record<string, unknown> }[] },
  turn: Turn,
  relayed: boolean,
  rolls: readonly unknown[] = [],
  show: (() => Promise<void>) | null = null,
): Promise<void> {
  const ref = doc.uuid ?? doc._id;
  const next = r.cardUpdate.system.targets.find((x) => x.actorId === ref)!;
  const payload = r.actorUpdate ? woundHook(port, stored.id, doc, next, r.actorUpdate, relayed) : null;
  if (payload && !port.hooks.call(WOUND_HOOKS.preApply, payload)) throw vetoed("apply", doc.name);
  if (r.actorUpdate) await turn.write(r.actorUpdate);
  await port.writeCardTarget(stored.id, next, rolls);
  if (payload) port.hooks.callAll(WOUND_HOOKS.apply, payload);
  if (show) await show();
  // Miniatures: a new wound level forces a Guts check at once.
  await gutsAfterWound(port, turn, resolution.followUps);
}

/** Undo: the exact track before the wound, from the record in the target's wound log (never from the card). */
async function undo(
  port: HostPort,
  stored: StoredCard,
  card: AttackCardData,
  doc: ActorDoc,
  rules: WorldRules,
  opts: CardActionOptions,
  turn: Turn,
): Promise<void> {
  const ref = doc.uuid ?? doc._id;
  const r = actions.undoDamage(card, doc, port.user, rules, {
    relayed: opts.relayed,
    force: opts.force,
    messageId: stored.id,
  });
  const next = r.cardUpdate.system.targets.find((x) => x.actorId === ref)!;
  const payload = woundHook(port, stored.id, doc, next, r.actorUpdate, opts.relayed === true);
  if (!port.hooks.call(WOUND_HOOKS.preUndo, payload)) throw vetoed("undo", doc.name);
  await turn.write(r.actorUpdate);
  await port.writeCardTarget(stored.id, next);
  port.hooks.callAll(WOUND_HOOKS.undo, payload);
}

/**
 * GM judgement (Fudge §4.55): the GM's pick on the card, carried out on the GM's own client —
 * never relayed, since it is no one else's call. The level is what the GM chose in the card's
 * picker; the Situational 4dF (the world's option) is rolled here, after the pick.
 */
export async function judge(port: HostPort, messageId: string, targetRef: string, level: string): Promise<void> {
  await loadCardPresets(port.card(messageId)?.system);
  const rules = port.rules();
  const target = liveActor(port, targetRef, rules);
  if (!port.user.isGM)
    throw new RulesError("user", "FUDGE.Error.GmJudgement.GmOnly", "only the GM picks the wound", {
      name: target.name,
    });
  await port.writeActor(targetRef, async (turn) => {
    const stored = storedCard(port, messageId);
    const card = cardOf(stored);
    const doc = readActor(turn.read(), rules);
    const t = targetOf(card, targetRef, doc.name);
    // The integrity rule, as for Apply: live attacker and defender, the recorded dice, the defence roll kept on the defender.
    const sides = sidesOf(port, stored, card, doc, rules);
    // Nothing is rolled for a target that is not awaiting the GM's judgement (rederiveTarget refuses it then).
    if (rederiveTarget(card, t, sides, rules).resolution.outcome !== "gmJudgement")
      throw new RulesError(
        "gmLevel",
        "FUDGE.Error.GmJudgement.NotPending",
        `${doc.name}'s wound is not the GM's to judge`,
        { name: doc.name },
      );
    const slot = actions.gmRollSlot(rules);
    const roll = slot ? await rollSlot(slot, (f) => port.roll(f)) : null;
    const pick = roll ? { level, situational: roll.faces } : { level };
    const live = rederiveTarget(card, t, { ...sides, gm: pick }, rules);
    const r = actions.judgeWound(card, doc, port.user, rules, pick, {
      messageId,
      posted: port.card(messageId)?.createdAt,
      resolution: live.resolution,
      differs: live.differs,
    });
    // The GM's Situational roll is animated for him alone ("behind a GM screen").
    const show = roll ? () => port.showRolls(roll.rolls, false) : null;
    await writeWound(port, stored, doc, r, live.resolution, turn, false, roll?.rolls ?? [], show);
  });
}

/** "Apply to all targets": each target's own Apply, one after the other (each checked as a single click is). */
export async function applyToAll(port: HostPort, messageId: string): Promise<void> {
  for (const t of cardOf(storedCard(port, messageId)).targets) {
    const res = t.resolution as { wound?: unknown } | null;
    if (!res || res.wound === null || res.wound === undefined || actions.liveApplied(t)) continue;
    await reported(port, () => clickCardAction(port, messageId, "apply", t.actorId));
  }
}

/** GM toggle "apply to selected tokens" (dnd5e-style): each selected token that is a target of this card. */
export async function applyToSelected(port: HostPort, messageId: string): Promise<void> {
  const card = cardOf(storedCard(port, messageId));
  const selected = port.table.selected();
  if (!selected.length) throw new RulesError("selected", "FUDGE.Error.NoSelection", "select tokens first");
  for (const tok of selected) {
    const a = port.actor(tok.ref);
    if (!a) continue;
    if (!card.targets.some((t) => t.actorId === tok.ref)) {
      port.report(new RulesError("target", "FUDGE.Error.NotATarget", "not a target", { name: a.name }));
      continue;
    }
    await reported(port, () => clickCardAction(port, messageId, "apply", tok.ref));
  }
}

/** One step of a many-target action: its refusal is reported and the others still run. */
async function reported(port: HostPort, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (e) {
    port.report(e);
  }
}
