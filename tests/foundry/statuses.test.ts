import { describe, expect, it } from "vitest";
import { MANAGED_STATUS_IDS, WOUND_STATUS_EFFECTS, statusChanges, statusesFor } from "../../src/foundry/statuses-pure";
import type { TrackStatus } from "../../src/rules/track";
import fs from "node:fs";

const st = (over: Partial<TrackStatus>): TrackStatus => ({ penalty: 0, condition: "able", canAct: true, levelKey: null, effects: [], steps: [], ...over });

describe("token statuses from the wound track", () => {
  it("Fudge levels: Scratch shows nothing, Hurt and Very Hurt their own status", () => {
    expect(statusesFor(st({ levelKey: "scratch" }), "fudge", "character").statuses).toEqual([]);
    expect(statusesFor(st({ levelKey: "hurt", penalty: -1 }), "fudge", "character")).toEqual({ statuses: ["fudge-wounds.hurt"], defeated: false, overlay: null });
    expect(statusesFor(st({ levelKey: "veryHurt", penalty: -2 }), "fudge", "npc").statuses).toEqual(["fudge-wounds.veryHurt"]);
    expect(statusesFor(st({ levelKey: "incapacitated", condition: "cannotAct", canAct: false }), "fudge", "character").statuses).toEqual(["fudge-wounds.incapacitated"]);
    expect(statusesFor(st({ levelKey: "nearDeath", condition: "dying", canAct: false }), "fudge", "character").statuses).toEqual(["fudge-wounds.nearDeath"]);
  });

  it("Dead: the core dead overlay and defeated in the tracker", () => {
    expect(statusesFor(st({ levelKey: "dead", condition: "dead", canAct: false }), "fudge", "character")).toEqual({ statuses: ["dead"], defeated: true, overlay: "dead" });
  });

  it("Miniatures: Near Death lies face up (prone), Dead face down (dead overlay)", () => {
    expect(statusesFor(st({ levelKey: "nearDeath", condition: "dying", canAct: false }), "miniatures", "miniature")).toEqual({
      statuses: ["fudge-wounds.nearDeath", "prone"],
      defeated: false,
      overlay: "prone",
    });
    expect(statusesFor(st({ levelKey: "dead", condition: "dead" }), "miniatures", "miniature").overlay).toBe("dead");
  });

  it("FATE: Taken Out is defeated but not dead; Clipped is an effect", () => {
    expect(statusesFor(st({ levelKey: "takenOut", condition: "takenOut" }), "fate", "character")).toEqual({ statuses: ["fudge-wounds.takenOut"], defeated: true, overlay: "fudge-wounds.takenOut" });
    expect(statusesFor(st({ levelKey: "clipped", effects: ["clipped"], penalty: -1 }), "fate", "character").statuses).toEqual(["fudge-wounds.clipped"]);
  });

  it("Volt rows carry penalties, not level names; a circled-row Injury is dying but can act", () => {
    expect(statusesFor(st({ levelKey: "row7", penalty: -4 }), "volt", "character").statuses).toEqual(["fudge-wounds.veryHurt"]);
    expect(statusesFor(st({ levelKey: "row3", penalty: -1 }), "volt", "character").statuses).toEqual(["fudge-wounds.hurt"]);
    expect(statusesFor(st({ levelKey: "row11", condition: "dying", canAct: true, penalty: -5 }), "volt", "character").statuses).toEqual(["fudge-wounds.nearDeath"]);
  });

  it("stun effects show as statuses", () => {
    expect(statusesFor(st({ levelKey: "hurt", effects: ["stunned"] }), "fudge", "character").statuses).toEqual(["fudge-wounds.hurt", "fudge-wounds.stunned"]);
  });

  it("statusChanges touches only managed statuses", () => {
    expect(statusChanges(["fudge-wounds.hurt", "blind"], ["fudge-wounds.veryHurt"])).toEqual({ add: ["fudge-wounds.veryHurt"], remove: ["fudge-wounds.hurt"] });
    expect(statusChanges(["dead", "prone"], [])).toEqual({ add: [], remove: ["dead", "prone"] });
  });

  it("every status has a name key in lang/en.json and a unique id", () => {
    const lang = JSON.parse(fs.readFileSync("lang/en.json", "utf8"));
    for (const e of WOUND_STATUS_EFFECTS) expect(lang[e.name], e.name).toBeTypeOf("string");
    expect(new Set(MANAGED_STATUS_IDS).size).toBe(MANAGED_STATUS_IDS.length);
  });
});
