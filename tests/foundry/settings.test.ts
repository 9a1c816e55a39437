import { describe, expect, it } from "vitest";
import fs from "node:fs";
import { RULE_FIELDS, SettingsFormError, applyRulesForm, changedSettings, choiceKey, formValue, getPath, hintKey, labelKey, woundedActors } from "../../src/foundry/settings-pure";
import { WORLD_RULE_SETTINGS, defaultWorldRules } from "../../src/system/data";

function leaves(o: unknown, prefix = ""): string[] {
  if (o === null || typeof o !== "object" || Array.isArray(o)) return [prefix];
  return Object.entries(o as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

describe("settings menu fields", () => {
  it("cover every world rule (each leaf of WorldRules, tables as JSON)", () => {
    const rules = defaultWorldRules();
    const paths = RULE_FIELDS.map((f) => f.path);
    for (const leaf of leaves(rules)) expect(paths.some((p) => leaf === p || leaf.startsWith(`${p}.`)), leaf).toBe(true);
    for (const p of paths) expect(getPath(rules, p), p).not.toBeUndefined();
    for (const key of WORLD_RULE_SETTINGS) expect(paths.some((p) => p === key || p.startsWith(`${key}.`)), key).toBe(true);
  });

  it("every field has a label, a hint and labelled choices in lang/en.json", () => {
    const lang = JSON.parse(fs.readFileSync("lang/en.json", "utf8"));
    for (const f of RULE_FIELDS) {
      expect(lang[labelKey(f.path)], labelKey(f.path)).toBeTypeOf("string");
      expect(lang[hintKey(f.path)], hintKey(f.path)).toBeTypeOf("string");
      for (const c of f.choices ?? []) expect(lang[choiceKey(f.path, c)], choiceKey(f.path, c)).toBeTypeOf("string");
    }
  });
});

describe("applyRulesForm", () => {
  const base = defaultWorldRules();
  const form = () => Object.fromEntries(RULE_FIELDS.map((f) => [f.path, formValue(base, f)]).filter(([, v]) => v !== false));

  it("round-trips the current rules", () => {
    expect(applyRulesForm(base, form())).toEqual(base);
  });

  it("reads a changed preset, a number, a checkbox and a table", () => {
    const r = applyRulesForm(base, { ...form(), preset: "volt", defaultDifficulty: "1", "fudge.doubleRd": "on", "fudge.graze.table": '[{"min":0,"level":"scratch"},{"min":4,"level":"hurt"}]' });
    expect(r.preset).toBe("volt");
    expect(r.defaultDifficulty).toBe(1);
    expect(r.fudge.doubleRd).toBe(true);
    expect(r.fudge.graze.table[1]).toEqual({ min: 4, level: "hurt" });
  });

  it("an unchecked checkbox (absent from the form) turns the option off", () => {
    const on = applyRulesForm(base, { ...form(), "fudge.lessLethal": true });
    const f = form();
    delete f["fudge.lessLethal"];
    expect(applyRulesForm(on, f).fudge.lessLethal).toBe(false);
  });

  it("empty thresholds mean the track's defaults (null)", () => {
    expect(applyRulesForm(base, { ...form(), "fudgeTrack.thresholds": "  " }).fudgeTrack.thresholds).toBeNull();
  });

  it.each([
    ["preset", "gurps", "preset"],
    ["defaultDifficulty", "1.5", "defaultDifficulty"],
    ["defaultDifficulty", "99", "defaultDifficulty"],
    ["fudge.graze.table", "[{", "fudge.graze.table"],
    ["fudge.graze.table", '[{"min":5,"level":"hurt"},{"min":0,"level":"scratch"}]', "fudge.graze.table[1].min"],
    ["fudgeTrack.thresholds", '[{"key":"hurt","min":5},{"key":"scratch","min":1}]', "fudgeTrack.thresholds"],
  ])("bad %s = %s is refused naming %s, and nothing changes", (path, value, field) => {
    const before = structuredClone(base);
    let err: unknown;
    try {
      applyRulesForm(base, { ...form(), [path]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsFormError);
    expect((err as SettingsFormError).field).toBe(field);
    expect(base).toEqual(before);
  });
});

describe("preset change", () => {
  it("changedSettings names only the top-level settings that differ", () => {
    const b = defaultWorldRules();
    expect(changedSettings(b, { ...b, preset: "fate", fudge: { ...b.fudge, doubleRd: true } })).toEqual(["preset", "fudge"]);
    expect(changedSettings(b, defaultWorldRules())).toEqual([]);
  });

  it("woundedActors: actors with a marked track (a stored state) ask first", () => {
    const a = [
      { name: "Leroy", system: { woundTrack: { state: { marks: {} } } } },
      { name: "Theodora", system: { woundTrack: { state: null } } },
      { name: "Odd", system: {} },
    ];
    expect(woundedActors(a).map((x) => x.name)).toEqual(["Leroy"]);
  });
});

describe("rules menu shows the active preset only (issue #9)", () => {
  it("the context lists the general and the preset's groups; a submit reads back only those", async () => {
    const { rulesMenuContext, PRESET_GROUPS } = await import("../../src/foundry/settings-pure");
    const rules = { ...defaultWorldRules(), preset: "volt" as const };
    rules.miniatures = { ...rules.miniatures, gangUp: true };
    expect(rulesMenuContext(rules).groups.map((g) => g.key)).toEqual(["general", "volt"]);
    // Miniatures' checkbox is not in the Volt menu: absent from the form, it keeps its value.
    const after = applyRulesForm(rules, { preset: "volt", applyTo: rules.applyTo, defaultDifficulty: String(rules.defaultDifficulty), "volt.recovery": rules.volt.recovery }, PRESET_GROUPS.volt);
    expect(after.miniatures.gangUp).toBe(true);
    // Without the groups (every field shown), an absent checkbox is unchecked.
    expect(applyRulesForm(rules, { preset: "volt", applyTo: rules.applyTo, defaultDifficulty: String(rules.defaultDifficulty), "volt.recovery": rules.volt.recovery, "fudge.graze.table": JSON.stringify(rules.fudge.graze.table), "fudge.minMidMax.table": JSON.stringify(rules.fudge.minMidMax.table), "fudgeTrack.thresholds": "", "fudge.woundMode": rules.fudge.woundMode, "fudge.damageRoll": rules.fudge.damageRoll, "fudge.graze.scaleRaise": rules.fudge.graze.scaleRaise, "fudge.dcVariant": rules.fudge.dcVariant, "fudge.dcAdjust": rules.fudge.dcAdjust, "fudgeTrack.dcTrackScratchesPerHit": String(rules.fudgeTrack.dcTrackScratchesPerHit), "fudgeTrack.dcTrackTerrible": rules.fudgeTrack.dcTrackTerrible, "fudgeTrack.willpowerDifficulty": String(rules.fudgeTrack.willpowerDifficulty), "fate.defaultLabel": rules.fate.defaultLabel }).miniatures.gangUp).toBe(false);
  });
});
