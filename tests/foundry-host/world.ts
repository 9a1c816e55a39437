/**
 * The world: one server (the database, permission checks, validation, the broadcast) and one
 * Client per connected user, each with its own `game`, `CONFIG`, `ui`, `canvas`, Handlebars
 * environment and document instances, booted as Foundry boots (init → i18nInit → setup →
 * documents built from `game.data` → ready).
 *
 * Sources (public): v13 API docs (Game, ClientSettings, Users#activeGM, User#query,
 * CONFIG.queries, Hooks), FOUNDRY-V13.md for every behaviour it names.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import HandlebarsLib from "handlebars";
import { registerFoundryCoreHelpers } from "../../playground/foundry-core-helpers";
import { als, maybeCurrent } from "./context";
import { DiceQueue, Die, FateDie, Roll } from "./dice";
import {
  BASE_CLASSES,
  ChatMessage,
  Combat,
  DOC_META,
  LEGACY_MODE,
  HostCollection,
  HostDocument,
  OWNERSHIP,
  ROLES,
  Scene,
  TokenDocument,
  cleanDocumentSource,
  makeDocument,
} from "./documents";
import { DataModelValidationError, deepClone, isRec } from "./fields";
import { cleanHTML, diffObject, expandObject, getProperty, mergeObject, randomID, setProperty } from "./utils";
import { ActorSheet, DocumentSheetConfig, ItemSheet, type DialogAnswer, type DialogRequest } from "./apps";
import { HostToken, TokenLayer } from "./canvas";

import { ROOT } from "./paths";

type Rec = Record<string, unknown>;
export { ROOT, SYSTEM_PATH } from "./paths";

// ─── Users ──────────────────────────────────────────────────────────────────────────────

export class HostUser extends HostDocument {
  static override documentName = "User";
  get role(): number {
    return Number(this._source.role ?? 1);
  }
  /** User#isGM: Assistant GM or Game Master. */
  get isGM() {
    return this.role >= ROLES.ASSISTANT;
  }
  get active(): boolean {
    return this.client.world.clients.some((c) => c.userId === this.id && c.connected);
  }
  get isSelf() {
    return this.client.user.id === this.id;
  }
  /**
   * Server rule for User documents: a GM may update any user; a player only himself, and not his
   * role (core BaseUser: players edit their own name, avatar, color, character, flags — Dice So
   * Nice stores a player's settings in his own User flags this way).
   */
  override canUserModify(user: HostUser, action: "create" | "update" | "delete", data?: Rec): boolean {
    if (user.isGM) return true;
    return action === "update" && user.id === this.id && !(data && "role" in data);
  }
  /** v13 Users#activeGM: among connected GMs, the highest role, then the lowest id. */
  get isActiveGM(): boolean {
    return this.client.game.users.activeGM?.id === this.id;
  }
  get character() {
    return this.client.game.actors.get(String(this._source.character)) ?? null;
  }
  /** Targeted tokens (placeables) — meaningful for the client's own user. */
  get targets(): Set<unknown> {
    return this.client.targetsOf(this.id!);
  }
  /**
   * User#query(name, data, {timeout}): runs CONFIG.queries[name] on this user's client as
   * `handler(data, {timeout})` — the handler is NOT told who asked (foundryvtt issue #13418;
   * FOUNDRY-V13.md "Queries"). Data travels as JSON both ways.
   */
  async query(name: string, data: unknown, { timeout }: { timeout?: number } = {}): Promise<unknown> {
    const world = this.client.world;
    const target = world.clients.find((c) => c.userId === this.id && c.connected);
    if (!target) throw new Error(`User ${this.name} is not active`);
    const payload = JSON.parse(JSON.stringify(data ?? null));
    world.queries.push({ name, from: this.client.user.id, to: this.id!, data: payload });
    await world.delay("query", this.client);
    const handler = (target.CONFIG.queries as Record<string, (d: unknown, o: unknown) => unknown>)[name];
    if (!handler) throw new Error(`No query handler "${name}" on ${this.name}'s client`);
    const options = world.handlerOptions({ timeout }, this.client.user);
    const result = await target.run(() => handler(payload, options));
    await world.delay("query", target);
    return result === undefined ? undefined : JSON.parse(JSON.stringify(result));
  }
}
BASE_CLASSES.User = HostUser;
DOC_META.User.keys.role = 1;

class Users extends HostCollection<HostUser> {
  get activeGM(): HostUser | null {
    const gms = this.filter((u) => u.isGM && u.active).sort(
      (a, b) => b.role - a.role || String(a.id).localeCompare(String(b.id)),
    );
    return gms[0] ?? null;
  }
  get current() {
    return maybeCurrent()?.user ?? null;
  }
  get players() {
    return this.filter((u) => !u.isGM);
  }
}

// ─── Hooks ──────────────────────────────────────────────────────────────────────────────

interface HookEntry {
  id: number;
  name: string;
  fn: (...args: unknown[]) => unknown;
  once: boolean;
  /** Registered while this client ran (its init), or null: at module load, so on every client. */
  client: Client | null;
  firedOn: WeakSet<Client>;
}

/**
 * Hooks as core: `on/once/off/call/callAll`. Module code registers once for every client
 * (each real client evaluates the module); registrations made while a client runs belong to it.
 * A throwing callback is logged and the others still run (core Hooks.onError); callAll never
 * awaits a returned promise.
 */
export class HostHooks {
  private entries: HookEntry[] = [];
  private nextId = 1;
  errors: { hook: string; error: unknown }[] = [];
  on(name: string, fn: (...a: any[]) => unknown): number {
    const e: HookEntry = {
      id: this.nextId++,
      name,
      fn,
      once: false,
      client: maybeCurrent() ?? null,
      firedOn: new WeakSet(),
    };
    this.entries.push(e);
    return e.id;
  }
  once(name: string, fn: (...a: any[]) => unknown): number {
    const id = this.on(name, fn);
    this.entries.find((e) => e.id === id)!.once = true;
    return id;
  }
  off(name: string, fn: number | ((...a: any[]) => unknown)): void {
    this.entries = this.entries.filter((e) => !(e.name === name && (e.id === fn || e.fn === fn)));
  }
  private run(name: string, args: unknown[], stopOnFalse: boolean): boolean {
    const client = maybeCurrent();
    for (const e of [...this.entries]) {
      if (e.name !== name) continue;
      if (e.client && e.client !== client) continue;
      if (e.once && client) {
        if (e.firedOn.has(client)) continue;
        e.firedOn.add(client);
      }
      try {
        const r = e.fn(...args);
        if (r instanceof Promise) r.catch((error) => this.errors.push({ hook: name, error }));
        if (stopOnFalse && r === false) return false;
      } catch (error) {
        this.errors.push({ hook: name, error });
        console.error(`foundry-host | hook ${name} threw`, error);
      }
    }
    return true;
  }
  callAll(name: string, ...args: unknown[]): true {
    this.run(name, args, false);
    return true;
  }
  call(name: string, ...args: unknown[]): boolean {
    return this.run(name, args, true);
  }
  /** Callbacks registered for a hook on the current client (for tests). */
  count(name: string): number {
    const c = maybeCurrent();
    return this.entries.filter((e) => e.name === name && (!e.client || e.client === c)).length;
  }
}

// ─── Settings ───────────────────────────────────────────────────────────────────────────

interface SettingConfig {
  scope: "world" | "client" | "user";
  type?: unknown;
  default?: unknown;
  onChange?: (v: unknown) => void;
  config?: boolean;
  choices?: Rec;
}

/**
 * ClientSettings: `register` per client; world values live on the server (only a GM may set
 * them; every client's onChange runs), client values on the client.
 */
class HostSettings {
  settings = new Map<string, SettingConfig>();
  menus = new Map<string, Rec>();
  private local = new Map<string, unknown>();
  constructor(private readonly client: Client) {}
  register(ns: string, key: string, cfg: SettingConfig) {
    this.settings.set(`${ns}.${key}`, { ...cfg, scope: cfg.scope ?? "client" });
  }
  registerMenu(ns: string, key: string, cfg: Rec) {
    this.menus.set(`${ns}.${key}`, cfg);
  }
  /** The client's own roll/message mode, as v13 names it (what core reads for "roll"). */
  currentMode(): string {
    if (this.client.world.generation < 14) return String(this.get("core", "rollMode"));
    const m = String(this.get("core", "messageMode"));
    return LEGACY_MODE[m] ?? m;
  }
  get(ns: string, key: string): unknown {
    const k = `${ns}.${key}`;
    // v14: core.rollMode is core.messageMode under its old name, deprecated (dnd5e 5.3 mutes /core\.rollMode/).
    if (k === "core.rollMode" && this.client.world.generation >= 14) {
      this.client.world.deprecate(this.client, 'The "core.rollMode" setting is deprecated: use "core.messageMode"');
      const m = String(this.get("core", "messageMode"));
      return LEGACY_MODE[m] ?? m;
    }
    const cfg = this.settings.get(k);
    if (!cfg) throw new Error(`"${k}" is not a registered game setting`);
    const stored = cfg.scope === "world" ? this.client.world.server.settings.get(k) : this.local.get(k);
    return deepClone(stored === undefined ? cfg.default : stored);
  }
  async set(ns: string, key: string, value: unknown): Promise<unknown> {
    const k = `${ns}.${key}`;
    if (k === "core.rollMode" && this.client.world.generation >= 14) {
      this.client.world.deprecate(this.client, 'The "core.rollMode" setting is deprecated: use "core.messageMode"');
      const v14 = Object.entries(LEGACY_MODE).find(([, v13]) => v13 === value)?.[0] ?? String(value);
      return this.set("core", "messageMode", v14);
    }
    const cfg = this.settings.get(k);
    if (!cfg) throw new Error(`"${k}" is not a registered game setting`);
    const v =
      cfg.type === Number
        ? Number(value)
        : cfg.type === Boolean
          ? Boolean(value)
          : cfg.type === String
            ? String(value)
            : deepClone(value);
    if (cfg.scope === "world") {
      if (!this.client.user.isGM)
        throw new Error(`User ${this.client.user.name} lacks permission to update Setting ${k}`);
      await this.client.world.delay("setting");
      this.client.world.server.settings.set(k, deepClone(v));
      for (const c of this.client.world.connectedClients())
        c.run(() => c.game.settings.settings.get(k)?.onChange?.(deepClone(v)));
    } else {
      this.local.set(k, v);
      cfg.onChange?.(v);
    }
    return v;
  }
}

// ─── i18n ───────────────────────────────────────────────────────────────────────────────

/** The few core strings the host's own core code shows (Foundry's lang/en.json). */
const CORE_STRINGS: Record<string, string> = {
  "CHAT.PrivateRollContent": "{user} privately rolled some dice",
  "CHAT.UnknownUser": "Unknown User",
};

class HostI18n {
  translations: Record<string, string>;
  lang = "en";
  constructor() {
    this.translations = { ...CORE_STRINGS, ...JSON.parse(readFileSync(join(ROOT, "lang", "en.json"), "utf8")) };
  }
  has(key: string) {
    return typeof this.translations[key] === "string";
  }
  localize(key: string) {
    return this.translations[key] ?? key;
  }
  format(key: string, data: Record<string, unknown> = {}) {
    return this.localize(key).replace(/{([^}]+)}/g, (m, k: string) => (k in data ? String(data[k]) : m));
  }
}

// ─── The client ─────────────────────────────────────────────────────────────────────────

export interface Notification {
  type: "info" | "warn" | "error";
  message: string;
}

export class Client {
  connected = true;
  game!: Rec & {
    user: HostUser;
    users: Users;
    actors: HostCollection;
    items: HostCollection;
    messages: HostCollection<ChatMessage>;
    combats: HostCollection<Combat>;
    scenes: HostCollection<Scene>;
    settings: HostSettings;
    i18n: HostI18n;
    system: Rec & { initiative?: string; id: string };
    data: Rec;
    ready: boolean;
    release: { generation: number; version: string };
    combat: Combat | null;
  };
  CONFIG!: Rec & {
    ChatMessage: Rec & { documentClass: unknown };
    Combat: Rec;
    Dice: Rec & { randomUniform: () => number };
    statusEffects: unknown;
    queries: Rec;
  };
  ui!: Rec & { notifications: Rec };
  canvas!: Rec & { scene: Scene | null };
  handlebars!: typeof HandlebarsLib;
  notifications: Notification[] = [];
  log: { level: string; message: string }[] = [];
  /** ApplicationV2 instances on this client (foundry.applications.instances). */
  apps = new Map<string, { render(o?: unknown): Promise<unknown>; rendered?: boolean; close?(): unknown }>();
  /** Rendered chat messages (ui.chat), by message id: the elements in this client's chat log. */
  chatLog = new Map<string, HTMLElement>();
  /** Each element as the chat log inserted it (its HTML then), in order. */
  readonly chatInserted: { id: string; html: string }[] = [];
  /** This client's chat log element (`#chat .chat-log`), in the document. */
  readonly chatElement: HTMLOListElement = document.createElement("ol");
  /** Partials loaded by loadTemplates (name → source). */
  templateCache = new Map<string, HandlebarsTemplateDelegate>();
  sheetConfig = new Map<
    string,
    { id: string; cls: unknown; types: string[] | null; makeDefault: boolean; label?: string }[]
  >();
  private targets = new Map<string, Set<unknown>>();
  private placeables = new WeakMap<HostDocument, Rec>();
  private sheets = new WeakMap<HostDocument, { render(o?: unknown): Promise<unknown> }>();

  /** This client's own User document (set as soon as the users are loaded, before `init`). */
  user: HostUser;
  constructor(
    readonly world: World,
    readonly userId: string,
  ) {
    this.user = { id: userId } as HostUser;
  }

  get hooks(): HostHooks {
    return this.world.hooks;
  }

  /** Runs `fn` as this client: `game`, `CONFIG`, `ui`, `canvas` resolve to this client inside it. */
  run<T>(fn: () => T): T {
    return als.run(this, fn);
  }

  targetsOf(userId: string): Set<unknown> {
    let s = this.targets.get(userId);
    if (!s) this.targets.set(userId, (s = new Set()));
    return s;
  }
  /**
   * A click by this client's user: DOM listeners (sheets, chat cards) run as this client, as
   * they would in his browser.
   */
  click(el: Element | null | undefined): void {
    if (!el) throw new Error(`foundry-host: nothing to click on ${this.user.name}'s client`);
    this.run(() => (el as HTMLElement).click());
  }
  /** A changed form field (value set, then a bubbling `change` event) on this client. */
  change(el: Element | null | undefined, value: string | boolean): void {
    if (!el) throw new Error(`foundry-host: no field on ${this.user.name}'s client`);
    this.run(() => {
      const input = el as HTMLInputElement;
      if (typeof value === "boolean") input.checked = value;
      else input.value = value;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }
  /** Target tokens as this client's user (game.user.targets). */
  target(...tokens: HostDocument[]): void {
    const s = this.targetsOf(this.user.id!);
    s.clear();
    for (const t of tokens) s.add(this.placeable(t));
  }
  /** Tokens this client's user has selected (canvas.tokens.controlled). */
  readonly selected: Rec[] = [];
  /** Select tokens as this client's user (canvas.tokens.controlled), replacing the selection. */
  select(...tokens: HostDocument[]): void {
    for (const p of this.selected) (p as { release?: () => void }).release?.();
    this.selected.splice(0, this.selected.length, ...tokens.map((t) => this.placeable(t)));
    for (const p of this.selected) (p as { control?: () => void }).control?.();
  }
  /** canvas.tokens on this client. */
  get canvasTokens(): TokenLayer {
    return (this.canvas as unknown as { tokens: TokenLayer }).tokens;
  }
  /** The grid size in pixels (canvas.dimensions.size). */
  get canvasGridSize(): number {
    return Number((this.canvas as unknown as { grid: { size: number } }).grid.size);
  }
  /**
   * A token placeable for a TokenDocument of this client: the canvas's Token object when the
   * token is on the viewed scene, else a plain stand-in (id, document, actor) for a token elsewhere.
   */
  placeable(doc: HostDocument): Rec {
    if ((doc.parent as Scene | null)?.isView) return this.canvasTokens.objectOf(doc) as unknown as Rec;
    let p = this.placeables.get(doc);
    if (!p) {
      const d = doc as unknown as { id: string; actor: unknown };
      p = {
        document: doc,
        get id() {
          return d.id;
        },
        get actor() {
          return d.actor;
        },
      };
      this.placeables.set(doc, p);
    }
    return p;
  }
  /** The sheet core would open for a document (DocumentSheetConfig: the default registered class). */
  sheetFor(doc: HostDocument): { render(o?: unknown): Promise<unknown> } | null {
    let s = this.sheets.get(doc);
    if (s) return s;
    const list = (this.sheetConfig.get(doc.documentName) ?? []).filter((e) => !e.types || e.types.includes(doc.type));
    const entry = list.find((e) => e.makeDefault) ?? list[0];
    if (!entry) return null;
    const Cls = entry.cls as new (o: Rec) => { render(o?: unknown): Promise<unknown> };
    s = this.run(() => new Cls({ document: doc }));
    this.sheets.set(doc, s);
    return s;
  }

  notify(type: Notification["type"], message: unknown) {
    this.notifications.push({ type, message: String(message) });
    return { id: this.notifications.length };
  }

  /** Boots the client as Foundry does: init, i18nInit, setup, documents from game.data, ready. */
  async boot(): Promise<void> {
    await this.run(async () => {
      this.handlebars = HandlebarsLib.create();
      const i18n = new HostI18n();
      registerFoundryCoreHelpers(this.handlebars, {
        localize: (k) => i18n.localize(k),
        format: (k, p) => i18n.format(k, p as Rec),
        has: (k) => i18n.has(k),
      });
      const server = this.world.server;
      this.game = {
        user: this.user,
        users: new Users("User", { client: this, parent: null }),
        actors: new HostCollection("Actor", { client: this, parent: null }),
        items: new HostCollection("Item", { client: this, parent: null }),
        messages: new HostCollection("ChatMessage", { client: this, parent: null }),
        combats: new HostCollection("Combat", { client: this, parent: null }),
        scenes: new HostCollection("Scene", { client: this, parent: null }),
        settings: new HostSettings(this),
        i18n,
        system: {
          id: this.world.manifest.id as string,
          version: this.world.manifest.version,
          initiative: this.world.manifest.initiative as string | undefined,
          documentTypes: this.world.manifest.documentTypes,
        },
        world: { id: "host-world" },
        // v13 GameTime#serverTime: the server's clock as this client knows it (one process: the same clock).
        time: {
          get serverTime() {
            return Date.now();
          },
        },
        // game.data: this client's own copy of the world as the server sent it (documents are built from these very objects).
        data: deepClone(server.snapshot()),
        ready: false,
        release: { generation: this.world.generation, version: `${this.world.generation}.350` },
        packs: loadPacks(this),
        paused: false,
        get combat() {
          return (
            (this as unknown as { combats: HostCollection<Combat> }).combats.find((c) => c._source.active === true) ??
            null
          );
        },
      } as never;
      this.CONFIG = makeConfig() as never;
      // v14: CONFIG.statusEffects is a record keyed by id.
      if (this.world.generation >= 14)
        this.CONFIG.statusEffects = Object.fromEntries(
          (this.CONFIG.statusEffects as { id: string }[]).map((e) => [e.id, e]),
        );
      this.ui = {
        notifications: {
          info: (m: unknown) => this.notify("info", m),
          warn: (m: unknown) => this.notify("warn", m),
          error: (m: unknown) => this.notify("error", m),
          notify: (m: unknown) => this.notify("info", m),
        },
        // v13 ChatLog#updateMessage(message, notify): the message's element drawn again from its data.
        chat: { scrollBottom: () => undefined, updateMessage: (m: ChatMessage) => this.drawMessage(m) },
      } as never;
      this.canvas = {
        ready: true,
        scene: null,
        grid: makeGrid(),
        // v13 canvas.dimensions.uiScale: the interface scale Token#_drawBar and the nameplates use.
        dimensions: { size: 100, uiScale: 1 },
        tokens: new TokenLayer(this),
      } as never;
      // v14 renames the roll-mode setting to core.messageMode (FOUNDRY-V13.md "v14"; dnd5e 5.3
      // BasicRoll.getMessageMode reads "rollMode" before 14, "messageMode" from 14).
      if (this.world.generation >= 14)
        this.game.settings.register("core", "messageMode", { scope: "client", type: String, default: "public" });
      else this.game.settings.register("core", "rollMode", { scope: "client", type: String, default: "publicroll" });
      DocumentSheetConfig.registerSheet(BASE_CLASSES.Actor, "core", ActorSheet, { makeDefault: true });
      DocumentSheetConfig.registerSheet(BASE_CLASSES.Item, "core", ItemSheet, { makeDefault: true });
      this.game.users.load((this.game.data.users as Rec[]) ?? []);
      this.user = this.game.users.get(this.userId)!;
      this.game.user = this.user;
      this.hooks.callAll("init");
      this.hooks.callAll("i18nInit");
      this.hooks.callAll("setup");
      const d = this.game.data as Record<string, Rec[]>;
      this.game.actors.load(d.actors ?? []);
      this.game.items.load(d.items ?? []);
      this.game.scenes.load(d.scenes ?? []);
      this.game.combats.load(d.combats ?? []);
      this.game.messages.load(d.messages ?? []);
      this.canvas.scene = this.game.scenes.find((s) => s.active) ?? null;
      this.game.ready = true;
      this.hooks.callAll("ready");
    });
    // Chat log: messages already in the world are drawn at start-up (before any partial has loaded).
    this.chatElement.className = "chat-log";
    this.chatElement.dataset.userId = this.userId;
    document.body.append(this.chatElement);
    this.run(() => {
      for (const m of this.game.messages.values()) this.drawMessage(m).catch((e) => this.logError(e)); // the chat log draws without waiting, as core's does
    });
  }

  private logError(e: unknown): void {
    this.log.push({ level: "error", message: String(e) });
  }

  /**
   * ui.chat (v13 ChatLog#postOne / #updateMessage, called from ChatMessage#_onCreate/_onUpdate in
   * client/documents/chat-message.mjs): a message this user may see is rendered with
   * `message.renderHTML()`, awaited, and the element is inserted (or replaces the prior one) as it
   * stands then; the log scrolls to it at once. `chatInserted` records each element's HTML at
   * that moment: what the log measured and scrolled to. An update that hides the message removes it.
   */
  drawMessage(message: ChatMessage): Promise<void> {
    return this.world.track(this.postOne(message));
  }
  private async postOne(message: ChatMessage): Promise<void> {
    if (!message.visible) {
      this.removeMessage(message.id!);
      return;
    }
    try {
      const html = await message.renderHTML();
      const prior = this.chatLog.get(message.id!);
      if (prior?.isConnected) prior.replaceWith(html);
      else this.chatElement.append(html);
      this.chatLog.set(message.id!, html);
      this.chatInserted.push({ id: message.id!, html: html.outerHTML });
    } catch (e) {
      this.log.push({ level: "error", message: `chat render ${message.id}: ${String(e)}` });
    }
  }
  removeMessage(id: string): void {
    this.chatLog.get(id)?.remove();
    this.chatLog.delete(id);
  }

  // ─── Receiving the server's broadcast ─────────────────────────────────────────────

  receive(op: BroadcastOp): HostDocument[] {
    return this.run(() => {
      const out: HostDocument[] = [];
      const parent = op.parentUuid ? this.resolveUuid(op.parentUuid) : null;
      const hook = (name: string) => `${name}${op.documentName === "Token" ? "Token" : op.documentName}`;
      if (parent) {
        // Embedded change: the parent's source is replaced by the server's and re-prepared.
        const before = new Map(parent.getEmbeddedCollection(op.documentName).entries());
        if (op.documentName === "Combatant") (parent as Combat)._recordPrevious?.();
        parent._initializeSource(deepClone(op.parentSource!), true);
        parent.prepareData();
        const coll = parent.getEmbeddedCollection(op.documentName);
        for (const r of op.results) {
          const doc = op.action === "delete" ? before.get(String(r._id)) : coll.get(String(r._id));
          if (!doc) continue;
          out.push(doc);
          if (op.action === "create") this.hooks.callAll(hook("create"), doc, op.options, op.userId);
          else if (op.action === "update") {
            if (op.documentName === "Token") this.canvasTokens.drawnOf(doc)?._onUpdate(r);
            this.hooks.callAll(hook("update"), doc, r, op.options, op.userId);
          } else this.hooks.callAll(hook("delete"), doc, op.options, op.userId);
        }
        this.rerender(parent);
        return out;
      }
      const coll = (this.game as unknown as Record<string, HostCollection>)[DOC_META[op.documentName].collection];
      for (const [i, r] of op.results.entries()) {
        const id = String(r._id);
        if (op.action === "create") {
          const doc = coll.loadOne(deepClone(op.sources[i]));
          if (!doc) continue;
          out.push(doc);
          doc._onCreate(r, op.options, op.userId);
          this.hooks.callAll(hook("create"), doc, op.options, op.userId);
          if (doc instanceof ChatMessage) this.drawMessage(doc).catch((e) => this.logError(e)); // the chat log draws without waiting, as core's does
        } else if (op.action === "update") {
          let doc = coll.get(id);
          if (!doc) {
            // A repaired invalid document becomes valid and is loaded.
            doc = coll.loadOne(deepClone(op.sources[i])) ?? undefined;
            if (!doc) continue;
          } else {
            if (doc instanceof Combat) doc._recordPrevious();
            doc._initializeSource(deepClone(op.sources[i]), true);
            doc.prepareData();
          }
          out.push(doc);
          doc._onUpdate(r, op.options, op.userId);
          this.hooks.callAll(hook("update"), doc, r, op.options, op.userId);
          if (doc instanceof Combat && ("turn" in r || "round" in r)) {
            const p = doc._manageTurnEvents();
            this.world.watch(p);
          }
          if (doc instanceof ChatMessage) this.drawMessage(doc).catch((e) => this.logError(e)); // the chat log draws without waiting, as core's does
          if (op.documentName === "Actor") this.relatedTokensUpdate(doc, r, op.options);
          this.rerender(doc);
        } else {
          const doc = coll.get(id);
          if (!doc) continue;
          coll.delete(id);
          out.push(doc);
          doc._onDelete(op.options, op.userId);
          this.hooks.callAll(hook("delete"), doc, op.options, op.userId);
          this.removeMessage(id);
        }
      }
      if (op.documentName === "Scene") this.canvas.scene = this.game.scenes.find((s) => s.active) ?? null;
      return out;
    });
  }

  /** Actor#_onUpdate → TokenDocument#_onRelatedUpdate for its tokens on the viewed scene (the HUD and the bars follow). */
  private relatedTokensUpdate(actor: HostDocument, changed: Rec, options: Rec): void {
    const scene = this.canvas.scene as Scene | null;
    if (!scene) return;
    for (const t of scene.tokens.contents)
      if (t._source.actorId === actor.id) (t as TokenDocument)._onRelatedUpdate(changed, options);
  }

  /** Open sheets of a document re-render after its update (core: `render(false)` on `doc.apps`). */
  private rerender(doc: HostDocument): void {
    for (const app of Object.values(doc.apps))
      if (app.rendered) this.world.watch(Promise.resolve(app.render({ force: false })));
    if (doc.parent) this.rerender(doc.parent);
  }

  resolveUuid(uuid: string): HostDocument | null {
    const parts = uuid.split(".");
    // A compendium entry, Compendium.<package>.<pack>.<Document>.<id> (v13 uuid form): a document
    // built from the pack's source, not in the world.
    if (parts[0] === "Compendium" && parts.length === 5) {
      const pack = (this.game as unknown as { packs: Map<string, Rec> }).packs.get(`${parts[1]}.${parts[2]}`);
      const src = (pack?.getSource as ((id: string) => Rec | null) | undefined)?.(parts[4]);
      return src && pack?.documentName === parts[3]
        ? this.run(() => makeDocument(this, parts[3], src, null, true))
        : null;
    }
    let doc: HostDocument | null = null;
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const [name, id] = [parts[i], parts[i + 1]];
      if (!doc) {
        const meta = DOC_META[name];
        if (!meta) return null;
        doc =
          ((this.game as unknown as Record<string, HostCollection>)[meta.collection]?.get(id) as
            HostDocument | undefined) ?? null;
      } else doc = doc.getEmbeddedCollection(name)?.get(id) ?? null;
      if (!doc) return null;
    }
    return doc;
  }
}

/**
 * The system's compendium packs from their sources (packs/src/<name>/*.json): `getDocuments()`
 * builds documents that are not in the world (as a CompendiumCollection's are).
 */
function loadPacks(client: Client): Map<string, Rec> {
  const out = new Map<string, Rec>();
  const manifest = client.world.manifest as { id: string; packs: { name: string; type: string; label: string }[] };
  for (const p of manifest.packs) {
    const dir = join(ROOT, "packs", "src", p.name);
    const key = `${manifest.id}.${p.name}`;
    out.set(key, {
      collection: key,
      documentName: p.type,
      metadata: { ...p, id: key },
      /** One entry's source by id (what fromUuid reads for a Compendium uuid). */
      getSource(id: string): Rec | null {
        if (!DOC_META[p.type]) return null;
        for (const f of readdirSync(dir).filter((x) => x.endsWith(".json"))) {
          const src = JSON.parse(readFileSync(join(dir, f), "utf8")) as Rec;
          if (src._id === id) return src;
        }
        return null;
      },
      async getDocuments() {
        if (!DOC_META[p.type]) return [];
        const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
        return client.run(() =>
          files.map((f) => makeDocument(client, p.type, JSON.parse(readFileSync(join(dir, f), "utf8")), null, true)),
        );
      },
    });
  }
  return out;
}

function makeGrid() {
  return {
    size: 100,
    distance: 1,
    /** Grid#measurePath: straight-line distance in grid units (enough for token-to-token range). */
    measurePath(waypoints: { x: number; y: number }[]) {
      let d = 0;
      for (let i = 1; i < waypoints.length; i++)
        d += Math.hypot(waypoints[i].x - waypoints[i - 1].x, waypoints[i].y - waypoints[i - 1].y) / 100;
      return { distance: d };
    },
  };
}

/** CONFIG as core sets it before `init` (the parts this system reads or writes). */
function makeConfig(): Rec {
  const docCfg = (name: string) => ({
    documentClass: BASE_CLASSES[name],
    dataModels: {},
    typeLabels: {},
    trackableAttributes: {},
  });
  return {
    Actor: docCfg("Actor"),
    Item: docCfg("Item"),
    ChatMessage: docCfg("ChatMessage"),
    ActiveEffect: docCfg("ActiveEffect"),
    Scene: docCfg("Scene"),
    Token: { ...docCfg("Token"), objectClass: HostToken },
    Combatant: docCfg("Combatant"),
    User: docCfg("User"),
    // Core default: no formula; the manifest's `initiative` is used when this is unset.
    Combat: { ...docCfg("Combat"), initiative: { formula: null, decimals: 2 } },
    Dice: {
      randomUniform: Math.random,
      rolls: [Roll],
      // Core (v13 client config.mjs): CONFIG.Dice.terms by denomination, CONFIG.Dice.types the die classes.
      terms: { d: Die, f: FateDie },
      types: [Die, FateDie],
      rollModes: {
        publicroll: "CHAT.RollPublic",
        gmroll: "CHAT.RollPrivate",
        blindroll: "CHAT.RollBlind",
        selfroll: "CHAT.RollSelf",
      },
    },
    statusEffects: [
      { id: "dead", name: "EFFECT.StatusDead", img: "icons/svg/skull.svg" },
      { id: "unconscious", name: "EFFECT.StatusUnconscious", img: "icons/svg/unconscious.svg" },
      { id: "prone", name: "EFFECT.StatusProne", img: "icons/svg/falling.svg" },
      { id: "stun", name: "EFFECT.StatusStunned", img: "icons/svg/daze.svg" },
    ],
    specialStatusEffects: { DEFEATED: "dead", INVISIBLE: "invisible", BLIND: "blind" },
    queries: {},
  };
}

// ─── The server ─────────────────────────────────────────────────────────────────────────

export interface Request {
  action: "create" | "update" | "delete" | "activateScene";
  documentName: string;
  parentUuid: string | null;
  data: Rec[];
  options: Rec;
}
interface BroadcastOp {
  action: "create" | "update" | "delete";
  documentName: string;
  parentUuid: string | null;
  /** Per result: the created data, the update diff (`changed`) or `{_id}`. */
  results: Rec[];
  /** Full stored sources of the affected top-level documents (create/update). */
  sources: Rec[];
  parentSource?: Rec;
  options: Rec;
  userId: string;
}

/**
 * What an update changed (v13 DataModel#updateSource's diff, `deletionKeys: true`): the values that
 * differ, and `-=key: null` for a key the update removed — a deletion alone is a change.
 */
function updateDiff(current: Rec, next: Rec): Rec {
  const out = diffObject(current, next);
  const removed = (a: Rec, b: Rec, into: Rec) => {
    for (const [k, v] of Object.entries(a)) {
      if (!(k in b)) into[`-=${k}`] = null;
      else if (isRec(v) && isRec(b[k])) {
        const inner = (into[k] as Rec | undefined) ?? {};
        removed(v, b[k] as Rec, inner);
        if (Object.keys(inner).length) into[k] = inner;
      }
    }
  };
  removed(current, next, out);
  return out;
}

/**
 * v13 DocumentStatsField: `createdTime`, `modifiedTime`, `lastModifiedBy` (and the versions) are
 * managed by the server and ignored if they appear in creation or update data
 * (DocumentStatsField.managedFields, common/data/fields.mjs): the server stamps them.
 */
const MANAGED_STATS = ["coreVersion", "systemId", "systemVersion", "createdTime", "modifiedTime", "lastModifiedBy"];
function stripManagedStats(data: Rec): void {
  if (isRec(data._stats)) for (const k of MANAGED_STATS) delete data._stats[k];
}
/** Stamps a created document, or the stored document an update changed (its createdTime kept). */
function stampStats(data: Rec, user: HostUser, action: "create" | "update"): void {
  if (action === "create") stripManagedStats(data);
  const given = isRec(data._stats) ? data._stats : {};
  const now = Date.now();
  const stamp: Rec = { modifiedTime: now, lastModifiedBy: user.id };
  if (action === "create") stamp.createdTime = now;
  data._stats = { ...given, ...stamp };
}

export class Server {
  db: Record<string, Map<string, Rec>> = {
    User: new Map(),
    Actor: new Map(),
    Item: new Map(),
    ChatMessage: new Map(),
    Combat: new Map(),
    Scene: new Map(),
  };
  settings = new Map<string, unknown>();
  /** Every operation the server applied, in order (for tests). */
  journal: { action: string; documentName: string; userId: string; ids: string[]; options: Rec; data: Rec[] }[] = [];
  /** Every request a client sent, applied or not (a no-op update is still a round trip). */
  requests: { action: string; documentName: string; userId: string; data: Rec[] }[] = [];
  constructor(private readonly world: World) {}

  snapshot(): Rec {
    const arr = (n: string) => [...this.db[n].values()];
    return {
      users: arr("User"),
      actors: arr("Actor"),
      items: arr("Item"),
      messages: arr("ChatMessage"),
      combats: arr("Combat"),
      scenes: arr("Scene"),
    };
  }

  /** Puts stored data straight into the database (as an older version of the system wrote it). */
  seed(documentName: string, source: Rec): string {
    const id = String(source._id ?? randomID());
    this.db[documentName].set(id, { ...deepClone(source), _id: id });
    return id;
  }

  private locate(parentUuid: string): { top: Rec; topName: string; node: Rec } {
    const parts = parentUuid.split(".");
    const top = this.db[parts[0]]?.get(parts[1]);
    if (!top) throw new Error(`${parentUuid} does not exist`);
    let node = top;
    for (let i = 2; i + 1 < parts.length; i += 2) {
      const key = DOC_META[parts[i]].collection;
      const found = ((node[key] as Rec[]) ?? []).find((x) => x._id === parts[i + 1]);
      if (!found) throw new Error(`${parentUuid} does not exist`);
      node = found;
    }
    return { top, topName: parts[0], node };
  }

  /**
   * One request from a client: latency, permission, validation, storage, then the broadcast.
   * Concurrent updates (issue 28): a client sends only its changes (v13 client/data/client-backend.mjs
   * ClientDatabaseBackend#_preUpdateDocumentArray: `diffObject(doc._source, changes)`), the server
   * applies each request to the document as stored when it arrives, one after another, and every
   * client applies the incremental result it broadcasts (#_handleUpdateDocuments). So two clients'
   * writes of the same key: the later one to arrive wins; a whole replacement (`==key`) drops the other.
   */
  async request(client: Client, req: Request): Promise<HostDocument[]> {
    if (req.action === "update" && this.world.generation >= 14)
      for (const key of legacyKeys(req.data))
        this.world.deprecate(
          client,
          `The "${key}" update key is deprecated: use foundry.data.operators.ForcedDeletion / ForcedReplacement (_del / _replace)`,
        );
    this.requests.push({
      action: req.action,
      documentName: req.documentName,
      userId: client.userId,
      data: deepClone(req.data),
    });
    const work = (async () => {
      await this.world.delay(req.action, client);
      const user = client.user;
      if (req.action === "activateScene") return this.activateScene(client, req);
      return this.broadcast(client, this.apply(client, user, req));
    })();
    return this.world.track(work);
  }

  /** Every connected client applies the operation and fires its hooks; the requester gets its own documents. */
  private broadcast(client: Client, op: BroadcastOp | null): HostDocument[] {
    if (!op) return [];
    let mine: HostDocument[] = [];
    for (const c of this.world.connectedClients()) {
      const docs = c.receive(op);
      if (c === client) mine = docs;
    }
    return mine;
  }

  /**
   * The server cleans the HTML fields a package declares (system.json documentTypes.*.htmlFields,
   * paths relative to `system`; API: ServerSanitizationFields) on every create and update, for
   * every user; an actor's embedded items with it.
   */
  private cleanDeclaredHtml(documentName: string, src: Rec): void {
    const types = (
      this.world.manifest.documentTypes as Record<string, Record<string, { htmlFields?: string[] }>> | undefined
    )?.[documentName];
    const system = src.system;
    if (isRec(system))
      for (const path of types?.[String(src.type)]?.htmlFields ?? []) {
        const v = getProperty(system, path);
        if (typeof v === "string") setProperty(system, path, cleanHTML(v));
      }
    if (documentName === "Actor" && Array.isArray(src.items))
      for (const i of src.items) if (isRec(i)) this.cleanDeclaredHtml("Item", i);
  }

  private apply(client: Client, user: HostUser, req: Request): BroadcastOp | null {
    const { action, documentName, parentUuid, options } = req;
    const loc = parentUuid ? this.locate(parentUuid) : null;
    const arrKey = DOC_META[documentName].collection;
    const store = loc ? null : this.db[documentName];
    const list = loc ? ((loc.node[arrKey] as Rec[]) ?? (loc.node[arrKey] = [])) : null;
    const get = (id: string) => (store ? store.get(id) : list!.find((x) => x._id === id));
    const parentDoc = parentUuid ? client.resolveUuid(parentUuid) : null;
    // Validation builds the document on the requesting client's code (same models everywhere).
    const check = (src: Rec) => client.run(() => makeDocument(client, documentName, src, parentDoc, true));
    const results: Rec[] = [];
    const sources: Rec[] = [];
    const staged: (() => void)[] = [];
    for (const d of req.data) {
      if (action === "create") {
        const src = cleanDocumentSource(documentName, deepClone(expandObject(d)));
        src._id = options.keepId && d._id ? d._id : randomID();
        // Embedded documents created with their parent get ids too (items, effects, tokens, combatants).
        for (const key of Object.values(DOC_META[documentName].embedded))
          for (const e of (src[key] as Rec[] | undefined) ?? []) if (!e._id) e._id = randomID();
        // A message's author is the creating user; only a GM may name another (FOUNDRY-V13.md).
        if (documentName === "ChatMessage" && (!user.isGM || !src.author)) src.author = user.id;
        if (documentName === "ChatMessage")
          src.rolls = ((src.rolls as unknown[]) ?? []).map((r) => (typeof r === "string" ? r : JSON.stringify(r)));
        if (documentName === "ChatMessage" && !src.timestamp) src.timestamp = Date.now();
        stampStats(src, user, "create");
        const doc = check(src);
        // Cleaned as the server receives it: the client's constructed (migrated) source.
        this.cleanDeclaredHtml(documentName, src);
        if (!doc.canUserModify(user, "create", src))
          throw new Error(`User ${user.name} lacks permission to create ${documentName}`);
        const stored = deepClone(src);
        staged.push(() => (store ? store.set(String(src._id), stored) : list!.push(stored)));
        results.push(deepClone(src));
        sources.push(stored);
      } else if (action === "update") {
        const id = String(d._id);
        const old = get(id);
        if (!old) throw new Error(`${documentName} ${id} does not exist`);
        // The server's document is the stored data migrated and cleaned (as every load builds it).
        const current = deepClone(old);
        const oldDoc = client.run(() => makeDocument(client, documentName, current, parentDoc, false));
        const { _id, ...changes } = expandObject(d);
        // ChatMessage#rolls stores each Roll as its JSON string.
        if (documentName === "ChatMessage" && Array.isArray(changes.rolls))
          changes.rolls = changes.rolls.map((r) => (typeof r === "string" ? r : JSON.stringify(r)));
        if (!oldDoc.canUserModify(user, "update", changes))
          throw new Error(`User ${user.name} lacks permission to update ${documentName} [${id}]`);
        stripManagedStats(changes);
        const next = deepClone(current);
        if (options.recursive === false) for (const [k, v] of Object.entries(changes)) next[k] = deepClone(v);
        else mergeObject(next, changes);
        check(next);
        this.cleanDeclaredHtml(documentName, next);
        const diff = options.diff === false ? deepClone(changes) : updateDiff(current, next);
        if (!Object.keys(diff).length) continue;
        stampStats(next, user, "update");
        staged.push(() => {
          for (const k of Object.keys(old)) delete old[k];
          Object.assign(old, next);
        });
        results.push({ ...diff, _id: id });
        sources.push(old);
      } else {
        const id = String(d._id);
        const old = get(id);
        if (!old) throw new Error(`${documentName} ${id} does not exist`);
        const oldDoc = client.run(() => makeDocument(client, documentName, deepClone(old), parentDoc, false));
        if (!oldDoc.canUserModify(user, "delete"))
          throw new Error(`User ${user.name} lacks permission to delete ${documentName} [${id}]`);
        staged.push(() => (store ? store.delete(id) : list!.splice(list!.indexOf(old), 1)));
        results.push({ _id: id });
        sources.push(old);
      }
    }
    if (!results.length) return null;
    for (const s of staged) s();
    this.journal.push({
      action,
      documentName,
      userId: user.id!,
      ids: results.map((r) => String(r._id)),
      options: deepClone(options),
      data: deepClone(req.data),
    });
    return {
      action: action as BroadcastOp["action"],
      documentName,
      parentUuid,
      results,
      sources: sources.map((s) => deepClone(s)),
      parentSource: loc ? deepClone(loc.top) : undefined,
      options: deepClone(options),
      userId: user.id!,
    };
  }

  /** v13: the new scene `active: true` and the prior one `active: false`, in one batch, hooks for both on every client. */
  private activateScene(client: Client, req: Request): HostDocument[] {
    if (!client.user.isGM) throw new Error(`User ${client.user.name} lacks permission to activate a Scene`);
    const id = String(req.data[0]._id);
    const prior = [...this.db.Scene.values()].find((s) => s.active === true && s._id !== id);
    const data: Rec[] = [{ _id: id, active: true }];
    if (prior) data.push({ _id: prior._id, active: false });
    return this.broadcast(
      client,
      this.apply(client, client.user, {
        action: "update",
        documentName: "Scene",
        parentUuid: null,
        data,
        options: { ...req.options, _priorActiveScene: prior?._id ?? null },
      }),
    );
  }
}

/** The legacy `-=key` / `==key` update keys in update data, at any depth (dotted paths too). */
export function legacyKeys(data: unknown, out: string[] = []): string[] {
  if (Array.isArray(data)) for (const d of data) legacyKeys(d, out);
  else if (isRec(data))
    for (const [k, v] of Object.entries(data)) {
      if (k.split(".").some((part) => part.startsWith("-=") || part.startsWith("=="))) out.push(k);
      legacyKeys(v, out);
    }
  return out;
}

// ─── The world ──────────────────────────────────────────────────────────────────────────

export interface WorldOptions {
  /** Foundry generation: 13 or 14 (game.release.generation); default: the vitest project's (defaultGeneration). */
  generation?: number;
  /** Async latency of every server round trip in ms (or per action and client); 0 = next macrotask. */
  latency?: number | ((action: string, client?: Client) => number);
}

/** The generation a world runs as unless a test names one: the vitest project's (vitest.config.ts), else 13. */
export function defaultGeneration(): number {
  const g = Number(process.env.FUDGE_FOUNDRY_GENERATION);
  return g === 14 ? 14 : 13;
}

/** One hook registry for the process: module code registers once, as each real client evaluates it once. */
export const sharedHooks = new HostHooks();

export class World {
  readonly hooks = sharedHooks;
  readonly server = new Server(this);
  readonly dice = new DiceQueue();
  readonly clients: Client[] = [];
  readonly rolls: { formula: string; userId: string | null; faces: number[] }[] = [];
  readonly queries: { name: string; from: string; to: string; data: unknown }[] = [];
  readonly manifest: Rec;
  latency: number | ((action: string, client?: Client) => number);
  generation: number;
  /** Extra handler options a newer core passes (v14 builds may add `user`); v13 passes only {timeout}. */
  handlerOptions: (base: { timeout?: number }, sender: HostUser) => Rec = (base) => ({ ...base });
  private inFlight = new Set<Promise<unknown>>();
  /** Every dialog shown, in order; answers queued with answerDialogs (default: the OK button). */
  readonly dialogs: DialogRequest[] = [];
  private answers: (DialogAnswer | ((req: DialogRequest, client: Client) => DialogAnswer | void))[] = [];

  /** Queues answers for the next dialogs: "ok"/"yes", "no", "cancel", or a function filling the form. */
  answerDialogs(...answers: (DialogAnswer | ((req: DialogRequest, client: Client) => DialogAnswer | void))[]): void {
    this.answers.push(...answers);
  }
  async answerDialog(req: DialogRequest, client: Client): Promise<DialogAnswer> {
    this.dialogs.push(req);
    await new Promise((r) => setTimeout(r, 0));
    const a = this.answers.shift();
    if (!a) return "ok";
    return (typeof a === "function" ? a(req, client) : a) ?? "ok";
  }

  constructor(opts: WorldOptions = {}) {
    this.manifest = JSON.parse(readFileSync(join(ROOT, "system.json"), "utf8"));
    this.latency = opts.latency ?? 0;
    this.generation = opts.generation ?? defaultGeneration();
  }

  /** A template file is fetched over HTTP in Foundry: each takes at least this long (ms). */
  templateLatency = 3;
  async delay(action: string, client?: Client): Promise<void> {
    let ms = typeof this.latency === "function" ? this.latency(action, client) : this.latency;
    if (action === "template") ms = Math.max(ms, this.templateLatency);
    await new Promise((r) => setTimeout(r, ms));
  }

  /**
   * v14 compatibility warnings (foundry.utils.logCompatibilityWarning): what a v14 client logs
   * for a deprecated path the system took. dnd5e 5.3 (verified 14) mutes these very ones in
   * `CONFIG.compatibility.excludePatterns` (dnd5e.mjs, init): the `-=`/`==` keys
   * (/foundry\.data\.operators\.ForcedDeletion/), /core\.rollMode/, /ChatMessage\.applyRollMode/,
   * /ContextMenuEntry#/.
   */
  readonly deprecations: { userId: string; message: string }[] = [];
  /** This test forges legacy update keys on purpose (tests/foundry-host/guard.ts skips the world). */
  legacyKeysExpected = false;
  deprecate(client: Client, message: string): void {
    this.deprecations.push({ userId: client.userId, message });
    client.log.push({ level: "warn", message });
  }

  /** Rejections of work the host started and nobody awaited (click handlers, turn events, re-renders). */
  readonly errors: unknown[] = [];
  track<T>(p: Promise<T>): Promise<T> {
    this.watch(p);
    return p;
  }

  /** As track, for work nobody awaits: settle() waits for it, its failure lands in `errors`. */
  watch(p: Promise<unknown>): void {
    this.inFlight.add(p);
    const done = () => this.inFlight.delete(p);
    p.then(done, (e) => {
      done();
      this.errors.push(e);
    });
  }

  /** Waits until no server operation, turn event or sheet render the host started is pending. */
  async settle(maxRounds = 200): Promise<void> {
    for (let i = 0; i < maxRounds; i++) {
      await new Promise((r) => setTimeout(r, typeof this.latency === "number" ? this.latency + 1 : 5));
      if (!this.inFlight.size) {
        await new Promise((r) => setTimeout(r, 1));
        if (!this.inFlight.size) return;
      }
      await Promise.allSettled([...this.inFlight]);
    }
  }

  connectedClients(): Client[] {
    return this.clients.filter((c) => c.connected);
  }

  /** Adds a user to the database (GAMEMASTER = 4, PLAYER = 1). */
  addUser(name: string, role: number = ROLES.PLAYER): string {
    return this.server.seed("User", { name, role });
  }

  /** Connects a user: a new client boots (init … ready) with its own view of the world. */
  async connect(userId: string): Promise<Client> {
    if (!this.server.db.User.has(userId)) throw new Error(`no user ${userId}`);
    const client = new Client(this, userId);
    this.clients.push(client);
    await client.boot();
    return client;
  }

  disconnect(client: Client): void {
    client.connected = false;
  }
}

export { OWNERSHIP, ROLES, isRec, DataModelValidationError };
