// @vitest-environment happy-dom
/**
 * RULES §2.2 "Automatic death: a GM-only action, no roll" (Fudge §4.51, the helpless victim): the
 * pure action shared by Foundry's sheet and the playground, the sheet's context and the skull
 * button in the wound track's header.
 */
import { describe, expect, test } from "vitest";
import {
  canKill,
  canUndoKill,
  killActor,
  killRecordOf,
  toggleWoundBox,
  undoKill,
  type ActorUpdate,
} from "../../src/system/actions";
import { withGmRecords } from "../../src/system/gm-records";
import { mergeLikeFoundry, safeTrackUpdate } from "../../src/system/updates";
import { trackFor } from "../../src/system/combatant";
import { characterSheetContext, npcSheetContext } from "../../src/system/sheet";
import { applyWound, trackStatus } from "../../src/rules";
import type { ActorDoc } from "../../src/system/data";
import { GM, goblin, leroy, PLAYER1, rulesFor } from "./fixtures";
import { DC_DEAD } from "../../src/rules/fudge";
import { keyOf } from "../rules/errors";
import { makeRenderer } from "./render";

const rules = rulesFor("fudge");
/**
 * The actor after an update, merged as Foundry's server does (src/system/updates.ts); its GM
 * records as the GM's store keeps them (a record replaced whole: withGmRecords).
 */
const after = <T extends ActorDoc>(doc: T, u: ActorUpdate): T => {
  const { gmRecords, ...rest } = u;
  const merged = mergeLikeFoundry(doc, safeTrackUpdate(doc.system, rest)) as T;
  if (!gmRecords) return merged;
  const store = withGmRecords({ [doc._id]: doc.gmRecords ?? {} }, doc._id, gmRecords);
  return { ...merged, gmRecords: store[doc._id] ?? {} };
};
const stateOf = (doc: ActorDoc): unknown => (doc.system as { woundTrack: { state: unknown } }).woundTrack.state;
const withState = <T extends ActorDoc>(a: T, state: unknown): T =>
  ({ ...a, system: { ...a.system, woundTrack: { ...(a.system as { woundTrack: object }).woundTrack, state } } }) as T;

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
    const state = (
      r.update.system as { woundTrack: { "==state": { marks: Record<string, unknown[]>; dead: boolean } } }
    ).woundTrack["==state"];
    expect(state.dead).toBe(true);
    expect(state.marks.hurt).toEqual([{ level: "hurt" }]);
  });

  test("a player is refused, even on his own character", () => {
    expect(keyOf(() => killActor(leroy(), rules, PLAYER1))).toBe("FUDGE.Error.KillGmOnly");
  });

  test("the Damage Capacity track has a Dead state too; FATE and Volt tracks do not", () => {
    const dc = rulesFor("fudge", { fudge: { ...rules.fudge, dcVariant: "track" } });
    const r = killActor(leroy(), dc, GM);
    expect(
      trackStatus(
        trackFor(
          withState(leroy(), (r.update.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"]),
          dc,
        ),
      ).condition,
    ).toBe("dead");
    expect(keyOf(() => killActor(leroy(), rulesFor("fate"), GM))).toBe("FUDGE.Error.KillTrackKind");
    expect(keyOf(() => killActor(leroy(), rulesFor("volt"), GM))).toBe("FUDGE.Error.KillTrackKind");
  });

  test("the sheet offers it to the GM only, while the actor is not dead", () => {
    expect(characterSheetContext(leroy(), rules, { editable: true, owner: true, gm: true }).killable).toBe(true);
    expect(npcSheetContext(goblin(), rules, { editable: true, owner: true, gm: true }).killable).toBe(true);
    expect(characterSheetContext(leroy(), rules, { editable: true, owner: true }).killable).toBe(false);
    const dead = withState(
      leroy(),
      (killActor(leroy(), rules, GM).update.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"],
    );
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

describe("Undo of the automatic death (GM only): RULES §2.2 'Automatic death: a GM-only action, no roll' taken back", () => {
  const hurtLeroy = () => withState(leroy(), applyWound(trackFor(leroy(), rules), { level: "hurt" }).track.state);

  test("the kill records what it changed for the GM's store (not the actor's flags): the track before and after, by whom, when", () => {
    const a = hurtLeroy();
    const k = killActor(a, rules, GM, { now: 1234 });
    expect(k.update.flags).toBeUndefined();
    const dead = after(a, k.update);
    expect(killRecordOf(dead)).toEqual({ before: trackFor(a, rules).state, after: stateOf(dead), by: "gm", at: 1234 });
  });

  test("box track: kill then undo restores the track exactly (marks and all) and removes the record", () => {
    const a = hurtLeroy();
    const dead = after(a, killActor(a, rules, GM).update);
    expect(trackStatus(trackFor(dead, rules)).condition).toBe("dead");
    const u = undoKill(dead, rules, GM);
    expect(u.flags).toBeUndefined(); // nothing in the actor's own flags: the record is the GM's
    expect(u.gmRecords).toEqual({ "-=killedFrom": null });
    const back = after(dead, u);
    expect(stateOf(back)).toEqual(trackFor(a, rules).state);
    expect(trackStatus(trackFor(back, rules)).condition).toBe(trackStatus(trackFor(a, rules)).condition);
    expect(killRecordOf(back)).toBeNull();
    expect(back.gmRecords ?? {}).not.toHaveProperty("killedFrom");
  });

  test("Damage Capacity track: kill then undo gives the previous DC back (the kill set it to DC_DEAD)", () => {
    const dcRules = rulesFor("fudge", { fudge: { ...rules.fudge, dcVariant: "track" } });
    const a = withState(leroy(), applyWound(trackFor(leroy(), dcRules), { level: "hurt" }).track.state);
    const dcBefore = (trackFor(a, dcRules).state as { dc: number }).dc;
    const dead = after(a, killActor(a, dcRules, GM).update);
    expect((stateOf(dead) as { dc: number }).dc).toBe(DC_DEAD);
    expect(dcBefore).not.toBe(DC_DEAD);
    const back = after(dead, undoKill(dead, dcRules, GM));
    expect(stateOf(back)).toEqual(trackFor(a, dcRules).state);
    expect((stateOf(back) as { dc: number }).dc).toBe(dcBefore);
    expect(killRecordOf(back)).toBeNull();
  });

  test("a player is refused, even on his own character (localized), and his sheet has no undo", () => {
    const dead = after(hurtLeroy(), killActor(hurtLeroy(), rules, GM).update);
    expect(keyOf(() => undoKill(dead, rules, PLAYER1))).toBe("FUDGE.Error.UndoKillGmOnly");
    expect(canUndoKill(dead, rules, false)).toBe(false);
    expect(characterSheetContext(dead, rules, { editable: true, owner: true }).killUndoable).toBe(false);
    expect(characterSheetContext(dead, rules, { editable: true, owner: true, gm: true }).killUndoable).toBe(true);
  });

  test("refused once the track changed after the kill (a later change is never overwritten); the button is gone", () => {
    const dead = after(hurtLeroy(), killActor(hurtLeroy(), rules, GM).update);
    const later = after(dead, toggleWoundBox(dead, "scratch:0", rules, GM));
    expect(trackStatus(trackFor(later, rules)).condition).toBe("dead");
    expect(killRecordOf(later)).not.toBeNull();
    expect(keyOf(() => undoKill(later, rules, GM))).toBe("FUDGE.Error.KillUndoConflict");
    expect(canUndoKill(later, rules, true)).toBe(false);
    expect(characterSheetContext(later, rules, { editable: true, owner: true, gm: true }).killUndoable).toBe(false);
  });

  test("no record, no button: dead by a wound (not the GM's kill) offers no undo, and the action refuses", () => {
    const dead = withState(leroy(), applyWound(trackFor(leroy(), rules), { level: "dead" }).track.state);
    expect(trackStatus(trackFor(dead, rules)).condition).toBe("dead");
    expect(characterSheetContext(dead, rules, { editable: true, owner: true, gm: true }).killUndoable).toBe(false);
    expect(keyOf(() => undoKill(dead, rules, GM))).toBe("FUDGE.Error.NoKillToUndo");
    expect(characterSheetContext(leroy(), rules, { editable: true, owner: true, gm: true }).killUndoable).toBe(false);
  });

  test("a second kill replaces an old record whole (no stale key of the old one survives Foundry's merge)", () => {
    // An old record no longer matching the track: left from a custom track whose levels were other
    // keys (the GM changed the preset since), then the GM kills again.
    const stale = {
      before: { marks: { grazed: [null] }, stun: null, dead: false },
      after: { marks: { grazed: [null] }, stun: null, dead: true },
      by: "gm",
      at: 1,
    };
    const a = { ...hurtLeroy(), gmRecords: { killedFrom: stale } };
    expect(canUndoKill(a, rules, true)).toBe(false);
    const again = after(a, killActor(a, rules, GM, { now: 2 }).update);
    expect(killRecordOf(again)).toEqual({ before: trackFor(a, rules).state, after: stateOf(again), by: "gm", at: 2 });
    const back = after(again, undoKill(again, rules, GM));
    expect(stateOf(back)).toEqual(trackFor(a, rules).state);
  });

  test("the GM's sheet draws the undo in the wound track's header (fa-heart-pulse, tooltip, localized); the player's does not", () => {
    const dead = after(hurtLeroy(), killActor(hurtLeroy(), rules, GM).update);
    const r = makeRenderer();
    const doc = new DOMParser().parseFromString(
      r.render("character", characterSheetContext(dead, rules, { editable: true, owner: true, gm: true })),
      "text/html",
    );
    const button = doc.querySelector('.fudge-track-header [data-action="undoKill"]');
    expect(button).not.toBeNull();
    expect(button!.querySelector("i.fa-solid.fa-heart-pulse")).not.toBeNull();
    expect(button!.getAttribute("data-tooltip")).toMatch(/Undo automatic death/);
    expect(button!.getAttribute("aria-label")).toBe("Undo automatic death");
    expect(r.missing).toEqual(new Set());
    expect(r.render("character", characterSheetContext(dead, rules, { editable: true, owner: true }))).not.toContain(
      'data-action="undoKill"',
    );
    expect(
      r.render("character", characterSheetContext(hurtLeroy(), rules, { editable: true, owner: true, gm: true })),
    ).not.toContain('data-action="undoKill"');
  });
});
