/**
 * Miniatures Guts at the table (Miniatures: Guts): the sheet's Check Guts, the checks a new wound
 * level forces after Apply, the friends' checks for a shot into their melee, the re-checks of a
 * failure on later turns and the Near Death roll. Every roll is the host's; every rule the rules
 * core's; each model's circumstances are what the host's table shows (HostPort.table).
 */
import { RulesError } from "../../rules";
import {
  GUTS_TARGETS,
  gutsRecheck,
  gutsTrigger,
  initialGutsState,
  nearDeathGuts,
  traitWith,
  type GutsReason,
  type MiniDatacard,
} from "../../rules/miniatures";
import * as actions from "../actions";
import { readActor, trackFor } from "../combatant";
import {
  gutsChoiceFor,
  gutsDialogContext,
  gutsNoteLines,
  gutsTraitLines,
  gutsTriggerOf,
  readGutsChoice,
} from "../guts-dialog";
import type { GutsDialogChoice } from "../guts-dialog";
import {
  friendGutsRecord,
  friendGutsRoster,
  withFriendGutsRecord,
  type FriendGutsCandidate,
  type GutsCircumstances,
} from "../guts";
import { rederiveTarget } from "../rederive";
import { GUTS_ROLL, rollSlot, type SlotRoll } from "../rolling";
import { TEMPLATES } from "../handlebars";
import { SYSTEM_ID } from "../registry";
import type { ActorDoc } from "../data";
import { trackUpdate } from "../updates";
import type { ActorTurn, HostPort, HostRoll } from "./port";
import { cardOf, liveActor, maybeActor, sidesOf, storedCard } from "./read";

type FollowUp = { type: string; target: string; params: Record<string, unknown> };

const roller = (port: HostPort) => (formula: string) => port.roll(formula);
const format = (port: HostPort) => (k: string, p: Record<string, string | number>) => port.i18n.format(k, p);

/** The situation flags of a check from the circumstances (each counts only where a datacard gives it a rule). */
const flagsOf = (c: GutsCircumstances) => ({
  defendingKing: c.defendingKing,
  nobleInMelee: c.nobleInMelee,
  leaderFallen: c.leaderFallen,
});

/**
 * Miniatures: Sample characters — Mercenary "will flee the combat on any failed Guts check": the
 * note says so in the game's words; the GM takes the model from the table.
 */
function fleesLine(port: HostPort, name: string, card: MiniDatacard): string {
  const trait = traitWith(card, "mercenary");
  return port.i18n.format("FUDGE.Miniatures.FleesCombat", { name, trait: trait?.name ?? "" });
}

/** What counted (gifts, faults, circumstances, the −1 of a failure by 1 in force); the Mercenary's flight has its own line. */
const countedLines = (port: HostPort, steps: readonly { key: string; params?: Record<string, string | number> }[]) =>
  gutsTraitLines(
    steps.filter((s) => s.key !== "FUDGE.Miniatures.Step.Trait.mercenary"),
    format(port),
  );

/**
 * Immediate Guts checks of one model in its turn of the serialised write, each with its own roll,
 * under its standing and the table's circumstances; the failures are stored for the re-checks and
 * one note says each result and what counted. `lead` opens the note (why the model checks).
 */
export async function runGutsChecks(
  port: HostPort,
  turn: ActorTurn,
  checks: readonly { target: number; reason: GutsReason }[],
  turnNo: number,
  opts: { lead?: string; update?: Record<string, unknown> } = {},
): Promise<void> {
  if (!checks.length) return;
  const rules = port.rules();
  const doc = readActor(turn.read(), rules);
  const ref = doc.uuid ?? doc._id;
  const { guts, card, state: stored } = actions.miniGuts(doc, rules);
  const flags = flagsOf(port.table.gutsCircumstances(doc, rules));
  let state = stored;
  const lines: string[] = opts.lead ? [opts.lead] : [];
  const rolled: SlotRoll<HostRoll>[] = [];
  for (const c of checks) {
    const roll = await rollSlot(GUTS_ROLL, roller(port));
    rolled.push(roll);
    // The datacard's gift and fault and the circumstances go with the check.
    const r = gutsTrigger(
      state,
      {
        ...flags,
        guts,
        faces: roll.faces,
        target: c.target,
        turn: turnNo,
        reason: c.reason,
        gift: card.gift,
        fault: card.fault,
      },
      actions.gutsRules(rules),
    );
    state = r.state;
    lines.push(
      port.i18n.format(r.check.passed ? "FUDGE.Miniatures.GutsPassed" : "FUDGE.Miniatures.GutsFailed", {
        total: String(r.check.total),
        target: String(r.check.target),
        effect: port.i18n.localize(`FUDGE.Miniatures.Guts.Effect${r.check.effect}`),
      }),
      ...countedLines(port, r.steps),
    );
    if (r.fleesCombat) lines.push(fleesLine(port, doc.name, card));
  }
  await turn.write({ ...(opts.update ?? {}), system: { gutsState: state } });
  await port.postNote({ actorRef: ref, titleKey: "FUDGE.Miniatures.GutsCheck", lines, rolled });
}

/**
 * Miniatures: Guts — a model that reaches a new wound level checks at once (target +1; two levels
 * from one attack +2): the result's "gutsCheck" follow-ups on the defender, after Apply.
 */
export async function gutsAfterWound(port: HostPort, turn: ActorTurn, followUps: readonly FollowUp[]): Promise<void> {
  const checks = followUps.filter((f) => f.type === "gutsCheck" && f.target === "defender" && f.params.who === "self");
  if (!checks.length || turn.read().type !== "miniature") return;
  await runGutsChecks(
    port,
    turn,
    checks.map((f) => ({ target: Number(f.params.target), reason: String(f.params.reason) as GutsReason })),
    port.table.combatTurn(),
  );
}

/**
 * Miniatures: Guts — each failed check still in force is re-checked on the model's later turns
 * with the cumulative bonus (the rules core's gutsRecheck), under the circumstances of the table
 * now; a pass ends it.
 */
export async function runGutsRechecks(port: HostPort, actorRef: string, turnNo: number): Promise<void> {
  await port.writeActor(actorRef, async (turn) => {
    const rules = port.rules();
    const doc = readActor(turn.read(), rules);
    const { guts, card, state: stored } = actions.miniGuts(doc, rules);
    const flags = flagsOf(port.table.gutsCircumstances(doc, rules));
    let state = stored;
    const lines: string[] = [];
    const rolled: SlotRoll<HostRoll>[] = [];
    let i = 0;
    while (i < state.pending.length) {
      if (state.pending[i].lastTurn >= turnNo) {
        i++;
        continue;
      }
      const roll = await rollSlot(GUTS_ROLL, roller(port));
      rolled.push(roll);
      const r = gutsRecheck(
        state,
        roll.faces,
        turnNo,
        guts,
        0,
        i,
        { ...flags, gift: card.gift, fault: card.fault },
        actions.gutsRules(rules),
      );
      lines.push(
        port.i18n.format(r.check.passed ? "FUDGE.Miniatures.GutsRecheckPassed" : "FUDGE.Miniatures.GutsRecheckFailed", {
          total: String(r.check.total),
          target: String(r.check.target),
        }),
        ...countedLines(port, r.steps),
      );
      if (r.fleesCombat) lines.push(fleesLine(port, doc.name, card));
      state = r.state;
      if (!r.check.passed) i++;
    }
    if (!lines.length) return;
    await turn.write({ system: { gutsState: state } });
    await port.postNote({ actorRef, titleKey: "FUDGE.Miniatures.GutsCheck", lines, rolled });
  });
}

/**
 * Miniatures: Near Death — Guts (lowered by the wound penalty) + 4dF each turn; at −1 while a Guts
 * failure by 1 is in force (world rule gutsRollPenalty), and the note says so.
 */
export async function nearDeathTurn(port: HostPort, actorRef: string): Promise<void> {
  await port.writeActor(actorRef, async (turn) => {
    const rules = port.rules();
    const doc = readActor(turn.read(), rules);
    const g = actions.miniGuts(doc, rules);
    const rolled = await rollSlot(GUTS_ROLL, roller(port));
    const r = nearDeathGuts(trackFor(doc, rules), g.guts, rolled.faces, 0, g.state, actions.gutsRules(rules));
    // Miniatures: Wounds — "becomes merely Very Hurt and may then act normally": the Guts failures it
    // had before it fell no longer hold it (this system's reading; the duel forecast plays it so).
    const recovered = r.result === "veryHurt" && g.state.pending.length > 0 ? { gutsState: initialGutsState() } : {};
    await turn.write({ system: { ...trackUpdate(r.track.state).system, ...recovered } });
    const total = `${r.total >= 0 ? "+" : "\u2212"}${Math.abs(r.total)}`;
    const lines = gutsTraitLines(r.steps, format(port));
    await port.postNote({
      actorRef,
      titleKey: `FUDGE.Miniatures.NearDeath.${r.result}`,
      lines: [total, ...lines],
      rolled: [rolled],
    });
  });
}

/**
 * The sheet's Check Guts: a Guts check the table calls for (a Terrifying charge, a friend shooting
 * into the combat, another). The dialog asks why and the circumstances the datacard's gifts and
 * faults name, filled from the user's targets (their Terrifying gifts) and the table's
 * circumstances; the rules core applies them, stores a failure for the re-checks, and a
 * Mercenary's failure says it flees the combat.
 */
export async function gutsCheck(port: HostPort, actorRef: string): Promise<void> {
  const rules = port.rules();
  const doc = liveActor(port, actorRef, rules);
  actions.refuseUnless(actions.canGutsCheck(doc, port.user));
  const opponents = port.table
    .targets(actorRef)
    .map((t) => port.actor(t.ref))
    .filter((a): a is ActorDoc => !!a);
  const first = gutsChoiceFor(opponents, undefined, port.table.gutsCircumstances(doc, rules));
  const choice: GutsDialogChoice | null = await port.dialog({
    titleKey: "FUDGE.GutsDialog.Title",
    okKey: "FUDGE.GutsDialog.Roll",
    template: TEMPLATES.gutsDialog,
    context: () => gutsDialogContext(doc, first),
    read: (entries) => readGutsChoice(entries),
  });
  if (!choice) return;
  const trigger = { ...gutsTriggerOf(choice), turn: port.table.combatTurn() };
  const rolled = await rollSlot(GUTS_ROLL, roller(port));
  const r = (await port.changeActor(actorRef, { kind: "gutsCheck", trigger, faces: rolled.faces }))?.guts;
  if (!r) return;
  await port.postNote({
    actorRef,
    titleKey: "FUDGE.Miniatures.GutsCheck",
    lines: gutsNoteLines(r, format(port)),
    rolled: [rolled],
  });
}

const isFriendsInMelee = (f: { type: string; params: Record<string, unknown> }) =>
  f.type === "gutsCheck" && f.params.who === "friendsInMelee";
const flagsOfActor = (a: ActorDoc) => (a.flags?.[SYSTEM_ID] ?? {}) as Record<string, unknown>;

/**
 * Miniatures: Guts — "a friend shoots into the combat" (target 0). The card of a shot into a melee
 * offers the GM one button: each token he has selected that is a friend of the shooter in that
 * melee checks Guts, with its own roll and note, under its own circumstances; the others are named
 * with the reason. The shot is re-derived from the live shooter and the recorded dice (a card's
 * claim is not enough), and each model remembers the shots it has checked for, so a second click
 * rolls nothing again.
 */
export async function gutsForFriends(port: HostPort, messageId: string): Promise<void> {
  if (!port.user.isGM) throw new RulesError("user", "FUDGE.Error.GutsFriends.GmOnly", "only the GM runs these checks");
  const rules = port.rules();
  const stored = storedCard(port, messageId);
  const card = cardOf(stored);
  const attacker = maybeActor(port, card.attackerId, rules);
  const shot = card.targets.find((t) => {
    const defender = maybeActor(port, t.actorId, rules);
    if (!defender || !t.resolution) return false;
    const live = rederiveTarget(card, t, sidesOf(port, stored, card, defender, rules), rules);
    return live.resolution.followUps.some(isFriendsInMelee);
  });
  if (!shot) throw new RulesError("card", "FUDGE.Error.GutsFriends.NoShot", "this card is not a shot into a melee");
  const selected = port.table.selected();
  if (!selected.length) throw new RulesError("selected", "FUDGE.Error.NoSelection", "select tokens first");
  const candidates: FriendGutsCandidate[] = selected
    .map((t) => ({ id: t.tokenId, ref: t.ref, actor: maybeActor(port, t.ref, rules), disposition: t.disposition }))
    .filter((c): c is FriendGutsCandidate => !!c.actor);
  const roster = friendGutsRoster(
    { ref: card.attackerId, disposition: port.table.disposition(card.attackerId) },
    card.targets.map((t) => t.actorId),
    candidates,
    rules,
    (c) => friendGutsRecord(flagsOfActor(c.actor)).includes(messageId),
  );
  for (const s of roster.skipped)
    port.report(new RulesError("guts", `FUDGE.GutsFriends.Skip.${s.reason}`, "not checked", { name: s.name }));
  const lead = port.i18n.format("FUDGE.GutsFriends.Lead", { name: attacker?.name ?? "" });
  const turnNo = port.table.combatTurn();
  for (const c of roster.check)
    await port.writeActor(c.ref, async (turn) => {
      const record = withFriendGutsRecord(friendGutsRecord(flagsOfActor(turn.read())), messageId);
      await runGutsChecks(port, turn, [{ target: GUTS_TARGETS.friendShoots, reason: "friendShoots" }], turnNo, {
        lead,
        update: { flags: { [SYSTEM_ID]: { friendShotGuts: record } } },
      });
    });
}
