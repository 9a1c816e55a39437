/**
 * A trait roll from the sheet: refused before the dialog and any die (canRollTrait), the roll
 * dialog (Difficulty, modifier; Shift-click rolls at once against the default Difficulty), the
 * Willpower roll against the wound penalty first when the world's option asks for it (Fudge §4.51),
 * the roll card posted; FATE: a roll made while Clipped was the character's "next action", and his
 * own client then resets the box (src/system/clipped.ts).
 */
import * as actions from "../actions";
import { readRollOptions, rollDialogContext } from "../attack-dialog";
import { rollsWhileClipped } from "../clipped";
import { TEMPLATES } from "../handlebars";
import { WILLPOWER_ROLL, rollDiceOption, rollSlot, traitRollSlot } from "../rolling";
import type { HostPort } from "./port";
import { liveActor } from "./read";
import { opposedRoll, opposedSide } from "../opposed";
import { checkRollCard } from "../integrity";
import { isOwner } from "../permissions";
import { RulesError, describeLevel } from "../../rules";
import {
  autoSuccessOnRoll,
  checkAutoSuccess,
  offersAutoSuccess,
  refundOnRoll,
  spendOnRoll,
} from "../fudge-point-spend";
import { ladderOf } from "../view";
import { ladderNames } from "./read";

export async function rollTrait(
  port: HostPort,
  actorRef: string,
  key: string,
  opts: { fastForward?: boolean } = {},
): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  actions.refuseUnless(actions.canRollTrait(actor, key, rules, port.user));
  const targets = port.table.targets(actorRef).flatMap((t) => port.actor(t.ref) ?? []);
  const dialog = opts.fastForward
    ? {}
    : await port.dialog({
        titleKey: "FUDGE.Roll.DialogTitle",
        okKey: "FUDGE.Roll.Ok",
        template: TEMPLATES.rollDialog,
        // The exact chance of success under the world's dice (Fudge §3.4, §3.21–3.22) follows the form.
        context: (entries) => ({
          ...rollDialogContext(
            actor.name,
            key,
            rules,
            ladderNames(port.i18n),
            actions.traitLevel(actor, key, rules),
            targets.map((t) => t.name),
            offersAutoSuccess(actor, key, rules, port.user),
          ),
          odds: actions.traitRollChance(actor, key, rules, {
            ...readRollOptions([...(entries ?? [])] as [string, unknown][]),
            inCombat: port.table.inCombat(actorRef),
          }),
        }),
        read: (entries) => readRollOptions(entries),
        live: ".fudge-roll-odds",
      });
  if (dialog === null) return;
  const { opponent, autoSuccess, ...options } = dialog as ReturnType<typeof readRollOptions>;
  // Fudge §3.5: an opposed roll waits on the card for the opponent's side (refused before any die when he cannot).
  const opposed =
    opponent !== undefined && targets[opponent]
      ? opposedSide(actor, liveActor(port, targets[opponent].uuid ?? targets[opponent]._id, rules), key, rules)
      : null;
  // Fudge §1.36: an automatic success is an Unopposed action's, refused before any die when it cannot be spent.
  if (autoSuccess) {
    if (opposed)
      throw new RulesError(
        "opponent",
        "FUDGE.Error.FudgePoints.Opposed",
        "an automatic success is for an Unopposed action",
      );
    const level = actions.traitLevel(actor, key, rules).level;
    checkAutoSuccess(actor, key, level, options.difficulty ?? rules.defaultDifficulty, rules, port.user);
  }
  // Fudge §4.51 Light Wound: the penalty depends on being in a started combat when rolled.
  const inCombat = port.table.inCombat(actorRef);
  const roll = (f: string) => port.roll(f);
  // The Willpower roll comes first (it eases the penalty of the roll that follows).
  const will = actions.traitWillpowerNeeded(actor, key, rules, inCombat) ? await rollSlot(WILLPOWER_ROLL, roll) : null;
  // Fudge §3.22: the world's dice option, each throw a Roll (a table's "roll again" thrown again).
  const option = actions.traitDiceOption(key, rules);
  const r = option
    ? await rollDiceOption(option, roll).then((o) => ({ faces: o.throws.flat(), rolls: o.rolls, throws: o.throws }))
    : await rollSlot(traitRollSlot(key, rules.preset), roll);
  const card = actions.rollTrait(actor, key, r.faces, rules, {
    user: port.user,
    inCombat,
    ...options,
    ...(will ? { willpowerDice: will.faces } : {}),
    ...("throws" in r ? { throws: r.throws } : {}),
  });
  if (opposed) card.opposed = opposed;
  const messageId = await port.postRollCard(actorRef, card, [...(will?.rolls ?? []), ...r.rolls]);
  if (rollsWhileClipped(actor, rules)) await port.changeActor(actorRef, { kind: "traitClipped" });
  if (autoSuccess) await spendAutoSuccess(port, actorRef, actor.name, messageId, card.success, true);
}

/** Fudge §1.36: the point for an automatic success, spent by the one writer on the card just posted (or after a failed roll). */
async function spendAutoSuccess(
  port: HostPort,
  actorRef: string,
  name: string,
  messageId: string,
  success: boolean,
  atRoll: boolean,
): Promise<void> {
  // The dice were thrown and shown: a roll that meets its Difficulty on its own costs no point.
  if (success) return port.notify("FUDGE.FudgePoint.AutoSuccessNotNeeded", { name });
  await port.changeActor(actorRef, { kind: "rollAutoSuccess", messageId, atRoll });
  const card = checkRollCard(storedRollCard(port, messageId).system);
  port.notify("FUDGE.FudgePoint.AutoSuccessSpent", {
    name,
    to: describeLevel(card.difficulty, ladderOf(port.rules(), ladderNames(port.i18n))).label,
  });
}

/**
 * The opponent's side of an opposed roll card (Fudge §3.5), from its button: his owner (or a GM)
 * rolls it here when he may write the card, else the active GM's client does for him (the relay).
 */
export async function rollOpposed(port: HostPort, messageId: string): Promise<void> {
  const rules = port.rules();
  const stored = storedRollCard(port, messageId);
  const side = checkRollCard(stored.system).opposed;
  if (!side) throw new RulesError("opponent", "FUDGE.Error.Opposed.NotOpponent", "no opponent", { name: "" });
  const opponent = liveActor(port, side.actorId, rules);
  if (!isOwner(port.user, opponent))
    throw new RulesError("opponent", "FUDGE.Error.Opposed.NotYours", "not his owner", { name: opponent.name });
  if (stored.writable || port.user.isGM) return performOpposed(port, messageId);
  await port.relay(
    { messageId, action: "oppose", targetId: side.actorId, force: false, spendFudgePoint: false },
    opponent.name,
  );
}

/**
 * Rolls the opponent's side as `port.user` (the clicking owner, or on the GM's client the
 * requester the relay confirmed): his result from the live opponent and the dice rolled here.
 */
export async function performOpposed(port: HostPort, messageId: string): Promise<void> {
  const rules = port.rules();
  const card = checkRollCard(storedRollCard(port, messageId).system);
  const side = card.opposed;
  if (!side) throw new RulesError("opponent", "FUDGE.Error.Opposed.NotOpponent", "no opponent", { name: "" });
  const opponent = liveActor(port, side.actorId, rules);
  if (!isOwner(port.user, opponent))
    throw new RulesError("opponent", "FUDGE.Error.Opposed.NotYours", "not his owner", { name: opponent.name });
  if (side.dice)
    throw new RulesError("opponent", "FUDGE.Error.Opposed.Rolled", "already rolled", { name: opponent.name });
  const inCombat = port.table.inCombat(side.actorId);
  const roll = (f: string) => port.roll(f);
  const will = actions.traitWillpowerNeeded(opponent, side.traitKey, rules, inCombat)
    ? await rollSlot(WILLPOWER_ROLL, roll)
    : null;
  // Fudge §3.21–3.22: the opponent throws the dice the card was rolled with (the world's when it was posted).
  const dice = { ...rules, dice: card.diceOption || "4dF" };
  const option = actions.traitDiceOption(side.traitKey, dice);
  const r = option
    ? await rollDiceOption(option, roll).then((o) => ({ faces: o.throws.flat(), rolls: o.rolls, throws: o.throws }))
    : await rollSlot(traitRollSlot(side.traitKey, rules.preset), roll);
  const next = opposedRoll(card, opponent, r.faces, dice, {
    user: port.user,
    inCombat,
    ...(will ? { willpowerDice: will.faces } : {}),
    ...("throws" in r ? { throws: r.throws } : {}),
  });
  await port.writeRollCard(messageId, { opposed: next }, [...(will?.rolls ?? []), ...r.rolls]);
  await port.showRolls([...(will?.rolls ?? []), ...r.rolls]);
}

function storedRollCard(port: HostPort, messageId: string) {
  const stored = port.rollCard(messageId);
  if (!stored) throw new RulesError("card", "FUDGE.Error.Relay.NoCard", "the card is no longer in the chat log");
  return stored;
}

/**
 * Fudge §1.36 from a trait roll's card: the roller's owner spends a Fudge Point to move the result
 * one level. Refused here first (a sentence, nothing written); the writer spends it again from
 * the live actor in its turn, as this user, and writes the card.
 */
export async function spendRollFudgePoint(port: HostPort, messageId: string, direction: 1 | -1): Promise<void> {
  const rules = port.rules();
  const card = checkRollCard(storedRollCard(port, messageId).system);
  const actor = liveActor(port, card.actorId, rules);
  const r = spendOnRoll(actor, card, messageId, direction, rules, port.user, new Date().toISOString());
  await port.changeActor(card.actorId, { kind: "rollFudgePoint", messageId, direction });
  port.notify("FUDGE.FudgePoint.Spent", {
    name: actor.name,
    from: describeLevel(r.card.fudgePoint.from, ladderOf(rules, ladderNames(port.i18n))).label,
    to: describeLevel(r.card.fudgePoint.to, ladderOf(rules, ladderNames(port.i18n))).label,
  });
}

/**
 * Fudge §1.36 from an unopposed trait roll's card that failed: the roller's owner spends a point
 * for an automatic success, where the world lets it be spent after the dice.
 */
export async function spendRollAutoSuccess(port: HostPort, messageId: string): Promise<void> {
  const rules = port.rules();
  const card = checkRollCard(storedRollCard(port, messageId).system);
  const actor = liveActor(port, card.actorId, rules);
  autoSuccessOnRoll(actor, card, messageId, rules, port.user, new Date().toISOString(), false);
  await spendAutoSuccess(port, card.actorId, actor.name, messageId, false, false);
}

/** The card's Undo of a Fudge Point: refunded from the spender's log while it holds the spend. */
export async function undoRollFudgePoint(port: HostPort, messageId: string): Promise<void> {
  const rules = port.rules();
  const card = checkRollCard(storedRollCard(port, messageId).system);
  const actor = liveActor(port, card.actorId, rules);
  refundOnRoll(actor, card, messageId, rules, port.user);
  await port.changeActor(card.actorId, { kind: "refundRollFudgePoint", messageId });
  port.notify("FUDGE.FudgePoint.Refunded", { name: actor.name });
}
