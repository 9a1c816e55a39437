/**
 * A flow loads the pipeline it reads before it resolves (src/rules/presets.ts loads each preset's
 * on demand): an attack its world's preset's, a card button its card's. Each test runs on a fresh
 * registry with no pipeline loaded (tests/setup.ts loads every preset in the suite's own), against
 * the playground's port, as the test host's start-up would leave a client whose load is still under way.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PlaygroundState, PlainDoc } from "../../playground/store";

beforeEach(() => {
  vi.resetModules();
});

/** Fresh modules: the store, the port, the flows, the fixtures and the rules' registry, nothing loaded. */
async function fresh(preset: string) {
  const [{ Store }, { parseDice }, { playgroundPort }, flows, fx, { testPage }, rules] = await Promise.all([
    import("../../playground/store"),
    import("../../playground/dice"),
    import("../../playground/port"),
    import("../../src/system/flows"),
    import("./fixtures"),
    import("./playground-page"),
    import("../../src/rules"),
  ]);
  const state: PlaygroundState = {
    version: 1,
    preset,
    theme: "light",
    settings: { preset },
    actors: [fx.leroy(), fx.theodora()].map((a) => structuredClone(a) as unknown as PlainDoc),
    messages: [],
    open: [],
    targets: [fx.leroy()._id],
    user: { id: fx.GM.id, name: fx.GM.id, isGM: true },
  };
  const store = new Store(() => state, null, 0);
  const page = testPage();
  const port = playgroundPort(store, parseDice("13/20,1/20,11/20,20/20,13/20,1/20,11/20,20/20"), page);
  return { store, port, page, flows, rules };
}

const loaded = (rules: typeof import("../../src/rules")) =>
  ["fudge", "miniatures", "fate", "volt"].filter((p) => rules.presetLoaded(p));

describe("a flow loads the pipeline it reads first", () => {
  it("an attack in a Volt world, clicked before Volt's pipeline has loaded, posts its card", async () => {
    const { store, port, page, flows, rules } = await fresh("volt");
    expect(loaded(rules)).toEqual([]);
    await flows.runSheetAction(port, {
      action: "attack",
      doc: store.state.actors[1]._id,
      data: { itemId: "poleaxe" },
      shiftKey: true,
    });
    expect(page.errors).toEqual([]);
    const card = store.state.messages.at(-1) as unknown as { type: string; system: { preset: string } };
    expect(card.type).toBe("attackCard");
    expect(card.system.preset).toBe("volt");
    expect(loaded(rules)).toEqual(["volt"]);
  });

  it("Apply on a card drawn before its preset's pipeline has loaded (a client just started) loads it first", async () => {
    const volt = await fresh("volt");
    await volt.flows.runSheetAction(volt.port, {
      action: "attack",
      doc: volt.store.state.actors[1]._id,
      data: { itemId: "poleaxe" },
      shiftKey: true,
    });
    const message = structuredClone(volt.store.state.messages.at(-1)!);
    vi.resetModules();
    // The same world on a client just started: the card in its chat log, nothing loaded yet.
    const { store, port, page, flows, rules } = await fresh("volt");
    store.update((d) => void d.messages.push(message));
    expect(loaded(rules)).toEqual([]);
    const target = (message.system as { targets: { actorId: string }[] }).targets[0].actorId;
    await flows.runCardAction(port, { action: "apply", doc: message._id, data: { targetId: target } });
    expect(page.errors).toEqual([]);
    expect(loaded(rules)).toEqual(["volt"]);
    // The wound is on Leroy's track (Volt rows: his marks were empty).
    const leroy = store.state.actors[0] as unknown as { system: { woundTrack: { state: { marks: object } } } };
    expect(Object.keys(leroy.system.woundTrack.state.marks).length).toBeGreaterThan(0);
  });
});
