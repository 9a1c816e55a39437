/** Objective character development, Fudge §5.2: EP costs, advances one level at a time, the log and its undo. */
import { describe, expect, it } from "vitest";
import { character } from "../../src/rules";
import { caught } from "./errors";

const {
  awardExperience,
  raiseTrait,
  addGift,
  undoAdvancement,
  quoteRaise,
  skillStepCost,
  parseExperience,
  parseExperienceOptions,
  dependentsOf,
  spendPrice,
  DEFAULT_EXPERIENCE_OPTIONS,
} = character;

type Xp = character.Experience;

/** A raise of a trait the adventure used significantly (§5.2's default requirement). */
const raise = (xp: Xp, req: Omit<Parameters<typeof raiseTrait>[1], "used">, opts?: character.ExperienceOptions) =>
  raiseTrait(xp, { used: true, ...req }, opts);

const violet = (ep = 100): Xp =>
  parseExperience({
    ep,
    traits: {
      intelligence: { kind: "attribute", level: 1 }, // Good Intelligence
      herbLore: { kind: "skill", level: 1, attribute: "intelligence" }, // Good Herb Lore
      climbing: { kind: "skill", level: -3 }, // Terrible
    },
  });

let n = 0;
const stamp = () => ({ id: `e${++n}`, at: "2026-11-28T23:00:00Z" });

describe("EP costs (Fudge §5.2 table)", () => {
  it("raising a skill: 1 EP a level up to Fair, then 2, 4, 8, 16, 30 and 50 a level of Legendary", () => {
    // Terrible→Poor, Poor→Mediocre, Mediocre→Fair, Fair→Good, Good→Great, Great→Superb, Superb→Legendary,
    // Legendary→Legendary 2nd, and each additional level of Legendary.
    const costs = [-3, -2, -1, 0, 1, 2, 3, 4, 5, 6].map((l) => skillStepCost(l).cost);
    expect(costs).toEqual([1, 1, 1, 2, 4, 8, 16, 30, 50, 50]);
  });
  it("GM permission from Superb up (Superb → Legendary and beyond), not below", () => {
    expect([1, 2, 3, 4, 5].map((l) => skillStepCost(l).gm)).toEqual([false, false, true, true, true]);
  });
  it("an extended ladder's lower rungs cost 1 EP a level too (up to Fair)", () => {
    expect(skillStepCost(-4)).toEqual({ cost: 1, gm: false });
  });
  it("raising an attribute: triple the cost for skills of the same level", () => {
    const xp = violet();
    expect(quoteRaise(xp, "intelligence").cost).toBe(12); // Good → Great: 3 × 4
    expect(quoteRaise(xp, "climbing").cost).toBe(1);
  });
  it("a long campaign doubles the costs (§5.2)", () => {
    expect(quoteRaise(violet(), "herbLore", parseExperienceOptions({ costMultiplier: 2 })).cost).toBe(8);
  });
  it("worked example: Violet (Good Intelligence) pays 6 EP for Great Herb Lore, another 10 for Superb", () => {
    const opts = parseExperienceOptions({ attributeSurcharge: 2 });
    const first = raise(violet(), { ...stamp(), trait: "herbLore" }, opts);
    expect(first.quote).toMatchObject({ from: 1, to: 2, base: 4, surcharge: 2, cost: 6 });
    const second = raise(first.experience, { ...stamp(), trait: "herbLore", gmApproval: false }, opts);
    expect(second.quote.cost).toBe(10);
    expect(second.experience.ep).toBe(100 - 16);
  });
  it("without the surcharge option, attribute levels are ignored (the text's simple way)", () => {
    expect(quoteRaise(violet(), "herbLore").cost).toBe(4);
  });
});

describe("advancing (§5.2: one level at a time, GM approval where the text asks it)", () => {
  it("raises one level, pays, and logs when, what, from/to and cost", () => {
    const r = raise(violet(10), { id: "a1", at: "t1", trait: "climbing" });
    expect(r.experience.traits.climbing.level).toBe(-2);
    expect(r.experience.ep).toBe(9);
    expect(r.entry).toEqual({
      id: "a1",
      at: "t1",
      type: "raise",
      trait: "climbing",
      kind: "skill",
      from: -3,
      to: -2,
      cost: 1,
    });
    expect(r.experience.log).toEqual([r.entry]);
  });
  it("refuses a jump of two levels, naming the level it may reach", () => {
    const e = caught(() => raise(violet(), { ...stamp(), trait: "herbLore", to: 3 }));
    expect(e.key).toBe("FUDGE.Error.Advance.OneLevel");
    expect(e.params).toMatchObject({ from: 1, to: 2 });
  });
  it("refuses spending EP the character does not have", () => {
    const e = caught(() => raise(violet(3), { ...stamp(), trait: "herbLore" }));
    expect(e.key).toBe("FUDGE.Error.Advance.NotEnoughEp");
    expect(e.params).toMatchObject({ cost: 4, ep: 3 });
  });
  it("Superb → Legendary needs the GM's permission", () => {
    const xp = parseExperience({ ep: 50, traits: { sword: { kind: "skill", level: 3 } } });
    expect(caught(() => raise(xp, { ...stamp(), trait: "sword" })).key).toBe("FUDGE.Error.Advance.NeedsGm");
    const r = raise(xp, { ...stamp(), trait: "sword", gmApproval: true });
    expect(r.experience.ep).toBe(34);
  });
  it("only a trait used significantly in the adventure rises (§5.2), unless the GM turns that off", () => {
    const e = caught(() => raiseTrait(violet(), { ...stamp(), trait: "herbLore" }));
    expect(e.key).toBe("FUDGE.Error.Advance.NotUsed");
    expect(e.field).toBe("used");
    expect(
      raiseTrait(violet(), { ...stamp(), trait: "herbLore" }, parseExperienceOptions({ requireUse: false })).experience
        .ep,
    ).toBe(96);
  });
  it("the GM may award a level outright (§5.1): no EP, logged as hers, undone like any other", () => {
    expect(caught(() => raiseTrait(violet(0), { ...stamp(), trait: "herbLore", subjective: true })).key).toBe(
      "FUDGE.Error.Advance.NeedsGm",
    );
    const r = raiseTrait(violet(0), { id: "g1", at: "t", trait: "herbLore", subjective: true, gmApproval: true });
    expect(r.entry).toMatchObject({ from: 1, to: 2, cost: 0, subjective: true });
    expect(r.experience.ep).toBe(0);
    expect(parseExperience(JSON.parse(JSON.stringify(r.experience)))).toEqual(r.experience);
    expect(undoAdvancement(r.experience, "g1").experience).toEqual(violet(0));
  });
  it("refuses a trait the character does not have", () => {
    expect(caught(() => raise(violet(), { ...stamp(), trait: "flying" })).key).toBe("FUDGE.Error.Advance.UnknownTrait");
  });
  it("adds a gift (6 EP or more) or a supernormal power (12 or more), only with the GM's approval", () => {
    expect(caught(() => addGift(violet(), { ...stamp(), type: "gift", name: "Tough Hide" })).key).toBe(
      "FUDGE.Error.Advance.NeedsGm",
    );
    const g = addGift(violet(), { ...stamp(), type: "gift", name: "Tough Hide", gmApproval: true });
    expect(g.experience.ep).toBe(94);
    expect(g.experience.gifts).toEqual(["Tough Hide"]);
    const p = addGift(violet(), { ...stamp(), type: "power", name: "Telepathy", cost: 15, gmApproval: true });
    expect(p.experience.ep).toBe(85);
    expect(
      caught(() => addGift(violet(), { ...stamp(), type: "gift", name: "Luck", cost: 5, gmApproval: true })).key,
    ).toBe("FUDGE.Error.OutOfRange");
    expect(
      caught(() => addGift(g.experience, { ...stamp(), type: "gift", name: "Tough Hide", gmApproval: true })).key,
    ).toBe("FUDGE.Error.Advance.AlreadyHeld");
  });
});

describe("awards and the log's undo", () => {
  it("the GM awards EP; the award is logged and can be taken back while unspent", () => {
    const xp = awardExperience(violet(0), { id: "w1", at: "t", amount: 3, by: "gm" });
    expect(xp.ep).toBe(3);
    expect(xp.log).toEqual([{ id: "w1", at: "t", type: "award", amount: 3, by: "gm" }]);
    expect(undoAdvancement(xp, "w1").experience).toEqual(violet(0));
  });
  it("an award whose EP are spent cannot be undone alone", () => {
    const xp = awardExperience(violet(0), { id: "w1", at: "t", amount: 2, by: "gm" });
    const after = raise(xp, { id: "r1", at: "t", trait: "climbing" }).experience;
    expect(caught(() => undoAdvancement(after, "w1")).key).toBe("FUDGE.Error.Advance.AwardSpent");
    const back = undoAdvancement(undoAdvancement(after, "r1").experience, "w1").experience;
    expect(back.ep).toBe(0);
    expect(back.traits.climbing.level).toBe(-3);
  });
  it("undo returns the EP and the trait as it was", () => {
    const r = raise(violet(10), { id: "a1", at: "t", trait: "climbing" });
    const u = undoAdvancement(r.experience, "a1");
    expect(u.experience).toEqual(violet(10));
  });
  it("an advance a later advance depends on cannot be undone alone: the refusal names the later one", () => {
    const one = raise(violet(), { id: "a1", at: "t", trait: "herbLore" }).experience;
    const two = raise(one, { id: "a2", at: "t", trait: "herbLore" }).experience;
    const e = caught(() => undoAdvancement(two, "a1"));
    expect(e.key).toBe("FUDGE.Error.Advance.HasDependents");
    expect(e.params).toMatchObject({ entry: "a1", dependent: "a2", count: 1 });
    // Undone latest first, both go.
    const back = undoAdvancement(undoAdvancement(two, "a2").experience, "a1").experience;
    expect(back).toEqual(violet());
  });
  it("a skill raise priced from its attribute's level depends on that attribute's earlier raise", () => {
    const opts = parseExperienceOptions({ attributeSurcharge: 2 });
    const a = raise(violet(), { id: "int", at: "t", trait: "intelligence" }, opts).experience; // Great Intelligence
    const b = raise(a, { id: "herb", at: "t", trait: "herbLore" }, opts).experience; // Great Herb Lore, no surcharge
    expect(dependentsOf(b, "int")).toEqual([]); // not above the attribute: priced without it
    const c = raise(b, { id: "herb2", at: "t", trait: "herbLore" }, opts).experience; // Superb: above Great, surcharge
    expect(c.log[2]).toMatchObject({ basis: { attribute: "intelligence", level: 2 }, cost: 10 });
    expect(caught(() => undoAdvancement(c, "int")).params).toMatchObject({ dependent: "herb2" });
  });
  it("an unrelated later advance does not block an undo", () => {
    const one = raise(violet(), { id: "a1", at: "t", trait: "herbLore" }).experience;
    const two = raise(one, { id: "a2", at: "t", trait: "climbing" }).experience;
    expect(undoAdvancement(two, "a1").experience.traits.herbLore.level).toBe(1);
  });
  it("refuses an unknown entry, a duplicate id, and a stale entry", () => {
    expect(caught(() => undoAdvancement(violet(), "nope")).key).toBe("FUDGE.Error.Advance.UnknownEntry");
    const one = raise(violet(), { id: "a1", at: "t", trait: "herbLore" }).experience;
    expect(caught(() => raise(one, { id: "a1", at: "t", trait: "climbing" })).key).toBe(
      "FUDGE.Error.Advance.DuplicateId",
    );
    const edited = { ...one, traits: { ...one.traits, herbLore: { ...one.traits.herbLore, level: 3 } } };
    expect(caught(() => undoAdvancement(edited, "a1")).key).toBe("FUDGE.Error.Advance.Stale");
  });
  it("the log keeps its newest entries; an evicted one is refused as unknown", () => {
    let xp = violet(0);
    for (let i = 0; i < character.MAX_ADVANCEMENT_LOG + 3; i++)
      xp = awardExperience(xp, { id: `w${i}`, at: "t", amount: 1, by: "gm" });
    expect(xp.log).toHaveLength(character.MAX_ADVANCEMENT_LOG);
    expect(xp.log[0].id).toBe("w3");
    expect(caught(() => undoAdvancement(xp, "w0")).key).toBe("FUDGE.Error.Advance.UnknownEntry");
  });
});

describe("stored data is a claim", () => {
  it("names the bad field", () => {
    expect(caught(() => parseExperience({ ep: -1 })).field).toBe("experience.ep");
    expect(caught(() => parseExperience({ traits: { x: { kind: "gift", level: 0 } } })).field).toBe(
      "experience.traits.x.kind",
    );
    expect(
      caught(() =>
        parseExperience({
          log: [{ id: "a", at: "t", type: "raise", trait: "x", kind: "skill", from: 0, to: 2, cost: 2 }],
        }),
      ).field,
    ).toBe("experience.log[0].to");
    expect(
      caught(() =>
        parseExperience({
          log: [
            { id: "a", at: "t", type: "award", amount: 1, by: "gm" },
            { id: "a", at: "t", type: "award", amount: 1, by: "gm" },
          ],
        }),
      ).key,
    ).toBe("FUDGE.Error.Advance.DuplicateId");
  });
  it("round-trips a record", () => {
    const r = raise(
      violet(),
      { id: "a1", at: "t", trait: "herbLore" },
      parseExperienceOptions({ attributeSurcharge: 2 }),
    ).experience;
    expect(parseExperience(JSON.parse(JSON.stringify(r)))).toEqual(r);
  });
});

describe("spendPrice: a logged spend priced again from its own levels (Fudge §5.2)", () => {
  it("counts a raise at the table's price (× 3 for an attribute), never less than it says; a gift at least its minimum", () => {
    const raise = (kind: "attribute" | "skill", from: number, cost: number) =>
      ({ id: "e", at: "t", type: "raise", trait: "t", kind, from, to: from + 1, cost }) as const;
    expect(spendPrice(raise("skill", 1, 0))).toBe(4); // Good → Great
    expect(spendPrice(raise("attribute", 1, 0))).toBe(12);
    expect(spendPrice(raise("skill", -2, 0))).toBe(1); // Poor → Mediocre
    expect(spendPrice(raise("skill", 0, 7))).toBe(7); // a surcharge paid: the stored cost stands
    expect(spendPrice(raise("skill", 0, 0), { ...DEFAULT_EXPERIENCE_OPTIONS, costMultiplier: 2 })).toBe(4);
    expect(spendPrice({ id: "g", at: "t", type: "gift", trait: "Lucky", cost: 0 })).toBe(6);
    expect(spendPrice({ id: "p", at: "t", type: "power", trait: "Flight", cost: 20 })).toBe(20);
  });
});
