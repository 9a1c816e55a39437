/** Refusals a user reads: plain localized sentences naming the actor, from real actions with bad input. */
import { describe, expect, test } from "vitest";
import { healWounds, setActorField, toggleWoundBox } from "../../src/system/actions";
import { FIELD_NAMES, errorText, errorView, fieldKey, fieldLabel } from "../../src/system/error-text";
import { dictionaryI18n } from "../../src/system/i18n";
import { RulesError } from "../../src/rules";
import { GM, PLAYER2, leroy, loadLang, rulesFor } from "./fixtures";

const missing: string[] = [];
const i18n = dictionaryI18n(loadLang(), (k) => missing.push(k));

/** The error a call throws (the test fails if it throws none, or something other than a RulesError). */
function thrown(f: () => unknown): RulesError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RulesError);
    return e as RulesError;
  }
  throw new Error("expected a RulesError");
}

/** Developer output a user must never read: field paths, keys, placeholders, code quotes. */
function expectPlain(text: string): void {
  expect(text).not.toMatch(/FUDGE\.|system\.|healing\.|woundTrack|customLevels|\{[a-z]+\}|undefined|\bgot\b/);
  expect(text).toMatch(/[.!?]$/);
  expect(missing).toEqual([]);
}

function customLeroy() {
  const a = leroy();
  const up = setActorField(a, "woundTrack.preset", "custom", GM).system as { woundTrack: { customLevels: unknown } };
  Object.assign(a.system.woundTrack, { preset: "custom", customLevels: up.woundTrack.customLevels });
  return a;
}

describe("errorText over real refusals", () => {
  test('healing weeks "x": names Leroy and the field in words, keeps the core key', () => {
    const e = thrown(() => healWounds(leroy(), { type: "natural", weeks: "x" }, rulesFor("fudge"), GM));
    expect(e.key).toBe("FUDGE.Error.NotInteger");
    expect(e.field).toBe("healing.weeks");
    const text = errorText(e, i18n, "Leroy");
    expect(text).toBe("Leroy: the number of weeks must be a whole number.");
    expectPlain(text);
    // Without an actor the sentence stands alone, capitalized.
    expect(errorText(e, i18n)).toBe("The number of weeks must be a whole number.");
  });

  test('a Volt box "scratch": no such row, said plainly', () => {
    const e = thrown(() => toggleWoundBox(leroy(), "scratch", rulesFor("volt"), GM));
    expect(e.key).toBe("FUDGE.Volt.Error.BadRef");
    const text = errorText(e, i18n, "Leroy");
    expect(text).toBe('Leroy: There is no row "scratch" on this wound track.');
    expectPlain(text);
  });

  test('a stored Volt mark on row "scratch": says what to do (reset the track)', () => {
    const a = leroy();
    (a.system.woundTrack as { state: unknown }).state = { marks: { scratch: "stun" } };
    const e = thrown(() => toggleWoundBox(a, "row-1", rulesFor("volt"), GM));
    expect(e.key).toBe("FUDGE.Volt.Error.BadRow");
    expect(e.params.row).toBe("scratch");
    const text = errorText(e, i18n, "Leroy");
    expect(text).toMatch(/^Leroy: .*"scratch".*not a row\. Reset the wound track\.$/);
    expectPlain(text);
  });

  test("a bad custom level: the field and the level are named, the ordering rule stated", () => {
    const a = customLeroy();
    const notNumber = thrown(() => setActorField(a, "woundTrack.customLevels.1.boxes", "lots", GM));
    expect(notNumber.key).toBe("FUDGE.Error.NotInteger");
    expect(errorText(notNumber, i18n, "Leroy")).toBe(
      "Leroy: the number of boxes of custom wound level 2 must be a whole number.",
    );
    const order = thrown(() => setActorField(a, "woundTrack.customLevels.1.threshold", "1", GM));
    expect(order.key).toBe("FUDGE.Error.Track.MinOrder");
    const text = errorText(order, i18n, "Leroy");
    expect(text).toBe("Leroy: Each wound level's threshold must be higher than the one before it.");
    expectPlain(text);
    const range = thrown(() => setActorField(a, "woundTrack.customLevels.0.penalty", "5", GM));
    expect(errorText(range, i18n, "Leroy")).toBe(
      "Leroy: the penalty of custom wound level 1 must be between -10 and 0.",
    );
  });

  test("an attribute out of range names the trait, not its path", () => {
    const e = thrown(() => setActorField(leroy(), "attributes.strength", "99", GM));
    expect(errorText(e, i18n, "Leroy")).toBe("Leroy: Strength must be between -10 and 10.");
  });

  test("a sentence that already names the actor is not prefixed again", () => {
    const e = thrown(() => toggleWoundBox(leroy(), "row-1", rulesFor("fudge"), PLAYER2));
    const text = errorText(e, i18n, "Leroy");
    expect(text.startsWith("Leroy: ")).toBe(false);
    expect(text).toContain("Leroy");
    expectPlain(text);
  });

  test("an unknown path reads as 'this value'; a non-rules error as a plain sentence", () => {
    expect(fieldLabel("request.zz9", i18n)).toBe("this value");
    const text = errorText(new TypeError("x is undefined"), i18n, "Leroy");
    expect(text).toMatch(/^Leroy: Something went wrong/);
    expect(text).not.toContain("undefined");
  });
});

test("a forged situation option on a card is named as the attack dialog names it", () => {
  const e = new RulesError("card.situation.gmLevel", "FUDGE.Error.Integrity.Situation", "x", { field: "gmLevel" });
  expect(errorText(e, i18n)).toBe(
    "This card claims a situation (GM's wound level) that an attack may not carry. Attack again.",
  );
});

test("a refusal relayed by the GM's client (key and params only) still reads in words", () => {
  const relayed = { key: "FUDGE.Error.Integrity.Situation", params: { field: "gmLevel" } };
  expect(errorText(relayed, i18n)).toBe(
    "This card claims a situation (GM's wound level) that an attack may not carry. Attack again.",
  );
});

test("every named field has its FUDGE.Field key; a template's error view carries a key, not a path", () => {
  const lang = loadLang();
  for (const f of FIELD_NAMES) expect(lang[`FUDGE.Field.${f}`], f).toBeTruthy();
  expect(fieldKey("system.woundTrack.customLevels.1.boxes")).toBe("FUDGE.Field.boxes");
  const e = thrown(() => healWounds(leroy(), { type: "natural", weeks: "x" }, rulesFor("fudge"), GM));
  const view = errorView(e);
  expect(view).toEqual({ key: "FUDGE.Error.NotInteger", params: { field: "FUDGE.Field.weeks" } });
  // As a template shows it (fudgeFormat localizes a key-valued param).
  expect(i18n.format(view.key, view.params)).toBe("the number of weeks must be a whole number.");
  expect(e.params.field).toBe("healing.weeks"); // the rules core's own params are untouched
});
