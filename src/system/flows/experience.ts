/**
 * Experience from the sheet and the Actors directory (Fudge §5.2): the GM awards EP to the sheet's
 * actor and the actors of her selected tokens, or to the actors she checks in the directory's
 * dialog; an owner spends EP to raise a trait one level; the GM undoes a log entry.
 * Each write reads the actor in its turn of the serialised write and recomputes there, so a
 * change made meanwhile (another award, a level edited) is seen; a refusal writes nothing.
 */
import { gainsExperience, hasExperience } from "../experience";
import {
  awardDialogContext,
  awardUpdate,
  raiseDialogContext,
  raiseUpdate,
  readAward,
  readRaise,
  undoSummary,
  undoUpdate,
  type AdvanceWrite,
  type AwardCandidate,
} from "../advancement";
import { RulesError } from "../../rules";
import type { ActorDoc } from "../data";
import { TEMPLATES } from "../handlebars";
import { ladderOf } from "../view";
import type { ActorTurn, HostPort } from "./port";
import { ladderNames, liveActor, maybeActor } from "./read";

const now = () => new Date().toISOString();

/** The actors an award may go to: the sheet's own, then each selected token's actor that gains experience. */
function candidates(port: HostPort, actorRef: string): AwardCandidate[] {
  const rules = port.rules();
  const own = liveActor(port, actorRef, rules);
  const out: AwardCandidate[] = [{ ref: actorRef, name: own.name }];
  const seen = new Set([actorRef, own.uuid ?? own._id]);
  for (const t of port.table.selected()) {
    const doc = maybeActor(port, t.ref, rules);
    if (!doc || !hasExperience(doc) || seen.has(t.ref) || seen.has(doc.uuid ?? doc._id)) continue;
    seen.add(t.ref);
    out.push({ ref: t.ref, name: doc.name });
  }
  return out;
}

/** The GM's award from a sheet: refused for a player before the dialog; each chosen actor awarded in its own turn. */
export async function awardExperience(port: HostPort, actorRef: string): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  // The refusals that need no input come before the dialog (a player, an actor without experience).
  awardUpdate(actor, rules, { amount: 1 }, port.user, now());
  await awardChosen(port, candidates(port, actorRef));
}

/**
 * The GM's award from the Actors directory: the dialog lists every actor of the world that gains
 * experience here, by name — `chosen` (the actor whose menu was opened) checked, or else every
 * character — and each one she leaves checked is awarded in its own turn.
 */
export async function awardExperienceToActors(port: HostPort, chosen?: string): Promise<void> {
  if (!port.user.isGM)
    throw new RulesError("user", "FUDGE.Experience.Error.AwardGmOnly", "only a GM may award experience", { name: "" });
  const rules = port.rules();
  const offered = port
    .ownActors()
    .map((ref) => ({ ref, doc: maybeActor(port, ref, rules) }))
    .filter((a): a is { ref: string; doc: ActorDoc } => !!a.doc && gainsExperience(a.doc, rules))
    .sort((a, b) => a.doc.name.localeCompare(b.doc.name))
    .map(({ ref, doc }) => ({ ref, name: doc.name, checked: chosen ? ref === chosen : doc.type === "character" }));
  if (offered.length === 0)
    throw new RulesError("actors", "FUDGE.Experience.Error.NoCandidates", "no actor here gains experience");
  await awardChosen(port, offered);
}

/** The award dialog for `offered`, then each chosen actor awarded in its own turn of the serialised write. */
async function awardChosen(port: HostPort, offered: AwardCandidate[]): Promise<void> {
  const award = await port.dialog({
    titleKey: "FUDGE.Experience.AwardTitle",
    okKey: "FUDGE.Experience.Award",
    icon: "fa-solid fa-star",
    template: TEMPLATES.awardDialog,
    context: () => awardDialogContext(offered),
    read: (entries) => readAward(entries, offered),
  });
  if (!award) return;
  const names: string[] = [];
  for (const ref of award.refs) {
    try {
      await port.writeActor(ref, async (turn) => {
        await turn.write(awardUpdate(turn.read(), port.rules(), award, port.user, now()));
        names.push(turn.read().name);
      });
    } catch (e) {
      // One actor's refusal (he holds the most EP there are) leaves the others' awards standing.
      port.report(e, port.actor(ref)?.name);
    }
  }
  if (names.length) port.notify("FUDGE.Experience.Awarded", { amount: award.amount, names: names.join(", ") });
}

/** Writes an advance in the actor's turn: the experience (and an attribute) on the actor, a skill's level on its item. */
async function writeAdvance(port: HostPort, actorRef: string, turn: ActorTurn, w: AdvanceWrite): Promise<void> {
  await turn.write(w.actor);
  if (w.item) await port.items.update(actorRef, w.item.id, w.item.update);
}

/** An owner spends EP on a trait: the dialog shows each trait's price; the raise is priced again in the actor's turn. */
export async function spendExperience(port: HostPort, actorRef: string): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  const ladder = ladderOf(rules, ladderNames(port.i18n));
  if (raiseDialogContext(actor, rules, ladder, null).traits.length === 0)
    throw new RulesError("trait", "FUDGE.Experience.Error.NoTrait", "no trait can rise");
  // Refused before the dialog for a user who may not edit the actor (the rules core's own checks come after).
  const first = raiseDialogContext(actor, rules, ladder, null).traits[0].value;
  try {
    raiseUpdate(actor, rules, { trait: first, used: true }, port.user, now());
  } catch (e) {
    if (e instanceof RulesError && !e.key.startsWith("FUDGE.Error.Advance.")) throw e;
  }
  const request = await port.dialog({
    titleKey: "FUDGE.Experience.SpendTitle",
    okKey: "FUDGE.Experience.Spend",
    icon: "fa-solid fa-arrow-up",
    template: TEMPLATES.raiseDialog,
    live: ".fudge-raise-cost",
    context: (entries) => raiseDialogContext(actor, rules, ladder, entries),
    read: readRaise,
  });
  if (!request) return;
  // What the sheet showed: the notice names it; the writer prices the raise again in its turn.
  const done = raiseDialogContext(actor, rules, ladder, [["trait", request.trait]]).traits.find(
    (t) => t.value === request.trait,
  );
  await port.changeActor(actorRef, { kind: "raise", trait: request.trait, used: request.used });
  if (done)
    port.notify("FUDGE.Experience.Raised", {
      name: actor.name,
      trait: done.label || port.i18n.localize(done.labelKey),
      cost: done.cost,
    });
}

/** The GM undoes one log entry: refused (with the advance that rests on it) before she is asked; confirmed; written in the turn. */
export async function undoAdvance(port: HostPort, actorRef: string, entryId: string): Promise<void> {
  const rules = port.rules();
  const actor = liveActor(port, actorRef, rules);
  undoUpdate(actor, rules, entryId, port.user);
  const ladder = ladderOf(rules, ladderNames(port.i18n));
  const row = undoSummary(actor, rules, ladder, entryId);
  const what = row
    ? `${row.traitLabel || (row.traitKey ? port.i18n.localize(row.traitKey) : "")} ${row.epText} EP`
    : "";
  const text = port.i18n.format("FUDGE.Experience.UndoConfirm", { name: actor.name, what: what.trim() });
  if (!(await port.confirm("FUDGE.Experience.Undo", text))) return;
  await port.writeActor(actorRef, async (turn) =>
    writeAdvance(port, actorRef, turn, undoUpdate(turn.read(), port.rules(), entryId, port.user)),
  );
}
