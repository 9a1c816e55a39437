/**
 * The playground host: a small stand-in for the parts of Foundry the system's UI talks to.
 * It keeps documents in a store (memory + localStorage), renders the system's sheets and chat
 * cards with the system's own templates and context builders (see ui.ts), and runs each click on a
 * `data-action` element through the system's action tables — the same flows Foundry runs — against
 * the page's port (port.ts), then re-renders. No rules logic lives here.
 */
import * as creation from "./creation";
import { parseDice } from "./dice";
import { Store, type PlaygroundState } from "./store";
import { missingKeys, langSources, i18n } from "./i18n";
import { templatePaths } from "./templates";
import { sampleActors } from "./packs";
import * as ui from "./ui";
import * as flows from "../src/system/flows";
import { hooks, playgroundPort, type PageUi } from "./port";
import { renderTemplate } from "./templates";
import { installStyles, loadedStyles, missingStyles } from "./styles";
import { installImport } from "./import";
import { morphHTML } from "./morph";
import { tabAfterKey } from "../src/system/tabs";
import "./prose-mirror";
import { loadAllPresets } from "../src/rules";

installStyles();
// The attack pipelines load on demand (src/rules/presets.ts): the playground, whose preset and
// cards change at a click, loads them all before its first render.
await loadAllPresets();

const PRESETS = ["fudge", "miniatures", "fate", "volt"] as const;

const params = new URLSearchParams(location.search);
const dice = parseDice(params.get("dice"));

function initialState(): PlaygroundState {
  const preset = PRESETS.includes(params.get("preset") as (typeof PRESETS)[number])
    ? (params.get("preset") as string)
    : "fudge";
  const actors = sampleActors();
  const leroy = actors.find((a) => a.name.startsWith("Leroy"));
  return {
    version: 1,
    preset,
    theme: params.get("theme") === "dark" ? "dark" : "light",
    settings: { preset },
    actors,
    messages: [],
    open: leroy ? [leroy._id] : actors.slice(0, 1).map((a) => a._id),
    targets: [],
    user: { id: "pgGamemaster0001", name: "Gamemaster", isGM: true },
  };
}

const storage = params.has("nostorage") ? null : window.localStorage;
const store = new Store(initialState, storage);
if (params.has("fresh")) store.reset();
// The store writes to localStorage a moment after a change; leaving or reloading the page writes at once.
addEventListener("pagehide", () => store.flush());
document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && store.flush());

const $ = <T extends HTMLElement>(sel: string) => document.querySelector(sel) as T;
const els = {
  preset: $<HTMLSelectElement>("#pg-preset"),
  theme: $<HTMLSelectElement>("#pg-theme"),
  combat: $<HTMLInputElement>("#pg-combat"),
  endCombat: $<HTMLButtonElement>("#pg-end-combat"),
  actors: $<HTMLElement>("#pg-actors"),
  reset: $<HTMLButtonElement>("#pg-reset"),
  sheets: $<HTMLElement>("#pg-sheets"),
  chat: $<HTMLElement>("#pg-chat"),
  tracker: $<HTMLElement>("#pg-tracker"),
  toast: $<HTMLElement>("#pg-toast"),
  dice: $<HTMLElement>("[data-testid=dice-mode]"),
};

let toastTimer = 0;
function toast(text: string, error = false): void {
  els.toast.textContent = text;
  els.toast.classList.toggle("error", error);
  els.toast.classList.add("visible");
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => els.toast.classList.remove("visible"), 4000);
}

const localize = (k: string) => i18n.localize(k);
const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Only touches the DOM when the HTML changed, and then only the nodes that differ (keeps clicks cheap and focus stable). */
const rendered = new WeakMap<Element, string>();
function setHTML(el: Element, html: string): boolean {
  const previous = rendered.get(el);
  if (previous === html) return false;
  if (previous !== undefined) morphHTML(el, html, previous);
  else el.innerHTML = html;
  rendered.set(el, html);
  return true;
}

/**
 * What each view (sheet window, chat card) was last built from. The store copies only the
 * documents a change touches, so a view whose inputs are all the same objects is still current
 * and is neither rebuilt nor re-rendered: a wound-box click redraws only that actor's sheet
 * (and the cards that name the actor).
 */
const viewInputs = new Map<string, unknown[]>();
function viewCurrent(key: string, inputs: unknown[]): boolean {
  const old = viewInputs.get(key);
  if (old && old.length === inputs.length && old.every((x, i) => x === inputs[i])) return true;
  viewInputs.set(key, inputs);
  return false;
}
/** Forgets what a view was built from and what it shows, so the next render rebuilds it and resets its form. */
function invalidateView(key: string, el: Element | null): void {
  viewInputs.delete(key);
  if (el) rendered.delete(el);
}

/** Selector that finds "the same" element after a re-render, for focus restoring. */
function focusKey(el: Element | null): { exact: string; next: string | null } | null {
  if (!el || !(el instanceof HTMLElement)) return null;
  const host = el.closest("[data-pg-doc]") as HTMLElement | null;
  if (!host) return null;
  const doc = `[data-pg-doc="${CSS.escape(host.dataset.pgDoc ?? "")}"]`;
  const section = el.closest<HTMLElement>(".fudge-target[data-target-index]");
  const next = section
    ? `${doc} [data-target-index="${CSS.escape(section.dataset.targetIndex ?? "")}"] button[data-action]:not([disabled])`
    : `${doc} button[data-action]:not([disabled])`;
  const attrs = ["data-action", "data-ref", "data-box", "data-item-id", "data-target", "name"]
    .filter((a) => el.hasAttribute(a))
    .map((a) => `[${a}="${CSS.escape(el.getAttribute(a) ?? "")}"]`)
    .join("");
  if (!attrs) return null;
  return { exact: `${doc} ${el.tagName.toLowerCase()}${attrs}`, next };
}

function renderToolbar(s: PlaygroundState): void {
  if (!els.preset.options.length) {
    for (const p of PRESETS) {
      const o = document.createElement("option");
      o.value = p;
      o.textContent = ui.presetLabel(p);
      els.preset.append(o);
    }
  }
  els.preset.value = s.preset;
  els.theme.value = s.theme;
  els.combat.checked = s.inCombat === true;
  els.endCombat.disabled = s.inCombat !== true;
  document.body.classList.toggle("theme-dark", s.theme === "dark");
  document.body.classList.toggle("theme-light", s.theme !== "dark");
  setHTML(
    els.actors,
    s.actors
      .map(
        (a) =>
          `<span class="pg-actor"><button type="button" class="pg-open" data-pg-open="${esc(a._id)}" aria-pressed="${s.open.includes(a._id)}" title="Open or close the sheet">${esc(a.name)}</button>` +
          `<label class="pg-target" title="Target (stands in for Foundry's targeted tokens)"><input type="checkbox" data-pg-target="${esc(a._id)}"${s.targets.includes(a._id) ? " checked" : ""}> target</label></span>`,
      )
      .join(""),
  );
  const extra = dice.exhausted() ? " — fixed faces used up, now seed 1" : "";
  els.dice.textContent = `Dice: ${dice.label}${extra}.`;
}

/** What a sheet window reads: its actor (items are inside it), the world, the theme, its tab and the targeted actors (odds). */
function windowInputs(key: string, s: PlaygroundState): unknown[] {
  const actor = s.actors.find((a) => a._id === key.split("/")[0]);
  return [
    actor,
    s.settings,
    s.theme,
    s.inCombat,
    s.user,
    ui.activeTabs.get(key),
    s.targets,
    ...s.targets.map((id) => s.actors.find((a) => a._id === id)),
  ];
}

function renderSheets(s: PlaygroundState): void {
  const views = s.open
    .map((key) => {
      const win = els.sheets.querySelector<HTMLElement>(`:scope > .pg-window[data-pg-doc="${CSS.escape(key)}"]`);
      const current = win !== null && viewCurrent(`window:${key}`, windowInputs(key, s));
      if (!current) viewInputs.set(`window:${key}`, windowInputs(key, s));
      return { key, view: current ? ("current" as const) : ui.renderWindow(key, s) };
    })
    .filter((w) => w.view !== null);
  const keys = views.map((w) => w.key);
  for (const w of [...els.sheets.querySelectorAll<HTMLElement>(":scope > .pg-window")])
    if (!keys.includes(w.dataset.pgDoc ?? "")) {
      viewInputs.delete(`window:${w.dataset.pgDoc}`);
      w.remove();
    }
  views.forEach(({ key, view }, i) => {
    let win = els.sheets.querySelector<HTMLElement>(`:scope > .pg-window[data-pg-doc="${CSS.escape(key)}"]`);
    if (!win) {
      win = document.createElement("div");
      win.dataset.pgDoc = key;
      win.dataset.pgKind = key.includes("/") ? "item" : "actor";
      win.setAttribute("role", "dialog");
      win.innerHTML = `<header class="window-header"><h1 class="window-title"></h1><button type="button" data-pg-close="${esc(key)}" aria-label="Close">✕</button></header><section class="window-content"></section>`;
      els.sheets.append(win);
    }
    if (els.sheets.children[i] !== win) els.sheets.insertBefore(win, els.sheets.children[i]);
    if (view === "current" || view === null) return;
    const cls = ["pg-window", ...view.classes].join(" ");
    if (win.className !== cls) win.className = cls;
    const title = win.querySelector(".window-title")!;
    if (title.textContent !== view.title) title.textContent = view.title;
    win.setAttribute("aria-label", view.title);
    setHTML(win.querySelector(".window-content")!, view.html);
  });
}

/** What a card reads: the message, the world, the viewer and the live actors it names (names, wound logs). */
function cardInputs(m: PlaygroundState["messages"][number], s: PlaygroundState): unknown[] {
  const sys = m.system as {
    attackerId?: unknown;
    actorId?: unknown;
    opposed?: { actorId?: unknown } | null;
    targets?: { actorId?: unknown }[];
  };
  // A roll card reads its roller's live Fudge Point log (and an opposed roll its opponent), as an attack card its sides.
  const named = [
    sys.attackerId,
    sys.actorId,
    sys.opposed?.actorId,
    ...(Array.isArray(sys.targets) ? sys.targets.map((t) => t?.actorId) : []),
  ];
  return [m, s.settings, s.user, ...named.map((id) => s.actors.find((a) => a._id === id))];
}

function renderChat(s: PlaygroundState): void {
  const ids = new Set(s.messages.map((m) => m._id));
  const lis = new Map<string, HTMLElement>();
  for (const li of [...els.chat.querySelectorAll<HTMLElement>(":scope > li")]) {
    const id = li.dataset.pgDoc ?? "";
    if (ids.has(id)) lis.set(id, li);
    else {
      viewInputs.delete(`card:${id}`);
      li.remove();
    }
  }
  s.messages.forEach((m, i) => {
    let li = lis.get(m._id);
    if (li && els.chat.children[i] === li && viewCurrent(`card:${m._id}`, cardInputs(m, s))) return;
    viewInputs.set(`card:${m._id}`, cardInputs(m, s));
    if (!li) {
      li = document.createElement("li");
      li.className = "chat-message message";
      li.dataset.pgDoc = m._id;
      li.dataset.pgKind = "message";
      li.dataset.messageId = m._id;
      li.innerHTML = `<header class="message-header"><span class="message-sender"></span><time></time></header><div class="message-content"></div>`;
      els.chat.append(li);
    }
    if (els.chat.children[i] !== li) els.chat.insertBefore(li, els.chat.children[i]);
    li.querySelector(".message-sender")!.textContent = m.speaker?.alias ?? "";
    li.querySelector("time")!.textContent = new Date(m.timestamp).toLocaleTimeString();
    setHTML(li.querySelector(".message-content")!, ui.renderCard(m, s));
  });
}

function render(): void {
  const s = store.state;
  const focused = focusKey(document.activeElement);
  const t0 = performance.now();
  renderToolbar(s);
  renderSheets(s);
  renderChat(s);
  setHTML(els.tracker, ui.renderTracker(s));
  if (focused && (!document.activeElement?.isConnected || document.activeElement === document.body)) {
    // The same control, else the next action of the same card target (Apply → Undo), else of the document.
    const el = (document.querySelector(focused.exact) ??
      (focused.next ? document.querySelector(focused.next) : null)) as HTMLElement | null;
    el?.focus({ preventScroll: true });
  }
  lastRenderMs = performance.now() - t0;
  document.body.dataset.revision = String(store.revision);
}
let lastRenderMs = 0;

// ─── Host events: toolbar ───────────────────────────────────────────────────────────────

els.preset.addEventListener("change", () => {
  const preset = els.preset.value;
  store.update((d) => {
    d.preset = preset;
    d.settings = { ...d.settings, preset };
  });
});
els.theme.addEventListener("change", () =>
  store.updateDocs({}, (d) => void (d.theme = els.theme.value === "dark" ? "dark" : "light")),
);
els.combat.addEventListener("change", () => store.updateDocs({}, (d) => void (d.inCombat = els.combat.checked)));
els.endCombat.addEventListener("click", () => {
  busy(() => ui.endCombat(store, port()));
});
els.reset.addEventListener("click", () => {
  store.reset();
  toast("Reset to the pack's sample characters.");
});
els.actors.addEventListener("click", (ev) => {
  const b = (ev.target as HTMLElement).closest<HTMLElement>("[data-pg-open]");
  if (!b) return;
  const id = b.dataset.pgOpen!;
  store.updateDocs({}, (d) => {
    d.open = d.open.includes(id) ? d.open.filter((x) => x !== id) : [...d.open, id];
  });
});
els.actors.addEventListener("change", (ev) => {
  const cb = (ev.target as HTMLElement).closest<HTMLInputElement>("[data-pg-target]");
  if (!cb) return;
  const id = cb.dataset.pgTarget!;
  store.updateDocs({}, (d) => {
    d.targets = cb.checked ? [...new Set([...d.targets, id])] : d.targets.filter((x) => x !== id);
  });
});
els.sheets.addEventListener("click", (ev) => {
  const b = (ev.target as HTMLElement).closest<HTMLElement>("[data-pg-close]");
  if (b) store.updateDocs({}, (d) => void (d.open = d.open.filter((x) => x !== b.dataset.pgClose)));
});

// ─── System events: data-action clicks and form changes, as ApplicationV2 delegates them ──

function docOf(el: Element): { kind: "actor" | "message"; id: string } | null {
  // Item windows ("actorId/itemId") act for their actor, as an embedded item's sheet does.
  const host = el.closest<HTMLElement>("[data-pg-doc]");
  if (!host) return null;
  return { kind: host.dataset.pgKind === "message" ? "message" : "actor", id: host.dataset.pgDoc! };
}

/** Flows in progress: `body[data-busy]` says so (tests wait for it to end after a click). */
let running = 0;
function busy(f: () => Promise<void>): void {
  running++;
  document.body.dataset.busy = "true";
  f()
    .finally(() => {
      if (--running === 0) delete document.body.dataset.busy;
    })
    .catch((e) => port().report(e)); // a listener cannot wait: a refusal or failure is the user's toast
}

/** After a refused field edit, as the Foundry sheet does: render again, so the form shows the stored value. */
function redrawWindow(docKey: string): void {
  invalidateView(
    `window:${docKey}`,
    els.sheets.querySelector<HTMLElement>(`:scope > .pg-window[data-pg-doc="${CSS.escape(docKey)}"] .window-content`),
  );
  render();
}

// ─── The page's dialog (the system's templates in a <dialog>) ───────────────────────────

const dialog = $<HTMLDialogElement>("#pg-attack-dialog");
const dialogForm = dialog.querySelector("form")!;
const dialogBody = dialog.querySelector<HTMLElement>(".pg-dialog-body")!;
/** The open dialog's answer: its form's entries on submit, null when closed or cancelled. */
let answer: ((entries: [string, unknown][] | null) => void) | null = null;
/** The open dialog's live part, redrawn as its form changes. */
let onFormChange: (() => void) | null = null;

function formEntries(form: HTMLFormElement): [string, unknown][] {
  return (Array.from(form.elements) as HTMLInputElement[])
    .filter((x) => x.name)
    .map((x): [string, unknown] => [x.name, x.type === "checkbox" ? x.checked : x.value]);
}

/** Shows the dialog (title, submit label, body) and resolves with its form's entries, or null. */
function ask(title: string, submit: string, html: string, live?: () => void): Promise<[string, unknown][] | null> {
  answer?.(null);
  dialog.querySelector(".window-title")!.textContent = title;
  dialog.querySelector("[data-pg-submit]")!.textContent = submit;
  dialogBody.innerHTML = html;
  onFormChange = live ?? null;
  const done = new Promise<[string, unknown][] | null>((resolve) => (answer = resolve));
  dialog.showModal();
  dialog.querySelector<HTMLElement>(".pg-dialog-body input, .pg-dialog-body select")?.focus();
  return done;
}

function closeWith(entries: [string, unknown][] | null): void {
  const a = answer;
  answer = null;
  onFormChange = null;
  a?.(entries);
}

dialogForm.addEventListener("input", () => onFormChange?.());
dialogForm.addEventListener("change", () => onFormChange?.());
dialogForm.addEventListener("submit", (ev) => {
  const submitter = (ev as SubmitEvent).submitter as HTMLButtonElement | null;
  closeWith(submitter?.value === "cancel" ? null : formEntries(dialogForm));
});
dialog.addEventListener("close", () => closeWith(null));

/** What the flows ask of the page (the port's dialogs, confirmations and toasts). */
const page: PageUi = {
  async dialog<T>(spec: flows.DialogSpec<T>): Promise<T | null> {
    const html = renderTemplate(spec.template, spec.context(null));
    // The live part follows the form (the attack's odds); the field being edited keeps focus.
    const live = spec.live
      ? () => {
          const tmp = document.createElement("div");
          tmp.innerHTML = renderTemplate(spec.template, spec.context(formEntries(dialogForm)));
          const next = tmp.querySelector(spec.live!);
          const here = dialogBody.querySelector(spec.live!);
          if (next && here) here.innerHTML = next.innerHTML;
        }
      : undefined;
    const entries = await ask(localize(spec.titleKey), localize(spec.okKey), html, live);
    return entries ? spec.read(entries) : null;
  },
  async confirm(title: string, text: string): Promise<boolean> {
    const html = `<p class="pg-confirm">${esc(text)}</p>`;
    return (await ask(title, localize("Yes"), html)) !== null;
  },
  toast,
};

/** The port of the page's one user (src/system/flows/port.ts), over the store and the page's dice. */
const port = () => playgroundPort(store, dice, page);

/** The world rules menu (Foundry's settings menu, the same template) in the same <dialog>. */
$<HTMLButtonElement>("#pg-rules").addEventListener("click", () => {
  busy(async () => {
    const entries = await ask(
      localize("FUDGE.Settings.Menu.Name"),
      localize("FUDGE.Settings.Menu.Save"),
      ui.renderRulesMenu(store),
    );
    if (!entries) return;
    const before = ui.rulesOf(store.state);
    ui.saveRulesMenu(store, dialogForm);
    // Another attribute set: each actor's levels follow their roles (the flow Foundry's menu runs).
    await creation.carryAttributes(store, port(), before);
  });
});

document.addEventListener("click", (ev) => {
  const target = (ev.target as HTMLElement).closest<HTMLElement>("[data-action]");
  if (!target || target.closest(".pg-toolbar")) return;
  // The rules menu's table rows, as the settings menu app's actions do.
  if (
    target.closest("[data-rule-table]") &&
    (target.dataset.action === "addRuleRow" || target.dataset.action === "removeRuleRow")
  ) {
    ev.preventDefault();
    return target.dataset.action === "addRuleRow" ? ui.addTableRow(target) : ui.removeTableRow(target);
  }
  const doc = docOf(target);
  if (!doc) return;
  ev.preventDefault();
  if (target.dataset.action === "tab") {
    // Foundry's own tab action (ApplicationV2 changeTab): the window shows the tab and keeps it.
    ui.activeTabs.set(doc.id, target.dataset.tab ?? "combat");
    return render();
  }
  // Item windows ("actorId/itemId") act for their actor, as an embedded item's sheet does.
  const click = flows.clickOf(target, doc.kind === "message" ? doc.id : doc.id.split("/")[0], ev.shiftKey);
  busy(() => (doc.kind === "message" ? flows.runCardAction : flows.runSheetAction)(port(), click));
});

// The sheet tabs' keys (ARIA tabs pattern, src/system/tabs.ts): the tab reached opens and takes the focus.
document.addEventListener("keydown", (ev) => {
  const tab = (ev.target as HTMLElement).closest<HTMLElement>('[role="tab"][data-action="tab"]');
  const list = tab?.closest<HTMLElement>('[role="tablist"]');
  const doc = tab && docOf(tab);
  if (!tab || !list || !doc) return;
  const ids = [...list.querySelectorAll<HTMLElement>('[role="tab"]')].map((t) => t.dataset.tab ?? "");
  const next = tabAfterKey(ids, tab.dataset.tab ?? "", ev.key);
  if (!next) return;
  ev.preventDefault();
  ui.activeTabs.set(doc.id, next);
  render();
  document
    .querySelector<HTMLElement>(`[data-pg-doc="${CSS.escape(doc.id)}"] [role="tab"][data-tab="${CSS.escape(next)}"]`)
    ?.focus();
});

document.addEventListener("change", (ev) => {
  const input = ev.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  if (input instanceof HTMLSelectElement && (input.dataset.itemField || input.dataset.worldSetting)) {
    const owner = docOf(input);
    if (!owner || owner.kind !== "actor") return;
    // The sheet's pickers, through the flows Foundry's sheet runs (src/system/flows/creation.ts).
    const { itemId = "", itemField } = input.dataset;
    return busy(async () => {
      try {
        await (itemField
          ? flows.editItemField(port(), owner.id, itemId, itemField, input.value)
          : flows.pickCreationMethod(port(), input.value));
      } catch (e) {
        port().report(e, store.actor(owner.id)?.name);
        redrawWindow(owner.id);
      }
    });
  }
  if (!input.name || input.closest(".pg-toolbar")) return;
  const doc = docOf(input);
  if (!doc || doc.kind !== "actor") return;
  busy(async () => {
    try {
      await ui.submitField(store, port(), doc.id, input);
    } catch (e) {
      port().report(e, store.actor(doc.id.split("/")[0])?.name);
      redrawWindow(doc.id);
    }
  });
});

// ─── Create Actor and the compendium browser (Foundry's directory and compendium windows) ──

const createForm = $<HTMLFormElement>("#pg-create");
createForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const data = new FormData(createForm);
  busy(async () => {
    creation.createActor(store, String(data.get("name") ?? ""), String(data.get("type") ?? "character"));
    createForm.reset();
    // A new actor is being made: the compendiums open beside its sheet, to drag its traits from.
    if (compendium.hidden) compendiumToggle.click();
  });
});
const compendium = $<HTMLElement>("#pg-compendium");
const compendiumList = $<HTMLElement>("#pg-compendium-list");
const compendiumFilter = $<HTMLInputElement>("#pg-compendium-filter");
const compendiumToggle = $<HTMLButtonElement>("#pg-compendium-toggle");
compendiumToggle.addEventListener("click", () => {
  compendium.hidden = !compendium.hidden;
  compendiumToggle.setAttribute("aria-expanded", String(!compendium.hidden));
  if (!compendium.hidden) compendiumList.innerHTML = creation.renderCompendium(compendiumFilter.value);
});
compendiumFilter.addEventListener("input", () => {
  compendiumList.innerHTML = creation.renderCompendium(compendiumFilter.value);
});
compendiumList.addEventListener("click", (ev) => {
  const add = (ev.target as HTMLElement).closest<HTMLElement>("[data-pg-pack-add]");
  if (!add) return;
  busy(async () => {
    try {
      creation.addToOpenSheet(store, add.dataset.pgPackAdd!);
    } catch (e) {
      port().report(e);
    }
  });
});
compendiumList.addEventListener("dragstart", (ev) => {
  const li = (ev.target as HTMLElement).closest<HTMLElement>("[data-pg-pack-item]");
  if (!li || !ev.dataTransfer) return;
  ev.dataTransfer.setData("text/plain", creation.dragData(li.dataset.pgPackItem!));
  ev.dataTransfer.effectAllowed = "copy";
});
els.sheets.addEventListener("dragover", (ev) => {
  if ((ev.target as HTMLElement).closest(".pg-window[data-pg-kind='actor']")) ev.preventDefault();
});
els.sheets.addEventListener("drop", (ev) => {
  const win = (ev.target as HTMLElement).closest<HTMLElement>(".pg-window[data-pg-kind='actor']");
  if (!win || !ev.dataTransfer) return;
  ev.preventDefault();
  const data = ev.dataTransfer.getData("text/plain");
  const actorId = win.dataset.pgDoc!;
  busy(async () => {
    try {
      creation.dropItem(store, actorId, data);
    } catch (e) {
      port().report(e, store.actor(actorId)?.name);
    }
  });
});

store.subscribe(() => render());
render();
installImport(store, toast);

// ─── For tests and the benchmark ─────────────────────────────────────────────────────────

declare global {
  interface Window {
    __playground: unknown;
  }
}
window.__playground = {
  store,
  /** Hooks for modules: the flows' fudge-wounds.* hooks (Foundry's Hooks.call / callAll). */
  hooks,
  /** Whether a click's flow is still running. */
  busy: () => running > 0,
  dice,
  ui,
  state: () => store.snapshot(),
  reset: () => store.reset(),
  render,
  /** The DOM morph the host redraws with (tests check it against a fresh parse). */
  morphHTML,
  lastRenderMs: () => lastRenderMs,
  missingKeys: () => [...missingKeys],
  templates: templatePaths,
  lang: langSources,
  missingPieces: [...ui.missingPieces, ...missingStyles.map((s) => `${s} (listed in system.json)`)],
  styles: loadedStyles,
};
document.body.dataset.ready = "true";
