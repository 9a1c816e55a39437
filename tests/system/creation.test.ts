/**
 * The world's attributes and the creation panel over plain data (src/system/attributes.ts,
 * src/system/creation.ts, the settings menu's Characters group, the sheet's pickers).
 */
import { describe, expect, it } from "vitest";
import {
  ATTRIBUTE_SET_PRESETS,
  checkAttributeSet,
  remapAttributes,
  removeAttribute,
  roleLevel,
} from "../../src/system/attributes";
import { creationView } from "../../src/system/creation";
import { defaultCharacterData, defaultWorldRules, type ActorDoc, type WorldRules } from "../../src/system/data";
import { applyRulesForm, formEntries, RULE_FIELDS, SettingsFormError } from "../../src/system/settings-menu";
import { characterSheetContext, skillChoices, suggestedEffect } from "../../src/system/sheet";
import { fudgeCombatant } from "../../src/system/combatant";
import { setItemField } from "../../src/system/actions";
import { caught } from "../rules/errors";

const hero = (over: Partial<ActorDoc> = {}): ActorDoc<"character"> =>
  ({
    _id: "hero",
    name: "Hero",
    type: "character",
    system: defaultCharacterData(),
    items: [],
    ...over,
  }) as ActorDoc<"character">;

const skill = (name: string, level: number, group = "") => ({
  _id: `s-${name}`,
  name,
  type: "skill" as const,
  system: { level, group, description: "" },
});

describe("attribute sets (Fudge §1.31) and the wound rules' roles", () => {
  it("the wound rules read the attribute that plays each role: Health as Damage Capacity", () => {
    const rules: WorldRules = { ...defaultWorldRules(), attributeSet: ATTRIBUTE_SET_PRESETS.fivePoint() };
    const a = hero();
    a.system.attributes = { strength: 2, health: 1, willpower: -1, damageCapacity: 3 };
    const c = fudgeCombatant(a, null, rules);
    expect([c.strength, c.damageCapacity, c.willpower, c.mass]).toEqual([2, 1, -1, 0]);
    expect(roleLevel(a.system.attributes, rules.attributeSet, "mass")).toBe(0);
  });

  it("removing an attribute that plays a role is refused with its name; another goes, its levels kept by the actors", () => {
    const set = ATTRIBUTE_SET_PRESETS.fivePoint();
    const e = caught(() => removeAttribute(set, 5));
    expect(e.key).toBe("FUDGE.Error.AttributeHasRole");
    expect(e.params.name).toBe("health");
    expect(removeAttribute(set, 0).attributes.map((a) => a.key)).not.toContain("reasoning");
  });

  it("a set is checked: keys well formed and unique, roles on attributes of the set", () => {
    expect(
      caught(() => checkAttributeSet({ ...ATTRIBUTE_SET_PRESETS.wounds(), attributes: [{ key: "Bad key", name: "" }] }))
        .key,
    ).toBe("FUDGE.Error.AttributeKey");
    const twice = { ...ATTRIBUTE_SET_PRESETS.wounds() };
    twice.attributes = [...twice.attributes, { key: "mass", name: "Bulk" }];
    expect(caught(() => checkAttributeSet(twice)).key).toBe("FUDGE.Error.AttributeKeyTwice");
  });

  it("changing sets carries each role's level to its new attribute; nothing is deleted, a stored level is kept", () => {
    const from = ATTRIBUTE_SET_PRESETS.wounds();
    const to = ATTRIBUTE_SET_PRESETS.fivePoint();
    expect(remapAttributes({ strength: 1, damageCapacity: 2, willpower: 0, mass: 1 }, from, to)).toEqual({ health: 2 });
    expect(remapAttributes({ damageCapacity: 2, health: -1 }, from, to)).toBeNull();
    expect(remapAttributes({ strength: 1 }, from, from)).toBeNull();
  });

  it("the settings menu refuses a set that drops the attribute playing a role, and names it", () => {
    const before = defaultWorldRules();
    const form: Record<string, unknown> = {
      "attributeSet.attributes.0.key": "strength",
      "attributeSet.attributes.0.name": "",
      "attributeSet.attributes.1.key": "willpower",
      "attributeSet.attributes.1.name": "",
      "attributeSet.attributes.2.key": "mass",
      "attributeSet.attributes.2.name": "",
      "attributeSet.roles.strength": "strength",
      "attributeSet.roles.damageCapacity": "damageCapacity",
      "attributeSet.roles.willpower": "willpower",
      "attributeSet.roles.mass": "mass",
      "creation.method": "objective",
      "creation.freeAttributeLevels": "",
      "creation.freeSkillLevels": "50",
      "creation.freeGifts": "2",
      "creation.fivePointPoints": "5",
    };
    const e = (() => {
      try {
        applyRulesForm(before, form, ["characters"]);
      } catch (x) {
        return x as SettingsFormError;
      }
      throw new Error("not refused");
    })();
    expect(e.key).toBe("FUDGE.Error.AttributeHasRole");
    expect(e.params.name).toBe("damageCapacity");
    // Renamed, a new row with no key, the role moved: saved, the new attribute keyed for it.
    const ok = applyRulesForm(
      before,
      {
        ...form,
        "attributeSet.attributes.3.key": "",
        "attributeSet.attributes.3.name": "Constitution",
        "attributeSet.roles.damageCapacity": "",
      },
      ["characters"],
    );
    expect(ok.attributeSet.attributes.at(-1)).toEqual({ key: "attribute1", name: "Constitution" });
    expect(ok.creation).toMatchObject({ method: "objective", freeAttributeLevels: null });
  });
});

describe("the creation panel (derived, never typed) and the pickers", () => {
  it("objective: the counters and the trades come from the traits", () => {
    const rules: WorldRules = {
      ...defaultWorldRules(),
      creation: { ...defaultWorldRules().creation, method: "objective" },
    };
    const a = hero({ items: [skill("Sword", 2), skill("Dodge", 1)] as never });
    a.system.attributes = { strength: 2, damageCapacity: 1, willpower: 0, mass: 0 };
    const v = creationView(a, rules)!;
    expect(v.section).toBe("§1.6");
    expect(v.lines.find((l) => l.id === "attributes")!.params).toEqual({ free: 2, spent: 3, left: 0 });
    expect(v.lines.find((l) => l.id === "skills")!.params).toEqual({ free: 50, spent: 9, left: 38 });
    expect(v.trades).toEqual([{ key: "FUDGE.Creation.Trade.skills.attributes", params: { given: 3, received: 1 } }]);
    expect(v.over).toBe(false);
    expect(creationView({ ...a, type: "npc" } as never, rules)).toBeNull();
  });

  it("the defence skill and a weapon's skill are picked; a stale name stays selected and is a warning", () => {
    expect(skillChoices(["Sword"], "sword", "Fair (0)").choices.find((c) => c.selected)?.value).toBe("Sword");
    const stale = skillChoices(["Sword"], "Axe", "Fair (0)");
    expect(stale.missing).toBe("Axe");
    expect(stale.choices.at(-1)).toMatchObject({ value: "Axe", selected: true });
    const a = hero({ items: [skill("Sword", 2)] as never });
    a.system.defenseSkill = "Dodge";
    const ctx = characterSheetContext(a, defaultWorldRules(), { editable: true, owner: true });
    expect(ctx.defenseMissing).toBe("Dodge");
    expect(ctx.defense!.value).toBe(0);
  });

  it("a weapon's skill can only be one of the actor's skills or the default", () => {
    const a = hero({
      items: [skill("Sword", 2), { _id: "w", name: "Sword", type: "weapon", system: { skill: "" } }] as never,
    });
    expect(setItemField(a, "w", "system.skill", "Sword").update).toEqual({ system: { skill: "Sword" } });
    expect(caught(() => setItemField(a, "w", "system.skill", "Axe")).key).toBe("FUDGE.Error.NotOneOf");
    expect(caught(() => setItemField(a, "s-Sword", "system.level", "11")).key).toBe("FUDGE.Error.OutOfRange");
  });

  it("a gift's name that suggests a rule effect is recognised", () => {
    expect(suggestedEffect("High Pain Threshold", "gift", "fudge")).toBe("highPainThreshold");
    expect(suggestedEffect("Skilled backstabber", "gift", "miniatures")).toBe("backstabber");
    expect(suggestedEffect("Fragile", "fault", "volt")).toBe("fragileVolt");
    expect(suggestedEffect("Fragile", "fault", "fudge")).toBe("fragile");
    // Only what the item sheet offers: another preset's effect, or the other kind's, is no suggestion.
    expect(suggestedEffect("Skilled backstabber", "gift", "fudge")).toBeNull();
    expect(suggestedEffect("High Pain Threshold", "fault", "fudge")).toBeNull();
    expect(suggestedEffect("Lucky", "gift", "fudge")).toBeNull();
  });

  it("Five-Point: the GM's rows from the rules menu price a group; a bad row is refused, a broken stored table warns", () => {
    const rules: WorldRules = {
      ...defaultWorldRules(),
      creation: { ...defaultWorldRules().creation, method: "fivePoint" },
    };
    const a = hero({
      items: [skill("Fireball", 3, "magic"), skill("Lore", 1, "magic"), skill("Sword", 0, "combat")] as never,
    });
    const line = (r: WorldRules) => creationView(a, r)!.lines.find((l) => l.id === "group-magic")!;
    expect(line(rules).key).toBe("FUDGE.Creation.GroupBeyond");
    const row = {
      "creation.fivePointRows.0.points": "3",
      "creation.fivePointRows.0.focus": "narrow",
      "creation.fivePointRows.0.superb": "1",
      "creation.fivePointRows.0.great": "0",
      "creation.fivePointRows.0.good": "1",
      "creation.fivePointRows.0.fair": "1",
      "creation.fivePointRows.0.mediocre": "0",
    };
    // The menu's own form for the Characters group, with the row added.
    const form = Object.fromEntries(
      RULE_FIELDS.filter((x) => x.group === "characters").flatMap((x) => formEntries(rules, x)),
    );
    const saved = applyRulesForm(rules, { ...form, ...row }, ["characters"]);
    expect(saved.creation.fivePointRows).toEqual([
      { points: 3, focus: "narrow", superb: 1, great: 0, good: 1, fair: 1, mediocre: 0 },
    ]);
    expect(line(saved)).toMatchObject({ key: "FUDGE.Creation.Group.narrow", params: { points: 3 }, over: false });
    const empty = { ...row, "creation.fivePointRows.0.superb": "0", "creation.fivePointRows.0.good": "0" };
    const e = (() => {
      try {
        applyRulesForm(rules, { ...form, ...empty, "creation.fivePointRows.0.fair": "0" }, ["characters"]);
      } catch (x) {
        return x as SettingsFormError;
      }
      throw new Error("not refused");
    })();
    expect([e.field, e.key]).toEqual(["creation.fivePointRows[0]", "FUDGE.Error.FivePointRowEmpty"]);
    const broken = { ...rules, creation: { ...rules.creation, fivePointRows: [{ points: "x" }] as never } };
    const v = creationView(a, broken)!;
    expect(v.warnings.map((w) => w.key)).toContain("FUDGE.Creation.RowsUnread");
    expect(line(broken).key).toBe("FUDGE.Creation.GroupBeyond");
  });
});
