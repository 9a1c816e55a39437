// @vitest-environment happy-dom
/**
 * RULES §2.2 "Automatic death: a GM-only action, no roll", taken back in the browser playground
 * (playground/ui.ts dispatch, as the page runs it): the GM's kill writes its record, his undo
 * restores the track and removes the record; a player's undo is refused.
 */
import { describe, expect, it } from "vitest";
import * as ui from "../../playground/ui";
import { Store, type PlaygroundState } from "../../playground/store";
import { sampleActors } from "../../playground/packs";
import { parseDice } from "../../playground/dice";
import { killRecordOf } from "../../src/system/actions";

function world(isGM: boolean): { store: Store; id: string } {
  const actors = sampleActors();
  const leroy = actors.find((a) => a.name.startsWith("Leroy"))!;
  const state: PlaygroundState = {
    version: 1,
    preset: "fudge",
    theme: "light",
    settings: { preset: "fudge" },
    actors,
    messages: [],
    open: [leroy._id],
    targets: [],
    user: { id: "pgGamemaster0001", name: "Gamemaster", isGM },
  };
  return { store: new Store(() => state, null, 0), id: leroy._id };
}
const click = (store: Store, id: string, action: string, ref?: string) => {
  const el = document.createElement("button");
  el.dataset.action = action;
  if (ref) el.dataset.ref = ref;
  return ui.dispatch(store, parseDice(""), {
    action,
    target: el,
    doc: { kind: "actor", id },
    event: new Event("click"),
  });
};
const stateOf = (store: Store, id: string) =>
  structuredClone((store.actor(id)!.system as { woundTrack: { state: unknown } }).woundTrack.state);

describe("Undo of the automatic death in the playground", () => {
  it("the GM kills Hurt Leroy, then undoes it: the track is as before (the Hurt mark too) and the record is gone", () => {
    const { store, id } = world(true);
    click(store, id, "toggleWoundBox", "hurt:0");
    const before = stateOf(store, id);
    click(store, id, "killActor");
    expect((stateOf(store, id) as { dead?: boolean }).dead).toBe(true);
    expect(killRecordOf(store.actor(id)!)).not.toBeNull();
    click(store, id, "undoKill");
    expect(killRecordOf(store.actor(id)!)).toBeNull();
    expect((stateOf(store, id) as { dead?: boolean }).dead).toBe(false);
    expect(stateOf(store, id)).toEqual(before);
    expect((before as { marks: { hurt: unknown[] } }).marks.hurt).toEqual([{ level: "hurt" }]);
  });

  it("a player's undo is refused (the sheet's action checks user.isGM)", () => {
    const { store, id } = world(false);
    expect(() => click(store, id, "undoKill")).toThrow(/only a GM/);
  });
});
