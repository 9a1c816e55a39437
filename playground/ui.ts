/**
 * The playground's rendering and host operations: it calls the UI layer's context builders
 * (src/system/sheet.ts, the chat card builders) and renders the system's templates with them.
 * Clicks run the system's flows through the action tables (src/system/flows), against the page's
 * port (playground/port.ts); what is decided here is host things only: the world's settings,
 * documents merged as Foundry's `update` would, the item sheets' plain fields.
 */
import type { Store, ChatDoc, PlainDoc, PlaygroundState } from "./store";
import { i18n } from "./i18n";
import { templateExists, foundryPath, missingPartials, renderTemplate } from "./templates";
import { TEMPLATES } from "../src/system/handlebars";
import { actorSheetContext, itemSheetContext } from "../src/system/sheet";
import { errorText as userErrorText } from "../src/system/error-text";
import { attackCardContext, rollCardContext, rollNoteHtml, type CardViewer } from "../src/system/card";
import { PRESET_GROUPS, applyRulesForm, rulesMenuContext } from "../src/system/settings-menu";
export { addTableRow, removeTableRow } from "../src/system/settings-menu";
import type { ActorDoc, AttackCardData, ItemDoc } from "../src/system/data";
import { battleEndNote, type BattleEndEntry } from "../src/system/battle-end";
import { trackerWound } from "../src/system/tracker-wound";
import type { RollCardData } from "../src/system/flows";
import * as flows from "../src/system/flows";
import { ladderNames, postMessage, rulesOf } from "./world";
export { mergeUpdate, rulesOf } from "./world";

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Pieces the playground needs from the other areas that do not exist yet (shown on the page and to tests). */
export const missingPieces: string[] = [
  ...Object.values(TEMPLATES).filter((p) => !templateExists(foundryPath(`../${p}`))),
  ...missingPartials,
];

// ─── World, user, ladder ────────────────────────────────────────────────────────────────

export function presetLabel(p: string): string {
  const key = `FUDGE.Preset.${p}`;
  return i18n.has(key) ? i18n.localize(key) : p;
}

/** A refused action in plain words (src/system/error-text.ts), naming the actor acted on. */
export function errorText(e: unknown, store?: Store, actorId?: string): string {
  const name = actorId && store ? store.actor(actorId)?.name : undefined;
  return userErrorText(e, i18n, name);
}

function missingPanel(what: string): string {
  return `<div class="pg-missing" data-testid="missing"><p>Not rendered: ${esc(what)} — a piece it needs does not exist yet in this repository.</p><ul>${missingPieces
    .map((m) => `<li><code>${esc(m)}</code></li>`)
    .join("")}</ul></div>`;
}

// ─── Rendering ──────────────────────────────────────────────────────────────────────────

const asActor = (a: PlainDoc) => a as unknown as ActorDoc;

/** Each sheet window's open tab (Foundry keeps it in the application's tabGroups). */
export const activeTabs = new Map<string, string>();

export interface WindowView {
  title: string;
  classes: string[];
  html: string;
}

/** A sheet window: "actorId" (actor sheet) or "actorId/itemId" (item sheet). Null when the document is gone. */
export function renderWindow(key: string, s: PlaygroundState): WindowView | null {
  const [actorId, itemId] = key.split("/");
  const actor = s.actors.find((a) => a._id === actorId);
  if (!actor) return null;
  const rules = rulesOf(s);
  // Foundry v13 ApplicationV2 sheet classes, plus the system's own (from its context).
  const base = ["application", "sheet", "themed", s.theme === "dark" ? "theme-dark" : "theme-light"];
  const names = ladderNames();
  if (itemId) {
    const item = (actor.items ?? []).find((i) => i._id === itemId);
    if (!item) return null;
    const title = `${item.name} (${actor.name})`;
    const path = TEMPLATES[item.type as keyof typeof TEMPLATES];
    if (!path || !templateExists(foundryPath(`../${path}`)))
      return {
        title,
        classes: [...base, "item"],
        html: missingPanel(`the ${item.type} sheet (${path ?? "no template"})`),
      };
    // A weapon picks its skill from its owner's skills (the default stated: the defence default).
    const owner =
      actor.type === "miniature"
        ? undefined
        : {
            skills: (actor.items ?? []).filter((i) => i.type === "skill").map((i) => i.name),
            defaultLevel: Number((actor.system as { defenseDefault?: unknown }).defenseDefault ?? 0),
          };
    const ctx = itemSheetContext(item as unknown as ItemDoc, rules, { editable: true, ladderNames: names, owner });
    return {
      title,
      classes: [...base, "item", ...ctx.cssClass.split(/\s+/).filter(Boolean)],
      html: renderTemplate(path, ctx),
    };
  }
  const path = TEMPLATES[actor.type as keyof typeof TEMPLATES];
  if (!path || !templateExists(foundryPath(`../${path}`)))
    return {
      title: actor.name,
      classes: [...base, "actor"],
      html: missingPanel(`the ${actor.type} sheet (${path ?? "no template"})`),
    };
  const targets = s.targets
    .map((id) => s.actors.find((a) => a._id === id))
    .filter((x): x is PlainDoc => !!x)
    .map(asActor);
  const ctx = actorSheetContext(asActor(actor), rules, {
    editable: true,
    owner: true,
    ladderNames: names,
    targets,
    activeTab: activeTabs.get(key),
    domId: `pg-sheet-${key}`,
    inCombat: s.inCombat === true,
    gm: s.user.isGM,
  });
  return {
    title: actor.name,
    classes: [...base, "actor", ...ctx.cssClass.split(/\s+/).filter(Boolean)],
    html: renderTemplate(path, ctx),
  };
}

export function renderCard(m: ChatDoc, s: PlaygroundState): string {
  const rules = rulesOf(s);
  if (m.type === "attackCard") {
    if (!templateExists(foundryPath(`../${TEMPLATES.attackCard}`))) return missingPanel("the attack card");
    const viewer: CardViewer = {
      user: { id: s.user.id, isGM: s.user.isGM },
      actor: (id) => s.actors.find((a) => a._id === id) as unknown as ActorDoc | undefined,
    };
    return renderTemplate(
      TEMPLATES.attackCard,
      attackCardContext(m as unknown as { _id: string; system: AttackCardData }, rules, viewer),
    );
  }
  if (m.type === "battleEndNote") {
    if (!templateExists(foundryPath(`../${TEMPLATES.battleEnd}`))) return missingPanel("the battle's-end note");
    const context = battleEndNote((m.system as { entries?: BattleEndEntry[] }).entries ?? []);
    return context ? renderTemplate(TEMPLATES.battleEnd, context) : "";
  }
  if (m.type === "rollCard") {
    if (!templateExists(foundryPath(`../${TEMPLATES.rollCard}`))) return missingPanel("the roll card");
    const viewer: CardViewer = {
      user: { id: s.user.id, isGM: s.user.isGM },
      actor: (id) => s.actors.find((a) => a._id === id) as unknown as ActorDoc | undefined,
    };
    return renderTemplate(
      TEMPLATES.rollCard,
      rollCardContext(m.system as unknown as RollCardData, rules, viewer, m._id),
    );
  }
  if (m.type === "rollNote") {
    // Foundry's roll note (src/foundry/dice.ts postRollNote): the same lines, the same markup.
    const note = m.system as { titleKey?: string; lines?: unknown[] };
    const lines = (note.lines ?? []).map((l) => String(l));
    return rollNoteHtml(m.speaker?.alias ?? "", i18n.localize(String(note.titleKey ?? "")), lines, esc);
  }
  return missingPanel(`a ${m.type} card`);
}

// ─── The combat tracker view ─────────────────────────────────────────────────────────────

/**
 * Stands in for Foundry's combat tracker (src/foundry/tracker.ts): one row per actor, its name
 * and its wound line (templates/parts/tracker-wound.hbs). The page's one user is a GM: he sees all.
 */
export function renderTracker(s: PlaygroundState): string {
  const rules = rulesOf(s);
  return s.actors
    .map((a) => {
      const view = trackerWound(a as unknown as ActorDoc, rules, "full");
      return `<li class="combatant" data-actor-id="${esc(a._id)}"><div class="token-name"><strong class="name">${esc(a.name)}</strong>${view ? renderTemplate(TEMPLATES.trackerWound, view) : ""}</div></li>`;
    })
    .join("");
}

// ─── The world rules menu (the system's settings template) ──────────────────────────────

/** The world rules menu: the general and the active preset's options. */
export function renderRulesMenu(store: Store): string {
  return renderTemplate(TEMPLATES.rulesMenu, rulesMenuContext(rulesOf(store.state)));
}

/** Saves the rules menu as Foundry's settings menu does (applyRulesForm checks every field). */
export function saveRulesMenu(store: Store, form: HTMLFormElement): void {
  const before = rulesOf(store.state);
  const data: Record<string, unknown> = {};
  for (const [k, v] of new FormData(form).entries()) data[k] = v;
  const after = applyRulesForm(before, data, PRESET_GROUPS[before.preset]);
  store.update((d) => {
    d.settings = { ...d.settings, ...(structuredClone(after) as unknown as Record<string, unknown>) };
    d.preset = after.preset;
  });
}

/**
 * The toolbar's End combat (Foundry: the GM ends the combat; src/foundry/combat.ts deleteCombat):
 * the same flow (src/system/flows/battle.ts endBattle) for every actor — Willpower adjustments that
 * held "until the battle is over" lapse (Fudge §4.52 (4)) with one chat note, then the world's
 * combat-end healing. An actor that cannot be changed is reported and left as it was.
 */
export async function endCombat(store: Store, port: flows.HostPort): Promise<void> {
  store.updateDocs({}, (d) => void (d.inCombat = false));
  await flows.endBattle(
    port,
    store.state.actors.map((a) => a._id),
    async (entries) => {
      if (battleEndNote(entries))
        postMessage(store, "battleEndNote", { entries }, i18n.localize("FUDGE.BattleEnd.Speaker"));
    },
  );
}

/**
 * Form fields, submitted on change. Actor sheets: `system.*` through the field flow
 * (setActorField, range-checked, as the Foundry sheet does) and `name`. Item sheets: Foundry's
 * data models clean the values there; here a field only gets its input's type (number, checkbox, text).
 */
export async function submitField(
  store: Store,
  port: flows.HostPort,
  key: string,
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
): Promise<void> {
  const [actorId, itemId] = key.split("/");
  const actor = store.actor(actorId);
  if (!actor) return;
  const raw = input instanceof HTMLInputElement && input.type === "checkbox" ? input.checked : input.value;
  if (itemId) {
    const path = input.name.split(".");
    return store.updateDocs({ actors: [actorId] }, (d) => {
      const it = d.actors.find((x) => x._id === actorId)?.items?.find((i) => i._id === itemId) as
        Record<string, unknown> | undefined;
      if (!it) return;
      let o = it;
      for (const p of path.slice(0, -1)) o = (o[p] ??= {}) as Record<string, unknown>;
      const key = path[path.length - 1];
      // Like a data model's field cleaning: a number stays a number (number inputs, numeric selects).
      const n = Number(raw);
      o[key] =
        (typeof o[key] === "number" || input.type === "number") &&
        typeof raw === "string" &&
        raw.trim() !== "" &&
        Number.isFinite(n)
          ? n
          : raw;
    });
  }
  if (input.name === "name") return port.rename(actorId, String(raw));
  if (!input.name.startsWith("system.")) return;
  await flows.editField(port, actorId, input.name.slice("system.".length), raw);
}
