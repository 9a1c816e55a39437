/**
 * Healing from the sheet (Fudge §4.8: Scratches, the healing roll, natural healing; FATE: Clipped
 * used up, the scene's end; Volt: Recovery — rest, Recover, the Injury recovery roll) and the quiet
 * healing the combat hooks run (turn end, combat end, scene end). Each is refused before the dialog
 * and before any die when it cannot happen (canHeal, canRecover).
 */
import * as actions from "../actions";
import { readActor } from "../combatant";
import {
  HEAL_INPUTS,
  healDialogContext,
  healNoteLine,
  healsWithMedicalRoll,
  injuryRecoveryNoteLines,
  readHealInputs,
  type HealDice,
} from "../heal";
import { healRollFormula, healRollTitle, rollFaces } from "../rolling";
import { healFeedback } from "../view";
import { TEMPLATES } from "../handlebars";
import type { Step } from "../../rules";
import type { HostPort } from "./port";
import { liveActor } from "./read";

const roller = (port: HostPort) => (formula: string) => port.roll(formula);

/** What a heal did, in plain words (healFeedback), for the host's notification. */
function notifyFeedback(port: HostPort, name: string, steps: Step[]): void {
  const f = healFeedback(name, steps);
  const what = typeof f.params.what === "string" ? port.i18n.format(f.params.what, f.params) : "";
  port.notify(f.key, { ...f.params, what });
}

/** The numbers a healing kind needs (templates/dialog/heal-dialog.hbs): {} when none, null when the dialog was closed. */
async function healInputs(port: HostPort, type: string, name: string): Promise<Record<string, number> | null> {
  if (!(HEAL_INPUTS[type] ?? []).length) return {};
  const rules = port.rules();
  return port.dialog({
    titleKey: "FUDGE.Heal.Input.Title",
    okKey: "FUDGE.Heal.Input.Ok",
    template: TEMPLATES.healDialog,
    context: () => healDialogContext(type, name, rules),
    read: (entries) => readHealInputs(type, entries),
  });
}

/**
 * A healing button: the dialog for the numbers its kind needs, then only the kinds that roll roll
 * (Fudge §4.8 healing roll 4dF, the optional Constitution roll of natural healing 4dF; Volt injury
 * recovery 2d20, after the medical Background's 2d20 when there is medical care); the track is
 * read in its turn, after every earlier write to the actor; a roll posts a note.
 */
export async function heal(port: HostPort, actorRef: string, type: string): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  actions.refuseUnless(actions.canHeal(actor, type, rules, port.user));
  const inputs = await healInputs(port, type, actor.name);
  if (inputs === null) return;
  // Refused before any die is rolled (bad input).
  actions.refuseUnless(actions.canHeal(actor, type, rules, port.user, inputs));
  const formula = healRollFormula(type, actor, rules);
  // Volt: Recovery — the medical Background roll comes first; its success lowers the recovery roll's value.
  const medical = healsWithMedicalRoll(type, inputs) ? await rollFaces("2d20", roller(port)) : null;
  const rolled = formula ? await rollFaces(formula, roller(port)) : null;
  const dice: HealDice = {
    fudge: formula === "4dF" ? rolled!.faces : [],
    d20: (formula === "2d20" ? rolled!.faces : [1, 1]) as [number, number],
    ...(medical ? { medical: medical.faces as [number, number] } : {}),
  };
  const steps = (await port.changeActor(actorRef, { kind: "heal", type, inputs, dice }))?.steps ?? [];
  if (rolled) {
    const format = (key: string, params: Record<string, string | number>) => port.i18n.format(key, params);
    const line = healNoteLine(type, actor, dice, rules);
    // Volt: the note shows the medical roll and the recovery roll, and every step of both.
    const lines =
      type === "injuryRecovery"
        ? injuryRecoveryNoteLines(inputs, dice, steps, format)
        : line
          ? [format(line.key, line.params)]
          : [];
    await port.postNote({
      actorRef,
      titleKey: healRollTitle(type, actor, rules),
      lines,
      rolled: medical ? [medical, rolled] : [rolled],
    });
  }
  notifyFeedback(port, actor.name, steps);
}

/** Volt: Recover is a Willpower roll on two d20 (black, white). */
export async function recover(port: HostPort, actorRef: string): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  actions.refuseUnless(actions.canRecover(actor, rules, port.user));
  const rolled = await rollFaces("2d20", roller(port));
  const [black, white] = rolled.faces;
  const steps = (await port.changeActor(actorRef, { kind: "recover", black, white }))?.steps ?? [];
  await port.postNote({ actorRef, titleKey: "FUDGE.Heal.Recover", lines: [], rolled: [rolled] });
  notifyFeedback(port, actor.name, steps);
}

/**
 * Healing without a roll that the table runs itself (a turn's end, the combat's end, the scene's
 * end): from the live track in the actor's turn; nothing to heal writes nothing, so running it
 * twice, or on an unhurt actor, changes nothing.
 */
export async function healQuietly(port: HostPort, actorRef: string, type: string): Promise<void> {
  const rules = port.rules();
  await port.writeActor(actorRef, async (turn) => {
    const doc = readActor(turn.read(), rules);
    const r = actions.healWounds(doc, { type }, rules, port.user);
    if (actions.changesTrack(doc, r.update)) await turn.write(r.update);
  });
}
