// @vitest-environment happy-dom
/**
 * RULES §2.2 "Automatic death: a GM-only action, no roll" (Fudge §4.51, the helpless victim): the
 * pure action shared by Foundry's sheet and the playground, the sheet's context and the skull
 * button in the wound track's header.
 */
import { describe, expect, test } from "vitest";
import { canKill, killActor } from "../../src/system/actions";
import { trackFor } from "../../src/system/combatant";
import { characterSheetContext, npcSheetContext } from "../../src/system/sheet";
import { applyWound, trackStatus } from "../../src/rules/track";
import type { ActorDoc } from "../../src/system/data";
import { GM, goblin, leroy, PLAYER1, rulesFor } from "./fixtures";
import { keyOf } from "../rules/errors";
import { makeRenderer } from "./render";

const rules = rulesFor("fudge");
const withState = <T extends ActorDoc>(a: T, state: unknown): T => ({ ...a, system: { ...a.system, woundTrack: { ...(a.system as { woundTrack: object }).woundTrack, state } } }) as T;

describe("RULES §2.2 automatic death (GM only, no roll)", () => {
  test("the GM kills at once: the track is Dead, with the rules core's step", () => {
    const r = killActor(leroy(), rules, GM);
    const after = withState(leroy(), (r.update.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"]);
    expect(trackStatus(trackFor(after, rules)).condition).toBe("dead");
    expect(r.steps.map((s) => s.key)).toEqual(["FUDGE.Step.Box.Kill"]);
  });

  test("the marks stay as they were (Dead is a state, RULES §2.3)", () => {
    const hurt = withState(leroy(), applyWound(trackFor(leroy(), rules), { level: "hurt" }).track.state);
    const r = killActor(hurt, rules, GM);
    const state = (r.update.system as { woundTrack: { "==state": { marks: Record<string, unknown[]>; dead: boolean } } }).woundTrack["==state"];
    expect(state.dead).toBe(true);
    expect(state.marks.hurt).toEqual([{ level: "hurt" }]);
  });

  test("a player is refused, even on his own character", () => {
    expect(keyOf(() => killActor(leroy(), rules, PLAYER1))).toBe("FUDGE.Error.KillGmOnly");
  });

  test("the Damage Capacity track has a Dead state too; FATE and Volt tracks do not", () => {
    const dc = rulesFor("fudge", { fudge: { ...rules.fudge, dcVariant: "track" } });
    const r = killActor(leroy(), dc, GM);
    expect(trackStatus(trackFor(withState(leroy(), (r.update.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"]), dc)).condition).toBe("dead");
    expect(keyOf(() => killActor(leroy(), rulesFor("fate"), GM))).toBe("FUDGE.Error.KillTrackKind");
    expect(keyOf(() => killActor(leroy(), rulesFor("volt"), GM))).toBe("FUDGE.Error.KillTrackKind");
  });

  test("the sheet offers it to the GM only, while the actor is not dead", () => {
    expect(characterSheetContext(leroy(), rules, { editable: true, owner: true, gm: true }).killable).toBe(true);
    expect(npcSheetContext(goblin(), rules, { editable: true, owner: true, gm: true }).killable).toBe(true);
    expect(characterSheetContext(leroy(), rules, { editable: true, owner: true }).killable).toBe(false);
    const dead = withState(leroy(), (killActor(leroy(), rules, GM).update.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"]);
    expect(characterSheetContext(dead, rules, { editable: true, owner: true, gm: true }).killable).toBe(false);
    expect(canKill(leroy(), rulesFor("fate"), true)).toBe(false);
  });

  test("the character sheet draws the skull button in the wound track's header (Font Awesome, tooltip, localized)", () => {
    const r = makeRenderer();
    const gm = r.render("character", characterSheetContext(leroy(), rules, { editable: true, owner: true, gm: true }));
    const doc = new DOMParser().parseFromString(gm, "text/html");
    const button = doc.querySelector('.fudge-track-header [data-action="killActor"]');
    expect(button).not.toBeNull();
    expect(button!.querySelector("i.fa-solid.fa-skull")).not.toBeNull();
    expect(button!.getAttribute("data-tooltip")).toMatch(/Automatic death/);
    expect(button!.getAttribute("aria-label")).toBe("Automatic death");
    expect(r.missing).toEqual(new Set());
    const player = r.render("character", characterSheetContext(leroy(), rules, { editable: true, owner: true }));
    expect(player).not.toContain('data-action="killActor"');
  });
});
