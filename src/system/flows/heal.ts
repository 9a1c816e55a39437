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
  healerChoices,
  healerSkill,
  readHealer,
  healsWithMedicalRoll,
  injuryRecoveryNoteLines,
  readHealInputs,
  type HealDice,
} from "../heal";
import { healRollFormula, healRollTitle, rollFaces } from "../rolling";
import { healFeedback } from "../view";
import { TEMPLATES } from "../handlebars";
import { RulesError, levelWithNumber } from "../../rules";
import { facesText } from "../../rules/fudge";
import { isOwner } from "../permissions";
import { ladderOf } from "../view";
import type { Step } from "../../rules";
import type { HostPort } from "./port";
import { ladderNames, liveActor } from "./read";

const roller = (port: HostPort) => (formula: string) => port.roll(formula);

/** What a heal did, in plain words (healFeedback): the key and params of its sentence. */
function feedback(
  port: HostPort,
  name: string,
  steps: Step[],
): { key: string; params: Record<string, string | number> } {
  const f = healFeedback(name, steps);
  const what = typeof f.params.what === "string" ? port.i18n.format(f.params.what, f.params) : "";
  return { key: f.key, params: { ...f.params, what } };
}

/** What a heal did, for the host's notification. */
function notifyFeedback(port: HostPort, name: string, steps: Step[]): void {
  const f = feedback(port, name, steps);
  port.notify(f.key, f.params);
}

/** The card's line of what a heal did ("Result: Leroy: Hurt healed."). */
const resultLine = (port: HostPort, name: string, steps: Step[]): string => {
  const f = feedback(port, name, steps);
  return port.i18n.format("FUDGE.Heal.Card.Result", { text: port.i18n.format(f.key, f.params) });
};

/** A healer and the skill he heals with (Fudge §4.8), read from the live healer. */
interface Healer {
  name: string;
  skill: string;
  level: number;
}

/**
 * Fudge §4.8 healing roll: the dialog picks who heals and with which skill (an actor this user may
 * act as, and one of his skills); null when closed. Refused with nothing picked, or a healer he may
 * not act as, or a skill the healer does not have.
 */
async function pickHealer(port: HostPort, name: string): Promise<Healer | null> {
  const rules = port.rules();
  const docs = port.ownActors().flatMap((r) => port.actor(r) ?? []);
  const pick = await port.dialog({
    titleKey: "FUDGE.Heal.Input.Title",
    okKey: "FUDGE.Heal.Input.Ok",
    template: TEMPLATES.healDialog,
    context: () => healDialogContext("roll", name, rules, healerChoices(docs, rules, ladderNames(port.i18n))),
    read: (entries) => readHealer(entries) ?? { actorId: "", skillId: "" },
  });
  if (pick === null) return null;
  if (!pick.actorId) throw new RulesError("healer", "FUDGE.Error.Heal.NoHealer", "choose who heals, with which skill");
  const doc = docs.find((d) => d._id === pick.actorId);
  if (!doc || !isOwner(port.user, doc))
    throw new RulesError("healer", "FUDGE.Error.Heal.NotYourHealer", "not an actor of this user", {
      name: doc?.name ?? "",
    });
  const skill = healerSkill(doc, pick.skillId);
  return { name: doc.name, skill: skill.name, level: skill.level };
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
  const healer = type === "roll" ? await pickHealer(port, actor.name) : null;
  if (type === "roll" && !healer) return;
  const inputs = healer ? { skill: healer.level } : await healInputs(port, type, actor.name);
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
  // Every heal posts its card: who healed whom, the roll with its dice, the result.
  const format = (key: string, params: Record<string, string | number>) => port.i18n.format(key, params);
  const line = rolled ? healNoteLine(type, actor, dice, rules) : null;
  // Volt: the note shows the medical roll and the recovery roll, and every step of both.
  const lines =
    type === "injuryRecovery"
      ? injuryRecoveryNoteLines(inputs, dice, steps, format)
      : line
        ? [format(line.key, line.params)]
        : [];
  if (healer && rolled) {
    const ladder = ladderOf(rules, ladderNames(port.i18n));
    const skill = `${healer.skill} (${levelWithNumber(healer.level, ladder)})`;
    lines.push(
      format("FUDGE.Heal.Card.By", { healer: healer.name, name: actor.name, skill }),
      format("FUDGE.Heal.Card.Roll", {
        faces: facesText(rolled.faces),
        result: levelWithNumber(healer.level + rolled.faces.reduce((a, b) => a + b, 0), ladder),
      }),
    );
  }
  // Volt's injury recovery lists its steps already; every other heal says its result.
  if (type !== "injuryRecovery") lines.push(resultLine(port, actor.name, steps));
  await port.postNote({
    actorRef,
    titleKey: rolled ? healRollTitle(type, actor, rules) : (HEAL_CARD_TITLES[type] ?? "FUDGE.Heal.Title"),
    lines,
    rolled: rolled ? (medical ? [medical, rolled] : [rolled]) : [],
  });
  notifyFeedback(port, actor.name, steps);
}

/** The card title of a heal without a roll (the sheet's button's own words). */
const HEAL_CARD_TITLES: Record<string, string> = {
  scratches: "FUDGE.Heal.ClearScratches",
  consumeClipped: "FUDGE.Heal.ConsumeClipped",
  endScene: "FUDGE.Heal.EndScene",
  rest: "FUDGE.Heal.Rest",
  natural: "FUDGE.Heal.Natural",
};

/** Volt: Recover is a Willpower roll on two d20 (black, white). */
export async function recover(port: HostPort, actorRef: string): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  actions.refuseUnless(actions.canRecover(actor, rules, port.user));
  const rolled = await rollFaces("2d20", roller(port));
  const [black, white] = rolled.faces;
  const steps = (await port.changeActor(actorRef, { kind: "recover", black, white }))?.steps ?? [];
  await port.postNote({
    actorRef,
    titleKey: "FUDGE.Heal.Recover",
    lines: [resultLine(port, actor.name, steps)],
    rolled: [rolled],
  });
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
