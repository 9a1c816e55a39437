/**
 * The attack-card loop in Foundry: Attack (sheet) → card with captured targets → Defend →
 * Apply → Undo. Every step is a src/system action on plain data; this file only gathers
 * tokens and dice, renders the card template, and persists updates (directly, or through the
 * GM relay when the clicking user may not write them).
 */
import { isRulesError, RulesError, pipelineFor } from "../rules";
import * as actions from "../system/actions";
import { attackCardContext, rollCardContext } from "../system/card";
import type { ActorDoc, AttackCardData, ItemDoc, WorldRules } from "../system/data";
import type { Situation } from "../system/combatant";
import { attackSituationDialog } from "./dialogs";
import { TEMPLATES } from "../system/handlebars";
import { checkCard, defenceFacesOf, rederiveTarget } from "../system/integrity";
import { checkDefendable } from "../system/actor-logs";
import { attackClippedUpdate, defenceRollUpdate } from "../system/clipped";
import { changeActor, plainActor, updateActor, worldRules } from "./bridge";
import { actorLane, writeQueue } from "./write-queue";
import { gutsAfterWound, tableRoundStart } from "./combat";
import { reportError, serverNow, userRef } from "./foundry-util";
import { foundryRoller, postWithRolls, showRolls } from "./dice";
import { rollAttack, rollSlot, type SlotRoll } from "../system/rolling";
import { QUERIES, SYSTEM_ID } from "../system/registry";
import {
  RELAY_FLAG,
  relayRequestsUpdate,
  requestOf,
  routeCardAction,
  type CardAction,
  type RelayRequest,
} from "../system/relay";
import { tableSituation, GUTS_TARGETS } from "../rules/miniatures";
import { runGutsChecks, tokenBox, type TokenLike } from "./guts-table";
import { friendGutsRecord, friendGutsRoster, withFriendGutsRecord, type FriendGutsCandidate } from "../system/guts";
import { combatTurn } from "../system/combat";
import { toCore } from "./v14";
import { templatesReady } from "./templates";

const tpl = (p: string) => `systems/${SYSTEM_ID}/${p}`;
const esc = (s: unknown) => foundry.utils.escapeHTML(String(s ?? ""));
const loc = (k: string) => game.i18n!.localize(k);

function sceneTokens(): TokenLike[] {
  return ((canvas?.scene?.tokens?.contents ?? []) as unknown as TokenLike[]).filter((t) => !!t.actor);
}

function attackerToken(actor: Actor.Implementation): TokenLike | null {
  const active = actor.getActiveTokens(false, true) as unknown as TokenLike[];
  return active[0] ?? null;
}

/** Distance between two tokens in scene units (inches on a Miniatures table), by Foundry's grid. */
function tokenDistance(a: TokenLike, b: TokenLike): number | null {
  const size = canvas?.grid?.size ?? 100;
  const ca = { x: a.x + (a.width * size) / 2, y: a.y + (a.height * size) / 2 };
  const cb = { x: b.x + (b.width * size) / 2, y: b.y + (b.height * size) / 2 };
  const grid = canvas?.grid as unknown as
    { measurePath?: (w: { x: number; y: number }[]) => { distance: number } } | undefined;
  return grid?.measurePath ? grid.measurePath([ca, cb]).distance : null;
}

// ─── Attack ─────────────────────────────────────────────────────────────────────────────

/**
 * What the table measures for each target of an attack with a weapon of this kind, in target
 * order ([] when the attacker has no token here or the preset measures nothing). Miniatures (per
 * target, src/rules/miniatures/table.ts tableSituation): contact (melee: with that target; ranged: with any
 * enemy), gang-up and range. Volt: a ranged attack's distance to each target.
 */
function measuredSituations(
  rules: WorldRules,
  own: TokenLike | null,
  targets: readonly TokenLike[],
  ranged: boolean,
): Situation[] {
  if (!own) return [];
  if (rules.preset === "miniatures") {
    const boxes = sceneTokens().map(tokenBox);
    const opts = { ranged, gangUp: rules.miniatures.gangUp, rangeFromDistance: rules.miniatures.rangeFromDistance };
    return targets.map((t) => ({
      ...tableSituation(tokenBox(own), tokenBox(t), boxes, {
        ...opts,
        distance: ranged ? tokenDistance(own, t) : null,
      }),
    }));
  }
  if (rules.preset === "volt" && ranged) {
    // Volt: a ranged attack rolls against the distance value instead of Guard.
    return targets.map((t) => {
      const d = tokenDistance(own, t);
      return d === null ? {} : { distance: Math.round(d) };
    });
  }
  return [];
}

/**
 * What the table measures for each target of an attack by `actor`, for a melee and for a ranged
 * weapon (measuredSituations; {} where nothing is measured): the sheet's Attack tooltips give the
 * odds under them, as the attack dialog does.
 */
export function targetMeasures(
  actor: Actor.Implementation,
  targets: readonly TokenLike[],
): { melee: Situation; ranged: Situation }[] {
  const rules = worldRules();
  const own = attackerToken(actor);
  const melee = measuredSituations(rules, own, targets, false);
  const ranged = measuredSituations(rules, own, targets, true);
  return targets.map((_, i) => ({ melee: melee[i] ?? {}, ranged: ranged[i] ?? {} }));
}

/** The situation keys the table measured for every target: the card's own situation leaves them to the targets. */
function measuredKeys(measured: readonly Situation[], count: number): string[] {
  if (measured.length < count || count === 0) return [];
  return Object.keys(measured[0]).filter((k) => measured.every((m) => m[k] !== undefined));
}

/**
 * Attack from a sheet: one situation dialog, then one card per weapon (a single weapon, or every
 * wielded weapon of a Miniatures action — one attack per weapon). The table's measures are taken
 * per target before the dialog, which shows them and the odds under them; each target's card
 * entry carries its own (its range, gang-up, contact), over the dialog's situation.
 */
export async function startAttackFlow(
  actor: Actor.Implementation,
  weaponIds: (string | null)[] | string | null,
  opts: { fastForward?: boolean } = {},
): Promise<void> {
  const ids = Array.isArray(weaponIds) ? weaponIds : [weaponIds];
  const weaponId = ids[0] ?? null;
  const targets = [...(game.user!.targets as unknown as Set<TokenLike & { document: TokenLike }>)]
    .map((t) => t.document ?? t)
    .filter((t) => t.actor && t.actor !== actor);
  if (!targets.length) throw new RulesError("targets", "FUDGE.Error.NoTargets", "target at least one token");
  const rules = worldRules();
  const isRanged = (id: string | null) =>
    !!(id ? (actor.items.get(id)?.system as { ranged?: boolean } | undefined)?.ranged : false);
  const weaponDoc = weaponId
    ? (((plainActor(actor).items ?? []).find((i) => i._id === weaponId) as ItemDoc<"weapon"> | undefined) ?? null)
    : null;
  const own = attackerToken(actor);
  const targetDocs = targets.map((t) => plainActor(t.actor!));
  const measured = measuredSituations(rules, own, targets, isRanged(weaponId));
  const situation = await attackSituationDialog(
    plainActor(actor),
    weaponDoc,
    targetDocs,
    rules,
    opts.fastForward,
    measured,
  );
  if (situation === null) return;
  for (const id of ids) {
    // A Miniatures action's weapons are all of one kind; measured again only if this one's kind differs.
    const perTarget =
      isRanged(id) === isRanged(weaponId) ? measured : measuredSituations(rules, own, targets, isRanged(id));
    // What the table measures replaces the dialog's (a remembered range…): the card's situation leaves it to each target.
    const shared: Situation = { ...situation };
    for (const k of measuredKeys(perTarget, targets.length)) delete shared[k];
    // Every die a Foundry Roll on this (the attacker's) client; the faces go to the rules core.
    // Fudge §4.64: whether each target began the round Incapacitated is the GM's round-start record (shown on the card; Apply reads it again).
    const { card, rolls } = await rollAttack(
      (dice) =>
        actions.startAttack(plainActor(actor), id, targetDocs, shared, dice, rules, userRef(), perTarget, {
          roundStart: tableRoundStart,
        }),
      foundryRoller,
    );
    card.targets.forEach((t, i) => (t.tokenId = String(targets[i].id)));
    await postAttackCard(actor, card, rolls);
  }
}

/**
 * Posts an attack card with its Rolls. FATE: if the attacker rolled while Clipped, that roll was
 * his "next action": his own client then resets the box and records the roll on him
 * (src/system/clipped.ts), before his next attack is rolled.
 */
export async function postAttackCard(
  actor: Actor.Implementation,
  card: AttackCardData,
  rolls: readonly Roll[],
): Promise<ChatMessage.Implementation> {
  const message = (await postWithRolls(
    { type: "attackCard", system: card, speaker: ChatMessage.getSpeaker({ actor }) },
    rolls,
  )) as ChatMessage.Implementation;
  const messageId = String(message?.id ?? "");
  try {
    await changeActor(actor, (doc) =>
      attackClippedUpdate(doc, worldRules(), userRef(), messageId, Date.now(), cardCreatedAt(message)),
    );
  } catch (e) {
    reportError(e, actor.name);
  }
  return message;
}

// ─── Card rendering and buttons ────────────────────────────────────────────────────────

/** The message's author as the server vouches for it (a player cannot post as another user). */
function authorOf(message: ChatMessage.Implementation): actions.UserRef | null {
  const a = (message as unknown as { author?: { id: string | null; isGM: boolean } | null }).author;
  return a?.id ? userRef(a) : null;
}

/**
 * The card's data, checked against the card limits (src/system/integrity.ts), with `userId`
 * taken from the message's author: what the card itself says about its user is ignored.
 */
function cardData(message: ChatMessage.Implementation): AttackCardData {
  return checkCard(unchecked(message));
}

/** The card's stored data as plain data with the author's `userId`, not yet checked (the render model checks it once). */
function unchecked(message: ChatMessage.Implementation): unknown {
  const sys = message.system as unknown as { toObject?: () => unknown };
  const raw = sys.toObject ? sys.toObject() : foundry.utils.deepClone(sys);
  return raw !== null && typeof raw === "object" && !Array.isArray(raw)
    ? { ...raw, userId: authorOf(message)?.id ?? "" }
    : raw;
}

/**
 * When the card was posted as Foundry's server stamped it (`_stats.createdTime`, a field the server
 * manages and no client can set: v13 DocumentStatsField.managedFields), or undefined: the logs'
 * horizons compare it (src/system/message-log.ts).
 */
function cardCreatedAt(message: ChatMessage.Implementation): number | undefined {
  const t = (message as unknown as { _stats?: { createdTime?: unknown } })._stats?.createdTime;
  return typeof t === "number" && Number.isFinite(t) && t > 0 ? t : undefined;
}

/** When the card was posted (the message's timestamp): its attacker counts as he rolled (integrity.ts attackerAsPosted). */
function postedAt(message: ChatMessage.Implementation): number | undefined {
  const at = (message as unknown as { timestamp?: unknown }).timestamp;
  return typeof at === "number" && at > 0 ? at : undefined;
}

function actorByRef(ref: string): Actor.Implementation | null {
  const a = fromUuidSync(ref) as unknown;
  return a && (a as { documentName?: string }).documentName === "Actor" ? (a as Actor.Implementation) : null;
}

/**
 * Fills a system card (attack or trait roll) into the message element core built, from the
 * card's data (re-derived on every render), and wires its buttons. Awaited by
 * FudgeChatMessage#renderHTML, so the chat log inserts and scrolls the card filled (FOUNDRY-V13.md
 * "Rendering a card"). A user who may not see the roll's content (a GM, blind or self roll of
 * someone else: `isContentVisible`) keeps core's "privately rolled" form: no card, no buttons, no odds.
 */
export async function renderCard(message: ChatMessage.Implementation, html: HTMLElement): Promise<void> {
  const type = message.type as string;
  if (type !== "attackCard" && type !== "rollCard") return;
  if (!(message as unknown as { isContentVisible: boolean }).isContentVisible) return;
  const content = html.querySelector<HTMLElement>(".message-content") ?? html;
  try {
    // Cards drawn at start-up may come before the partials are registered.
    await templatesReady();
    const rules = worldRules();
    let rendered: string;
    if (type === "attackCard") {
      // Checked once, by the render model (attackCardContext → checkCard).
      const ctx = attackCardContext({ _id: String(message.id), system: unchecked(message) }, rules, {
        user: userRef(),
        actor: (id) => {
          const a = actorByRef(id);
          return a ? plainActor(a) : undefined;
        },
      });
      rendered = await foundry.applications.handlebars.renderTemplate(tpl(TEMPLATES.attackCard), ctx as never);
    } else {
      const sys = message.system as unknown as { toObject?: () => unknown };
      const ctx = rollCardContext(sys.toObject ? sys.toObject() : foundry.utils.deepClone(sys), rules);
      rendered = await foundry.applications.handlebars.renderTemplate(tpl(TEMPLATES.rollCard), ctx as never);
    }
    content.innerHTML = rendered;
    if (type === "attackCard") {
      wireCard(message, content);
      restoreCardFocus(message, content);
    }
  } catch (e) {
    // A malformed or oversized card is a RulesError: the card says so; anything else is a bug (the console keeps it).
    if (!isRulesError(e)) console.error(`${SYSTEM_ID} | card render`, e);
    content.innerHTML = `<p class="fudge-card-error">${esc(loc(isRulesError(e) ? e.key : "FUDGE.Error.Card.RenderFailed"))}</p>`;
  }
}

/** After a card button's click re-renders the card, keyboard focus goes to that target's next action. */
let focusAfterRender: { messageId: string; index: string } | null = null;

function restoreCardFocus(message: ChatMessage.Implementation, root: HTMLElement): void {
  if (!focusAfterRender || focusAfterRender.messageId !== message.id) return;
  // The card is drawn before the chat log puts it in the page: focus it once it is there.
  if (!root.isConnected) {
    setTimeout(() => root.isConnected && restoreCardFocus(message, root), 0);
    return;
  }
  const section = root.querySelector<HTMLElement>(
    `.fudge-target[data-target-index="${CSS.escape(focusAfterRender.index)}"]`,
  );
  const next =
    section?.querySelector<HTMLElement>("button[data-action]:not([disabled])") ??
    root.querySelector<HTMLElement>("button[data-action]:not([disabled])");
  if (next) {
    next.focus({ preventScroll: true });
    focusAfterRender = null;
  }
}

function wireCard(message: ChatMessage.Implementation, root: HTMLElement): void {
  root.querySelectorAll<HTMLElement>("[data-action]").forEach((el) => {
    el.addEventListener("click", (ev) => {
      ev.preventDefault();
      const section = el.closest<HTMLElement>(".fudge-target[data-target-index]");
      if (section && message.id) focusAfterRender = { messageId: message.id, index: section.dataset.targetIndex ?? "" };
      // The card re-renders after the update; until then the button stays disabled.
      if (el instanceof HTMLButtonElement) el.disabled = true;
      const action = el.dataset.action ?? "";
      const holder = el.closest<HTMLElement>("[data-target-id],[data-actor-id]") ?? el;
      const index = Number(el.dataset.targetIndex ?? holder.dataset.targetIndex);
      const targetId =
        holder.dataset.targetId ?? holder.dataset.actorId ?? cardData(message).targets[index]?.actorId ?? "";
      const done = () => {
        if (el instanceof HTMLButtonElement && el.isConnected) el.disabled = false;
      };
      const run = async (): Promise<void> => {
        if (action === "defend" || action === "apply" || action === "undo")
          return clickCardAction(message, action, targetId, el.dataset.force === "true");
        if (action === "applyFudgePoint") return clickCardAction(message, "apply", targetId, false, true);
        if (action === "applyJudgement") {
          const level = section?.querySelector<HTMLSelectElement>('select[name="gmLevel"]')?.value ?? "";
          return clickJudgement(message, targetId, level);
        }
        if (action === "applySelected") return applyToSelected(message);
        if (action === "applyAll") return applyToAll(message);
        if (action === "gutsFriends") return gutsForFriends(message);
      };
      run()
        .finally(done)
        .catch((e) => reportError(e)); // a listener cannot wait: the button comes back, a failure is reported
    });
  });
}

/** A click on Defend / Apply / Undo: carried out here, or relayed to the active GM. */
export async function clickCardAction(
  message: ChatMessage.Implementation,
  action: CardAction,
  targetId: string,
  force = false,
  spendFudgePoint = false,
): Promise<void> {
  try {
    const target = actorByRef(targetId);
    if (!target) throw new RulesError("target", "FUDGE.Error.Relay.ActorGone", "the target is no longer in this world");
    const card = cardData(message);
    const t = card.targets.find((x) => x.actorId === targetId);
    const user = userRef();
    const verdict = actions.authorize(action, user, plainActor(target), card, t, String(message.id));
    const route = routeCardAction(verdict, message.isOwner, user.isGM);
    if (route === "refuse") throw actions.refusal(action, target.name);
    if (route === "local") return await performCardAction(message, action, target, user, { force, spendFudgePoint });
    const gm = game.users!.activeGM;
    if (!gm)
      throw new RulesError("user", "FUDGE.Error.Relay.NoGM", "no GM is connected to do this", { name: target.name });
    await relay({ messageId: String(message.id), action, targetId, force, spendFudgePoint }, gm, target.name);
  } catch (e) {
    reportError(e);
  }
}

/**
 * Asks the active GM's client to carry out a card action. The request goes first into this
 * user's own flags (which only he and GMs may write: that is how the GM's client knows who
 * asked, see src/system/relay.ts), then the query names it; the GM's client removes it as it runs it.
 */
async function relay(request: RelayRequest, gm: User.Implementation, name: string): Promise<void> {
  const me = game.user!;
  const requestId = foundry.utils.randomID(16);
  // Written with the server's time; expired and surplus requests of this user go in the same write.
  const add = { id: requestId, request: { ...requestOf(request), at: serverNow() } };
  const written = relayRequestsUpdate(me.flags, serverNow(), { add }).update;
  if (written) await me.update(toCore(written) as never);
  try {
    type Reply = { ok: boolean; key?: string; params?: Record<string, string> } | null;
    let reply: Reply;
    try {
      reply = (await gm.query(
        QUERIES[request.action] as never,
        { ...requestOf(request), requestId, userId: me.id } as never,
        { timeout: 15_000 } as never,
      )) as Reply;
    } catch (e) {
      // A timeout or a GM who left: the player reads a sentence, the console keeps the cause.
      console.warn(`${SYSTEM_ID} | relay`, e);
      throw new RulesError("relay", "FUDGE.Error.Relay.NoAnswer", "the GM's client did not answer", { name });
    }
    if (!reply?.ok)
      throw new RulesError(
        "relay",
        reply?.key ?? "FUDGE.Error.Relay.Refused",
        "the GM's client refused this",
        reply?.params ?? {},
      );
  } finally {
    // The GM's client removes a request it runs; one it never saw (no answer) is removed here.
    // Not awaited: the answer is in; the removal need not hold the click (a failure is reported).
    const left = relayRequestsUpdate(me.flags, serverNow(), { remove: requestId });
    const stillThere = Object.hasOwn(
      ((me.flags as Record<string, Record<string, object>>)[SYSTEM_ID] ?? {})[RELAY_FLAG] ?? {},
      requestId,
    );
    if (stillThere && left.update) me.update(toCore(left.update) as never).catch((e) => reportError(e)); // see above
  }
}

/** Rolls the defender's slot (Fudge: 4dF) as a Foundry Roll on this client. */
async function defenceRoll(card: AttackCardData, targetId: string): Promise<SlotRoll<Roll>> {
  const t = card.targets.find((x) => x.actorId === targetId);
  if (!t) throw new RulesError("target", "FUDGE.Error.NotATarget", "not a target of this attack");
  const p = pipelineFor((t.request as { preset?: unknown }).preset);
  const slot = p.slots(p.parseRequest(t.request)).find((s) => actions.isDefenderSlot(s.id));
  if (!slot) throw new RulesError("defend", "FUDGE.Error.NoDefenseRoll", "this attack has no defence roll");
  return rollSlot(slot, foundryRoller);
}

/**
 * Carries out a card action as `user` (the clicking user, or on the GM's client the requester
 * the relay confirmed, with `relayed`: src/system re-checks the permission for that user). Runs
 * in the target actor's write lane, so it reads the target, its wound log and the card as they
 * are once every earlier write to that actor on this client has landed.
 */
export async function performCardAction(
  message: ChatMessage.Implementation,
  action: CardAction,
  target: Actor.Implementation,
  user: actions.UserRef,
  opts: { relayed?: boolean; force?: boolean; spendFudgePoint?: boolean } = {},
): Promise<void> {
  await writeQueue(actorLane(target), () => runCardAction(message, action, target, user, opts));
}

/**
 * Writes one target of a card (and any new rolls): the card is read again in its own lane so two
 * targets' writes cannot undo each other.
 */
async function writeCardTarget(
  message: ChatMessage.Implementation,
  actorId: string,
  update: actions.CardUpdate,
  newRolls: Roll[] = [],
): Promise<void> {
  const next = update.system.targets.find((t) => t.actorId === actorId);
  if (!next) return;
  await writeQueue(`message:${message.id}`, async () => {
    const fresh = cardData(message);
    const targets = fresh.targets.map((t) => (t.actorId === actorId ? next : t));
    const rolls = newRolls.length
      ? { rolls: [...((message as unknown as { rolls?: Roll[] }).rolls ?? []), ...newRolls] }
      : {};
    await message.update({ system: { targets }, ...rolls } as never);
  });
}

async function runCardAction(
  message: ChatMessage.Implementation,
  action: CardAction,
  target: Actor.Implementation,
  user: actions.UserRef,
  opts: { relayed?: boolean; force?: boolean; spendFudgePoint?: boolean },
): Promise<void> {
  const card = cardData(message);
  const doc: ActorDoc = plainActor(target);
  const ref = doc.uuid ?? doc._id;
  const rules = worldRules();
  const messageId = String(message.id);
  const posted = cardCreatedAt(message);
  if (action === "defend") {
    // One defence roll per card and target, whatever the card's author later writes on his card.
    checkDefendable(doc, messageId, posted);
    const roll = await defenceRoll(card, ref);
    const u = actions.defend(card, doc, roll.faces, user, { relayed: opts.relayed });
    // The roll is kept on the defender, where the card's author cannot rewrite it; Apply reads it there.
    // FATE: a roll made while Clipped resets the box in the same write (src/system/clipped.ts).
    await updateActor(
      target,
      defenceRollUpdate(doc, rules, { messageId, faces: roll.faces, by: user.id, at: Date.now(), posted }),
    );
    // The defence Roll joins the card's rolls (for other modules and the roll tooltip).
    await writeCardTarget(message, ref, u, roll.rolls);
    await showRolls(roll.rolls);
    return;
  }
  if (action === "apply") {
    const t = card.targets.find((x) => x.actorId === ref);
    if (!t)
      throw new RulesError("target", "FUDGE.Error.NotATarget", `${doc.name} is not a target of this attack`, {
        name: doc.name,
      });
    // The integrity rule: the result comes from the live attacker (owned by the message's author)
    // and the live target under the world's rules, with the card's recorded dice — never the card's claim.
    const attacker = actorByRef(card.attackerId);
    // Fudge §4.64: the defender's round start as the GM's client recorded it on the live combat.
    const live = rederiveTarget(
      card,
      t,
      {
        attacker: attacker ? plainActor(attacker) : null,
        defender: doc,
        author: authorOf(message),
        defenceFaces: defenceFacesOf(doc, messageId),
        messageId,
        postedAt: postedAt(message),
        roundStart: tableRoundStart(doc),
      },
      rules,
    );
    const r = actions.applyDamage(card, doc, user, rules, {
      relayed: opts.relayed,
      spendFudgePoint: opts.spendFudgePoint,
      messageId,
      posted,
      resolution: live.resolution,
      differs: live.differs,
    });
    await updateActor(target, r.actorUpdate);
    await writeCardTarget(message, ref, r.cardUpdate);
    // Miniatures: a new wound level forces a Guts check at once.
    await gutsAfterWound(
      target,
      live.resolution.followUps.map((f) => ({ ...f })),
    );
    return;
  }
  const r = actions.undoDamage(card, doc, user, rules, { relayed: opts.relayed, force: opts.force, messageId });
  await updateActor(target, r.actorUpdate);
  await writeCardTarget(message, ref, r.cardUpdate);
}

/**
 * GM judgement (Fudge §4.55): the GM's pick on the card, carried out on the GM's own client —
 * never relayed, since it is no one else's call. The level is what the GM chose in the card's
 * picker; the Situational 4dF (the world's option) is rolled here, after the pick.
 */
export async function clickJudgement(
  message: ChatMessage.Implementation,
  targetId: string,
  level: string,
): Promise<void> {
  try {
    const target = actorByRef(targetId);
    if (!target) throw new RulesError("target", "FUDGE.Error.Relay.ActorGone", "the target is no longer in this world");
    const user = userRef();
    if (!user.isGM)
      throw new RulesError("user", "FUDGE.Error.GmJudgement.GmOnly", "only the GM picks the wound", {
        name: target.name,
      });
    await writeQueue(actorLane(target), () => runJudgement(message, target, user, level));
  } catch (e) {
    reportError(e);
  }
}

async function runJudgement(
  message: ChatMessage.Implementation,
  target: Actor.Implementation,
  user: actions.UserRef,
  level: string,
): Promise<void> {
  const card = cardData(message);
  const doc: ActorDoc = plainActor(target);
  const ref = doc.uuid ?? doc._id;
  const rules = worldRules();
  const messageId = String(message.id);
  const t = card.targets.find((x) => x.actorId === ref);
  if (!t)
    throw new RulesError("target", "FUDGE.Error.NotATarget", `${doc.name} is not a target of this attack`, {
      name: doc.name,
    });
  const attacker = actorByRef(card.attackerId);
  // The integrity rule, as for Apply: live attacker and defender, the recorded dice, the defence roll kept on the defender.
  const sides = {
    attacker: attacker ? plainActor(attacker) : null,
    defender: doc,
    author: authorOf(message),
    defenceFaces: defenceFacesOf(doc, messageId),
    messageId,
  };
  // Nothing is rolled for a target that is not awaiting the GM's judgement (rederiveTarget refuses it then).
  if (rederiveTarget(card, t, sides, rules).resolution.outcome !== "gmJudgement")
    throw new RulesError(
      "gmLevel",
      "FUDGE.Error.GmJudgement.NotPending",
      `${doc.name}'s wound is not the GM's to judge`,
      { name: doc.name },
    );
  const slot = actions.gmRollSlot(rules);
  const roll = slot ? await rollSlot(slot, foundryRoller) : null;
  const pick = roll ? { level, situational: roll.faces } : { level };
  const live = rederiveTarget(card, t, { ...sides, gm: pick }, rules);
  const r = actions.judgeWound(card, doc, user, rules, pick, {
    messageId,
    posted: cardCreatedAt(message),
    resolution: live.resolution,
    differs: live.differs,
  });
  if (r.actorUpdate) await updateActor(target, r.actorUpdate);
  await writeCardTarget(message, ref, r.cardUpdate, roll?.rolls ?? []);
  if (roll) await showRolls(roll.rolls, false);
  await gutsAfterWound(
    target,
    live.resolution.followUps.map((f) => ({ ...f })),
  );
}

/** "Apply to all targets": each target's own Apply, one after the other (each checked as a single click is). */
export async function applyToAll(message: ChatMessage.Implementation): Promise<void> {
  for (const t of cardData(message).targets) {
    const res = t.resolution as { wound?: unknown } | null;
    if (!res || res.wound === null || res.wound === undefined || actions.liveApplied(t)) continue;
    await clickCardAction(message, "apply", t.actorId);
  }
}

/** GM toggle "apply to selected tokens" (dnd5e-style): each selected token that is a target of this card. */
export async function applyToSelected(message: ChatMessage.Implementation): Promise<void> {
  const card = cardData(message);
  const selected = (canvas?.tokens?.controlled ?? []) as unknown as { actor: Actor.Implementation | null }[];
  if (!selected.length)
    return reportError(new RulesError("selected", "FUDGE.Error.NoSelection", "select tokens first"));
  for (const tok of selected) {
    const a = tok.actor;
    if (!a) continue;
    if (!card.targets.some((t) => t.actorId === a.uuid)) {
      ui.notifications!.warn(game.i18n!.format("FUDGE.Error.NotATarget", { name: a.name }));
      continue;
    }
    await clickCardAction(message, "apply", a.uuid);
  }
}

/**
 * Miniatures: Guts — "a friend shoots into the combat" (target 0). The card of a shot into a
 * melee offers the GM one button: each token the GM has selected that is a friend of the shooter
 * in that melee checks Guts, with its own Roll and note, under its own circumstances; the others
 * are named with the reason (friendGutsRoster). The shot is re-derived from the live shooter and
 * the recorded dice (a card's claim is not enough), and each model remembers the shots it has
 * checked for, so a second click rolls nothing again.
 */
export async function gutsForFriends(message: ChatMessage.Implementation): Promise<void> {
  try {
    if (!game.user?.isGM)
      throw new RulesError("user", "FUDGE.Error.GutsFriends.GmOnly", "only the GM runs these checks");
    const card = cardData(message);
    const rules = worldRules();
    const attacker = actorByRef(card.attackerId);
    const shot = card.targets.find((t) => {
      const defender = actorByRef(t.actorId);
      if (!defender || !t.resolution) return false;
      const live = rederiveTarget(
        card,
        t,
        {
          attacker: attacker ? plainActor(attacker) : null,
          defender: plainActor(defender),
          author: authorOf(message),
          defenceFaces: defenceFacesOf(plainActor(defender), String(message.id)),
          postedAt: postedAt(message),
        },
        rules,
      );
      return live.resolution.followUps.some(isFriendsInMelee);
    });
    if (!shot) throw new RulesError("card", "FUDGE.Error.GutsFriends.NoShot", "this card is not a shot into a melee");
    const selected = (
      (canvas?.tokens?.controlled ?? []) as unknown as { document?: TokenLike; actor: Actor.Implementation | null }[]
    )
      .map((p) => p.document ?? (p as unknown as TokenLike))
      .filter((t) => !!t.actor);
    if (!selected.length) throw new RulesError("selected", "FUDGE.Error.NoSelection", "select tokens first");
    const own = attacker ? ((attacker.getActiveTokens(false, true) as unknown as TokenLike[])[0] ?? null) : null;
    const messageId = String(message.id);
    const candidates: (FriendGutsCandidate & { doc: Actor.Implementation })[] = selected.map((t) => ({
      id: String(t.id),
      ref: t.actor!.uuid,
      actor: plainActor(t.actor!),
      disposition: t.disposition,
      doc: t.actor!,
    }));
    const roster = friendGutsRoster(
      { ref: card.attackerId, disposition: own ? own.disposition : null },
      card.targets.map((t) => t.actorId),
      candidates,
      rules,
      (c) => friendGutsRecord(flagsOf(c.actor)).includes(messageId),
    );
    for (const s of roster.skipped)
      ui.notifications!.warn(game.i18n!.format(`FUDGE.GutsFriends.Skip.${s.reason}`, { name: s.name }));
    const lead = game.i18n!.format("FUDGE.GutsFriends.Lead", { name: attacker?.name ?? "" });
    const turn = combatTurn(game.combat?.round);
    for (const c of roster.check as typeof candidates) {
      const record = withFriendGutsRecord(friendGutsRecord(flagsOf(c.actor)), messageId);
      await writeQueue(actorLane(c.doc), () =>
        runGutsChecks(c.doc, [{ target: GUTS_TARGETS.friendShoots, reason: "friendShoots" }], turn, {
          lead,
          update: { flags: { [SYSTEM_ID]: { friendShotGuts: record } } },
        }),
      );
    }
  } catch (e) {
    reportError(e);
  }
}

const isFriendsInMelee = (f: { type: string; params: Record<string, unknown> }) =>
  f.type === "gutsCheck" && f.params.who === "friendsInMelee";
const flagsOf = (a: ActorDoc) => (a.flags?.[SYSTEM_ID] ?? {}) as Record<string, unknown>;
