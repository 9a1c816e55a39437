// @vitest-environment happy-dom
/**
 * Each preset's attack pipeline is a chunk of its own (src/rules/presets.ts): a client loads the
 * world's preset's from `init` — Foundry does not wait for it (v13 client/game.mjs Game#setupGame
 * calls Hooks.callAll and goes on) — and the rest on demand. What reads a pipeline awaits its load:
 * a card drawn at start-up (its own preset's, which may be an earlier preset's), an attack clicked
 * at once, the GM's preset change.
 *
 * One pipeline registry serves every client of this file, and a pipeline once loaded stays: each
 * test below starts with presets no earlier test has loaded (Fudge and Volt, then FATE, then
 * Miniatures).
 */
import { describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { ROLES, startWorld } from "./index";
import { actorOn, table } from "./table";
import { presetLoaded } from "../../src/rules";
import { SYSTEM_ID } from "../../src/system/registry";

const CARDS = (
  JSON.parse(readFileSync("tests/fixtures/cards-0.1.0.json", "utf8")) as {
    attackCards: { label: string; preset: string; stage: string; card: Record<string, unknown> }[];
  }
).attackCards;
/** A Volt attack card as 0.1.0 stored it (tests/fixtures/cards-0.1.0.json), posted, not yet applied. */
const VOLT_CARD = CARDS.find((c) => c.label === "volt lethal seed1" && c.stage === "posted")!.card;
/** A Miniatures attack request as a 0.1.0 card recorded it. */
const MINI_REQUEST = (CARDS.find((c) => c.preset === "miniatures")!.card as { targets: { request: unknown }[] })
  .targets[0].request;

const loaded = () => ["fudge", "miniatures", "fate", "volt"].filter((p) => presetLoaded(p));

describe("the presets' pipelines load on demand", () => {
  it("a Fudge world loads Fudge's from init, and a Volt card in its chat log (an earlier preset's) is drawn once Volt's has loaded", async () => {
    expect(loaded()).toEqual([]);
    let card = "";
    const t = await table({
      seed: (world, ids) => {
        card = world.server.seed("ChatMessage", { type: "attackCard", author: ids.gm, content: "", system: VOLT_CARD });
      },
    });
    await t.world.settle();
    expect(loaded()).toEqual(["fudge", "volt"]);
    for (const client of [t.gm, t.player]) {
      const el = client.chatLog.get(card)!;
      expect(el.querySelector(".fudge-card-error"), client.user.name).toBeNull();
      // The card as Volt's pipeline reads it: its dice slots by their Volt names, and its outcome.
      expect(el.querySelector(".message-content")!.textContent).toMatch(/Theodora/);
      expect(el.querySelector(".message-content")!.innerHTML).toMatch(/data-slot="attack"|Attack/);
      // Inserted once, already drawn: no "still loading" card came before it.
      const inserts = client.chatInserted.filter((i) => i.id === card);
      expect(inserts).toHaveLength(1);
      expect(inserts[0].html).not.toContain("fudge-card-error");
    }
    expect(t.world.errors).toEqual([]);
  });

  it("an attack clicked as soon as a FATE world has started resolves under FATE's pipeline, loaded from init", async () => {
    expect(presetLoaded("fate")).toBe(false);
    const world = await startWorld();
    const gmId = world.addUser("Gamemaster", ROLES.GAMEMASTER);
    world.server.settings.set(`${SYSTEM_ID}.preset`, "fate");
    const hero = world.server.seed("Actor", {
      name: "Leroy",
      type: "character",
      system: {},
      items: [{ name: "Broadsword", type: "weapon", system: { equipped: true } }],
      effects: [],
    });
    const foe = world.server.seed("Actor", { name: "Theodora", type: "npc", system: {}, items: [], effects: [] });
    world.server.seed("Scene", {
      name: "Tavern",
      active: true,
      tokens: [
        { _id: "tokHero000000001", name: "Leroy", actorId: hero, actorLink: true, x: 0, y: 0 },
        { _id: "tokFoe0000000001", name: "Theodora", actorId: foe, actorLink: true, x: 100, y: 0 },
      ],
    });
    const gm = await world.connect(gmId);
    // The click comes before the load started at init has finished: the flow waits for it.
    expect(presetLoaded("fate")).toBe(false);
    gm.target(gm.game.scenes.contents[0]!.tokens.get("tokFoe0000000001")!);
    const actor = actorOn(gm, hero);
    const { startAttackFlow } = await import("../../src/foundry/chat");
    world.dice.queue(1, 1, 1, 1);
    await gm.run(() => startAttackFlow(actor, actor.items.contents[0]!.id, { fastForward: true }));
    await world.settle();
    expect(gm.notifications).toEqual([]);
    const msg = gm.game.messages.contents.at(-1)!;
    const system = msg.system as unknown as {
      preset: string;
      targets: { request: { preset: string }; resolution: { outcome: string } | null }[];
    };
    expect(system.preset).toBe("fate");
    expect(system.targets[0].request.preset).toBe("fate");
    // Resolved at the roll (a FATE attack waits for the defender's roll: the outcome is that of the card so far).
    expect(JSON.stringify(system.targets[0])).toContain('"preset":"fate"');
    expect(gm.chatLog.get(String(msg.id))!.querySelector(".fudge-card-error")).toBeNull();
    expect(presetLoaded("miniatures")).toBe(false);
    expect(world.errors).toEqual([]);
  });

  it("the GM's change of preset loads the new preset's pipeline on every client, before anything reads it", async () => {
    expect(presetLoaded("miniatures")).toBe(false);
    const t = await table();
    await t.gm.run(() => game.settings!.set(SYSTEM_ID as never, "preset" as never, "miniatures" as never));
    await vi.waitFor(() => expect(presetLoaded("miniatures")).toBe(true));
    // Read at once (a macro's `game.system.api.odds`, synchronous), with no flow or card to wait for it.
    const odds = t.player.run(() =>
      (game.system as unknown as { api: { odds(r: unknown): { preset: string } } }).api.odds(MINI_REQUEST),
    );
    expect(odds.preset).toBe("miniatures");
    expect(t.world.errors).toEqual([]);
  });
});
