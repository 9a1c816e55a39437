/**
 * The table's forecast line says when a Miniatures model leaves by flight, after the win chances
 * ("Brutas flees 15%."), short and localized, names escaped; nothing more where no one flees.
 */
import { describe, expect, test } from "vitest";
import { forecastLineOf, forecastTextOf, forecastViewOf } from "../../src/system/attack-dialog";
import { duelForecast, newTrack } from "../../src/rules";
import { resolveSamples } from "../../src/cli/samples";
import { boxTrackConfig } from "../../src/rules/fudge";
import { sampleModel } from "../rules/miniatures-samples";
import { loadLang } from "./fixtures";

const en = loadLang();
const format = (key: string, data: Record<string, string>): string =>
  en[key].replace(/\{(\w+)\}/g, (_, k: string) => data[k]);
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const brutas = (): Record<string, unknown> => {
  const m = sampleModel("brutasTheBrute");
  return { ...m, fault: { ...(m.fault as object), rule: "mercenary" } };
};
const OGRE = {
  name: "Harmless Ogre",
  strength: 0,
  dexterity: -5,
  guts: 0,
  weapons: [{ name: "Club", hands: 1, kind: "melee", damage: -20, stat: "strength" }],
  terrifying: 1,
  track: newTrack(boxTrackConfig("miniatures")),
};
const duel = { preset: "miniatures", a: brutas(), b: OGRE, first: "b" };

describe("the table's forecast line: flight (Miniatures)", () => {
  test('an exact forecast: the win chances, then "Brutas flees 19%." (15/81); the ogre, who never flees, is not named again', () => {
    const line = forecastLineOf(forecastViewOf("Brutas", "Ogre", duelForecast(duel)), escape);
    expect(line.key).toBe("FUDGE.Forecast.Line");
    expect(forecastTextOf(line, format)).toBe(
      "Brutas vs Ogre: Brutas wins 81%, Ogre wins 19%, in about 1.2 exchanges. Brutas flees 19%. Exact.",
    );
  });
  test("an estimate says its flight as an estimate, with its interval; names are escaped", () => {
    const f = duelForecast({ ...duel, method: "sample", samples: 2000 });
    const text = forecastTextOf(forecastLineOf(forecastViewOf("<b>Brutas</b>", "Ogre", f), escape), format);
    expect(text).toMatch(/ &#60;b&#62;Brutas&#60;\/b&#62; flees ≈ \d+% ± \d\.\d%\. Estimate\.$/);
    expect(text).not.toContain("<b>");
  });
  test('no flight sentence where no one can flee (Fudge), nor below 0.5% (it would read "<1%")', () => {
    const fudge = forecastLineOf(
      forecastViewOf("Leroy", "Theodora", duelForecast(resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" }))),
      escape,
    );
    expect(fudge.flight).toEqual([]);
    expect(forecastTextOf(fudge, format)).toBe(
      "Leroy vs Theodora: Leroy wins 75%, Theodora wins 25%, in about 3.6 exchanges. Exact.",
    );
    const never = duelForecast({ ...duel, b: { ...OGRE, terrifying: 0 }, terrifyingCharge: false });
    // Brutas is never wounded but by the rarest Legendary rolls (then a Guts check may fail).
    expect(never.aFled).toBeGreaterThan(0);
    expect(never.aFled).toBeLessThan(1e-9);
    expect(forecastLineOf(forecastViewOf("Brutas", "Ogre", never), escape).flight).toEqual([]);
  });
});
