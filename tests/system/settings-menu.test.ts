import { describe, expect, it } from "vitest";
import fs from "node:fs";
import {
  RULE_FIELDS,
  SettingsFormError,
  applyRulesForm,
  changedSettings,
  choiceKey,
  columnKey,
  formEntries,
  getPath,
  hintKey,
  labelKey,
  rulesMenuContext,
  woundedActors,
} from "../../src/system/settings-menu";
import { WORLD_RULE_SETTINGS, defaultWorldRules } from "../../src/system/data";

function leaves(o: unknown, prefix = ""): string[] {
  if (o === null || typeof o !== "object" || Array.isArray(o)) return [prefix];
  return Object.entries(o as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

describe("settings menu fields", () => {
  it("cover every world rule (each leaf of WorldRules, tables as one field)", () => {
    const rules = defaultWorldRules();
    const paths = RULE_FIELDS.map((f) => f.path);
    for (const leaf of leaves(rules))
      expect(
        paths.some((p) => leaf === p || leaf.startsWith(`${p}.`)),
        leaf,
      ).toBe(true);
    for (const p of paths) expect(getPath(rules, p), p).not.toBeUndefined();
    for (const key of WORLD_RULE_SETTINGS)
      expect(
        paths.some((p) => p === key || p.startsWith(`${key}.`)),
        key,
      ).toBe(true);
  });

  it("every field has a label, a hint and labelled choices in lang/en.json", () => {
    const lang = JSON.parse(fs.readFileSync("lang/en.json", "utf8"));
    for (const f of RULE_FIELDS) {
      expect(lang[labelKey(f.path)], labelKey(f.path)).toBeTypeOf("string");
      expect(lang[hintKey(f.path)], hintKey(f.path)).toBeTypeOf("string");
      for (const c of f.choices ?? []) expect(lang[choiceKey(f.path, c)], choiceKey(f.path, c)).toBeTypeOf("string");
      for (const col of f.columns ?? []) {
        expect(lang[columnKey(col.key)], columnKey(col.key)).toBeTypeOf("string");
        for (const c of col.choices ?? []) expect(lang[col.choiceLabel!(c)], col.choiceLabel!(c)).toBeTypeOf("string");
      }
    }
    for (const k of ["FUDGE.Settings.TableRow.Add", "FUDGE.Settings.TableRow.Remove"])
      expect(lang[k], k).toBeTypeOf("string");
  });
});

describe("applyRulesForm", () => {
  const base = defaultWorldRules();
  const form = (): Record<string, unknown> =>
    Object.fromEntries(RULE_FIELDS.flatMap((f) => formEntries(base, f)).filter(([, v]) => v !== false));
  /** The form without a table's rows, plus the given ones (as the menu's inputs name them). */
  const withTable = (path: string, rows: Record<string, unknown>[]) => {
    const f = Object.fromEntries(Object.entries(form()).filter(([k]) => !k.startsWith(`${path}.`)));
    rows.forEach((r, i) => Object.entries(r).forEach(([k, v]) => (f[`${path}.${i}.${k}`] = v)));
    return f;
  };

  it("round-trips the current rules", () => {
    expect(applyRulesForm(base, form())).toEqual(base);
  });

  it("reads a changed preset, a number, a checkbox and a table", () => {
    const r = applyRulesForm(base, {
      ...form(),
      preset: "volt",
      defaultDifficulty: "1",
      "fudge.doubleRd": "on",
      "fudge.graze.table.1.min": "4",
    });
    expect(r.preset).toBe("volt");
    expect(r.defaultDifficulty).toBe(1);
    expect(r.fudge.doubleRd).toBe(true);
    expect(r.fudge.graze.table[1]).toEqual({ min: 4, level: "hurt" });
  });

  it("Miniatures: the Guts failure by 1 rule is a choice of the Miniatures group; a value outside it is refused by name", () => {
    const field = RULE_FIELDS.find((x) => x.path === "miniatures.gutsRollPenalty")!;
    expect([field.group, field.type, field.choices]).toEqual(["miniatures", "choice", ["allRolls", "attackRolls"]]);
    expect(
      applyRulesForm(base, { ...form(), "miniatures.gutsRollPenalty": "attackRolls" }).miniatures.gutsRollPenalty,
    ).toBe("attackRolls");
    expect(() => applyRulesForm(base, { ...form(), "miniatures.gutsRollPenalty": "someRolls" })).toThrow(
      expect.objectContaining({ field: "miniatures.gutsRollPenalty", key: "FUDGE.Error.NotOneOf" }),
    );
    const mini = rulesMenuContext({ ...base, preset: "miniatures" }).groups.find((g) => g.key === "miniatures")!;
    expect(mini.fields.find((x) => x.path === "miniatures.gutsRollPenalty")!.choices).toEqual([
      { value: "allRolls", labelKey: "FUDGE.Settings.miniatures.gutsRollPenalty.Choice.allRolls", selected: true },
      {
        value: "attackRolls",
        labelKey: "FUDGE.Settings.miniatures.gutsRollPenalty.Choice.attackRolls",
        selected: false,
      },
    ]);
  });

  it("an unchecked checkbox (absent from the form) turns the option off", () => {
    const on = applyRulesForm(base, { ...form(), "fudge.lessLethal": true });
    const f = form();
    delete f["fudge.lessLethal"];
    expect(applyRulesForm(on, f).fudge.lessLethal).toBe(false);
  });

  it("empty thresholds mean the track's defaults (null)", () => {
    expect(base.fudgeTrack.thresholds).toBeNull();
    expect(Object.keys(form()).some((k) => k.startsWith("fudgeTrack.thresholds"))).toBe(false);
    expect(applyRulesForm(base, form()).fudgeTrack.thresholds).toBeNull();
  });

  it("table rows round-trip: a graze level Undamaged (null), a removed Min-Mid-Max row, thresholds rows, gaps in row numbers", () => {
    const f = withTable("fudge.graze.table", [
      { min: "-1", level: "undamaged" },
      { min: "0", level: "scratch" },
      { min: "6", level: "veryHurt" },
    ]);
    // "Remove row" leaves a gap in the numbering (row 2 of 6 gone): the rest are read in order.
    for (const k of Object.keys(f)) if (k.startsWith("fudge.minMidMax.table.2.")) delete f[k];
    Object.assign(f, {
      "fudgeTrack.thresholds.0.key": "scratch",
      "fudgeTrack.thresholds.0.min": "1",
      "fudgeTrack.thresholds.3.key": "hurt",
      "fudgeTrack.thresholds.3.min": "4",
    });
    const r = applyRulesForm(base, f);
    expect(r.fudge.graze.table).toEqual([
      { min: -1, level: null },
      { min: 0, level: "scratch" },
      { min: 6, level: "veryHurt" },
    ]);
    expect(r.fudge.minMidMax.table).toEqual(base.fudge.minMidMax.table.filter((_, i) => i !== 2));
    expect(r.fudgeTrack.thresholds).toEqual([
      { key: "scratch", min: 1 },
      { key: "hurt", min: 4 },
    ]);
    // And back: the menu shows what was saved, the form it renders reads back the same rules.
    expect(
      applyRulesForm(
        r,
        Object.fromEntries(RULE_FIELDS.flatMap((x) => formEntries(r, x)).filter(([, v]) => v !== false)),
      ),
    ).toEqual(r);
  });

  it.each([
    ["preset", "gurps", "preset"],
    ["defaultDifficulty", "1.5", "defaultDifficulty"],
    ["defaultDifficulty", "99", "defaultDifficulty"],
    ["fudge.graze.table.1.min", "1.5", "fudge.graze.table[1].min"],
    ["fudge.graze.table.1.min", "", "fudge.graze.table[1].min"],
    ["fudge.graze.table.1.min", "-3", "fudge.graze.table[1].min"],
    ["fudge.minMidMax.table.0.die", "median", "fudge.minMidMax.table[0].die"],
    ["fudge.minMidMax.table.5.add", "x", "fudge.minMidMax.table[5].add"],
    ["fudgeTrack.thresholds.0.min", "5", "fudgeTrack.thresholds"],
  ])("bad %s = %s is refused naming %s, and nothing changes", (path, value, field) => {
    const before = structuredClone(base);
    const f = { ...form(), [path]: value };
    if (path.startsWith("fudgeTrack.thresholds"))
      Object.assign(f, {
        "fudgeTrack.thresholds.0.key": "hurt",
        "fudgeTrack.thresholds.1.key": "scratch",
        "fudgeTrack.thresholds.1.min": "1",
      });
    let err: unknown;
    try {
      applyRulesForm(base, f);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsFormError);
    expect((err as SettingsFormError).field).toBe(field);
    expect(base).toEqual(before);
  });

  it("a refused table cell reads as a sentence naming its row and table (src/system/error-text.ts)", async () => {
    const { errorText } = await import("../../src/system/error-text");
    const lang = JSON.parse(fs.readFileSync("lang/en.json", "utf8")) as Record<string, string>;
    const i18n = {
      localize: (k: string) => lang[k] ?? k,
      format: (k: string, d: Record<string, unknown>) =>
        (lang[k] ?? k).replace(/\{(\w+)\}/g, (_, x: string) => String(d[x])),
      has: (k: string) => k in lang,
    };
    const text = (f: Record<string, unknown>) => {
      try {
        applyRulesForm(base, f);
      } catch (e) {
        return errorText(e, i18n as never);
      }
      return "accepted";
    };
    expect(text({ ...form(), "fudge.graze.table.1.min": "1.5" })).toBe(
      "The minimum in row 2 of the graze table must be a whole number.",
    );
    expect(text({ ...form(), "fudge.minMidMax.table.0.die": "median" })).toBe(
      "The die read in row 1 of the Min-Mid-Max table must be one of: min, mid, max.",
    );
    // Rows out of order name the table and the row.
    expect(text({ ...form(), "fudge.graze.table.1.min": "-3" })).toBe(
      "The minimum in row 2 of the graze table must be higher than the minimum in the row above: the rows run from the lowest minimum up.",
    );
    expect(text({ ...form(), defaultDifficulty: "99" })).toBe("Default Difficulty Level must be between -4 and 6.");
    expect(
      text({
        ...form(),
        "fudgeTrack.thresholds.0.key": "hurt",
        "fudgeTrack.thresholds.0.min": "3",
        "fudgeTrack.thresholds.1.key": "scratch",
        "fudgeTrack.thresholds.1.min": "1",
      }),
    ).toBe(lang["FUDGE.Error.Settings.Thresholds"]);
  });

  it("a graze table with every row removed is refused (it needs one row)", () => {
    const f = withTable("fudge.graze.table", []);
    expect(() => applyRulesForm(base, f)).toThrow(SettingsFormError);
  });
});

describe("rules menu tables (issue #9)", () => {
  it('the context gives each table its columns, one row per entry with labelled cells, and a blank row for "add row"', () => {
    const rules = defaultWorldRules();
    rules.fudge.graze.table = [
      { min: -1, level: null },
      { min: 0, level: "scratch" },
    ];
    rules.fudgeTrack.thresholds = [
      { key: "scratch", min: 1 },
      { key: "oldCustom", min: 3 },
    ];
    const fields = rulesMenuContext(rules).groups.flatMap((g) => g.fields);
    const graze = fields.find((x) => x.path === "fudge.graze.table")!.table!;
    expect(graze.columns.map((c) => c.labelKey)).toEqual([
      "FUDGE.Settings.TableColumn.min",
      "FUDGE.Settings.TableColumn.level",
    ]);
    expect(graze.rows.map((r) => r.cells.map((c) => [c.name, c.value]))).toEqual([
      [
        ["fudge.graze.table.0.min", "-1"],
        ["fudge.graze.table.0.level", "undamaged"],
      ],
      [
        ["fudge.graze.table.1.min", "0"],
        ["fudge.graze.table.1.level", "scratch"],
      ],
    ]);
    expect(graze.rows[0].cells[1].choices.find((c) => c.selected)).toEqual({
      value: "undamaged",
      labelKey: "FUDGE.Wound.undamaged",
      selected: true,
    });
    expect(graze.blank.map((c) => c.name)).toEqual([
      "fudge.graze.table.__index__.min",
      "fudge.graze.table.__index__.level",
    ]);
    const mmm = fields.find((x) => x.path === "fudge.minMidMax.table")!.table!;
    expect(mmm.rows).toHaveLength(6);
    expect(mmm.rows[2].cells.map((c) => c.value)).toEqual(["0", "mid", "0"]);
    expect(mmm.rows[2].cells[1].choices.map((c) => c.labelKey)).toEqual([
      "FUDGE.Settings.TableDie.min",
      "FUDGE.Settings.TableDie.mid",
      "FUDGE.Settings.TableDie.max",
    ]);
    const th = fields.find((x) => x.path === "fudgeTrack.thresholds")!.table!;
    // A stored key outside the known levels stays selected (named as stored), so saving keeps it.
    expect(th.rows[1].cells[0].choices.at(-1)).toEqual({ value: "oldCustom", labelKey: "oldCustom", selected: true });
    expect(fields.every((x) => (x.type === "table") === (x.table !== null))).toBe(true);
    expect(
      rulesMenuContext(defaultWorldRules())
        .groups.flatMap((g) => g.fields)
        .find((x) => x.path === "fudgeTrack.thresholds")!.table!.rows,
    ).toEqual([]);
  });
});

describe("preset change", () => {
  it("changedSettings names only the top-level settings that differ", () => {
    const b = defaultWorldRules();
    expect(changedSettings(b, { ...b, preset: "fate", fudge: { ...b.fudge, doubleRd: true } })).toEqual([
      "preset",
      "fudge",
    ]);
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
    const { rulesMenuContext, PRESET_GROUPS } = await import("../../src/system/settings-menu");
    const rules = { ...defaultWorldRules(), preset: "volt" as const };
    rules.miniatures = { ...rules.miniatures, gangUp: true };
    expect(rulesMenuContext(rules).groups.map((g) => g.key)).toEqual(["general", "volt"]);
    // Miniatures' checkbox is not in the Volt menu: absent from the form, it keeps its value.
    const after = applyRulesForm(
      rules,
      {
        preset: "volt",
        applyTo: rules.applyTo,
        defaultDifficulty: String(rules.defaultDifficulty),
        "volt.recovery": rules.volt.recovery,
      },
      PRESET_GROUPS.volt,
    );
    expect(after.miniatures.gangUp).toBe(true);
    // Without the groups (every field shown), an absent checkbox is unchecked.
    expect(
      applyRulesForm(rules, {
        preset: "volt",
        applyTo: rules.applyTo,
        defaultDifficulty: String(rules.defaultDifficulty),
        "volt.recovery": rules.volt.recovery,
        ...Object.fromEntries(RULE_FIELDS.filter((x) => x.type === "table").flatMap((x) => formEntries(rules, x))),
        "fudge.woundMode": rules.fudge.woundMode,
        "fudge.damageRoll": rules.fudge.damageRoll,
        "fudge.graze.scaleRaise": rules.fudge.graze.scaleRaise,
        "fudge.dcVariant": rules.fudge.dcVariant,
        "fudge.dcAdjust": rules.fudge.dcAdjust,
        "fudgeTrack.dcTrackScratchesPerHit": String(rules.fudgeTrack.dcTrackScratchesPerHit),
        "fudgeTrack.dcTrackTerrible": rules.fudgeTrack.dcTrackTerrible,
        "fudgeTrack.willpowerDifficulty": String(rules.fudgeTrack.willpowerDifficulty),
        "fate.defaultLabel": rules.fate.defaultLabel,
      }).miniatures.gangUp,
    ).toBe(false);
  });
});

describe("Difficulty settings on the ladder (Fudge §1.3: a Difficulty Level is a level, named)", () => {
  const field = (preset: string, path: string) =>
    rulesMenuContext({ ...defaultWorldRules(), preset: preset as never, defaultDifficulty: 1 })
      .groups.flatMap((g) => g.fields)
      .find((x) => x.path === path)!;
  it("a Fudge or FATE world picks the default and the Willpower Difficulty by level, highest first, the stored one selected", () => {
    for (const preset of ["fudge", "fate"]) {
      const d = field(preset, "defaultDifficulty");
      expect(d.ladderLevels!.map((l) => l.value)).toEqual([6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4]);
      expect(d.ladderLevels!.filter((l) => l.selected).map((l) => l.value)).toEqual([1]);
    }
    expect(
      field("fudge", "fudgeTrack.willpowerDifficulty")
        .ladderLevels!.filter((l) => l.selected)
        .map((l) => l.value),
    ).toEqual([defaultWorldRules().fudgeTrack.willpowerDifficulty]);
  });
  it("Miniatures (rolls against numbers) and Volt keep the number field; the submitted value is read as before", () => {
    expect(field("miniatures", "defaultDifficulty").ladderLevels).toBeNull();
    expect(field("volt", "defaultDifficulty").ladderLevels).toBeNull();
    expect(field("fudge", "applyTo").ladderLevels).toBeNull();
    const form = Object.fromEntries(
      RULE_FIELDS.filter((x) => x.group === "general").flatMap((x) => formEntries(defaultWorldRules(), x)),
    );
    expect(
      applyRulesForm(defaultWorldRules(), { ...form, defaultDifficulty: "-2" }, ["general"]).defaultDifficulty,
    ).toBe(-2);
  });
});
