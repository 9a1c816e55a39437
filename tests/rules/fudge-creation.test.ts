import { describe, expect, it } from "vitest";
import {
  defaultFivePointOptions,
  defaultObjectiveOptions,
  fivePointBudget,
  freeAttributeLevels,
  objectiveBudget,
  parseFivePointRows,
  skillCost,
  type CreationTraits,
} from "../../src/rules/fudge";
import { caught } from "./errors";

const traits = (over: Partial<CreationTraits> = {}): CreationTraits => ({
  attributes: [0, 0, 0, 0],
  skills: [],
  gifts: 0,
  faults: 0,
  ...over,
});

describe("Objective Character Creation (Fudge §1.6)", () => {
  it("§1.61: free attribute levels are half the attributes, rounded up", () => {
    expect(freeAttributeLevels(4, null)).toBe(2);
    expect(freeAttributeLevels(5, null)).toBe(3);
    expect(freeAttributeLevels(6, null)).toBe(3);
    expect(freeAttributeLevels(20, null)).toBe(10);
    // The high-powered option: as many free levels as attributes.
    expect(freeAttributeLevels(4, 4)).toBe(4);
  });

  it("§1.61 worked example: Strength Fair → Great spends both free levels of four attributes, not of six or twenty", () => {
    const o = defaultObjectiveOptions();
    expect(objectiveBudget(traits({ attributes: [2, 0, 0, 0] }), o).attributes).toEqual({ free: 2, spent: 2, left: 0 });
    expect(objectiveBudget(traits({ attributes: [2, 0, 0, 0, 0, 0] }), o).attributes.left).toBe(1);
    expect(objectiveBudget(traits({ attributes: [2, ...Array(19).fill(0)] }), o).attributes.left).toBe(8);
  });

  it("§1.61: with the free levels spent, Strength rises one more by lowering another attribute", () => {
    const b = objectiveBudget(traits({ attributes: [3, -1, 0, 0] }), defaultObjectiveOptions());
    expect(b.attributes).toEqual({ free: 2, spent: 2, left: 0 });
    expect(b.over).toEqual([]);
  });

  it("§1.62: skills start at Terrible, each level above costs one (Fair 3, Good 4, Superb 6)", () => {
    expect([-3, -2, -1, 0, 1, 2, 3].map(skillCost)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const b = objectiveBudget(
      traits({ skills: [{ level: 1 }, { level: 0 }, { level: 2 }] }),
      defaultObjectiveOptions(),
    );
    expect(b.skills).toEqual({ free: 50, spent: 12, left: 38 });
  });

  it("§1.64: one attribute level over the free ones is three skill levels", () => {
    const b = objectiveBudget(traits({ attributes: [2, 1, 0, 0], skills: [{ level: 1 }] }), defaultObjectiveOptions());
    expect(b.trades).toEqual([{ from: "skills", to: "attributes", given: 3, received: 1 }]);
    expect(b.attributes.left).toBe(0);
    expect(b.skills.left).toBe(50 - 4 - 3);
    expect(b.over).toEqual([]);
  });

  it("§1.63–1.64: a fault buys a gift; a third gift with no fault costs two attribute levels", () => {
    const o = defaultObjectiveOptions();
    expect(objectiveBudget(traits({ gifts: 3, faults: 1 }), o).gifts).toEqual({ free: 3, spent: 3, left: 0 });
    const b = objectiveBudget(traits({ gifts: 3 }), o);
    expect(b.trades).toEqual([{ from: "attributes", to: "gifts", given: 2, received: 1 }]);
    expect(b.attributes.left).toBe(0);
    expect(b.over).toEqual([]);
  });

  it("§1.64: a gift not taken is six skill levels", () => {
    const skills = Array.from({ length: 9 }, () => ({ level: 1 })); // 36 levels
    const b = objectiveBudget(traits({ attributes: [1, 1, 0, 0], skills, gifts: 0 }), {
      ...defaultObjectiveOptions(),
      freeSkillLevels: 30,
    });
    expect(b.trades).toEqual([{ from: "gifts", to: "skills", given: 1, received: 6 }]);
    expect(b.skills.left).toBe(0);
    expect(b.gifts.left).toBe(1);
  });

  it("over budget: a pool nothing can cover is reported, never refused", () => {
    const b = objectiveBudget(traits({ attributes: [3, 3, 3, 3], gifts: 2 }), {
      ...defaultObjectiveOptions(),
      freeSkillLevels: 0,
    });
    expect(b.over).toEqual(["attributes"]);
    expect(b.attributes.left).toBeLessThan(0);
  });
});

describe("Five-Point Fudge (Fudge SRD, Fantasy Fudge: Character Points)", () => {
  const o = defaultFivePointOptions();
  it("SRD example 1: one broad point in Combat — three skills at Fair and one at Mediocre", () => {
    const b = fivePointBudget(
      traits({
        skills: [
          { level: 0, group: "combat" },
          { level: 0, group: "combat" },
          { level: 0, group: "combat" },
          { level: -1, group: "combat" },
        ],
      }),
      o,
    );
    expect(b.groups).toEqual([{ group: "combat", levels: [0, 0, 0, -1], points: 1, focus: "broad" }]);
    expect(b.points).toEqual({ free: 5, spent: 1, left: 4 });
  });

  it("SRD example 3: one narrow point — Bow Good, One-handed Sword Mediocre", () => {
    const b = fivePointBudget(
      traits({
        skills: [
          { level: 1, group: "combat" },
          { level: -1, group: "combat" },
        ],
      }),
      o,
    );
    expect(b.groups[0]).toMatchObject({ points: 1, focus: "narrow" });
  });

  it("SRD: two points — broad two Good and four Fair, narrow one Great, one Good, one Fair", () => {
    const broad = [1, 1, 0, 0, 0, 0].map((level) => ({ level, group: "scouting" }));
    const narrow = [2, 1, 0].map((level) => ({ level, group: "athletic" }));
    const b = fivePointBudget(traits({ skills: [...broad, ...narrow] }), o);
    expect(b.groups.map((g) => [g.group, g.points, g.focus])).toEqual([
      ["athletic", 2, "narrow"],
      ["scouting", 2, "broad"],
    ]);
    expect(b.points.left).toBe(1);
    expect(b.over).toBe(false);
  });

  it("a group beyond the table's rows, an ungrouped skill, one group only, too many points: reported", () => {
    const b = fivePointBudget(traits({ skills: [{ level: 3, group: "combat" }, { level: 0 }] }), o);
    expect(b.beyondTable).toEqual(["combat"]);
    expect(b.ungrouped).toBe(1);
    expect(b.tooFewGroups).toBe(true);
    expect(b.over).toBe(true);
    const many = ["a", "b", "c"].flatMap((group) => [2, 1, 0].map((level) => ({ level, group })));
    expect(fivePointBudget(traits({ skills: many }), o).points).toEqual({ free: 5, spent: 6, left: -1 });
  });

  it("Fantasy Fudge attributes: two free levels; one more for a fault, or for a gift not taken", () => {
    expect(fivePointBudget(traits({ attributes: [1, 1, 0, 0], gifts: 2, faults: 2 }), o).over).toBe(false);
    expect(fivePointBudget(traits({ attributes: [2, 1, 0, 0], gifts: 2, faults: 2 }), o).over).toBe(true);
    expect(fivePointBudget(traits({ attributes: [2, 1, 0, 0], gifts: 2, faults: 3 }), o).over).toBe(false);
    expect(fivePointBudget(traits({ attributes: [2, 1, 0, 0], gifts: 1, faults: 2 }), o).over).toBe(false);
  });

  it("the GM's own rows (e.g. the SRD's three-point row from his copy) price a group the text's rows cannot", () => {
    const superb = [3, 1, 0].map((level) => ({ level, group: "magic" }));
    expect(fivePointBudget(traits({ skills: superb }), o).beyondTable).toEqual(["magic"]);
    const rows = parseFivePointRows(
      [{ points: 3, focus: "narrow", superb: 1, great: 0, good: 1, fair: 1, mediocre: 0 }],
      "rows",
    );
    expect(rows).toEqual([{ points: 3, focus: "narrow", levels: [3, 1, 0] }]);
    const b = fivePointBudget(traits({ skills: superb }), { ...o, rows });
    expect(b.groups).toEqual([{ group: "magic", levels: [3, 1, 0], points: 3, focus: "narrow" }]);
    expect(b.beyondTable).toEqual([]);
    // The text's own rows still come first: one Good and one Mediocre stay one narrow point.
    const small = fivePointBudget(traits({ skills: [1, -1].map((level) => ({ level, group: "x" })) }), { ...o, rows });
    expect(small.groups[0]).toMatchObject({ points: 1, focus: "narrow" });
  });

  it("a GM's row that buys nothing, names no focus or holds too many skills is refused with its field", () => {
    expect(caught(() => parseFivePointRows([{ points: 3, focus: "broad" }], "rows"))).toMatchObject({
      field: "rows[0]",
      key: "FUDGE.Error.FivePointRowEmpty",
    });
    expect(caught(() => parseFivePointRows([{ points: 3, focus: "wide", fair: 1 }], "rows")).field).toBe(
      "rows[0].focus",
    );
    expect(caught(() => parseFivePointRows([{ points: 3, focus: "broad", fair: 21 }], "rows")).key).toBe(
      "FUDGE.Error.OutOfRange",
    );
    expect(caught(() => parseFivePointRows([{ points: 0, focus: "broad", fair: 1 }], "rows")).field).toBe(
      "rows[0].points",
    );
  });
});
