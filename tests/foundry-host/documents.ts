/**
 * Client-side documents: each client holds its own instances built from its own copy of the
 * world's data; every write goes to the server (world.ts), which checks permission, validates,
 * stores and broadcasts; each client then updates its instances and fires the hooks with the
 * writing user's id.
 *
 * Sources (public): v13 API docs of ClientDocumentMixin, Document#update/create/delete, the
 * document hooks (`createX/updateX/deleteX(doc, data|changed, options, userId)`),
 * DocumentCollection#invalidDocumentIds / getInvalid, Actor#toggleStatusEffect, ChatMessage
 * (author ownership, applyRollMode, getSpeaker), Combat turn events, Scene#activate;
 * FOUNDRY-V13.md for every behaviour marked there.
 */
import { current } from "./context";
import { DataModelValidationError, deepClone, isRec, type TypeDataModel } from "./fields";
import { Roll } from "./dice";
import { escapeHTML } from "./utils";
import type { Client, HostUser } from "./world";

type Rec = Record<string, unknown>;

/** v14's message modes by their v13 roll-mode names (FOUNDRY-V13.md "v14"). */
export const LEGACY_MODE: Record<string, string> = {
  public: "publicroll",
  gm: "gmroll",
  blind: "blindroll",
  self: "selfroll",
};

export const OWNERSHIP = { INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 } as const;
export const ROLES = { NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 } as const;

/** Top-level keys each document type keeps when cleaned (others are dropped, as core's schemas do). */
export const DOC_META: Record<
  string,
  { collection: string; keys: Rec; embedded: Record<string, string>; system?: boolean }
> = {
  Actor: {
    collection: "actors",
    system: true,
    embedded: { Item: "items", ActiveEffect: "effects" },
    keys: {
      name: "",
      type: "base",
      img: "icons/svg/mystery-man.svg",
      system: {},
      items: [],
      effects: [],
      ownership: { default: 0 },
      flags: {},
      folder: null,
      sort: 0,
      prototypeToken: {},
      _stats: {},
    },
  },
  Item: {
    collection: "items",
    system: true,
    embedded: { ActiveEffect: "effects" },
    keys: {
      name: "",
      type: "base",
      img: "icons/svg/item-bag.svg",
      system: {},
      effects: [],
      ownership: { default: 0 },
      flags: {},
      folder: null,
      sort: 0,
      _stats: {},
    },
  },
  ChatMessage: {
    collection: "messages",
    system: true,
    embedded: {},
    keys: {
      type: "base",
      author: null,
      content: "",
      flavor: "",
      speaker: {},
      whisper: [],
      blind: false,
      rolls: [],
      system: {},
      flags: {},
      timestamp: 0,
      sound: null,
      style: 0,
      emote: false,
      _stats: {},
    },
  },
  Combat: {
    collection: "combats",
    embedded: { Combatant: "combatants" },
    keys: { round: 0, turn: null, active: true, scene: null, combatants: [], flags: {}, sort: 0, _stats: {} },
  },
  Combatant: {
    collection: "combatants",
    embedded: {},
    keys: {
      actorId: null,
      tokenId: null,
      sceneId: null,
      name: "",
      img: null,
      initiative: null,
      hidden: false,
      defeated: false,
      flags: {},
      _stats: {},
    },
  },
  Scene: {
    collection: "scenes",
    embedded: { Token: "tokens" },
    keys: {
      name: "",
      active: false,
      navigation: true,
      tokens: [],
      grid: { size: 100, distance: 1, units: "yd" },
      flags: {},
      _stats: {},
    },
  },
  Token: {
    collection: "tokens",
    embedded: {},
    keys: {
      name: "",
      actorId: null,
      actorLink: false,
      x: 0,
      y: 0,
      width: 1,
      height: 1,
      disposition: -1,
      hidden: false,
      displayBars: 0,
      bar1: { attribute: null },
      bar2: { attribute: null },
      delta: {},
      flags: {},
      _stats: {},
    },
  },
  ActiveEffect: {
    collection: "effects",
    embedded: {},
    keys: { name: "", img: null, statuses: [], disabled: false, changes: [], origin: null, flags: {}, _stats: {} },
  },
  User: { collection: "users", embedded: {}, keys: { name: "", role: 1, character: null, flags: {}, _stats: {} } },
};

/** Core's document cleaning: missing keys get their defaults, unknown top-level keys are dropped (in place). */
export function cleanDocumentSource(documentName: string, source: Rec): Rec {
  const meta = DOC_META[documentName];
  for (const k of Object.keys(source)) if (k !== "_id" && !(k in meta.keys)) delete source[k];
  for (const [k, v] of Object.entries(meta.keys)) if (source[k] === undefined) source[k] = deepClone(v);
  return source;
}

export class HostCollection<T extends HostDocument = HostDocument> extends Map<string, T> {
  /** Ids of stored documents that failed validation: not loaded (FOUNDRY-V13.md). */
  invalidDocumentIds = new Set<string>();
  private invalidSources = new Map<string, Rec>();
  constructor(
    readonly documentName: string,
    private readonly owner: { client: Client; parent: HostDocument | null },
  ) {
    super();
  }
  /**
   * As foundry.utils.Collection#[Symbol.iterator] (v13 common/utils/collection.mjs, public API
   * docs): "When iterating over a Collection, we should iterate over its values instead of over
   * its entries".
   */
  // @ts-expect-error -- Foundry's Collection narrows Map's entry iterator to its values (see above)
  override [Symbol.iterator](): MapIterator<T> {
    return this.values();
  }
  get contents(): T[] {
    return [...this.values()];
  }
  filter(fn: (d: T) => boolean) {
    return this.contents.filter(fn);
  }
  find(fn: (d: T) => boolean) {
    return this.contents.find(fn);
  }
  some(fn: (d: T) => boolean) {
    return this.contents.some(fn);
  }
  map<U>(fn: (d: T) => U) {
    return this.contents.map(fn);
  }
  getName(name: string) {
    return this.find((d) => d.name === name);
  }
  override get(id: string, { strict = false }: { strict?: boolean } = {}): T | undefined {
    const d = super.get(id);
    if (!d && strict) throw new Error(`${this.documentName} ${id} does not exist`);
    return d;
  }
  /** v13 DocumentCollection#getInvalid: the invalid document, built without validation, for repair. */
  getInvalid(id: string, { strict = true }: { strict?: boolean } = {}): T | undefined {
    const src = this.invalidSources.get(id);
    if (!src) {
      if (strict) throw new Error(`${this.documentName} ${id} is not an invalid document`);
      return undefined;
    }
    return makeDocument(this.owner.client, this.documentName, src, this.owner.parent, false) as T;
  }
  /** Builds the collection from sources (the very objects: migrated and cleaned in place). */
  load(sources: Rec[]): void {
    for (const src of sources) this.loadOne(src);
  }
  loadOne(src: Rec): T | null {
    const id = String(src._id);
    try {
      const doc = makeDocument(this.owner.client, this.documentName, src, this.owner.parent, true) as T;
      this.set(id, doc);
      this.invalidDocumentIds.delete(id);
      this.invalidSources.delete(id);
      return doc;
    } catch (e) {
      if (!(e instanceof DataModelValidationError)) throw e;
      this.delete(id);
      this.invalidDocumentIds.add(id);
      this.invalidSources.set(id, src);
      this.owner.client.log.push({
        level: "warn",
        message: `${this.documentName} ${id} failed validation: ${e.message}`,
      });
      return null;
    }
  }
}

export function documentClass(client: Client, documentName: string): typeof HostDocument {
  const cfg = (client.CONFIG as Rec)[documentName] as { documentClass?: typeof HostDocument } | undefined;
  return cfg?.documentClass ?? (BASE_CLASSES as Record<string, typeof HostDocument>)[documentName];
}

export function makeDocument(
  client: Client,
  documentName: string,
  source: Rec,
  parent: HostDocument | null,
  strict: boolean,
): HostDocument {
  const Cls = documentClass(client, documentName);
  return new Cls(source, { client, parent, strict });
}

export class HostDocument {
  static documentName = "Document";
  _source!: Rec;
  system: TypeDataModel | Rec | undefined;
  readonly client: Client;
  parent: HostDocument | null;
  apps: Record<string, { render(o?: unknown): unknown; rendered?: boolean }> = {};
  private embedded: Record<string, HostCollection> = {};

  constructor(
    source: Rec,
    { client, parent = null, strict = true }: { client?: Client; parent?: HostDocument | null; strict?: boolean } = {},
  ) {
    this.client = client ?? current();
    this.parent = parent;
    this._initializeSource(source, strict);
    this.prepareData();
  }

  get documentName(): string {
    return (this.constructor as typeof HostDocument).documentName;
  }
  get meta() {
    return DOC_META[this.documentName];
  }

  /** Migrates, cleans (in place) and validates `source`, then builds `system` and the embedded collections. */
  _initializeSource(source: Rec, strict: boolean): void {
    cleanDocumentSource(this.documentName, source);
    this._source = source;
    const failures: Record<string, string> = {};
    if (this.meta.system) {
      const models = (
        (this.client.CONFIG as Rec)[this.documentName] as { dataModels: Record<string, typeof TypeDataModel> }
      ).dataModels;
      const Model = models[String(source.type)];
      if (!Model && source.type !== "base")
        failures.type = `"${String(source.type)}" is not a valid type for the ${this.documentName} Document class`;
      if (!isRec(source.system)) source.system = {};
      if (Model) {
        try {
          this.system = new Model(source.system as Rec, { parent: this, strict });
        } catch (e) {
          if (!(e instanceof DataModelValidationError)) throw e;
          for (const [k, v] of Object.entries(e.failures)) failures[`system.${k}`] = v;
        }
      } else this.system = source.system as Rec;
    }
    if (Object.keys(failures).length && strict) throw new DataModelValidationError(failures);
    for (const [name, key] of Object.entries(this.meta.embedded)) {
      const coll = this.embedded[name] ?? new HostCollection(name, { client: this.client, parent: this });
      const keep = new Map(coll.entries());
      coll.clear();
      const arr = (Array.isArray(source[key]) ? source[key] : (source[key] = [])) as Rec[];
      // Invalid embedded documents are dropped from the parent and listed (FOUNDRY-V13.md).
      for (const src of arr) {
        const old = keep.get(String(src._id));
        if (old) {
          try {
            old._initializeSource(src, true);
            coll.set(String(src._id), old);
          } catch (e) {
            if (!(e instanceof DataModelValidationError)) throw e;
            coll.loadOne(src);
          }
        } else coll.loadOne(src);
      }
      this.embedded[name] = coll;
    }
  }

  getEmbeddedCollection(name: string): HostCollection {
    return this.embedded[name];
  }

  get id(): string {
    return this._source._id as string;
  }
  get _id() {
    return this.id;
  }
  get name(): string {
    return String(this._source.name ?? "");
  }
  get type(): string {
    return String(this._source.type ?? "base");
  }
  get img(): string | null {
    return (this._source.img as string) ?? null;
  }
  get flags(): Rec {
    return this._source.flags as Rec;
  }
  get ownership(): Record<string, number> {
    return (this._source.ownership as Record<string, number>) ?? { default: 0 };
  }
  /** Document#_stats (DocumentStatsField): the server stamps createdTime, modifiedTime, lastModifiedBy (world.ts). */
  get _stats(): Rec {
    return (this._source._stats as Rec) ?? {};
  }
  get uuid(): string {
    return this.parent ? `${this.parent.uuid}.${this.documentName}.${this.id}` : `${this.documentName}.${this.id}`;
  }
  get collection(): HostCollection {
    return this.parent
      ? this.parent.getEmbeddedCollection(this.documentName)
      : (this.client.game as unknown as Record<string, HostCollection>)[this.meta.collection];
  }

  // ─── Permission ───────────────────────────────────────────────────────────────────

  /** Ownership level of `user`: GMs own everything; embedded documents inherit their parent's. */
  getUserLevel(user: HostUser | null = this.client.user): number {
    if (!user) return OWNERSHIP.NONE;
    if (user.isGM) return OWNERSHIP.OWNER;
    if (this.parent) return this.parent.getUserLevel(user);
    const o = this.ownership;
    const own = o[user.id];
    return own === undefined || own === OWNERSHIP.INHERIT ? (o.default ?? 0) : own;
  }
  testUserPermission(user: HostUser, permission: number | keyof typeof OWNERSHIP, { exact = false } = {}): boolean {
    const level = typeof permission === "string" ? OWNERSHIP[permission] : permission;
    const mine = this.getUserLevel(user);
    return exact ? mine === level : mine >= level;
  }
  get permission() {
    return this.getUserLevel();
  }
  get isOwner() {
    return this.getUserLevel() >= OWNERSHIP.OWNER;
  }
  get limited() {
    return this.getUserLevel() === OWNERSHIP.LIMITED;
  }
  get visible() {
    return this.getUserLevel() >= OWNERSHIP.LIMITED;
  }
  /** Server-side rule for writes by `user` (core: the OWNER level, or the document's own rule). */
  canUserModify(user: HostUser, action: "create" | "update" | "delete", _data?: Rec): boolean {
    if (user.isGM) return true;
    if (action === "create" && !this.parent && ["Actor", "Item", "Scene", "Combat"].includes(this.documentName))
      return false;
    return this.getUserLevel(user) >= OWNERSHIP.OWNER;
  }

  // ─── Data ─────────────────────────────────────────────────────────────────────────

  toObject(source = true): Rec {
    const out = deepClone(this._source);
    if (!source && this.system && typeof (this.system as TypeDataModel).toObject === "function")
      out.system = (this.system as TypeDataModel).toObject(false);
    return out;
  }
  toJSON() {
    return this.toObject();
  }
  getFlag(scope: string, key: string): unknown {
    return ((this.flags?.[scope] as Rec | undefined) ?? {})[key];
  }
  async setFlag(scope: string, key: string, value: unknown) {
    return this.update({ flags: { [scope]: { [key]: value } } });
  }
  async unsetFlag(scope: string, key: string) {
    return this.update({ [`flags.${scope}.-=${key}`]: null });
  }

  prepareData(): void {
    this.prepareBaseData();
    for (const c of Object.values(this.embedded)) for (const d of c.values()) d.prepareData();
    this.prepareDerivedData();
  }
  prepareBaseData(): void {
    (this.system as TypeDataModel | undefined)?.prepareBaseData?.();
  }
  prepareDerivedData(): void {
    (this.system as TypeDataModel | undefined)?.prepareDerivedData?.();
  }
  /** ClientDocument#reset: prepared data rebuilt from the source. */
  reset(): void {
    (this.system as TypeDataModel | undefined)?.reset?.();
    for (const c of Object.values(this.embedded))
      for (const d of c.values()) (d.system as TypeDataModel | undefined)?.reset?.();
    this.prepareData();
  }
  getRollData(): Rec {
    return (this.system ?? {}) as Rec;
  }

  // ─── Writes (all through the server) ──────────────────────────────────────────────

  async update(changes: Rec = {}, options: Rec = {}): Promise<this | undefined> {
    const r = await this.client.world.server.request(this.client, {
      action: "update",
      documentName: this.documentName,
      parentUuid: this.parent?.uuid ?? null,
      data: [{ ...changes, _id: this.id }],
      options,
    });
    return r[0] as this | undefined;
  }
  async delete(options: Rec = {}): Promise<this | undefined> {
    const r = await this.client.world.server.request(this.client, {
      action: "delete",
      documentName: this.documentName,
      parentUuid: this.parent?.uuid ?? null,
      data: [{ _id: this.id }],
      options,
    });
    return r[0] as this | undefined;
  }
  async deleteDialog() {
    return this.delete();
  }
  async createEmbeddedDocuments(name: string, data: Rec[], options: Rec = {}) {
    return this.client.world.server.request(this.client, {
      action: "create",
      documentName: name,
      parentUuid: this.uuid,
      data,
      options,
    });
  }
  async updateEmbeddedDocuments(name: string, data: Rec[], options: Rec = {}) {
    return this.client.world.server.request(this.client, {
      action: "update",
      documentName: name,
      parentUuid: this.uuid,
      data,
      options,
    });
  }
  async deleteEmbeddedDocuments(name: string, ids: string[], options: Rec = {}) {
    return this.client.world.server.request(this.client, {
      action: "delete",
      documentName: name,
      parentUuid: this.uuid,
      data: ids.map((_id) => ({ _id })),
      options,
    });
  }
  static async create(data: Rec, options: Rec = {}) {
    const r = await this.createDocuments([data], options);
    return r[0];
  }
  static async createDocuments(data: Rec[], options: Rec & { parent?: HostDocument } = {}) {
    const c = current();
    const { parent, ...rest } = options;
    return c.world.server.request(c, {
      action: "create",
      documentName: this.documentName,
      parentUuid: parent?.uuid ?? null,
      data,
      options: rest,
    });
  }
  static async updateDocuments(data: Rec[], options: Rec = {}) {
    const c = current();
    return c.world.server.request(c, {
      action: "update",
      documentName: this.documentName,
      parentUuid: null,
      data,
      options,
    });
  }
  static async deleteDocuments(ids: string[], options: Rec = {}) {
    const c = current();
    return c.world.server.request(c, {
      action: "delete",
      documentName: this.documentName,
      parentUuid: null,
      data: ids.map((_id) => ({ _id })),
      options,
    });
  }
  get sheet(): { render(o?: unknown): Promise<unknown> } | null {
    return this.client.sheetFor(this);
  }
  /** Hook stand-ins for subclasses (core's _onCreate/_onUpdate/_onDelete run on every client). */
  _onCreate(_data: Rec, _options: Rec, _userId: string): void {}
  _onUpdate(_changed: Rec, _options: Rec, _userId: string): void {}
  _onDelete(_options: Rec, _userId: string): void {}
}

// ─── Actors, items, effects ─────────────────────────────────────────────────────────────

export class ActiveEffect extends HostDocument {
  static override documentName = "ActiveEffect";
  get statuses(): Set<string> {
    return new Set((this._source.statuses as string[]) ?? []);
  }
  get disabled() {
    return this._source.disabled === true;
  }
}

export class Item extends HostDocument {
  static override documentName = "Item";
  get actor() {
    return this.parent as Actor | null;
  }
  get effects() {
    return this.getEmbeddedCollection("ActiveEffect");
  }
}

export class Actor extends HostDocument {
  static override documentName = "Actor";
  get items() {
    return this.getEmbeddedCollection("Item") as HostCollection<Item>;
  }
  get effects() {
    return this.getEmbeddedCollection("ActiveEffect") as HostCollection<ActiveEffect>;
  }
  /** Actor#statuses: the status ids of its active effects. */
  /** Actor#hasPlayerOwner: a non-GM user owns it. */
  get hasPlayerOwner(): boolean {
    return this.client.game.users.some((u) => !u.isGM && this.getUserLevel(u) >= OWNERSHIP.OWNER);
  }
  get statuses(): Set<string> {
    const s = new Set<string>();
    for (const e of this.effects.values()) if (!e.disabled) for (const id of e.statuses) s.add(id);
    return s;
  }
  /** Tokens of this actor on the viewed scene (placeables, or documents with `document: true`). */
  getActiveTokens(_linked = false, document = false): unknown[] {
    const scene = this.client.canvas.scene as Scene | null;
    if (!scene) return [];
    const docs = scene.tokens.filter((t) => t._source.actorId === this.id);
    return document ? docs : docs.map((d) => this.client.placeable(d));
  }
  /**
   * Actor#toggleStatusEffect(id, {active, overlay}): creates or deletes the ActiveEffect from the
   * CONFIG.statusEffects entry (an array in v13, a record keyed by id from v14).
   */
  async toggleStatusEffect(
    statusId: string,
    { active, overlay = false }: { active?: boolean; overlay?: boolean } = {},
  ) {
    const list = this.client.CONFIG.statusEffects as unknown;
    const entries = Array.isArray(list) ? (list as Rec[]) : Object.values(list as Record<string, Rec>);
    const status = entries.find((e) => e.id === statusId);
    if (!status) throw new Error(`Invalid status ID "${statusId}" provided to Actor#toggleStatusEffect`);
    const existing = this.effects.filter((e) => e.statuses.has(statusId));
    const on = active ?? !existing.length;
    if (!on && existing.length) {
      await this.deleteEmbeddedDocuments(
        "ActiveEffect",
        existing.map((e) => e.id!),
      );
      return false;
    }
    if (on && !existing.length) {
      const [e] = await this.createEmbeddedDocuments("ActiveEffect", [
        { name: status.name, img: status.img, statuses: [statusId], flags: overlay ? { core: { overlay: true } } : {} },
      ]);
      return e;
    }
    return on ? true : undefined;
  }
}

// ─── Chat messages ──────────────────────────────────────────────────────────────────────

export class ChatMessage extends HostDocument {
  static override documentName = "ChatMessage";

  get author(): HostUser | null {
    return (this.client.game.users.get(String(this._source.author)) as HostUser | undefined) ?? null;
  }
  get isAuthor() {
    return this._source.author === this.client.user.id;
  }
  get content() {
    return String(this._source.content ?? "");
  }
  get speaker() {
    return this._source.speaker as Rec;
  }
  get whisper(): string[] {
    return (this._source.whisper as string[]) ?? [];
  }
  get blind() {
    return this._source.blind === true;
  }
  /** ChatMessage#timestamp: when it was created (ms since the epoch; set at creation when not given). */
  get timestamp(): number {
    return Number(this._source.timestamp ?? 0);
  }
  /** ChatMessage#rolls: the stored JSON rolls as Roll instances. */
  get rolls(): Roll[] {
    return ((this._source.rolls as string[]) ?? []).map((r) =>
      Roll.fromJSON(typeof r === "string" ? r : JSON.stringify(r)),
    );
  }
  get isRoll() {
    return this.rolls.length > 0;
  }
  /** The roll mode is a creation option (`{rollMode}`), applied with applyRollMode; a `rollMode` in the data is dropped. */
  static override async createDocuments(data: Rec[], options: Rec & { parent?: HostDocument } = {}) {
    const { rollMode, ...rest } = options as Rec & { rollMode?: string };
    // The `rolls` field stores each Roll as its JSON string (core's ChatMessage schema).
    const serial = data.map((d) =>
      Array.isArray(d.rolls) ? { ...d, rolls: d.rolls.map((r) => (typeof r === "string" ? r : JSON.stringify(r))) } : d,
    );
    const list = rollMode ? serial.map((d) => ChatMessage._applyMode({ ...d }, rollMode)) : serial;
    return super.createDocuments(list, rest);
  }
  /** A message's owner is its author; GMs own every message (FOUNDRY-V13.md "Chat messages"). */
  override getUserLevel(user: HostUser | null = this.client.user): number {
    if (!user) return OWNERSHIP.NONE;
    if (user.isGM || this._source.author === user.id) return OWNERSHIP.OWNER;
    return this.whisper.length && !this.whisper.includes(user.id) ? OWNERSHIP.NONE : OWNERSHIP.OBSERVER;
  }
  override canUserModify(user: HostUser, action: "create" | "update" | "delete"): boolean {
    if (action === "create") return true;
    return user.isGM || this._source.author === user.id;
  }
  /**
   * v13 ChatMessage#visible (client/documents/chat-message.mjs): a whispered message is listed
   * for its author and recipients only, and for everyone when it carries rolls (its content may
   * still be private: isContentVisible). GMs have no exception.
   */
  override get visible() {
    if (!this.whisper.length) return true;
    if (this.isRoll) return true;
    return this.isAuthor || this.whisper.includes(this.client.user.id);
  }
  /**
   * v13 ChatMessage#isContentVisible (same file): a whispered roll's content is for its
   * recipients, and for its author unless it is blind; otherwise as `visible`.
   */
  get isContentVisible(): boolean {
    if (!this.isRoll) return this.visible;
    if (!this.whisper.length) return true;
    return this.whisper.includes(this.client.user.id) || (this.isAuthor && !this.blind);
  }
  /** ChatMessage#alias: the speaker's alias, else the author's name. */
  get alias(): string {
    const alias = this.speaker?.alias;
    return typeof alias === "string" && alias ? alias : (this.author?.name ?? "");
  }
  static getSpeaker({
    actor,
    token,
    alias,
  }: { actor?: Actor | null; token?: HostDocument | null; alias?: string } = {}) {
    const c = current();
    return {
      scene: (c.canvas.scene as Scene | null)?.id ?? null,
      actor: actor?.id ?? null,
      token: token?.id ?? null,
      alias: alias ?? actor?.name ?? c.user.name,
    };
  }
  static getWhisperRecipients(name: string) {
    const c = current();
    if (name === "GM") return c.game.users.filter((u) => u.isGM);
    return c.game.users.filter((u) => u.name === name);
  }
  /**
   * v13 ChatMessage.applyRollMode(chatData, mode) (client/documents/chat-message.mjs): gmroll and
   * blindroll whisper the GMs, blindroll is blind, selfroll whispers the roller, publicroll
   * whispers nobody; "roll" is the client's own mode. v14 keeps it, deprecated (dnd5e 5.3 mutes
   * /ChatMessage\.applyRollMode/ and calls it with v14's mode names).
   */
  static applyRollMode(chatData: Rec, rollMode: string): Rec {
    const c = current();
    if (c.world.generation >= 14)
      c.world.deprecate(c, "ChatMessage.applyRollMode is deprecated: use ChatMessage.applyMode (v14)");
    return ChatMessage._applyMode(chatData, rollMode);
  }
  /** v14 ChatMessage.applyMode(chatData, mode): the modes of `core.messageMode` (public, gm, blind, self). */
  static applyMode(chatData: Rec, mode: string): Rec {
    const c = current();
    if (c.world.generation < 14) throw new Error("ChatMessage.applyMode is v14");
    return ChatMessage._applyMode(chatData, mode);
  }
  /** Core's own use of a mode, in either generation's names (no warning: core does not warn itself). */
  static _applyMode(chatData: Rec, requested: string): Rec {
    const c = current();
    const mode = LEGACY_MODE[requested === "roll" ? c.game.settings.currentMode() : requested] ?? requested;
    const gms = c.game.users.filter((u) => u.isGM).map((u) => u.id);
    if (mode === "gmroll" || mode === "blindroll") chatData.whisper = gms;
    else if (mode === "selfroll") chatData.whisper = [c.user.id];
    else if (mode === "publicroll") chatData.whisper = [];
    chatData.blind = mode === "blindroll";
    return chatData;
  }
  /**
   * v13 ChatMessage#renderHTML (client/documents/chat-message.mjs): a data model's own
   * `renderHTML` replaces core's rendering (then the hook); otherwise core's frame (sender,
   * flavor, `.message-content`) and, for a message with rolls, #renderRollContent: the rolls
   * drawn when the content has no HTML of its own and the user may see it; else the flavor
   * "{user} privately rolled some dice" and the rolls rendered private ("???"). Then
   * `renderChatMessageHTML(message, html, messageData)`, synchronously, on the element not yet
   * inserted; the chat log inserts the element as it stands when this resolves (world.ts).
   */
  async renderHTML(options: Rec = {}): Promise<HTMLElement> {
    const sys = this.system as { renderHTML?: (o: unknown) => Promise<HTMLElement> } | undefined;
    if (typeof sys?.renderHTML === "function") {
      const html = await sys.renderHTML.call(sys, { canDelete: this.client.user.isGM, canClose: false, ...options });
      this.client.hooks.callAll("renderChatMessageHTML", this, html);
      return html;
    }
    let content = this.content;
    let flavor = String(this._source.flavor ?? "");
    let alias = this.alias;
    if (this.isRoll) {
      if (this.isContentVisible) {
        const probe = document.createElement("div");
        probe.innerHTML = content;
        if (!probe.childElementCount) content = (await Promise.all(this.rolls.map((r) => r.render()))).join("");
      } else {
        alias = this.author?.name ?? this.client.game.i18n.localize("CHAT.UnknownUser");
        flavor = this.client.game.i18n.format("CHAT.PrivateRollContent", { user: escapeHTML(alias) });
        content = (await Promise.all(this.rolls.map((r) => r.render({ isPrivate: true })))).join("");
      }
    }
    const li = document.createElement("li");
    li.className = [
      "chat-message",
      "message",
      "flexcol",
      this.whisper.length ? "whisper" : "",
      this.blind ? "blind" : "",
    ]
      .filter(Boolean)
      .join(" ");
    li.dataset.messageId = String(this.id);
    li.innerHTML =
      `<header class="message-header"><h4 class="message-sender">${escapeHTML(alias)}</h4></header>` +
      (flavor ? `<span class="flavor-text">${flavor}</span>` : "") +
      `<div class="message-content">${content}</div>`;
    this.client.hooks.callAll("renderChatMessageHTML", this, li, { message: this.toObject(false) });
    return li;
  }
  async getHTML() {
    return this.renderHTML();
  }
}

// ─── Scenes, tokens ─────────────────────────────────────────────────────────────────────

export class TokenDocument extends HostDocument {
  static override documentName = "Token";
  get actor(): Actor | null {
    return (this.client.game.actors.get(String(this._source.actorId)) as Actor | undefined) ?? null;
  }
  get actorLink() {
    return this._source.actorLink === true;
  }
  get actorId(): string | null {
    return (this._source.actorId as string | null) ?? null;
  }
  get x() {
    return Number(this._source.x);
  }
  get y() {
    return Number(this._source.y);
  }
  get width() {
    return Number(this._source.width);
  }
  get height() {
    return Number(this._source.height);
  }
  get disposition() {
    return Number(this._source.disposition);
  }
  get scene() {
    return this.parent as Scene | null;
  }
  get displayBars(): number {
    return Number(this._source.displayBars ?? 0);
  }
  /** TokenDocument#object: its placeable, on the viewed scene's canvas only. */
  get object() {
    return (this.parent as Scene | null)?.isView ? this.client.placeable(this) : null;
  }
  /** BaseToken: a token's ownership is its actor's. */
  override getUserLevel(user: HostUser | null = this.client.user): number {
    if (user?.isGM) return OWNERSHIP.OWNER;
    return this.actor?.getUserLevel(user) ?? OWNERSHIP.NONE;
  }
  /** TokenDocument#isSecret: a SECRET disposition hides the token's interface from users below OBSERVER. */
  get isSecret(): boolean {
    return this.disposition === -2 && !this.testUserPermission(this.client.user, OWNERSHIP.OBSERVER);
  }
  /**
   * TokenDocument#getBarAttribute: the attribute bar `barName` shows, read from the actor's
   * (prepared) system data: a number is a value; an object with value and max is a bar.
   */
  getBarAttribute(barName: string): Rec | null {
    const attribute = ((this._source[barName] as Rec | undefined)?.attribute as string | null) ?? null;
    const actor = this.actor;
    if (!attribute || !actor) return null;
    const data = attribute.split(".").reduce<unknown>((o, k) => (isRec(o) ? o[k] : undefined), actor.system);
    if (data === null || data === undefined) return null;
    if (typeof data === "number") return { type: "value", attribute, value: data, editable: true };
    if (isRec(data) && "value" in data && "max" in data)
      return {
        type: "bar",
        attribute,
        value: parseInt(String(data.value || 0)),
        max: parseInt(String(data.max || 0)),
        editable: true,
      };
    return null;
  }
  /**
   * TokenDocument#_onRelatedUpdate (client/documents/token.mjs): on the viewed scene, an open
   * Token HUD bound to this token re-renders, and the token redraws its bars and effects.
   */
  _onRelatedUpdate(_update: Rec = {}, _options: Rec = {}): void {
    if (!(this.parent as Scene | null)?.isView) return;
    const object = this.client.canvasTokens.drawnOf(this);
    if (object?.hasActiveHUD) void this.client.canvasTokens.hud.render();
    object?.renderFlags.set({ refreshBars: true, redrawEffects: true });
  }
}

export class Scene extends HostDocument {
  static override documentName = "Scene";
  get tokens() {
    return this.getEmbeddedCollection("Token") as HostCollection<TokenDocument>;
  }
  get active() {
    return this._source.active === true;
  }
  /** Scene#isView: the scene this client's canvas shows. */
  get isView() {
    return this.client.canvas.scene === this;
  }
  /**
   * v13 Scene#activate: one server batch — this scene `active: true`, the previously active one
   * `active: false`; `updateScene` fires for both on every client (FOUNDRY-V13.md; v12 switched
   * the old one off locally with no hook).
   */
  async activate() {
    return this.client.world.server.request(this.client, {
      action: "activateScene",
      documentName: "Scene",
      parentUuid: null,
      data: [{ _id: this.id }],
      options: {},
    });
  }
  async view() {
    this.client.canvas.scene = this;
    return this;
  }
}

// ─── Combat ─────────────────────────────────────────────────────────────────────────────

export class Combatant extends HostDocument {
  static override documentName = "Combatant";
  get combat() {
    return this.parent as Combat;
  }
  get actor(): Actor | null {
    return (this.client.game.actors.get(String(this._source.actorId)) as Actor | undefined) ?? null;
  }
  get actorId(): string | null {
    return (this._source.actorId as string | null) ?? null;
  }
  get tokenId(): string | null {
    return (this._source.tokenId as string | null) ?? null;
  }
  get token(): TokenDocument | null {
    const scene = this.client.game.scenes.get(String(this._source.sceneId ?? this.combat?._source.scene)) as
      Scene | undefined;
    return (scene?.tokens.get(String(this._source.tokenId)) as TokenDocument | undefined) ?? null;
  }
  get initiative(): number | null {
    return (this._source.initiative as number | null) ?? null;
  }
  get defeated() {
    return this._source.defeated === true;
  }
  get isDefeated() {
    return this.defeated;
  }
  get hidden() {
    return this._source.hidden === true;
  }
  override get name() {
    return String(this._source.name || this.actor?.name || "");
  }
  /** Combatant owners are the actor's owners. */
  override getUserLevel(user: HostUser | null = this.client.user): number {
    if (user?.isGM) return OWNERSHIP.OWNER;
    return this.actor?.getUserLevel(user) ?? OWNERSHIP.NONE;
  }
  /** Combatant#_getInitiativeFormula: CONFIG.Combat.initiative.formula, else the manifest's `initiative`. */
  _getInitiativeFormula(): string {
    return String(
      (this.client.CONFIG.Combat as Rec & { initiative: { formula: string | null } }).initiative.formula ||
        this.client.game.system.initiative,
    );
  }
  getInitiativeRoll(formula?: string): Roll {
    formula = formula || this._getInitiativeFormula();
    const rollData = this.actor?.getRollData() ?? {};
    const RollCls = (this.client.CONFIG.Dice as unknown as { rolls: (typeof Roll)[] }).rolls[0] ?? Roll;
    return new RollCls(formula, rollData);
  }
  async rollInitiative(formula?: string) {
    const roll = this.getInitiativeRoll(formula);
    await roll.evaluate();
    return this.update({ initiative: roll.total });
  }
}

export interface TurnContext {
  round: number;
  turn: number | null;
  skipped: boolean;
}

export class Combat extends HostDocument {
  static override documentName = "Combat";
  previous: { round: number; turn: number | null; combatantId: string | null } | null = null;
  current: { round: number; turn: number | null; combatantId: string | null } = {
    round: 0,
    turn: null,
    combatantId: null,
  };
  turns: Combatant[] = [];

  get combatants() {
    return this.getEmbeddedCollection("Combatant") as HostCollection<Combatant>;
  }
  get round() {
    return Number(this._source.round ?? 0);
  }
  get turn() {
    return (this._source.turn as number | null) ?? null;
  }
  get started() {
    return this.round > 0;
  }
  get combatant(): Combatant | undefined {
    return this.turn === null ? undefined : this.turns[this.turn];
  }
  get scene() {
    return this.client.game.scenes.get(String(this._source.scene));
  }
  override prepareDerivedData(): void {
    super.prepareDerivedData();
    this.setupTurns();
  }
  /** Combat#setupTurns: combatants by initiative (highest first, unrolled last), then name, then id. */
  setupTurns(): Combatant[] {
    const list = this.combatants?.contents ?? [];
    this.turns = [...list].sort((a, b) => {
      const ia = a.initiative ?? -Infinity;
      const ib = b.initiative ?? -Infinity;
      return ib - ia || a.name.localeCompare(b.name) || String(a.id).localeCompare(String(b.id));
    });
    const c = this.turns[this.turn ?? -1];
    this.current = { round: this.round, turn: this.turn, combatantId: c?.id ?? null };
    return this.turns;
  }
  override canUserModify(user: HostUser, action: "create" | "update" | "delete", data?: Rec): boolean {
    if (user.isGM) return true;
    if (action !== "update" || !data) return false;
    // Core lets the owner of the current combatant end his turn (turn/round only).
    const keys = Object.keys(data).filter((k) => k !== "_id");
    return keys.every((k) => k === "turn" || k === "round") && (this.combatant?.isOwner ?? false);
  }
  getCombatantsByActor(actor: Actor | string) {
    const id = typeof actor === "string" ? actor : actor.id;
    return this.combatants.filter((c) => c._source.actorId === id);
  }
  async startCombat() {
    return this.update({ round: 1, turn: 0 }, { direction: 1 });
  }
  /** Combat#nextTurn: the next combatant (skipping the defeated, as core's skipDefeated does), else the next round. */
  async nextTurn() {
    const turn = this.turn ?? -1;
    let next: number | null = null;
    for (let i = turn + 1; i < this.turns.length; i++) {
      if (!this.turns[i].isDefeated) {
        next = i;
        break;
      }
    }
    if (next === null) return this.nextRound();
    return this.update({ round: this.round, turn: next }, { direction: 1 });
  }
  async nextRound() {
    const first = this.turns.findIndex((t) => !t.isDefeated);
    return this.update({ round: this.round + 1, turn: Math.max(0, first) }, { direction: 1 });
  }
  async previousTurn() {
    if (this.turn === 0 && this.round === 0) return this;
    if ((this.turn ?? 0) === 0 && this.round > 0) return this.previousRound();
    return this.update({ round: this.round, turn: (this.turn ?? 1) - 1 }, { direction: -1 });
  }
  async previousRound() {
    const round = Math.max(this.round - 1, 0);
    return this.update({ round, turn: round === 0 ? null : Math.max(this.turns.length - 1, 0) }, { direction: -1 });
  }
  /**
   * v13 Combat#endCombat (client/documents/combat.mjs): a DialogV2.confirm ("End this combat
   * encounter?"), whose Yes deletes the combat.
   */
  async endCombat() {
    const DialogV2 = (globalThis as unknown as { foundry: { applications: { api: { DialogV2: Rec } } } }).foundry
      .applications.api.DialogV2 as { confirm(c: Rec): Promise<unknown> };
    await DialogV2.confirm({
      window: { title: "COMBAT.EndTitle" },
      content: "<p>COMBAT.EndConfirmation</p>",
      yes: { callback: () => this.delete() },
      modal: true,
    });
    return this;
  }
  /**
   * v13 Combat#_onDelete: the turn is cleared (`this.turn = null`) before the `deleteCombat`
   * hook, and the active GM runs `_onExit` for each combatant — no `_onEndTurn`.
   */
  override _onDelete(options: Rec, userId: string): void {
    super._onDelete(options, userId);
    this._source.turn = null;
    if (this.client.user.isActiveGM) for (const c of this.combatants.values()) void this._onExit(c);
  }
  async _onExit(_combatant: Combatant): Promise<void> {}
  /** Combat#rollInitiative: a Roll per combatant from its initiative formula, each posted to chat. */
  async rollInitiative(
    ids: string | string[],
    { formula = null, messageOptions = {} }: { formula?: string | null; messageOptions?: Rec } = {},
  ) {
    const list = typeof ids === "string" ? [ids] : ids;
    const updates: Rec[] = [];
    const messages: Rec[] = [];
    for (const id of list) {
      const c = this.combatants.get(id);
      if (!c?.isOwner) continue;
      const roll = c.getInitiativeRoll(formula ?? undefined);
      await roll.evaluate();
      updates.push({ _id: id, initiative: roll.total });
      const data = (await roll.toMessage(
        {
          speaker: ChatMessage.getSpeaker({ actor: c.actor }),
          flavor: `${c.name} rolls for Initiative!`,
          ...messageOptions,
        },
        { create: false, rollMode: c.hidden ? "gmroll" : "roll" },
      )) as Rec;
      messages.push(data);
    }
    if (!updates.length) return this;
    await this.updateEmbeddedDocuments("Combatant", updates);
    await (this.client.CONFIG.ChatMessage.documentClass as typeof ChatMessage).createDocuments(messages);
    return this;
  }
  async rollAll(options: Rec = {}) {
    return this.rollInitiative(
      this.combatants.filter((c) => c.isOwner && c.initiative === null).map((c) => c.id!),
      options,
    );
  }
  async rollNPC(options: Rec = {}) {
    return this.rollInitiative(
      this.combatants.filter((c) => c.isOwner && c.initiative === null && !c.actor?.hasPlayerOwner).map((c) => c.id!),
      options,
    );
  }

  /** Records the prior turn state before an update is applied on this client (core #recordPreviousState). */
  _recordPrevious(): void {
    this.previous = { ...this.current };
  }

  /**
   * v13 Combat#_manageTurnEvents, run after a turn/round update, on the active GM's client only:
   * forward moves only (or a different combatant at the same index); `_onEndTurn` for the prior
   * combatant, skipped combatants with `skipped: true`, `_onEndRound`/`_onStartRound` when the
   * round advanced, then `_onStartTurn`. Stepping back fires nothing (FOUNDRY-V13.md).
   */
  async _manageTurnEvents(): Promise<void> {
    if (!this.started || !this.client.user.isActiveGM || !this.previous) return;
    const prev = this.previous;
    const cur = this.current;
    const advanceRound = cur.round > (prev.round ?? -1);
    const advanceTurn = advanceRound || (cur.round === prev.round && (cur.turn ?? -1) > (prev.turn ?? -1));
    const changeCombatant = cur.round === prev.round && cur.turn === prev.turn && cur.combatantId !== prev.combatantId;
    if (!(advanceTurn || changeCombatant)) return;
    const prior = prev.combatantId ? this.combatants.get(prev.combatantId) : undefined;
    if (prior && prev.round > 0) await this._onEndTurn(prior, { round: prev.round, turn: prev.turn, skipped: false });
    const skipped = (round: number, from: number, to: number) =>
      this.turns.slice(from, to).map((c, i) => ({ c, round, turn: from + i }));
    const passed = advanceRound
      ? [
          ...(prev.round > 0 ? skipped(prev.round, (prev.turn ?? -1) + 1, this.turns.length) : []),
          ...skipped(cur.round, 0, cur.turn ?? 0),
        ]
      : skipped(cur.round, (prev.turn ?? -1) + 1, cur.turn ?? 0);
    const before = advanceRound ? passed.filter((p) => p.round === prev.round) : passed;
    for (const p of before) {
      await this._onStartTurn(p.c, { round: p.round, turn: p.turn, skipped: true });
      await this._onEndTurn(p.c, { round: p.round, turn: p.turn, skipped: true });
    }
    if (advanceRound && prev.round > 0) await this._onEndRound({ round: prev.round, turn: prev.turn, skipped: false });
    if (advanceRound) {
      await this._onStartRound({ round: cur.round, turn: cur.turn, skipped: false });
      for (const p of passed.filter((x) => x.round === cur.round)) {
        await this._onStartTurn(p.c, { round: p.round, turn: p.turn, skipped: true });
        await this._onEndTurn(p.c, { round: p.round, turn: p.turn, skipped: true });
      }
    }
    if (this.combatant) await this._onStartTurn(this.combatant, { round: cur.round, turn: cur.turn, skipped: false });
  }
  async _onStartTurn(_combatant: Combatant, _context: TurnContext): Promise<void> {}
  async _onEndTurn(_combatant: Combatant, _context: TurnContext): Promise<void> {}
  async _onStartRound(_context: TurnContext): Promise<void> {}
  async _onEndRound(_context: TurnContext): Promise<void> {}
}

// ─── Users ──────────────────────────────────────────────────────────────────────────────

export const BASE_CLASSES: Record<string, typeof HostDocument> = {
  Actor,
  Item,
  ActiveEffect,
  ChatMessage,
  Scene,
  Token: TokenDocument,
  Combat,
  Combatant,
};
