/**
 * Attack from a sheet: one situation dialog, then one card per weapon (a single weapon, or every
 * wielded weapon of a Miniatures action — one attack per weapon). The table's measures are taken
 * per target before the dialog, which shows them and the odds under them; each target's card entry
 * carries its own (its range, gang-up, contact), over the dialog's situation.
 */
import { RulesError, isRulesError, loadPreset } from "../../rules";
import { errorText } from "../error-text";
import * as actions from "../actions";
import { attackDialogContext, readSituation } from "../attack-dialog";
import type { Situation } from "../combatant";
import type { ActorDoc, AttackCardData, ItemDoc, WorldRules } from "../data";
import { TEMPLATES } from "../handlebars";
import { rollsWhileClipped } from "../clipped";
import { rollSlot, type SlotRoll } from "../rolling";
import type { HostPort, HostRoll, TableTarget } from "./port";
import { liveActor } from "./read";

/** The situation keys the table measured for every target: the card's own situation leaves them to the targets. */
function measuredKeys(measured: readonly Situation[], count: number): string[] {
  if (measured.length < count || count === 0) return [];
  return Object.keys(measured[0]).filter((k) => measured.every((m) => m[k] !== undefined));
}

const weaponOf = (actor: ActorDoc, id: string | null): ItemDoc<"weapon"> | null =>
  id ? (((actor.items ?? []).find((i) => i._id === id) as ItemDoc<"weapon"> | undefined) ?? null) : null;
const isRanged = (actor: ActorDoc, id: string | null): boolean =>
  !!(weaponOf(actor, id)?.system as { ranged?: boolean } | undefined)?.ranged;

const slotKey = (slot: string, target: number) => (slot === "attack" ? "attack" : `${slot}#${target}`);

/**
 * Rolls a planned attack's dice (planAttack: every refusal came before) with the host's roller,
 * each slot once in the plan's order (the attack roll is shared by every target), then builds the
 * card from those faces (attackCard).
 */
export async function rollAttack(
  plan: actions.AttackPlan,
  roller: HostPort["roll"],
): Promise<{ card: AttackCardData; rolls: HostRoll[]; slots: SlotRoll<HostRoll>[] }> {
  const rolled = new Map<string, SlotRoll<HostRoll>>();
  for (const d of actions.attackDice(plan)) rolled.set(slotKey(d.slot.id, d.target), await rollSlot(d.slot, roller));
  const slots = [...rolled.values()];
  const card = actions.attackCard(plan, {
    faces(slot, target) {
      const r = rolled.get(slotKey(slot.id, target));
      if (!r) throw new Error(`dice slot ${slot.id} was not rolled`);
      return [...r.faces];
    },
  });
  return { card, rolls: slots.flatMap((s) => s.rolls), slots };
}

/**
 * Attack with one weapon (`weaponIds` one id, or null: unarmed) or with each weapon of a Miniatures
 * action (wieldedAttacks). `fastForward` (Shift on the button) rolls with the remembered choices.
 */
export async function attack(
  port: HostPort,
  actorRef: string,
  weaponIds: (string | null)[],
  opts: { fastForward?: boolean } = {},
): Promise<void> {
  const rules = port.rules();
  // The world's pipeline (loaded at start-up; awaited here for a click in the moment before it is).
  await loadPreset(rules.preset);
  const attacker = liveActor(port, actorRef, rules);
  actions.refuseUnless(actions.canAttack(attacker, port.user));
  const targeted = port.table.targets(actorRef);
  if (!targeted.length) throw new RulesError("targets", "FUDGE.Error.NoTargets", "target at least one token");
  const weaponId = weaponIds[0] ?? null;
  const { targets, targetDocs, measured } = validTargets(
    port,
    attacker,
    weaponId,
    targeted,
    port.table.measure(actorRef, targeted, isRanged(attacker, weaponId)),
    rules,
  );
  const last = readSituation(rules.preset, port.rememberedSituation());
  const situation = opts.fastForward
    ? last
    : await port.dialog<Situation>({
        titleKey: "FUDGE.Attack.DialogTitle",
        okKey: "FUDGE.Attack.Roll",
        okAction: "roll",
        icon: "fa-solid fa-swords",
        width: 420,
        template: TEMPLATES.attackDialog,
        context: (entries) =>
          attackDialogContext(
            attacker,
            weaponOf(attacker, weaponId),
            targetDocs,
            rules,
            entries ? readSituation(rules.preset, entries) : last,
            measured,
          ),
        read: (entries) => readSituation(rules.preset, entries),
        live: ".fudge-odds-list",
      });
  if (situation === null) return;
  if (!opts.fastForward) await port.rememberSituation(situation);
  for (const id of weaponIds) {
    // A Miniatures action's weapons are all of one kind; measured again only if this one's kind differs.
    const perTarget =
      isRanged(attacker, id) === isRanged(attacker, weaponId)
        ? measured
        : port.table.measure(actorRef, targets, isRanged(attacker, id));
    // What the table measures replaces the dialog's (a remembered range…): the card's situation leaves it to each target.
    const shared: Situation = { ...situation };
    for (const k of measuredKeys(perTarget, targets.length)) delete shared[k];
    // Each attack from the live attacker (an earlier card of the action may have reset his Clipped box).
    await postAttack(port, liveActor(port, actorRef, rules), id, targets, targetDocs, shared, perTarget, rules);
  }
}

/**
 * The targets an attack goes ahead against: each is planned alone (planAttack, before any die or
 * dialog); one the attack cannot reach (out of contact, the wrong kind of actor…) is skipped and
 * named once, the others are attacked. When none is valid, the first refusal stands (the click
 * reports it, once).
 */
function validTargets(
  port: HostPort,
  attacker: ActorDoc,
  weaponId: string | null,
  targets: readonly TableTarget[],
  measured: readonly Situation[],
  rules: WorldRules,
): { targets: TableTarget[]; targetDocs: ActorDoc[]; measured: Situation[] } {
  const out = { targets: [] as TableTarget[], targetDocs: [] as ActorDoc[], measured: [] as Situation[] };
  const skipped: { name: string; error: RulesError }[] = [];
  targets.forEach((t, i) => {
    try {
      const doc = liveActor(port, t.ref, rules);
      const own = measured.length === targets.length ? [measured[i]] : [];
      actions.planAttack(attacker, weaponId, [doc], {}, rules, port.user, own, {
        roundStart: (d) => port.table.roundStart(d),
      });
      out.targets.push(t);
      out.targetDocs.push(doc);
      if (own.length) out.measured.push(own[0]);
    } catch (e) {
      if (!isRulesError(e)) throw e;
      skipped.push({ name: port.actor(t.ref)?.name ?? "", error: e });
    }
  });
  if (!out.targets.length) throw skipped[0].error;
  for (const s of skipped)
    port.report(
      new RulesError("targets", "FUDGE.Attack.TargetSkipped", `${s.name} is not attacked`, {
        name: s.name,
        reason: errorText(s.error, port.i18n),
      }),
    );
  return out;
}

/**
 * Rolls and posts one attack card (every refusal before any die: planAttack), then, FATE: if the
 * attacker rolled while Clipped, that roll was his "next action": his own client resets the box and
 * records the roll on him (src/system/clipped.ts), before his next attack is rolled.
 */
export async function postAttack(
  port: HostPort,
  attacker: ActorDoc,
  weaponId: string | null,
  targets: readonly TableTarget[],
  targetDocs: ActorDoc[],
  situation: Situation,
  perTarget: readonly Situation[],
  rules: WorldRules,
): Promise<string> {
  await loadPreset(rules.preset);
  // Fudge §4.64: whether each target began the round Incapacitated is the table's round-start record (Apply reads it again).
  const plan = actions.planAttack(attacker, weaponId, targetDocs, situation, rules, port.user, perTarget, {
    roundStart: (t) => port.table.roundStart(t),
  });
  const { card, rolls } = await rollAttack(plan, (f) => port.roll(f));
  card.targets.forEach((t, i) => {
    if (targets[i]?.tokenId) t.tokenId = targets[i].tokenId;
  });
  const attackerRef = attacker.uuid ?? attacker._id;
  const messageId = await port.postAttackCard(attackerRef, card, rolls);
  try {
    // FATE: a Clipped attacker's box resets with his roll; nothing to write otherwise (asked here, read again by the writer).
    if (rollsWhileClipped(attacker, rules)) await port.changeActor(attackerRef, { kind: "attackClipped", messageId });
  } catch (e) {
    port.report(e, attacker.name);
  }
  return messageId;
}

/**
 * Miniatures: "Melee attack with all wielded melee weapons" / "Shoot all wielded ranged weapons" —
 * one dialog, then one attack per weapon of the action (actions.wieldedAttacks).
 */
export async function attackWithAll(
  port: HostPort,
  actorRef: string,
  kind: "melee" | "ranged",
  opts: { fastForward?: boolean } = {},
): Promise<void> {
  const rules = port.rules();
  await attack(port, actorRef, actions.wieldedAttacks(liveActor(port, actorRef, rules), kind, rules), opts);
}
