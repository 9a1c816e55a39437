// @vitest-environment happy-dom
/**
 * RULES §2.2 "Automatic death: a GM-only action, no roll", taken back in the browser playground
 * (playground/ui.ts dispatch, as the page runs it): the GM's kill writes its record, his undo
 * restores the track and removes the record; a player's undo is refused.
 */
import { describe, expect, it } from "vitest";
import type { Store } from "../../playground/store";
import { clickSheet, leroyWorld } from "./playground-page";
import { killRecordOf } from "../../src/system/actions";

const world = (isGM: boolean) => leroyWorld(isGM);
const click = (store: Store, id: string, action: string, ref?: string) =>
  clickSheet(store, id, action, ref ? { ref } : {});
const stateOf = (store: Store, id: string) =>
  structuredClone((store.actor(id)!.system as { woundTrack: { state: unknown } }).woundTrack.state);

describe("Undo of the automatic death in the playground", () => {
  it("the GM kills Hurt Leroy, then undoes it: the track is as before (the Hurt mark too) and the record is gone", async () => {
    const { store, id } = world(true);
    await click(store, id, "toggleWoundBox", "hurt:0");
    const before = stateOf(store, id);
    await click(store, id, "killActor");
    expect((stateOf(store, id) as { dead?: boolean }).dead).toBe(true);
    expect(killRecordOf(store.actor(id)!)).not.toBeNull();
    await click(store, id, "undoKill");
    expect(killRecordOf(store.actor(id)!)).toBeNull();
    expect((stateOf(store, id) as { dead?: boolean }).dead).toBe(false);
    expect(stateOf(store, id)).toEqual(before);
    expect((before as { marks: { hurt: unknown[] } }).marks.hurt).toEqual([{ level: "hurt" }]);
  });

  it("a player's undo is refused (the sheet's action checks user.isGM)", async () => {
    const { store, id } = world(false);
    await expect(click(store, id, "undoKill")).rejects.toThrow(/only a GM/);
  });
});
