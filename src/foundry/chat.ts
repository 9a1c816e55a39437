/**
 * The attack-card loop in Foundry: Attack (sheet) → card with captured targets → Defend →
 * Apply → Undo. Every step is a src/system action on plain data; this file only gathers
 * tokens and dice, renders the card template, and persists updates (directly, or through the
 * GM relay when the clicking user may not write them).
 */
import { isRulesError, RulesError } from "../rules/errors";
import { pipelineFor } from "../rules/pipeline";
import * as actions from "../system/actions";
import { attackCardContext, rollCardContext } from "../system/card";
import type { ActorDoc, AttackCardData, ItemDoc } from "../system/data";
import { attackSituationDialog } from "./dialogs";
import { TEMPLATES } from "../system/handlebars";
import { plainActor, updateActor, worldRules } from "./bridge";
import { gutsAfterWound } from "./combat";
import { reportError, rng, userRef } from "./foundry-util";
import { QUERIES, SYSTEM_ID } from "./registry";
import { routeCardAction, type CardAction } from "./relay-pure";
import { gangUpCount, inContactWithEnemy, type TokenBox } from "./table-pure";

const tpl = (p: string) => `systems/${SYSTEM_ID}/${p}`;
const esc = (s: unknown) => foundry.utils.escapeHTML(String(s ?? ""));
const loc = (k: string) => game.i18n!.localize(k);

type TokenLike = { id: string | null; x: number; y: number; width: number; height: number; disposition: number; actor: Actor.Implementation | null; center?: { x: number; y: number } };

function tokenBox(t: TokenLike): TokenBox {
  const size = canvas?.grid?.size ?? 100;
  return { id: String(t.id), x: t.x / size, y: t.y / size, w: t.width, h: t.height, disposition: t.disposition };
}

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
  const grid = canvas?.grid as unknown as { measurePath?: (w: { x: number; y: number }[]) => { distance: number } } | undefined;
  return grid?.measurePath ? grid.measurePath([ca, cb]).distance : null;
}

// ─── Attack ─────────────────────────────────────────────────────────────────────────────

/** Attack with a weapon (or unarmed) against the user's targeted tokens. */
/**
 * Attack from a sheet: one situation dialog, then one card per weapon (a single weapon, or every
 * wielded weapon of a Miniatures action — one attack per weapon).
 */
export async function startAttackFlow(actor: Actor.Implementation, weaponIds: (string | null)[] | string | null, opts: { fastForward?: boolean } = {}): Promise<void> {
  const ids = Array.isArray(weaponIds) ? weaponIds : [weaponIds];
  const weaponId = ids[0] ?? null;
  const targets = [...(game.user!.targets as unknown as Set<TokenLike & { document: TokenLike }>)].map((t) => t.document ?? t).filter((t) => t.actor && t.actor !== actor);
  if (!targets.length) throw new RulesError("targets", "FUDGE.Error.NoTargets", "target at least one token");
  const rules = worldRules();
  const weapon = weaponId ? (actor.items.get(weaponId)?.system as { stunCapable?: boolean; ranged?: boolean } | undefined) ?? null : null;
  const weaponDoc = weaponId ? ((plainActor(actor).items ?? []).find((i) => i._id === weaponId) as ItemDoc<"weapon"> | undefined) ?? null : null;
  const situation = await attackSituationDialog(plainActor(actor), weaponDoc, targets.map((t) => plainActor(t.actor!)), rules, opts.fastForward);
  if (situation === null) return;
  const own = attackerToken(actor);
  if (rules.preset === "miniatures" && own) {
    // Miniatures: gang-up from the table, range from token distance, contact from adjacent enemies.
    const tokens = sceneTokens();
    const first = targets[0];
    if (rules.miniatures.gangUp) situation.gangUp = gangUpCount(tokenBox(own), tokenBox(first), tokens.map(tokenBox));
    if (weapon?.ranged && rules.miniatures.rangeFromDistance) {
      const d = tokenDistance(own, first);
      if (d !== null) situation.rangeInches = Math.max(0, Math.round(d * 10) / 10);
    }
    situation.inContact = inContactWithEnemy(tokenBox(own), tokens.map(tokenBox));
  } else if (rules.preset === "volt" && own && weapon?.ranged) {
    // Volt: a ranged attack rolls against the distance value instead of Guard.
    const d = tokenDistance(own, targets[0]);
    if (d !== null) situation.distance = Math.round(d);
  }
  const targetDocs = targets.map((t) => plainActor(t.actor!));
  for (const id of ids) {
    const card = actions.startAttack(plainActor(actor), id, targetDocs, situation, rng, rules, userRef());
    card.targets.forEach((t, i) => (t.tokenId = String(targets[i].id)));
    await ChatMessage.create({ type: "attackCard", system: card, speaker: ChatMessage.getSpeaker({ actor }) } as never);
  }
}

// ─── Card rendering and buttons ────────────────────────────────────────────────────────

function cardData(message: ChatMessage.Implementation): AttackCardData {
  const sys = message.system as unknown as { toObject?: () => unknown };
  return (sys.toObject ? sys.toObject() : foundry.utils.deepClone(sys)) as AttackCardData;
}

function actorByRef(ref: string): Actor.Implementation | null {
  const a = fromUuidSync(ref) as unknown;
  return a && (a as { documentName?: string }).documentName === "Actor" ? (a as Actor.Implementation) : null;
}

/** renderChatMessageHTML: draws the system's cards from their data (re-derived on every render) and wires their buttons. */
export function onRenderChatMessage(message: ChatMessage.Implementation, html: HTMLElement): void {
  const type = message.type as string;
  if (type !== "attackCard" && type !== "rollCard") return;
  const content = html.querySelector<HTMLElement>(".message-content") ?? html;
  void (async () => {
    try {
      const rules = worldRules();
      let rendered: string;
      if (type === "attackCard") {
        const ctx = attackCardContext({ _id: String(message.id), system: cardData(message) }, rules, {
          user: userRef(),
          actor: (id) => {
            const a = actorByRef(id);
            return a ? plainActor(a) : undefined;
          },
        });
        rendered = await foundry.applications.handlebars.renderTemplate(tpl(TEMPLATES.attackCard), ctx as never);
      } else {
        const ctx = rollCardContext(message.system as unknown as actions.RollCardData, rules);
        rendered = await foundry.applications.handlebars.renderTemplate(tpl(TEMPLATES.rollCard), ctx as never);
      }
      content.innerHTML = rendered;
      if (type === "attackCard") {
        wireCard(message, content);
        restoreCardFocus(message, content);
      }
    } catch (e) {
      console.error(`${SYSTEM_ID} | card render`, e);
      content.innerHTML = `<p class="fudge-card-error">${esc(isRulesError(e) ? loc(e.key) : String(e))}</p>`;
    }
  })();
}

/** After a card button's click re-renders the card, keyboard focus goes to that target's next action. */
let focusAfterRender: { messageId: string; index: string } | null = null;

function restoreCardFocus(message: ChatMessage.Implementation, root: HTMLElement): void {
  if (!focusAfterRender || focusAfterRender.messageId !== message.id) return;
  const section = root.querySelector<HTMLElement>(`.fudge-target[data-target-index="${CSS.escape(focusAfterRender.index)}"]`);
  const next = section?.querySelector<HTMLElement>("button[data-action]:not([disabled])") ?? root.querySelector<HTMLElement>("button[data-action]:not([disabled])");
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
      const targetId = holder.dataset.targetId ?? holder.dataset.actorId ?? cardData(message).targets[index]?.actorId ?? "";
      const done = () => {
        if (el instanceof HTMLButtonElement && el.isConnected) el.disabled = false;
      };
      if (action === "defend" || action === "apply" || action === "undo") void clickCardAction(message, action, targetId, el.dataset.force === "true").finally(done);
      else if (action === "applyFudgePoint") void clickCardAction(message, "apply", targetId, false, true).finally(done);
      else if (action === "applySelected") void applyToSelected(message).finally(done);
      else if (action === "applyAll") void applyToAll(message).finally(done);
      else done();
    });
  });
}

/** A click on Defend / Apply / Undo: carried out here, or relayed to the active GM. */
export async function clickCardAction(message: ChatMessage.Implementation, action: CardAction, targetId: string, force = false, spendFudgePoint = false): Promise<void> {
  try {
    const target = actorByRef(targetId);
    if (!target) throw new RulesError("target", "FUDGE.Error.Relay.ActorGone", "the target is no longer in this world");
    const card = cardData(message);
    const t = card.targets.find((x) => x.actorId === targetId);
    const user = userRef();
    const verdict = actions.authorize(action, user, plainActor(target), card, t);
    const route = routeCardAction(verdict, message.isOwner, user.isGM);
    if (route === "refuse") throw new RulesError("user", "FUDGE.Error.NotPermitted", `you may not ${action} on ${target.name}`, { action, name: target.name });
    if (route === "local") return await performCardAction(message, action, target, user, { force, spendFudgePoint });
    const gm = game.users!.activeGM;
    if (!gm) throw new RulesError("user", "FUDGE.Error.Relay.NoGM", "no GM is connected to do this");
    const reply = (await gm.query(QUERIES[action] as never, { messageId: message.id, action, targetId, force, spendFudgePoint } as never, { timeout: 15_000 } as never)) as { ok: boolean; key?: string; params?: Record<string, string> } | null;
    if (!reply?.ok) throw new RulesError("relay", reply?.key ?? "FUDGE.Error.Relay.Refused", "the GM's client refused this", reply?.params ?? {});
  } catch (e) {
    reportError(e);
  }
}

/** Rolls the defender's slot with Foundry's random source (Fudge: 4dF). */
function defenceFaces(card: AttackCardData, targetId: string): number[] {
  const t = card.targets.find((x) => x.actorId === targetId);
  if (!t) throw new RulesError("target", "FUDGE.Error.NotATarget", "not a target of this attack");
  const p = pipelineFor((t.request as { preset?: unknown }).preset);
  const slot = p.slots(p.parseRequest(t.request)).find((s) => actions.isDefenderSlot(s.id));
  if (!slot) throw new RulesError("defend", "FUDGE.Error.NoDefenseRoll", "this attack has no defence roll");
  return slot.roll(rng);
}

/**
 * Carries out a card action as `user` (the clicking user, or the requester on the GM's client
 * with `relayed`: src/system re-checks the permission for that user either way).
 */
export async function performCardAction(
  message: ChatMessage.Implementation,
  action: CardAction,
  target: Actor.Implementation,
  user: actions.UserRef,
  opts: { relayed?: boolean; force?: boolean; spendFudgePoint?: boolean } = {},
): Promise<void> {
  // One action per card target at a time on this client (the GM's client for relays): a second
  // quick click reads the card after the first has written it, so Apply twice is refused.
  const key = `${message.id}:${target.uuid}`;
  if (inFlight.has(key)) throw new RulesError("card", "FUDGE.Error.Busy", "this card is being updated");
  inFlight.add(key);
  try {
    await runCardAction(message, action, target, user, opts);
  } finally {
    inFlight.delete(key);
  }
}

const inFlight = new Set<string>();

async function runCardAction(message: ChatMessage.Implementation, action: CardAction, target: Actor.Implementation, user: actions.UserRef, opts: { relayed?: boolean; force?: boolean; spendFudgePoint?: boolean }): Promise<void> {
  const card = cardData(message);
  const doc: ActorDoc = plainActor(target);
  const rules = worldRules();
  if (action === "defend") {
    const u = actions.defend(card, doc, defenceFaces(card, doc.uuid ?? doc._id), user, { relayed: opts.relayed });
    await message.update(u as never);
    return;
  }
  if (action === "apply") {
    const r = actions.applyDamage(card, doc, user, rules, { relayed: opts.relayed, spendFudgePoint: opts.spendFudgePoint });
    await updateActor(target, r.actorUpdate);
    await message.update(r.cardUpdate as never);
    // Miniatures: a new wound level forces a Guts check at once.
    const t = card.targets.find((x) => x.actorId === (doc.uuid ?? doc._id));
    await gutsAfterWound(target, actions.followUpsOf(t!));
    return;
  }
  const r = actions.undoDamage(card, doc, user, rules, { relayed: opts.relayed, force: opts.force });
  await updateActor(target, r.actorUpdate);
  await message.update(r.cardUpdate as never);
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
  if (!selected.length) return reportError(new RulesError("selected", "FUDGE.Error.NoSelection", "select tokens first"));
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
