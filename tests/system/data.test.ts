/** Data shapes: defaults and world rules from settings. */
import { describe, expect, test } from "vitest";
import {
  ACTOR_DEFAULTS,
  ITEM_DEFAULTS,
  WORLD_RULE_SETTINGS,
  defaultWorldRules,
  worldRulesFrom,
} from "../../src/system/data";
import { parseFudgeOptions } from "../../src/rules/fudge";

describe("defaults", () => {
  test("every actor and item type has JSON-clean defaults", () => {
    for (const f of [...Object.values(ACTOR_DEFAULTS), ...Object.values(ITEM_DEFAULTS)]) {
      const d = f();
      expect(JSON.parse(JSON.stringify(d))).toEqual(d);
      expect(f()).not.toBe(d); // fresh objects
    }
    expect(ACTOR_DEFAULTS.character().woundTrack.state).toBeNull();
    expect(ACTOR_DEFAULTS.miniature().movement).toBe(5); // Miniatures: Movement 5"
  });

  test("world rules default to the texts' suggestions and the Fudge options parse", () => {
    const r = defaultWorldRules();
    expect(r.preset).toBe("fudge");
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    expect(() => parseFudgeOptions(r.fudge)).not.toThrow();
    expect(r.fudge.graze.table).toEqual([
      { min: 0, level: "scratch" },
      { min: 5, level: "hurt" },
    ]);
  });
});

describe("worldRulesFrom", () => {
  test("unset settings give the defaults", () => {
    expect(worldRulesFrom(() => undefined)).toEqual(defaultWorldRules());
  });

  test("settings override key by key; nested objects merge over the defaults", () => {
    const settings: Record<string, unknown> = {
      preset: "volt",
      fudge: { doubleRd: true },
      volt: { recovery: "nightly" },
      legendary: false,
    };
    const r = worldRulesFrom((k) => settings[k]);
    expect(r.preset).toBe("volt");
    expect(r.fudge.doubleRd).toBe(true);
    expect(r.fudge.lessLethal).toBe(false);
    expect(r.volt.recovery).toBe("nightly");
    expect(r.legendary).toBe(false);
    expect(settings.fudge).toEqual({ doubleRd: true }); // input untouched
  });

  test("values of the wrong type or unknown presets fall back; a throwing getter is tolerated", () => {
    const settings: Record<string, unknown> = {
      preset: "gurps",
      legendary: "yes",
      fudge: [],
      applyTo: "everyone",
      defaultDifficulty: 2,
    };
    const r = worldRulesFrom((k) => {
      if (k === "volt") throw new Error("not registered");
      return settings[k];
    });
    expect(r.preset).toBe("fudge");
    expect(r.legendary).toBe(true);
    expect(r.fudge).toEqual(defaultWorldRules().fudge);
    expect(r.applyTo).toBe("targeted");
    expect(r.defaultDifficulty).toBe(2);
    expect(r.volt).toEqual(defaultWorldRules().volt);
  });

  test("Miniatures gutsRollPenalty: every roll by default; a stored world without it (before the setting) reads the default; a value outside the list falls back", () => {
    expect(defaultWorldRules().miniatures.gutsRollPenalty).toBe("allRolls");
    expect(worldRulesFrom((k) => (k === "miniatures" ? { gangUp: false } : undefined)).miniatures).toEqual({
      ...defaultWorldRules().miniatures,
      gangUp: false,
    });
    expect(
      worldRulesFrom((k) => (k === "miniatures" ? { gutsRollPenalty: "attackRolls" } : undefined)).miniatures
        .gutsRollPenalty,
    ).toBe("attackRolls");
    expect(
      worldRulesFrom((k) => (k === "miniatures" ? { gutsRollPenalty: "someRolls" } : undefined)).miniatures
        .gutsRollPenalty,
    ).toBe("allRolls");
  });

  test("every WorldRules field has a setting", () => {
    expect([...WORLD_RULE_SETTINGS].sort()).toEqual(Object.keys(defaultWorldRules()).sort());
  });
});
