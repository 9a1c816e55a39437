/**
 * A trait roll from the sheet: refused before the dialog and any die (canRollTrait), the roll
 * dialog (Difficulty, modifier; Shift-click rolls at once against the default Difficulty), the
 * Willpower roll against the wound penalty first when the world's option asks for it (Fudge §4.51),
 * the roll card posted; FATE: a roll made while Clipped was the character's "next action", and his
 * own client then resets the box (src/system/clipped.ts).
 */
import * as actions from "../actions";
import { readRollOptions, rollDialogContext } from "../attack-dialog";
import { rollsWhileClipped, traitClippedUpdate } from "../clipped";
import { STANDARD_RUNGS } from "../../rules";
import { TEMPLATES } from "../handlebars";
import { WILLPOWER_ROLL, rollSlot, traitRollSlot } from "../rolling";
import type { SystemI18n } from "../i18n";
import type { HostPort } from "./port";
import { liveActor } from "./read";

/** Localized ladder rung names (FUDGE.Ladder.<id>) for the dialogs' context builders. */
export function ladderNames(i18n: SystemI18n): Partial<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const r of STANDARD_RUNGS) {
    const k = `FUDGE.Ladder.${r.id}`;
    if (i18n.has(k)) out[r.id] = i18n.localize(k);
  }
  return out;
}

export async function rollTrait(
  port: HostPort,
  actorRef: string,
  key: string,
  opts: { fastForward?: boolean } = {},
): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  actions.refuseUnless(actions.canRollTrait(actor, key, rules, port.user));
  const options = opts.fastForward
    ? {}
    : await port.dialog({
        titleKey: "FUDGE.Roll.DialogTitle",
        okKey: "FUDGE.Roll.Ok",
        template: TEMPLATES.rollDialog,
        context: () =>
          rollDialogContext(actor.name, key, rules, ladderNames(port.i18n), actions.traitLevel(actor, key, rules)),
        read: (entries) => readRollOptions(entries),
      });
  if (options === null) return;
  // Fudge §4.51 Light Wound: the penalty depends on being in a started combat when rolled.
  const inCombat = port.table.inCombat(actorRef);
  const roll = (f: string) => port.roll(f);
  // The Willpower roll comes first (it eases the penalty of the roll that follows).
  const will = actions.traitWillpowerNeeded(actor, key, rules, inCombat) ? await rollSlot(WILLPOWER_ROLL, roll) : null;
  const r = await rollSlot(traitRollSlot(key, rules.preset), roll);
  const card = actions.rollTrait(actor, key, r.faces, rules, {
    user: port.user,
    inCombat,
    ...options,
    ...(will ? { willpowerDice: will.faces } : {}),
  });
  await port.postRollCard(actorRef, card, [...(will?.rolls ?? []), ...r.rolls]);
  if (rollsWhileClipped(actor, rules))
    await port.writeActor(actorRef, async (turn) => {
      const u = traitClippedUpdate(turn.read(), rules, port.user);
      if (u) await turn.write(u);
    });
}
