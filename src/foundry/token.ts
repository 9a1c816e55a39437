/**
 * The token's segmented wound bar on the canvas: one segment per wound level, its width by the
 * level's boxes, the marked part in the shade of the level's severity (a worse level darker, not
 * only further right), overflow outlined (Volt: its rows, lowest first, shaded by tier). The
 * segments come from src/system/view.ts `woundBar` (the same the sheet shows across its header).
 * Drawn in place of bar 1 and only when the token's own bar display setting lets this user see
 * bars (core's `_canViewMode`), so the GM sees every combatant's state at a glance.
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
  visible: boolean;
  position: { set(x: number, y: number): void };
};

/** The Token subclass, built on demand (in `init`, when Foundry's canvas classes exist). */
export function fudgeTokenClass() {
  const BaseToken = (foundry as unknown as { canvas: { placeables: { Token: new (...a: never[]) => object } } }).canvas
    .placeables.Token;
  return class FudgeToken extends BaseToken {
    /** Core draws the attribute bars; bar 1 becomes the wound bar when the actor has a wound track. */
    drawBars(): void {
      const self = this as unknown as {
        actor: Actor.Implementation | null;
        document: { displayBars: number };
        bars?: { bar1?: Graphics; bar2?: Graphics; visible: boolean };
        w: number;
        h: number;
        _canViewMode(mode: number): boolean;
      };
      (BaseToken.prototype as unknown as { drawBars: () => void }).drawBars.call(this);
      const bar = self.bars?.bar1;
      if (!self.actor || !bar || !self.bars) return;
      if (!self._canViewMode(self.document.displayBars)) return;
      let segments;
      try {
        segments = actorSheetContext(plainActor(self.actor), worldRules(), { editable: false, owner: false }).woundBar;
      } catch {
        return;
      }
      if (!segments.length) return;
      const h = Math.max(6, Math.round(self.h / 12));
      const w = self.w;
      const gap = 1;
      bar.clear();
      let x = 0;
      for (const s of segments) {
        const sw = Math.max(2, (Number(s.width) / 100) * w - gap);
        bar.beginFill(0x000000, 0.55).lineStyle(0).drawRect(x, 0, sw, h).endFill();
        if (s.marked)
          bar
            .beginFill(TOKEN_SEVERITY[s.tier] ?? TOKEN_SEVERITY[TOKEN_SEVERITY.length - 1], 0.95)
            .drawRect(x, 0, (sw * s.marked) / Math.max(1, s.boxes), h)
            .endFill();
        if (s.overflow) bar.lineStyle(1, 0xe0b341, 1).drawRect(x, 0, sw, h);
        x += sw + gap;
      }
      bar.position.set(0, self.h - h);
      bar.visible = true;
      self.bars.visible = true;
    }
  };
}
