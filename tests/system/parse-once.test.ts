/**
 * Parse once: a flow reads each actor once (readActor) and every reader of that copy — the
 * request, the integrity check, the wound, the Guts check — answers from one parse of its wound
 * track's configuration. Counted here by the box-track configuration builder of the Fudge preset's
 * index, which every Fudge and Miniatures track configuration read by src/system goes through.
 */
import { describe, expect, it, vi } from "vitest";

const built = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../src/rules/fudge", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/rules/fudge")>();
  return {
    ...real,
    boxTrackConfig: (...args: Parameters<typeof real.boxTrackConfig>) => {
      built.count++;
      return real.boxTrackConfig(...args);
    },
  };
});

import { Store, type PlainDoc, type PlaygroundState } from "../../playground/store";
import { parseDice } from "../../playground/dice";
import { playgroundPort } from "../../playground/port";
import * as flows from "../../src/system/flows";
import { startAttack } from "../../src/system/actions";
import { readActor, trackFor } from "../../src/system/combatant";
import { seededRng } from "../../src/rules";
import type { ActorDoc, AttackCardData } from "../../src/system/data";
import { GM, knight, leroy, rulesFor, theodora } from "./fixtures";
import { testPage } from "./playground-page";

function world(preset: string, actors: ActorDoc[], card: AttackCardData): Store {
  const state: PlaygroundState = {
    version: 1,
    preset,
    theme: "light",
    settings: { preset },
    actors: actors.map((a) => structuredClone(a) as unknown as PlainDoc),
    messages: [{ _id: "card", type: "attackCard", system: card as never, timestamp: 1 }],
    open: [],
    targets: [],
    user: { id: GM.id, name: "GM", isGM: true },
  };
  return new Store(() => state, null, 0);
}

describe("a flow parses each actor's track once", () => {
  it("readActor: every trackFor of the read copy under the flow's rules is the one parse (frozen: no reader changes it)", () => {
    const rules = rulesFor("fudge");
    const doc = readActor(leroy(), rules);
    const t = trackFor(doc, rules);
    expect(trackFor(doc, rules)).toBe(t);
    expect(Object.isFrozen(t.config)).toBe(true);
    // Another copy, or other rules, is parsed on its own.
    expect(trackFor(leroy(), rules)).not.toBe(t);
    expect(trackFor(doc, rulesFor("fudge"))).not.toBe(t);
  });

  it("Fudge: Apply parses the attacker's and the defender's track configuration once each", async () => {
    const rules = rulesFor("fudge");
    const card = startAttack(leroy(), "broadsword", [theodora()], {}, { attack: [1, 1, 1, 1] }, rules, GM);
    const store = world("fudge", [leroy(), theodora()], card);
    const port = playgroundPort(store, parseDice("-1,-1,-1,-1"), testPage());
    await flows.performCardAction(port, "card", "defend", "theodora");
    built.count = 0;
    await flows.performCardAction(port, "card", "apply", "theodora");
    expect((store.actor("theodora")!.system as { woundTrack: { state: unknown } }).woundTrack.state).not.toBeNull();
    expect(built.count).toBe(2);
  });

  it("Miniatures: Apply and the Guts check it forces — the defender is read again after the wound (his Guts as wounded), nothing more", async () => {
    const rules = rulesFor("miniatures");
    const [a, b] = [knight("attacker", "Sir A"), knight("defender", "Sir B")];
    // The first seeded attack that wounds Sir B to a new level (a Guts check follows).
    let card: AttackCardData | null = null;
    for (let seed = 0; seed < 500 && !card; seed++) {
      const c = startAttack(a, "attackerSword", [b], {}, seededRng(seed), rules, GM);
      const res = c.targets[0].resolution as { followUps?: { type: string }[] } | null;
      if (res?.followUps?.some((f) => f.type === "gutsCheck")) card = c;
    }
    expect(card).not.toBeNull();
    const store = world("miniatures", [a, b], card!);
    built.count = 0;
    await flows.performCardAction(playgroundPort(store, parseDice("0,0,0,0"), testPage()), "card", "apply", "defender");
    expect(store.state.messages.map((m) => m.type)).toEqual(["attackCard", "rollNote"]);
    expect(built.count).toBe(3);
  });
});
