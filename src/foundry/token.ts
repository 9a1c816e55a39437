/**
 * The token's segmented wound bar on the canvas: one segment per wound level, its width by the
 * level's boxes, the marked part in the shade of the level's severity (a worse level darker, not
 * only further right), overflow outlined (Volt: its rows, lowest first, shaded by tier). The
 * segments come from src/system/view.ts `woundBar` (the same the sheet shows across its header).
 *
 * It is drawn in core's `_drawBar` for the bar that shows the wound track (`openBoxes`, the
 * manifest's primary token attribute), as dnd5e draws its HP bar: core decides when bars are
 * drawn (`refreshBars`, on every actor update) and when they are seen (`_refreshState`: the
 * token's display mode, hover, control and a secret disposition), and the bar follows the
 * canvas interface scale (`canvas.dimensions.uiScale`) as core's own does.
 */
import { actorSheetContext } from "../system/sheet";
import { plainActor, worldRules } from "./bridge";

/**
 * The marks' shades by severity tier (view.ts BarSegment.tier, mildest first): the sheet's light
 * ramp (styles/fudge-wounds.css --fudge-ramp-*), each at least 3:1 against the black plate.
 */
export const TOKEN_SEVERITY = [0xeebc65, 0xeb9d4e, 0xea7f40, 0xe96137, 0xe74228, 0xdf2619, 0xd01717];

type Graphics = {
  clear(): Graphics;
  beginFill(c: number, a?: number): Graphics;
  lineStyle(w: number, c?: number, a?: number): Graphics;
  drawRect(x: number, y: number, w: number, h: number): Graphics;
  endFill(): Graphics;
  position: { set(x: number, y: number): void };
};

/** The token attribute that carries the wound track (system.json `primaryTokenAttribute`). */
export const WOUND_BAR_ATTRIBUTE = "openBoxes";

type BarData = { attribute?: string | null; value?: number; max?: number };
type TokenSelf = {
  actor: Actor.Implementation | null;
  document: { height: number };
  w: number;
  h: number;
};

/** The Token subclass, built on demand (in `init`, when Foundry's canvas classes exist). */
export function fudgeTokenClass() {
  const BaseToken = (foundry as unknown as { canvas: { placeables: { Token: new (...a: never[]) => object } } }).canvas
    .placeables.Token;
  const baseDrawBar = (BaseToken.prototype as unknown as { _drawBar: (n: number, b: Graphics, d: BarData) => unknown })
    ._drawBar;
  return class FudgeToken extends BaseToken {
    /** The wound-track bar is ours; any other attribute is drawn by core. */
    _drawBar(number: number, bar: Graphics, data: BarData): unknown {
      if (data.attribute === WOUND_BAR_ATTRIBUTE && drawWoundBar(this as unknown as TokenSelf, number, bar))
        return true;
      return baseDrawBar.call(this, number, bar, data);
    }
  };
}

/** Draws the segments into `bar`; false when the actor has no wound track to show (core's bar then). */
function drawWoundBar(token: TokenSelf, number: number, bar: Graphics): boolean {
  if (!token.actor) return false;
  let segments;
  try {
    segments = actorSheetContext(plainActor(token.actor), worldRules(), { editable: false, owner: false }).woundBar;
  } catch {
    return false;
  }
  if (!segments.length) return false;
  // Sized as core sizes its own bar (Token#_drawBar): 8 px, ×1.5 on large tokens, × the interface scale.
  const s = Number((canvas as unknown as { dimensions?: { uiScale?: number } } | null)?.dimensions?.uiScale ?? 1);
  const h = 8 * (Number(token.document.height) >= 2 ? 1.5 : 1) * s;
  const gap = s;
  bar.clear();
  let x = 0;
  for (const seg of segments) {
    const sw = Math.max(2 * s, (Number(seg.width) / 100) * token.w - gap);
    bar.beginFill(0x000000, 0.55).lineStyle(0).drawRect(x, 0, sw, h).endFill();
    if (seg.marked)
      bar
        .beginFill(TOKEN_SEVERITY[seg.tier] ?? TOKEN_SEVERITY[TOKEN_SEVERITY.length - 1], 0.95)
        .drawRect(x, 0, (sw * seg.marked) / Math.max(1, seg.boxes), h)
        .endFill();
    if (seg.overflow) bar.lineStyle(s, 0xe0b341, 1).drawRect(x, 0, sw, h);
    x += sw + gap;
  }
  bar.position.set(0, number === 0 ? token.h - h : 0);
  return true;
}
