/**
 * The canvas parts the system depends on, drawing nothing: Token placeables with core's render
 * flags, attribute bars and their visibility, the Tokens layer and the Token HUD.
 *
 * Sources (public copies of the v13 client, `client/canvas/placeables/token.mjs`):
 * - Token.RENDER_FLAGS and #_applyRenderFlags: `refreshState` runs `_refreshState`,
 *   `refreshBars` runs `drawBars`; `refreshState` is applied before `refreshBars`.
 * - Token#_refreshState: `bars.visible = !isSecret && actor && _canViewMode(displayBars)`.
 * - Token#drawBars: nothing without an actor or in mode NONE; per bar, `getBarAttribute`, hidden
 *   unless a bar with a max, else `_drawBar(i, bar, attr)` and shown. Visibility of the whole
 *   container is left to `_refreshState`.
 * - Token#_drawBar: height `8 * (height >= 2 ? 1.5 : 1) * canvas.dimensions.uiScale`, full token
 *   width, bar 1 at the bottom.
 * - Token#_canViewMode: NONE / ALWAYS / CONTROL (controlled) / HOVER (hover or highlight) /
 *   OWNER_HOVER (owner and hover) / OWNER.
 * - Token#_onUpdate: `refreshState` for hidden / sort / disposition / displayBars / displayName,
 *   `refreshBars` for displayBars / bar1 / bar2.
 * - PlaceableObject#_onHoverIn / #control set only `refreshState` (FOUNDRY-V13.md "Token bars").
 * - TokenDocument#_onRelatedUpdate (`client/documents/token.mjs`): an actor update re-renders an
 *   open Token HUD bound to the token and sets `refreshBars` / `redrawEffects`.
 * - The Token HUD (`templates/hud/token-hud.hbs`): columns `.col.left`, `.col.middle`,
 *   `.col.right`; every render rebuilds them and fires `renderTokenHUD(hud, html, context)`.
 * Render flags are applied on the next frame in Foundry; here on the next macrotask (tracked, so
 * `world.settle()` waits for them).
 */
import { current } from "./context";
import type { HostDocument } from "./documents";
import type { Client } from "./world";

type Rec = Record<string, unknown>;

export const TOKEN_DISPLAY_MODES = { NONE: 0, CONTROL: 10, OWNER_HOVER: 20, HOVER: 30, OWNER: 40, ALWAYS: 50 } as const;

/** One drawn shape, as PIXI v7 keeps it in `graphics.geometry.graphicsData`. */
export interface GraphicsData {
  shape: { x: number; y: number; width: number; height: number };
  fillStyle: { color: number; alpha: number; visible: boolean };
  lineStyle: { width: number; color: number; alpha: number };
}

/**
 * A PIXI.Graphics (v7) stand-in: fills and line styles as set, each rectangle drawn recorded in
 * `geometry.graphicsData` with the fill and line in force, until `clear()`.
 */
export class Graphics {
  readonly geometry: { graphicsData: GraphicsData[] } = { graphicsData: [] };
  visible = true;
  private fill = { color: 0, alpha: 1, visible: false };
  private line = { width: 0, color: 0, alpha: 1 };
  readonly position = {
    x: 0,
    y: 0,
    set: (x: number, y: number) => {
      this.position.x = x;
      this.position.y = y;
    },
  };
  clear() {
    this.geometry.graphicsData = [];
    this.fill = { color: 0, alpha: 1, visible: false };
    this.line = { width: 0, color: 0, alpha: 1 };
    return this;
  }
  beginFill(color = 0, alpha = 1) {
    this.fill = { color, alpha, visible: true };
    return this;
  }
  endFill() {
    this.fill = { ...this.fill, visible: false };
    return this;
  }
  lineStyle(width: number | { width?: number; color?: number; alpha?: number } = 0, color = 0, alpha = 1) {
    this.line = typeof width === "object" ? { width: 0, color: 0, alpha: 1, ...width } : { width, color, alpha };
    return this;
  }
  drawRect(x: number, y: number, width: number, height: number) {
    this.geometry.graphicsData.push({
      shape: { x, y, width, height },
      fillStyle: { ...this.fill },
      lineStyle: { ...this.line },
    });
    return this;
  }
  drawRoundedRect(x: number, y: number, width: number, height: number, _radius?: number) {
    return this.drawRect(x, y, width, height);
  }
}

/** Token.RENDER_FLAGS, the parts that matter here: which flags a flag sets too. */
const PROPAGATE: Record<string, string[]> = {
  redraw: ["refresh"],
  refresh: ["refreshState", "refreshSize", "refreshBars", "redrawEffects"],
  refreshState: [],
  refreshSize: ["refreshBars"],
};
const ORDER = ["refreshState", "refreshSize", "refreshBars", "redrawEffects"];

interface TokenDocLike extends HostDocument {
  actor: (HostDocument & { system?: unknown }) | null;
  isSecret: boolean;
  _source: Rec;
}

/** v13 `foundry.canvas.placeables.Token`: what a system's Token subclass calls and overrides. */
export class HostToken {
  readonly document: TokenDocLike;
  readonly client: Client;
  hover = false;
  controlled = false;
  /** Every render flag applied, in order (tests read which ran). */
  readonly applied: string[] = [];
  bars = Object.assign({ visible: false }, { bar1: new Graphics(), bar2: new Graphics() });
  private pending = new Set<string>();
  readonly renderFlags = {
    set: (flags: Record<string, boolean>) => {
      const add = (f: string) => {
        if (this.pending.has(f)) return;
        this.pending.add(f);
        for (const p of PROPAGATE[f] ?? []) add(p);
      };
      for (const [f, on] of Object.entries(flags)) if (on) add(f);
      this.schedule();
    },
  };
  private scheduled = false;

  constructor(document: unknown) {
    this.document = document as TokenDocLike;
    this.client = current();
  }
  get id() {
    return this.document.id;
  }
  get actor() {
    return this.document.actor;
  }
  get isOwner() {
    return this.document.isOwner;
  }
  get layer() {
    return this.client.canvas.tokens as TokenLayer;
  }
  /** Token#w / #h: the document's size in pixels. */
  get w() {
    return Number(this.document._source.width ?? 1) * this.client.canvasGridSize;
  }
  get h() {
    return Number(this.document._source.height ?? 1) * this.client.canvasGridSize;
  }
  get hasActiveHUD() {
    const hud = this.layer.hud;
    return hud.rendered && hud.object === this;
  }
  /** PlaceableObject#draw: everything is drawn (all refresh flags). */
  draw(): this {
    this.renderFlags.set({ redraw: true });
    return this;
  }
  /** Token#_onUpdate: what a change of its document redraws (hidden, disposition, display modes, bars). */
  _onUpdate(changed: Rec): void {
    const has = (...keys: string[]) => keys.some((k) => k in changed);
    this.renderFlags.set({
      redraw: has("actorId", "actorLink"),
      refreshState: has("hidden", "sort", "disposition", "displayBars", "displayName"),
      refreshBars: has("displayBars", "bar1", "bar2"),
    });
  }
  _onHoverIn(): void {
    this.hover = true;
    this.renderFlags.set({ refreshState: true });
  }
  _onHoverOut(): void {
    this.hover = false;
    this.renderFlags.set({ refreshState: true });
  }
  control(): boolean {
    this.controlled = true;
    this.renderFlags.set({ refreshState: true });
    return true;
  }
  release(): boolean {
    this.controlled = false;
    this.renderFlags.set({ refreshState: true });
    return true;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.client.world.track(
      new Promise<void>((resolve) =>
        setTimeout(() => {
          this.scheduled = false;
          const flags = this.pending;
          this.pending = new Set();
          this.client.run(() => this._applyRenderFlags(Object.fromEntries([...flags].map((f) => [f, true]))));
          resolve();
        }, 0),
      ),
    );
  }
  _applyRenderFlags(flags: Record<string, boolean>): void {
    for (const f of ORDER) {
      if (!flags[f]) continue;
      this.applied.push(f);
      if (f === "refreshState") this._refreshState();
      else if (f === "refreshBars") this.drawBars();
    }
  }
  _refreshState(): void {
    const secret = this.document.isSecret;
    this.bars.visible = !secret && !!this.actor && this._canViewMode(Number(this.document._source.displayBars ?? 0));
  }
  _canViewMode(mode: number): boolean {
    const M = TOKEN_DISPLAY_MODES;
    if (mode === M.NONE) return false;
    if (mode === M.ALWAYS) return true;
    if (mode === M.CONTROL) return this.controlled;
    if (mode === M.HOVER) return this.hover;
    if (mode === M.OWNER_HOVER) return this.isOwner && this.hover;
    if (mode === M.OWNER) return this.isOwner;
    return false;
  }
  drawBars(): void {
    if (!this.actor || Number(this.document._source.displayBars ?? 0) === TOKEN_DISPLAY_MODES.NONE) return;
    (["bar1", "bar2"] as const).forEach((b, i) => {
      const bar = this.bars[b];
      const attr = (this.document as unknown as { getBarAttribute(n: string): Rec | null }).getBarAttribute(b);
      if (!attr || attr.type !== "bar" || attr.max === 0) {
        bar.visible = false;
        return;
      }
      this._drawBar(i, bar, attr);
      bar.visible = true;
    });
  }
  _drawBar(number: number, bar: Graphics, data: Rec): boolean {
    const val = Number(data.value);
    const max = Number(data.max);
    const pct = Math.min(Math.max(val, 0), max) / max;
    const s = Number((this.client.canvas as unknown as { dimensions: { uiScale: number } }).dimensions.uiScale);
    const bh = 8 * (Number(this.document._source.height ?? 1) >= 2 ? 1.5 : 1) * s;
    bar.clear();
    bar.lineStyle(s, 0x000000, 1.0);
    bar.beginFill(0x000000, 0.5).drawRoundedRect(0, 0, this.w, bh, 3 * s);
    bar.beginFill(number === 0 ? 0xff0000 : 0x0000ff, 1.0).drawRoundedRect(0, 0, pct * this.w, bh, 2 * s);
    bar.position.set(0, number === 0 ? this.h - bh : 0);
    return true;
  }
}

/**
 * v13 TokenHUD: bound to one token, rebuilt on each render (anything a module injected is gone),
 * then `renderTokenHUD(hud, html, context)`.
 */
export class TokenHUD {
  object: HostToken | null = null;
  rendered = false;
  readonly element: HTMLElement = document.createElement("div");
  renders = 0;
  constructor(private readonly client: Client) {
    this.element.id = "token-hud";
  }
  /** BasePlaceableHUD#bind: shows the HUD for this token. */
  async bind(object: HostToken): Promise<this> {
    this.object = object;
    return this.render({ force: true });
  }
  async render(options: Rec = {}): Promise<this> {
    if (!this.object || (!this.rendered && !options.force)) return this;
    this.element.innerHTML =
      `<div class="col left"><div class="attribute elevation"></div></div>` +
      `<div class="col middle"></div>` +
      `<div class="col right"><button type="button" class="control-icon" data-action="togglePalette"></button></div>`;
    if (!this.element.isConnected) document.body.append(this.element);
    this.rendered = true;
    this.renders++;
    this.client.run(() => this.client.hooks.callAll("renderTokenHUD", this, this.element, {}, options));
    return this;
  }
  /** BasePlaceableHUD#clear / close. */
  async close(): Promise<this> {
    this.element.remove();
    this.element.innerHTML = "";
    this.rendered = false;
    this.object = null;
    return this;
  }
}

/** canvas.tokens: the viewed scene's Token placeables (built with CONFIG.Token.objectClass), the HUD. */
export class TokenLayer {
  readonly hud: TokenHUD;
  private objects = new WeakMap<HostDocument, HostToken>();
  highlightObjects = false;
  constructor(private readonly client: Client) {
    this.hud = new TokenHUD(client);
  }
  /** The placeable of a token document of the viewed scene, drawn the first time it is asked for. */
  objectOf(doc: HostDocument): HostToken {
    let t = this.objects.get(doc);
    if (!t) {
      const Cls = (this.client.CONFIG.Token as { objectClass: new (d: unknown) => HostToken }).objectClass;
      t = this.client.run(() => new Cls(doc));
      this.objects.set(doc, t);
      t.draw();
    }
    return t;
  }
  /** The drawn placeable of this document, if any (TokenDocument#object). */
  drawnOf(doc: HostDocument): HostToken | null {
    return this.objects.get(doc) ?? null;
  }
  get placeables(): HostToken[] {
    const scene = this.client.canvas.scene as (HostDocument & { tokens: { contents: HostDocument[] } }) | null;
    return scene ? scene.tokens.contents.map((d) => this.objectOf(d)) : [];
  }
  get(id: string): HostToken | undefined {
    return this.placeables.find((t) => t.id === id);
  }
  get controlled(): unknown[] {
    return [...this.client.selected];
  }
}
