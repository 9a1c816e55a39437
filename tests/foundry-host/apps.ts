/**
 * ApplicationV2 and friends, enough to render the system's sheets and dialogs in happy-dom:
 * DEFAULT_OPTIONS merged down the class chain, `render({force})`, `_prepareContext` →
 * `_renderHTML` → `_replaceHTML` → `_onRender`, click delegation to `options.actions`,
 * HandlebarsApplicationMixin PARTS, DocumentSheetV2 permissions, DialogV2 answered by the test,
 * DocumentSheetConfig, and the Handlebars template functions.
 *
 * Sources (public): v13 API docs of ApplicationV2 (render options, actions, `_onRender`),
 * HandlebarsApplicationMixin, DocumentSheetV2 (viewPermission LIMITED, editPermission OWNER,
 * isEditable), DialogV2.prompt/confirm, DocumentSheetConfig.registerSheet/unregisterSheet,
 * foundry.applications.handlebars.loadTemplates/renderTemplate; FOUNDRY-V13.md "Templates".
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { current } from "./context";
import { OWNERSHIP, type HostDocument } from "./documents";
import { deepClone, isRec } from "./fields";
import { expandObject, mergeObject } from "./utils";
import { ROOT, SYSTEM_PATH } from "./paths";

type Rec = Record<string, unknown>;
type Ctor = abstract new (...a: any[]) => any;

let appIds = 0;

function mergedDefaults(cls: unknown): Rec {
  const chain: Rec[] = [];
  for (let c = cls as { DEFAULT_OPTIONS?: Rec } | null; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (Object.prototype.hasOwnProperty.call(c, "DEFAULT_OPTIONS")) chain.unshift(c.DEFAULT_OPTIONS!);
  }
  const out: Rec = {};
  for (const d of chain) {
    for (const [k, v] of Object.entries(d)) {
      if (k === "classes" && Array.isArray(v)) out.classes = [...new Set([...((out.classes as string[]) ?? []), ...v])];
      else if (isRec(v) && isRec(out[k])) out[k] = mergeObject(deepClone(out[k] as Rec), v as Rec);
      else out[k] = isRec(v) ? { ...(v as Rec) } : v;
    }
  }
  return out;
}

/**
 * A parsed `<select>` shows its last option with the `selected` attribute, else its first (HTML
 * "selectedness setting algorithm", as Chromium does). happy-dom 21.0.4 picks a wrong option when
 * the selected one is third or later (a 7-rung Difficulty list reads Good for Fair): set it here
 * wherever this host parses a template into a form.
 */
export function selectAsParsed(root: ParentNode): void {
  for (const select of root.querySelectorAll("select")) {
    if (select.multiple) continue;
    const options = [...select.options];
    const chosen = options.map((o) => o.hasAttribute("selected")).lastIndexOf(true);
    select.selectedIndex = chosen >= 0 ? chosen : options.length ? 0 : -1;
  }
}

export class ApplicationV2 {
  static DEFAULT_OPTIONS: Rec = {
    id: "app-{id}",
    classes: [],
    tag: "div",
    window: { title: "" },
    actions: {},
    position: {},
  };
  options: Rec & { actions: Record<string, (this: unknown, e: Event, t: HTMLElement) => unknown>; id: string };
  element: HTMLElement | null = null;
  rendered = false;
  /** Every render call's options as passed (tests check the v13 `{force: true}` form). */
  renderCalls: unknown[] = [];
  readonly client = current();

  constructor(options: Rec = {}) {
    const defaults = mergedDefaults(this.constructor);
    this.options = mergeObject(defaults, options) as never;
    const n = ++appIds;
    this.options.id = String(this.options.id ?? "app-{id}").replace("{id}", String(n));
  }
  get id() {
    return this.options.id;
  }
  get title() {
    return String((this.options.window as Rec)?.title ?? "");
  }
  /** v13: `render(options)`; `render(true)` still works (the boolean means force). */
  async render(options: boolean | Rec = {}): Promise<this> {
    this.renderCalls.push(options);
    const opts: Rec = typeof options === "boolean" ? { force: options } : { ...options };
    if (!this.rendered && !opts.force) return this;
    this._canRender(opts);
    const context = await this._prepareContext(opts);
    const result = await this._renderHTML(context, opts);
    if (!this.element) {
      this.element = document.createElement(String(this.options.tag ?? "div"));
      this.element.id = this.id;
      this.element.className = ((this.options.classes as string[]) ?? []).join(" ");
      this.element.innerHTML = `<section class="window-content"></section>`;
      this.element.addEventListener("click", (ev) => this.onClick(ev));
      if (this.element instanceof HTMLFormElement) this.listenToForm(this.element);
      document.body.append(this.element);
    }
    const content = this.element.querySelector<HTMLElement>(".window-content")!;
    this._replaceHTML(result, content, opts);
    this.rendered = true;
    this.client.apps.set(this.id, this as never);
    await this._onRender(context, opts);
    this.client.hooks.callAll(`render${this.constructor.name}`, this, this.element, context, opts);
    return this;
  }
  _canRender(_options: Rec): void {}
  /** A generic handler for action clicks that have no handler of their own (a subclass extends it). */
  _onClickAction(_event: PointerEvent, _target: HTMLElement): void {}
  /** The app's form: its element when `tag` is "form" (v13 ApplicationV2#form). */
  get form(): HTMLFormElement | null {
    return this.element instanceof HTMLFormElement ? this.element : null;
  }
  /**
   * v13 ApplicationV2#_onChangeForm: a change in the form submits it when `form.submitOnChange`;
   * a submit event is prevented and handled by `#onSubmitForm` (the form handler with the form's data).
   */
  private listenToForm(form: HTMLFormElement): void {
    form.addEventListener("change", (ev) => {
      if ((this.options.form as Rec | undefined)?.submitOnChange) this.client.world.watch(this.submit());
      void ev;
    });
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.client.world.watch(this.submit());
    });
  }
  /** v13 ApplicationV2#submit: the form's data (FormDataExtended) to the form handler. */
  async submit(): Promise<void> {
    const form = this.form;
    if (!form) return;
    const handler = (this.options.form as Rec | undefined)?.handler as
      ((this: unknown, e: Event, f: HTMLFormElement, d: Rec) => unknown) | undefined;
    if (handler) await handler.call(this, new Event("submit"), form, formDataOf(form));
    else await this._onSubmitForm(formDataOf(form));
  }
  /** What a form without its own handler does with its data (DocumentSheetV2 updates its document). */
  async _onSubmitForm(_data: Rec): Promise<void> {}
  async _prepareContext(_options: Rec): Promise<Rec> {
    return {};
  }
  async _renderHTML(_context: Rec, _options: Rec): Promise<unknown> {
    return "";
  }
  _replaceHTML(result: unknown, content: HTMLElement, _options: Rec): void {
    if (result instanceof HTMLElement) content.replaceChildren(result);
    else {
      content.innerHTML = String(result ?? "");
      selectAsParsed(content);
    }
  }
  async _onRender(_context: Rec, _options: Rec): Promise<void> {}
  async close(): Promise<this> {
    this.element?.remove();
    this.element = null;
    this.rendered = false;
    this.client.apps.delete(this.id);
    return this;
  }
  /** The active tab of each tab group (v13 ApplicationV2#tabGroups; subclasses set the defaults). */
  tabGroups: Record<string, string | null> = {};
  /**
   * v13 ApplicationV2#changeTab: toggles `active` on the group's tab links (under `.tabs`) and
   * sections (`.tab`), sets aria-pressed on button links, and records the group's tab.
   */
  changeTab(tab: string, group: string, { force = false }: { force?: boolean } = {}): void {
    if (!tab || !group) throw new Error("You must pass both the tab and tab group identifier");
    if (this.tabGroups[group] === tab && !force) return;
    const content = this.element!.querySelector<HTMLElement>(".window-content")!;
    if (!content.querySelector(`.tabs [data-group="${group}"][data-tab="${tab}"]`))
      throw new Error(`No matching tab element found for group "${group}" and tab "${tab}"`);
    for (const t of content.querySelectorAll<HTMLElement>(`.tabs [data-group="${group}"]`)) {
      t.classList.toggle("active", t.dataset.tab === tab);
      if (t instanceof HTMLButtonElement) t.setAttribute("aria-pressed", `${t.dataset.tab === tab}`);
    }
    for (const section of content.querySelectorAll<HTMLElement>(`.tab[data-group="${group}"]`))
      section.classList.toggle("active", section.dataset.tab === tab);
    this.tabGroups[group] = tab;
  }
  /** v13 ApplicationV2#_onClickTab: the clicked element's data-tab and data-group, unless it is already active. */
  _onClickTab(event: Event): void {
    const button = event.target as HTMLElement;
    const tab = button.dataset.tab;
    if (!tab || button.classList.contains("active") || ((event as MouseEvent).button ?? 0) !== 0) return;
    this.changeTab(tab, button.dataset.group ?? "");
  }
  /**
   * Click delegation (v13 ApplicationV2 #onClickAction): `data-action="tab"` is core's own tab
   * change; any other `[data-action]` calls `options.actions[name]` with `this` = the app; an action
   * with no handler goes to `_onClickAction(event, target)` (v13 API docs, ApplicationV2#_onClickAction:
   * "This method is only called for actions which have no defined handler").
   */
  private onClick(ev: Event): void {
    const target = (ev.target as HTMLElement).closest<HTMLElement>("[data-action]");
    if (!target) return;
    if (target.dataset.action === "tab") return this._onClickTab(ev);
    const handler = this.options.actions[target.dataset.action ?? ""];
    if (!handler) return this._onClickAction(ev as PointerEvent, target);
    ev.preventDefault();
    const r = (typeof handler === "function" ? handler : (handler as { handler: typeof handler }).handler).call(
      this,
      ev,
      target,
    );
    if (r instanceof Promise) this.client.world.watch(r);
  }
}

export function HandlebarsApplicationMixin<T extends Ctor>(Base: T) {
  abstract class HandlebarsApplication extends (Base as unknown as typeof ApplicationV2) {
    static PARTS: Record<string, { template: string; scrollable?: string[] }> = {};
    /** v13 HandlebarsApplicationMixin#_configureRenderParts: the parts to render (a copy of PARTS). */
    _configureRenderParts(_options: Rec): Record<string, { template: string }> {
      return structuredClone((this.constructor as unknown as { PARTS: Record<string, { template: string }> }).PARTS);
    }
    override async _renderHTML(context: Rec, options: Rec): Promise<Record<string, HTMLElement>> {
      const parts = this._configureRenderParts(options);
      const out: Record<string, HTMLElement> = {};
      for (const [id, part] of Object.entries(parts)) {
        const html = await renderTemplate(part.template, { ...context, partId: `${this.id}-${id}` });
        const tpl = document.createElement("template");
        tpl.innerHTML = html.trim();
        selectAsParsed(tpl.content);
        const el = (tpl.content.firstElementChild as HTMLElement | null) ?? document.createElement("div");
        el.dataset.applicationPart = id;
        out[id] = el;
      }
      return out;
    }
    /**
     * v13 HandlebarsApplicationMixin#_replaceHTML: each rendered part replaces the element of the
     * same part (`[data-application-part]`) or is appended; anything else in the window stays.
     * The part's old element and every listener on it are gone.
     */
    override _replaceHTML(result: unknown, content: HTMLElement, _options: Rec): void {
      for (const [id, el] of Object.entries(result as Record<string, HTMLElement>)) {
        const prior = content.querySelector(`:scope > [data-application-part="${id}"]`);
        if (prior) prior.replaceWith(el);
        else content.append(el);
      }
    }
  }
  return HandlebarsApplication as unknown as T & { PARTS: Record<string, { template: string }> };
}

export class DocumentSheetV2 extends ApplicationV2 {
  static override DEFAULT_OPTIONS: Rec = {
    // v13 DocumentSheetV2: the sheet is a <form>; its default handler updates the document.
    tag: "form",
    form: { submitOnChange: false, closeOnSubmit: false },
    viewPermission: OWNERSHIP.LIMITED,
    editPermission: OWNERSHIP.OWNER,
    sheetConfig: true,
  };
  constructor(options: Rec = {}) {
    super(options);
    const doc = this.document;
    if (doc) doc.apps[this.id] = this as never;
  }
  get document(): HostDocument {
    return this.options.document as HostDocument;
  }
  get isEditable(): boolean {
    return (
      this.document.testUserPermission(this.client.user, Number(this.options.editPermission)) &&
      this.options.editable !== false
    );
  }
  /** DocumentSheetV2#_canRender: a user below viewPermission (LIMITED) may not open the sheet. */
  override _canRender(_options: Rec): void {
    if (!this.document.testUserPermission(this.client.user, Number(this.options.viewPermission)))
      throw new Error(`You do not have permission to view this ${this.document.documentName} sheet.`);
  }
  /** v13 DocumentSheetV2 #onSubmitDocumentForm: the document is updated with the form's (expanded) data. */
  override async _onSubmitForm(data: Rec): Promise<void> {
    await (this.document as unknown as { update(d: Rec): Promise<unknown> }).update(expandObject(data));
  }
  override async _prepareContext(_options: Rec): Promise<Rec> {
    const doc = this.document;
    return {
      document: doc,
      source: doc.toObject(),
      fields: (doc.system as { schema?: { fields: Rec } })?.schema?.fields ?? {},
      editable: this.isEditable,
      user: this.client.user,
      rootId: this.id,
    };
  }
}
/**
 * v13 ActorSheetV2's document drop (client/applications/sheets/actor-sheet.mjs, as its public
 * copies and the v13 API docs give it): the sheet is a drop target (DragDrop bound in `_onRender`,
 * no drop selector); `_onDrop` reads the drag data (TextEditor.getDragEventData: the text/plain
 * JSON), lets the "dropActorSheetData" hook refuse it, resolves the document from its uuid
 * (fromDropData) and routes it by document name; `_onDropItem` creates a copy on the actor when the
 * user owns it (keepId unless the actor already holds that id). Sorting within the sheet is not
 * modelled: an item already on this actor is left where it is.
 */
export class ActorSheetV2 extends DocumentSheetV2 {
  #dropBound = false;
  get actor() {
    return this.document;
  }
  override async _onRender(context: Rec, options: Rec): Promise<void> {
    await super._onRender(context, options);
    const el = (this as unknown as { element: HTMLElement | null }).element;
    if (!el || this.#dropBound) return;
    this.#dropBound = true;
    el.addEventListener("dragover", (ev) => ev.preventDefault());
    el.addEventListener("drop", (ev) => {
      ev.preventDefault();
      current().world.watch(this._onDrop(ev));
    });
  }
  async _onDrop(event: DragEvent): Promise<unknown> {
    let data: Rec = {};
    try {
      data = JSON.parse(event.dataTransfer?.getData("text/plain") ?? "") as Rec;
    } catch {
      return null;
    }
    const hooks = (globalThis as unknown as { Hooks: { call(name: string, ...args: unknown[]): boolean } }).Hooks;
    if (hooks.call("dropActorSheetData", this.actor, this, data) === false) return null;
    const doc = typeof data.uuid === "string" ? current().resolveUuid(data.uuid) : null;
    if (!doc) return null;
    return this._onDropDocument(event, doc);
  }
  async _onDropDocument(event: DragEvent, doc: HostDocument): Promise<unknown> {
    return doc.documentName === "Item" ? this._onDropItem(event, doc) : null;
  }
  async _onDropItem(_event: DragEvent, item: HostDocument): Promise<unknown> {
    const actor = this.actor;
    if (!actor.isOwner) return null;
    if (item.parent && item.parent.uuid === actor.uuid) return null;
    const keepId = !actor.getEmbeddedCollection("Item").has(String(item.id));
    const made = await actor.createEmbeddedDocuments("Item", [item.toObject()], { keepId });
    return made[0] ?? null;
  }
}
export class ItemSheetV2 extends DocumentSheetV2 {
  get item() {
    return this.document;
  }
}
/** Core's AppV1 sheets (registered by default until a system unregisters them). */
export class ActorSheet {}
export class ItemSheet {}

/**
 * DocumentSheetConfig.registerSheet / unregisterSheet, per client. Core registers its AppV1
 * `core.ActorSheet` / `core.ItemSheet` for every type before `init`.
 */
export const DocumentSheetConfig = {
  registerSheet(
    documentClass: { documentName: string },
    scope: string,
    sheetClass: { name: string },
    {
      types = null,
      makeDefault = false,
      label,
    }: { types?: string[] | null; makeDefault?: boolean; label?: string } = {},
  ) {
    const c = current();
    const list = c.sheetConfig.get(documentClass.documentName) ?? [];
    const id = `${scope}.${sheetClass.name}`;
    if (makeDefault)
      for (const e of list) if (!types || !e.types || e.types.some((t) => types.includes(t))) e.makeDefault = false;
    list.push({ id, cls: sheetClass, types, makeDefault, label });
    c.sheetConfig.set(documentClass.documentName, list);
  },
  unregisterSheet(
    documentClass: { documentName: string },
    scope: string,
    sheetClass: { name: string },
    { types = null }: { types?: string[] | null } = {},
  ) {
    const c = current();
    const id = `${scope}.${sheetClass.name}`;
    const list = (c.sheetConfig.get(documentClass.documentName) ?? []).flatMap((e) => {
      if (e.id !== id) return [e];
      if (!types || !e.types) return [];
      const left = e.types.filter((t) => !types.includes(t));
      return left.length ? [{ ...e, types: left }] : [];
    });
    c.sheetConfig.set(documentClass.documentName, list);
  },
};

/**
 * v13 FormDataExtended, as far as the system's sheets use it: every enabled named field of the
 * form — inputs (a checkbox its checked state, a number input its number), selects, textareas and
 * custom form elements such as `<prose-mirror>` (their `value`) — by name, not yet expanded.
 */
export function formDataOf(form: HTMLFormElement): Rec {
  const out: Rec = {};
  for (const el of Array.from(
    form.querySelectorAll<HTMLElement & { name?: string; value?: unknown; disabled?: boolean }>("[name]"),
  )) {
    const name = el.getAttribute("name");
    if (!name || el.disabled || el.closest("fieldset[disabled]")) continue;
    if (el instanceof HTMLInputElement) {
      if (el.type === "checkbox") out[name] = el.checked;
      else if (el.type === "number") out[name] = el.value === "" ? null : Number(el.value);
      else out[name] = el.value;
    } else out[name] = el.value;
  }
  return out;
}

// ─── Dialogs ────────────────────────────────────────────────────────────────────────────

export interface DialogRequest {
  kind: "prompt" | "confirm" | "wait";
  title: string;
  content: string;
  /** The dialog's form (content and buttons inside a <form>, rendered): fill it before answering. */
  form: HTMLFormElement;
}
/**
 * What the test answers: "ok"/"yes" presses the default button (a confirm's Yes), "no" a
 * confirm's No, "cancel"/"close" dismisses; `{button: action}` presses the button with that action.
 */
export type DialogAnswer = "ok" | "yes" | "no" | "cancel" | "close" | { button: string };

interface DialogButton {
  action: string;
  label?: string;
  icon?: string;
  default?: boolean;
  callback?: (event: Event, button: HTMLButtonElement, dialog: DialogV2) => unknown;
}

/**
 * v13 DialogV2: the content and one `<button type="submit" data-action>` per button inside a
 * `<form class="dialog-form">`; `wait` resolves with the pressed button's
 * `callback(event, button, dialog)` result (its `action` when it has none), null when dismissed
 * (a rejection with `rejectClose: true`); `render(event, dialog)` is called once the dialog is
 * rendered. `prompt` is `wait` with one OK button, `confirm` with Yes (→ true) and No (→ false).
 */
export class DialogV2 extends ApplicationV2 {
  static async prompt(config: Rec = {}) {
    const { ok, ...rest } = config;
    const button = mergeObject(
      { action: "ok", label: "Confirm", icon: "fa-solid fa-check", default: true },
      (ok as Rec) ?? {},
    ) as unknown as DialogButton;
    return runDialog("prompt", { ...rest, buttons: [button] });
  }
  static async confirm(config: Rec = {}) {
    const { yes, no, ...rest } = config;
    const buttons = [
      mergeObject({ action: "yes", label: "Yes", icon: "fa-solid fa-check", callback: () => true }, (yes as Rec) ?? {}),
      mergeObject(
        { action: "no", label: "No", icon: "fa-solid fa-xmark", default: true, callback: () => false },
        (no as Rec) ?? {},
      ),
      ...(((rest.buttons as Rec[]) ?? []) as Rec[]),
    ] as unknown as DialogButton[];
    return runDialog("confirm", { ...rest, buttons });
  }
  static async wait(config: Rec = {}) {
    return runDialog("wait", config);
  }
}

async function runDialog(kind: DialogRequest["kind"], config: Rec): Promise<unknown> {
  const c = current();
  const buttons = ((config.buttons as DialogButton[]) ?? []).map((b) => ({ ...b }));
  const dialog = new DialogV2({ window: config.window, position: config.position, classes: ["dialog"] });
  const element = document.createElement("dialog");
  element.id = dialog.id;
  element.className = "application dialog";
  element.setAttribute("open", "");
  const form = document.createElement("form");
  form.className = "dialog-form standard-form";
  form.autocomplete = "off";
  form.innerHTML = `<div class="dialog-content standard-form">${String(config.content ?? "")}</div><footer class="form-footer"></footer>`;
  selectAsParsed(form);
  const footer = form.querySelector("footer")!;
  for (const b of buttons) {
    const el = document.createElement("button");
    el.type = "submit";
    el.dataset.action = b.action;
    if (b.default) el.classList.add("default");
    el.textContent = String(b.label ?? b.action);
    footer.append(el);
  }
  element.append(form);
  document.body.append(element);
  dialog.element = element;
  dialog.rendered = true;
  c.apps.set(dialog.id, dialog as never);
  try {
    if (typeof config.render === "function")
      await (config.render as (e: Event, d: DialogV2) => unknown)(new Event("render"), dialog);
    const req: DialogRequest = {
      kind,
      title: String((config.window as Rec)?.title ?? ""),
      content: String(config.content ?? ""),
      form,
    };
    const answer = await c.world.answerDialog(req, c);
    let action: string | null = null;
    if (typeof answer === "object") action = answer.button;
    else if (answer === "ok" || answer === "yes")
      action = kind === "confirm" ? "yes" : ((buttons.find((b) => b.default) ?? buttons[0])?.action ?? null);
    else if (answer === "no" && kind === "confirm") action = "no";
    const pressed = action === null ? undefined : buttons.find((b) => b.action === action);
    if (action !== null && !pressed) throw new Error(`foundry-host: the dialog has no button "${action}"`);
    if (!pressed) {
      if (config.rejectClose === true) throw new Error("Dialog was dismissed without a choice being made.");
      return null;
    }
    const button = form.querySelector<HTMLButtonElement>(`button[data-action="${pressed.action}"]`)!;
    const event = new Event("submit", { cancelable: true });
    return pressed.callback ? await pressed.callback(event, button, dialog) : pressed.action;
  } finally {
    await dialog.close();
    element.remove();
  }
}

// ─── Templates ──────────────────────────────────────────────────────────────────────────

const fileOf = (path: string) => join(ROOT, path.startsWith(SYSTEM_PATH) ? path.slice(SYSTEM_PATH.length) : path);

/** getTemplate(path): the compiled template, cached per client. */
export async function getTemplate(path: string): Promise<HandlebarsTemplateDelegate> {
  const c = current();
  let t = c.templateCache.get(path);
  if (!t) {
    await c.world.delay("template", c);
    t = c.handlebars.compile(readFileSync(fileOf(path), "utf8"));
    c.templateCache.set(path, t);
  }
  return t;
}

/**
 * loadTemplates({name: path} | [path]): registers each file as a partial (by key, or by path for
 * a list) and returns a promise: nothing waits for it unless the caller does (FOUNDRY-V13.md).
 */
export function loadTemplates(paths: string[] | Record<string, string>): Promise<HandlebarsTemplateDelegate[]> {
  const c = current();
  return c.world.track(loadAll(c, paths));
}
async function loadAll(
  c: ReturnType<typeof current>,
  paths: string[] | Record<string, string>,
): Promise<HandlebarsTemplateDelegate[]> {
  const entries = Array.isArray(paths) ? paths.map((p) => [p, p] as const) : Object.entries(paths);
  const out: HandlebarsTemplateDelegate[] = [];
  for (const [name, path] of entries) {
    const t = await getTemplate(path);
    c.handlebars.registerPartial(name, t);
    out.push(t);
  }
  return out;
}

/** renderTemplate(path, data): the template rendered with this client's Handlebars (helpers, partials). */
export async function renderTemplate(path: string, data: Rec = {}): Promise<string> {
  const t = await getTemplate(path);
  return t(data, { allowProtoPropertiesByDefault: true, allowProtoMethodsByDefault: true });
}

/** A minimal FilePicker (the sheets only construct it). */
export class FilePicker {
  static get implementation() {
    return FilePicker;
  }
  constructor(readonly options: Rec = {}) {}
  async browse() {
    return this;
  }
}

/**
 * The combat tracker's menus as core builds them (ApplicationV2#_createContextMenu with the
 * default hook name "get{}ContextOptions", fired for the tracker's class and then its parent
 * classes: FOUNDRY-V13.md "Combat"). The combatant menu's rows are `li.combatant` with
 * `data-combatant-id`. v13 entries are `{name, icon, condition(li), callback(li)}`; v14 entries
 * are `{label, icon, visible(li), onClick(event, li)}` and v14 fires the same hook for the
 * combatant-group menu too (FOUNDRY-V13.md "v14"; Draw Steel 1.0 builds that menu with
 * `hookName: "getCombatantGroupContextOptions"` plus the parent hooks,
 * src/module/applications/sidebar/tabs/combat-tracker.mjs). Returns the entries.
 */
export function combatTrackerMenu(combat: unknown, menu: "combatant" | "group" = "combatant"): Rec[] {
  const v14 = current().world.generation >= 14;
  if (menu === "group" && !v14) return [];
  const entries: Rec[] = [
    v14
      ? { label: "COMBAT.CombatantUpdate", icon: "", visible: () => true, onClick: () => undefined }
      : { name: "COMBAT.CombatantUpdate", icon: "", condition: () => true, callback: () => undefined },
  ];
  const app = { viewed: combat };
  const hooks = (globalThis as unknown as { Hooks: { callAll(name: string, ...args: unknown[]): void } }).Hooks;
  const own = menu === "group" ? ["getCombatantGroupContextOptions"] : [];
  for (const name of [
    ...own,
    "getCombatTrackerContextOptions",
    "getAbstractSidebarTabContextOptions",
    "getApplicationV2ContextOptions",
  ])
    hooks.callAll(name, app, entries);
  return entries;
}

/** A tracker row for a combatant, as the menu's condition and callback receive it. */
export function combatantRow(id: string): HTMLElement {
  const li = document.createElement("li");
  li.className = "combatant";
  li.dataset.combatantId = id;
  return li;
}

/** A combatant-group row (v14), as the group menu's entries receive it. */
export function groupRow(id: string): HTMLElement {
  const li = document.createElement("li");
  li.className = "combatant-group";
  li.dataset.groupId = id;
  return li;
}

/**
 * ContextMenu: whether an entry is shown for a row, and its click. v14 still reads a v13-shaped
 * entry, with a compatibility warning (dnd5e 5.3 mutes /ContextMenuEntry#/ on v14).
 */
export function menuEntryShown(entry: Rec, li: HTMLElement): boolean {
  const c = current();
  if (c.world.generation >= 14 && !("visible" in entry) && "condition" in entry)
    c.world.deprecate(c, "ContextMenuEntry#condition is deprecated: use ContextMenuEntry#visible");
  const test = (entry.visible ?? entry.condition) as ((li: HTMLElement) => boolean) | boolean | undefined;
  return typeof test === "function" ? !!test(li) : test !== false;
}
export function menuEntryClick(entry: Rec, li: HTMLElement): unknown {
  const c = current();
  if (typeof entry.onClick === "function")
    return (entry.onClick as (e: Event, li: HTMLElement) => unknown)(new Event("click"), li);
  if (c.world.generation >= 14)
    c.world.deprecate(c, "ContextMenuEntry#callback is deprecated: use ContextMenuEntry#onClick");
  return (entry.callback as (li: HTMLElement) => unknown)(li);
}
/** The entry's text: `label` (v14) or `name` (v13). */
export const menuEntryLabel = (entry: Rec): string => String(entry.label ?? entry.name ?? "");

/**
 * v13's sidebar CombatTracker (client/applications/sidebar/tabs/combat-tracker.mjs), as far as a
 * system's hook reads it: `viewed` (the combat shown), and its tracker part — an
 * `li.combatant[data-combatant-id]` per turn the user may see, with the name in `.token-name`
 * (templates/sidebar/tabs/combat/tracker.hbs). `_prepareTrackerContext` skips a combatant that is
 * not `visible` (v13 Combatant#visible: its owner, or not hidden). ApplicationV2 then fires
 * `renderCombatTracker(app, element, context, options)`.
 */
export class CombatTracker extends ApplicationV2 {
  viewed: { turns: { id: string; name: string; hidden: boolean; isOwner: boolean }[] } | null;
  constructor(options: Rec = {}) {
    super(options);
    this.viewed = (options.combat as CombatTracker["viewed"]) ?? null;
  }
  override async _renderHTML(): Promise<unknown> {
    const ol = document.createElement("ol");
    ol.className = "combat-tracker plain";
    for (const c of this.viewed?.turns ?? []) {
      if (!(c.isOwner || !c.hidden)) continue;
      const li = document.createElement("li");
      li.className = "combatant";
      li.dataset.combatantId = c.id;
      const name = document.createElement("div");
      name.className = "token-name";
      const strong = document.createElement("strong");
      strong.className = "name";
      strong.textContent = c.name;
      name.append(strong);
      li.append(name);
      ol.append(li);
    }
    return ol;
  }
}

/**
 * v13's Actors directory (client/applications/sidebar/tabs/actor-directory.mjs over
 * DocumentDirectory, client/applications/sidebar/document-directory.mjs), as far as a system's
 * hooks read it. Its element: the header's `.header-actions` (templates/sidebar/directory/header.hbs)
 * and one `li.directory-item.entry.actor[data-entry-id]` per actor the user may see
 * (templates/sidebar/partials/document-partial.hbs); ApplicationV2 then fires
 * `renderActorDirectory(app, element, context, options)`. Returns the element.
 */
export function renderActorDirectory(): HTMLElement {
  const c = current();
  const section = document.createElement("section");
  section.className = "tab sidebar-tab directory flexcol actors-sidebar";
  section.innerHTML = `<header class="directory-header"><div class="header-actions action-buttons flexrow"></div></header><ol class="directory-list"></ol>`;
  const list = section.querySelector("ol")!;
  for (const a of (c.game.actors as unknown as { contents: { id: string; name: string; visible?: boolean }[] })
    .contents) {
    if (a.visible === false) continue;
    const li = document.createElement("li");
    li.className = "directory-item entry actor";
    li.dataset.entryId = a.id;
    li.textContent = a.name;
    list.append(li);
  }
  const app = { documentName: "Actor", element: section };
  const hooks = (globalThis as unknown as { Hooks: { callAll(name: string, ...args: unknown[]): void } }).Hooks;
  hooks.callAll("renderActorDirectory", app, section, {}, {});
  return section;
}

/**
 * The Actors directory's entry menu as v13 builds it (DocumentDirectory#_createContextMenus: the
 * entries on `.directory-item[data-entry-id]`, `hookName: "get" + documentName + "ContextOptions"`
 * with `parentClassHooks: false`, so `getActorContextOptions(app, entries)` alone; v14 fires the same
 * hook, with v14-shaped core entries). Returns the entries.
 */
export function actorDirectoryMenu(): Rec[] {
  const v14 = current().world.generation >= 14;
  const entries: Rec[] = [
    v14
      ? { label: "OWNERSHIP.Configure", icon: "", visible: () => true, onClick: () => undefined }
      : { name: "OWNERSHIP.Configure", icon: "", condition: () => true, callback: () => undefined },
  ];
  const hooks = (globalThis as unknown as { Hooks: { callAll(name: string, ...args: unknown[]): void } }).Hooks;
  hooks.callAll("getActorContextOptions", { documentName: "Actor" }, entries);
  return entries;
}

/** An Actors directory entry, as the menu's condition and callback receive it. */
export function actorEntryRow(id: string): HTMLElement {
  const li = document.createElement("li");
  li.className = "directory-item entry actor";
  li.dataset.entryId = id;
  return li;
}
