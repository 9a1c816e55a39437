// @vitest-environment happy-dom
/**
 * The Token HUD's wound panel (issue 29, fix 3): an actor update re-renders an open HUD
 * (TokenDocument#_onRelatedUpdate), which drops everything injected into it; the panel must come
 * back, open, with the live track.
 */
import { describe, expect, it } from "vitest";
import type { HostToken, TokenHUD } from "./canvas";
import { actorOn, table } from "./table";
import type { Client } from "./world";

const hudOf = (c: Client) => c.canvasTokens.hud as TokenHUD;
const panel = (c: Client) => hudOf(c).element.querySelector(".fudge-hud-wounds");
const toggle = (c: Client) => hudOf(c).element.querySelector(".fudge-hud-wounds-toggle");
/** How many boxes of the actor's track are marked, as this client sees it. */
const marked = (c: Client, actorId: string) => {
  const state = (
    actorOn(c, actorId).toObject().system as { woundTrack?: { state?: { marks?: Record<string, unknown[]> } | null } }
  ).woundTrack?.state;
  return Object.values(state?.marks ?? {})
    .flat()
    .filter((m) => m !== null).length;
};

describe("the Token HUD wound panel survives the HUD's re-render", () => {
  it("the GM opens it on Theodora, adds a wound: the HUD re-renders and the panel is still open, with the new track", async () => {
    const t = await table();
    const token = t.gm.canvasTokens.get(t.foeToken)! as HostToken;
    await t.gm.run(() => hudOf(t.gm).bind(token));
    t.gm.click(toggle(t.gm));
    expect(panel(t.gm)).not.toBeNull();
    expect(toggle(t.gm)!.getAttribute("aria-expanded")).toBe("true");
    const renders = hudOf(t.gm).renders;
    const before = marked(t.gm, t.foe);
    t.gm.click(panel(t.gm)!.querySelector("button:not([disabled])"));
    await t.world.settle();
    expect(marked(t.gm, t.foe)).toBe(before + 1);
    // The actor update re-rendered the HUD (core), and the panel came back open.
    expect(hudOf(t.gm).renders).toBeGreaterThan(renders);
    const again = panel(t.gm);
    expect(again).not.toBeNull();
    expect(toggle(t.gm)!.getAttribute("aria-expanded")).toBe("true");
    // The rebuilt panel offers "−" on the level just marked (it reads the live track).
    const minus = [...again!.querySelectorAll("button")].filter((b) => b.textContent === "\u2212" && !b.disabled);
    expect(minus.length).toBeGreaterThan(0);
    // Keyboard focus stays on the button that was pressed.
    expect(document.activeElement?.textContent).toBe("+");
    // Two presses in a row keep working (each re-render rebuilds the panel).
    t.gm.click(minus[0]);
    await t.world.settle();
    expect(marked(t.gm, t.foe)).toBe(before);
    expect(panel(t.gm)).not.toBeNull();
    expect(t.world.errors).toEqual([]);
  });

  it("closed with its toggle, it stays closed across re-renders; on another token it starts closed", async () => {
    const t = await table();
    const foe = t.gm.canvasTokens.get(t.foeToken)! as HostToken;
    const hero = t.gm.canvasTokens.get(t.heroToken)! as HostToken;
    await t.gm.run(() => hudOf(t.gm).bind(foe));
    t.gm.click(toggle(t.gm));
    t.gm.click(toggle(t.gm));
    expect(panel(t.gm)).toBeNull();
    await t.gm.run(() => hudOf(t.gm).render());
    expect(panel(t.gm)).toBeNull();
    t.gm.click(toggle(t.gm));
    await t.gm.run(() => hudOf(t.gm).bind(hero));
    expect(panel(t.gm)).toBeNull();
  });

  it("the owning player's HUD on his own token: the same panel, kept open after his own +", async () => {
    const t = await table();
    const mine = t.player.canvasTokens.get(t.heroToken)! as HostToken;
    await t.player.run(() => hudOf(t.player).bind(mine));
    t.player.click(toggle(t.player));
    const before = marked(t.player, t.hero);
    t.player.click(panel(t.player)!.querySelector("button:not([disabled])"));
    await t.world.settle();
    expect(marked(t.player, t.hero)).toBe(before + 1);
    expect(panel(t.player)).not.toBeNull();
  });
});
