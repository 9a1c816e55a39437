/**
 * The chat cards in Foundry: the message class draws the system's cards (attack and trait roll)
 * inside `renderHTML` from their data, and hands each button's click to the card action table
 * (src/system/flows/tables.ts), whose flows run against this client's port (./port.ts). The
 * exports below are the same flows for callers outside a card (the relay, the Quench batches).
 */
import { isRulesError } from "../rules";
import * as flows from "../system/flows";
import { attackCardContext, rollCardContext } from "../system/card";
import type { UserRef } from "../system/permissions";
import type { CardAction } from "../system/relay";
import { TEMPLATES } from "../system/handlebars";
import { SYSTEM_ID } from "../system/registry";
import { plainActor, worldRules } from "./bridge";
import { reportError, userRef } from "./foundry-util";
import { actorByRef, foundryPort, storedCardOf } from "./port";
import { templatesReady } from "./templates";
import { loadCardPresets } from "../system/presets";
import { reportLoadFailure } from "./presets";

const tpl = (p: string) => `systems/${SYSTEM_ID}/${p}`;
const esc = (s: unknown) => foundry.utils.escapeHTML(String(s ?? ""));
const loc = (k: string) => game.i18n!.localize(k);

// ─── Card rendering and buttons ────────────────────────────────────────────────────────

/** The card's stored data as plain data with the author's `userId`, not yet checked (the render model checks it once). */
function unchecked(message: ChatMessage.Implementation): unknown {
  const stored = storedCardOf(message);
  const raw = stored.system;
  return raw !== null && typeof raw === "object" && !Array.isArray(raw)
    ? { ...raw, userId: stored.author?.id ?? "" }
    : raw;
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
    // Cards drawn at start-up may come before the partials are registered, and before the pipeline
    // of the card's preset has loaded (the world's, or an earlier preset's): the card waits for both.
    await templatesReady();
    if (type === "attackCard") await loadCardPresets(storedCardOf(message).system).catch(reportLoadFailure);
    const rules = worldRules();
    let rendered: string;
    const viewer = {
      user: userRef(),
      actor: (id: string) => {
        const a = actorByRef(id);
        return a ? plainActor(a) : undefined;
      },
    };
    if (type === "attackCard") {
      // Checked once, by the render model (attackCardContext → checkCard).
      const ctx = attackCardContext({ _id: String(message.id), system: unchecked(message) }, rules, viewer);
      rendered = await foundry.applications.handlebars.renderTemplate(tpl(TEMPLATES.attackCard), ctx as never);
    } else {
      const sys = message.system as unknown as { toObject?: () => unknown };
      const data = sys.toObject ? sys.toObject() : foundry.utils.deepClone(sys);
      const ctx = rollCardContext(data, rules, viewer, String(message.id));
      rendered = await foundry.applications.handlebars.renderTemplate(tpl(TEMPLATES.rollCard), ctx as never);
    }
    content.innerHTML = rendered;
    // Both cards' buttons run the card action table (a roll card's: an opposed roll's other side).
    wireCard(message, content);
    if (type === "attackCard") restoreCardFocus(message, content);
  } catch (e) {
    // A malformed or oversized card is a RulesError: the card says so; anything else is a bug (the console keeps it).
    if (!isRulesError(e)) console.error(`${SYSTEM_ID} | card render`, e);
    content.innerHTML = `<p class="fudge-card-error">${esc(loc(isRulesError(e) ? e.key : "FUDGE.Error.Card.RenderFailed"))}</p>`;
  }
}

/**
 * A trait roll's card shows the Fudge Point spent on it from its spender's live log (Fudge §1.36,
 * src/system/card.ts withLiveSpend): when an actor's log changes, his roll cards in the chat log
 * are drawn again (v13 ChatLog#updateMessage, as an update of the message itself would).
 */
export function redrawRollCards(actor: Actor.Implementation, changed: unknown): void {
  const sys = (changed as { system?: Record<string, unknown> } | null)?.system;
  if (!sys || !("fudgePointLog" in sys || "==fudgePointLog" in sys)) return;
  const refs = new Set([actor.id, actor.uuid]);
  const chat = ui.chat as unknown as { updateMessage?: (m: ChatMessage.Implementation) => Promise<void> } | undefined;
  for (const m of game.messages ?? []) {
    if ((m.type as string) !== "rollCard") continue;
    const by = (m.system as unknown as { actorId?: string }).actorId;
    if (by && refs.has(by)) chat?.updateMessage?.(m)?.catch((e: unknown) => reportError(e)); // a hook cannot wait
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
      const done = () => {
        if (el instanceof HTMLButtonElement && el.isConnected) el.disabled = false;
      };
      flows
        .runCardAction(foundryPort(), flows.clickOf(el, String(message.id), (ev as MouseEvent).shiftKey === true))
        .finally(done)
        .catch((e) => reportError(e)); // a listener cannot wait: the button comes back, a failure is reported
    });
  });
}

// ─── The same flows for callers outside a card ──────────────────────────────────────────

/**
 * A click on Defend / Apply / Undo (src/system/flows/card.ts): carried out here or relayed; a
 * refusal is reported. A caller outside a card (a macro, a Quench batch) opens no dialog: Defend
 * rolls with the defender's last choices, as Shift-click does.
 */
export async function clickCardAction(
  message: ChatMessage.Implementation,
  action: CardAction,
  targetId: string,
  force = false,
  spendFudgePoint = false,
): Promise<void> {
  try {
    await (
      await flows.loadClicks()
    ).clickCardAction(foundryPort(), String(message.id), action, targetId, {
      force,
      spendFudgePoint,
      fastForward: true,
    });
  } catch (e) {
    reportError(e);
  }
}

/**
 * Carries out a card action as `user` (the clicking user, or on the GM's client the requester
 * the relay confirmed, with `relayed`: src/system re-checks the permission for that user).
 */
export async function performCardAction(
  message: ChatMessage.Implementation,
  action: CardAction,
  target: Actor.Implementation,
  user: UserRef,
  opts: flows.CardActionOptions = {},
): Promise<void> {
  return (await flows.loadClicks()).performCardAction(foundryPort(user), String(message.id), action, target.uuid, opts);
}

/** The GM's pick on a GM-judgement card (Fudge §4.55), on his own client; a refusal is reported. */
export async function clickJudgement(
  message: ChatMessage.Implementation,
  targetId: string,
  level: string,
): Promise<void> {
  try {
    await (await flows.loadClicks()).judge(foundryPort(), String(message.id), targetId, level);
  } catch (e) {
    reportError(e);
  }
}

/** Attack from a sheet with one weapon, or each weapon of a Miniatures action (src/system/flows/attack.ts). */
export async function startAttackFlow(
  actor: Actor.Implementation,
  weaponIds: (string | null)[] | string | null,
  opts: { fastForward?: boolean } = {},
): Promise<void> {
  return (await flows.loadClicks()).attack(
    foundryPort(),
    actor.uuid,
    Array.isArray(weaponIds) ? weaponIds : [weaponIds],
    opts,
  );
}
