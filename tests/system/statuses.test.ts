import { describe, expect, it } from "vitest";
import {
  MANAGED_STATUS_IDS,
  WOUND_STATUS_EFFECTS,
  defeatedPlan,
  statusPlan,
  statusesFor,
} from "../../src/system/statuses";
import type { TrackStatus } from "../../src/rules";
import fs from "node:fs";

const st = (over: Partial<TrackStatus>): TrackStatus => ({
  penalty: 0,
  condition: "able",
  canAct: true,
  levelKey: null,
  effects: [],
  steps: [],
  ...over,
});

describe("token statuses from the wound track", () => {
  it("Fudge levels: Scratch shows nothing, Hurt and Very Hurt their own status", () => {
    expect(statusesFor(st({ levelKey: "scratch" }), "fudge", "character").statuses).toEqual([]);
    expect(statusesFor(st({ levelKey: "hurt", penalty: -1 }), "fudge", "character")).toEqual({
      statuses: ["fudge-wounds.hurt"],
      defeated: false,
      overlay: null,
    });
    expect(statusesFor(st({ levelKey: "veryHurt", penalty: -2 }), "fudge", "npc").statuses).toEqual([
      "fudge-wounds.veryHurt",
    ]);
    expect(
      statusesFor(st({ levelKey: "incapacitated", condition: "cannotAct", canAct: false }), "fudge", "character")
        .statuses,
    ).toEqual(["fudge-wounds.incapacitated"]);
    expect(
      statusesFor(st({ levelKey: "nearDeath", condition: "dying", canAct: false }), "fudge", "character").statuses,
    ).toEqual(["fudge-wounds.nearDeath"]);
  });

  it("Dead: the core dead overlay and defeated in the tracker", () => {
    expect(statusesFor(st({ levelKey: "dead", condition: "dead", canAct: false }), "fudge", "character")).toEqual({
      statuses: ["dead"],
      defeated: true,
      overlay: "dead",
    });
  });

  it("Miniatures: Near Death lies face up (prone), Dead face down (dead overlay)", () => {
    expect(
      statusesFor(st({ levelKey: "nearDeath", condition: "dying", canAct: false }), "miniatures", "miniature"),
    ).toEqual({
      statuses: ["fudge-wounds.nearDeath", "prone"],
      defeated: false,
      overlay: "prone",
    });
    expect(statusesFor(st({ levelKey: "dead", condition: "dead" }), "miniatures", "miniature").overlay).toBe("dead");
  });

  it('Miniatures: Guts — "4 Model falls to the ground, terrified": a failure by 4 in force shows Terrified and Prone (not the overlay); by 3 nothing; a dead model only Dead', () => {
    const hurt = st({ levelKey: "hurt", penalty: -1 });
    expect(statusesFor(hurt, "miniatures", "miniature", 4)).toEqual({
      statuses: ["fudge-wounds.hurt", "fudge-wounds.terrified", "prone"],
      defeated: false,
      overlay: null,
    });
    expect(statusesFor(hurt, "miniatures", "miniature", 3).statuses).toEqual(["fudge-wounds.hurt"]);
    expect(statusesFor(hurt, "miniatures", "miniature", 0).statuses).toEqual(["fudge-wounds.hurt"]);
    expect(statusesFor(st({ levelKey: "dead", condition: "dead" }), "miniatures", "miniature", 4).statuses).toEqual([
      "dead",
    ]);
  });

  it("FATE: Taken Out is defeated but not dead; Clipped is an effect", () => {
    expect(statusesFor(st({ levelKey: "takenOut", condition: "takenOut" }), "fate", "character")).toEqual({
      statuses: ["fudge-wounds.takenOut"],
      defeated: true,
      overlay: "fudge-wounds.takenOut",
    });
    expect(
      statusesFor(st({ levelKey: "clipped", effects: ["clipped"], penalty: -1 }), "fate", "character").statuses,
    ).toEqual(["fudge-wounds.clipped"]);
  });

  it("Volt rows carry penalties, not level names; a circled-row Injury is dying but can act", () => {
    expect(statusesFor(st({ levelKey: "row7", penalty: -4 }), "volt", "character").statuses).toEqual([
      "fudge-wounds.veryHurt",
    ]);
    expect(statusesFor(st({ levelKey: "row3", penalty: -1 }), "volt", "character").statuses).toEqual([
      "fudge-wounds.hurt",
    ]);
    expect(
      statusesFor(st({ levelKey: "row11", condition: "dying", canAct: true, penalty: -5 }), "volt", "character")
        .statuses,
    ).toEqual(["fudge-wounds.nearDeath"]);
  });

  it("stun effects show as statuses", () => {
    expect(statusesFor(st({ levelKey: "hurt", effects: ["stunned"] }), "fudge", "character").statuses).toEqual([
      "fudge-wounds.hurt",
      "fudge-wounds.stunned",
    ]);
  });

  it("the system changes only statuses it set itself: the GM's own dead and prone survive a wound change", () => {
    // We set Hurt; the wound worsens: Hurt goes, Very Hurt comes; "blind" is not ours.
    expect(statusPlan(["fudge-wounds.hurt", "blind"], ["fudge-wounds.hurt"], ["fudge-wounds.veryHurt"])).toEqual({
      add: ["fudge-wounds.veryHurt"],
      remove: ["fudge-wounds.hurt"],
      mine: ["fudge-wounds.veryHurt"],
    });
    // The GM marked dead and prone by hand; the track heals: both stay, and are not claimed.
    expect(statusPlan(["dead", "prone"], [], [])).toEqual({ add: [], remove: [], mine: [] });
    // The track wants dead and the GM already set it: nothing to add, and it stays the GM's.
    expect(statusPlan(["dead"], [], ["dead"])).toEqual({ add: [], remove: [], mine: [] });
    // We set dead; the wound is undone: we take it off.
    expect(statusPlan(["dead"], ["dead"], [])).toEqual({ add: [], remove: ["dead"], mine: [] });
    // One of ours the GM removed by hand is forgotten.
    expect(statusPlan([], ["fudge-wounds.hurt"], [])).toEqual({ add: [], remove: [], mine: [] });
  });

  it("the tracker's defeated flag: set when the track says so, cleared only if the system set it", () => {
    expect(defeatedPlan(false, false, true)).toEqual({ set: true, mine: true });
    expect(defeatedPlan(true, true, false)).toEqual({ set: false, mine: false });
    expect(defeatedPlan(true, false, false)).toEqual({ set: null, mine: false }); // the GM's own
    expect(defeatedPlan(true, false, true)).toEqual({ set: null, mine: false });
    expect(defeatedPlan(false, false, false)).toEqual({ set: null, mine: false });
  });

  it("every status has a name key in lang/en.json and a unique id", () => {
    const lang = JSON.parse(fs.readFileSync("lang/en.json", "utf8"));
    for (const e of WOUND_STATUS_EFFECTS) expect(lang[e.name], e.name).toBeTypeOf("string");
    expect(new Set(MANAGED_STATUS_IDS).size).toBe(MANAGED_STATUS_IDS.length);
  });
});
