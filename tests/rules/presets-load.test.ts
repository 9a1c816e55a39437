/**
 * The presets' attack pipelines load on demand (src/rules/presets.ts): `pipelineFor` stays
 * synchronous and refuses, in a sentence of its own, a preset known but not loaded yet;
 * `loadPreset` loads one (once); the forecast engine reads its own imports of them. Each test
 * imports a fresh registry (tests/setup.ts loads every preset in the suite's own).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";

type Presets = typeof import("../../src/rules");
let presets: Presets;

beforeEach(async () => {
  vi.resetModules();
  presets = await import("../../src/rules");
});

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as { key: string; field: string; message: string };
  }
  throw new Error("not refused");
};

describe("loadPreset and pipelineFor", () => {
  it("a fresh registry has no pipeline loaded: pipelineFor refuses a known preset as not loaded, an unknown one as unknown", () => {
    for (const id of ["fudge", "miniatures", "fate", "volt"]) {
      expect(presets.presetKnown(id)).toBe(true);
      expect(presets.presetLoaded(id)).toBe(false);
      const e = refusal(() => presets.pipelineFor(id, "request.preset"));
      expect(e.key).toBe("FUDGE.Error.PresetNotLoaded");
      expect(e.field).toBe("request.preset");
    }
    expect(refusal(() => presets.pipelineFor("chess")).key).toBe("FUDGE.Error.UnknownPreset");
    expect(presets.presetKnown("chess")).toBe(false);
  });

  it("loadPreset loads that preset's pipeline only, once, after which pipelineFor returns it at once", async () => {
    const [a, b] = await Promise.all([presets.loadPreset("volt"), presets.loadPreset("volt")]);
    expect(a).toBe(b);
    expect(a.preset).toBe("volt");
    expect(presets.pipelineFor("volt")).toBe(a);
    expect(["fudge", "miniatures", "fate"].map((p) => presets.presetLoaded(p))).toEqual([false, false, false]);
    expect(presets.resolveAttack).toBeTypeOf("function");
    await expect(presets.loadPreset("chess")).rejects.toMatchObject({ key: "FUDGE.Error.UnknownPreset" });
  });

  it("loadAllPresets loads all four (the CLI, the tests, the playground)", async () => {
    await presets.loadAllPresets();
    expect(["fudge", "miniatures", "fate", "volt"].map((p) => presets.pipelineFor(p).preset)).toEqual([
      "fudge",
      "miniatures",
      "fate",
      "volt",
    ]);
  });

  it("the forecast engine needs no preset loaded first: it imports every built-in pipeline itself", () => {
    // A Fudge duel of the two combatants a 0.1.0 card recorded (tests/fixtures/cards-0.1.0.json).
    const request = (
      JSON.parse(readFileSync("tests/fixtures/cards-0.1.0.json", "utf8")) as {
        attackCards: { preset: string; card: { targets: { request: { attacker: unknown; defender: unknown } }[] } }[];
      }
    ).attackCards.find((c) => c.preset === "fudge")!.card.targets[0].request;
    expect(presets.presetLoaded("fudge")).toBe(false);
    const forecast = presets.duelForecast({ preset: "fudge", a: request.attacker, b: request.defender });
    expect(forecast.preset).toBe("fudge");
    expect(forecast.aOut + forecast.bOut).toBeGreaterThan(0.5);
    expect(refusal(() => presets.duelForecast({ preset: "chess", a: {}, b: {} })).key).toBe(
      "FUDGE.Error.UnknownPreset",
    );
  });
});

describe("the presets an attack card names (src/system/presets.ts)", () => {
  it("are its own and its targets' known presets not loaded yet, each once; a claim of anything else is ignored", async () => {
    const { cardPresets, loadCardPresets } = await import("../../src/system/presets");
    const card = {
      preset: "volt",
      targets: [
        { request: { preset: "fate" } },
        { request: { preset: "volt" } },
        { request: { preset: "chess" } },
        null,
      ],
    };
    expect(cardPresets(card)).toEqual(["volt", "fate"]);
    expect(cardPresets("not a card")).toEqual([]);
    await loadCardPresets(card);
    const rules = await import("../../src/rules");
    expect(["fudge", "miniatures", "fate", "volt"].filter((p) => rules.presetLoaded(p))).toEqual(["fate", "volt"]);
    expect(cardPresets(card)).toEqual([]);
  });
});
