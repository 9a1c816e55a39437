/**
 * A box track config whose levels are a built-in preset's is recognised by comparison instead of
 * re-validated level by level (src/rules/fudge/box-track.ts `presetConfig`). The parse must be exactly
 * the full validation (`validateBoxConfig`): the same config (deep-equal, same JSON, a fresh
 * object) or the same error with the same field path, for the presets and for every one-field
 * change of them, valid or not.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boxTrack, boxTrackConfig, validateBoxConfig, type BoxTrackConfig } from "../../src/rules/fudge";
import { RulesError } from "../../src/rules";

const presets: BoxTrackConfig[] = [];
for (const doubleRd of [false, true]) {
  presets.push(
    boxTrackConfig("standard", { doubleRd }),
    boxTrackConfig("cinematic", { doubleRd }),
    boxTrackConfig("pawn", { doubleRd }),
  );
  for (let h = 0; h <= 2; h++)
    for (let v = 0; v <= 2; v++)
      presets.push(boxTrackConfig("epic", { doubleRd, epicExtraHurt: h, epicExtraVeryHurt: v }));
}
presets.push(
  boxTrackConfig("miniatures"),
  boxTrackConfig("standard", { label: "Body", scratchCap: true, painShift: -1, safeguards: { maxThreeLevels: true } }),
);

type Outcome = { ok: BoxTrackConfig; json: string } | { error: string; field: string; key: string; message: string };
function outcome(f: () => BoxTrackConfig): Outcome {
  try {
    const c = f();
    return { ok: c, json: JSON.stringify(c) };
  } catch (e) {
    if (!(e instanceof RulesError)) throw e;
    return {
      error: e.name,
      field: e.field,
      key: e.key,
      message: e.message,
      params: JSON.stringify(e.params),
    } as Outcome;
  }
}

/** Values a field may be changed to: right and wrong types, edges, the other presets' values. */
const odd = fc.constantFrom<unknown>(
  undefined,
  null,
  0,
  -0,
  1,
  -1,
  2,
  3,
  4,
  5,
  9,
  1.5,
  -3,
  4,
  21,
  "",
  "  ",
  "x",
  "box",
  "scratch",
  "hurt",
  "dead",
  "none",
  "penalty",
  "dying",
  "S",
  "Hx",
  true,
  false,
  [],
  {},
  { maxThreeLevels: true },
  { fudgePointSaves: "yes" },
);
const LEVEL_FIELDS = ["key", "boxes", "penalty", "effect", "min", "tag", "label", "extra"];
const CONFIG_FIELDS = ["kind", "label", "levels", "scratchCap", "painShift", "safeguards", "deadAt", "extra"];

describe("box config: a built-in preset's levels are recognised, never accepted more loosely than the full validation", () => {
  it("each preset parses to what the full validation returns (a fresh object)", () => {
    for (const p of presets) {
      const input = JSON.parse(JSON.stringify(p));
      const fast = boxTrack.parseConfig(input, "config");
      expect(fast).toEqual(validateBoxConfig(input, "config"));
      expect(JSON.stringify(fast)).toBe(JSON.stringify(p));
      expect(fast).not.toBe(boxTrack.parseConfig(input, "config"));
      expect(fast.levels[0]).not.toBe(input.levels[0]);
    }
  });

  it("one or two fields changed (a level's or the config's): same config or same error and field", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...presets),
        fc.array(fc.tuple(fc.boolean(), fc.nat(11), fc.nat(7), odd), { minLength: 1, maxLength: 2 }),
        (preset, changes) => {
          const input = JSON.parse(JSON.stringify(preset)) as Record<string, unknown> & {
            levels: Record<string, unknown>[];
          };
          for (const [onLevel, li, fi, value] of changes) {
            if (
              onLevel &&
              (!Array.isArray(input.levels) ||
                input.levels.length === 0 ||
                typeof input.levels[li % input.levels.length] !== "object")
            )
              continue;
            const target = onLevel ? input.levels[li % input.levels.length] : input;
            const field = onLevel ? LEVEL_FIELDS[fi % LEVEL_FIELDS.length] : CONFIG_FIELDS[fi % CONFIG_FIELDS.length];
            if (value === undefined) delete target[field];
            else target[field] = value;
          }
          const full = outcome(() => validateBoxConfig(input, "config"));
          const parsed = outcome(() => boxTrack.parseConfig(input, "config"));
          expect(parsed).toEqual(full);
          if ("ok" in parsed && "ok" in full) expect(parsed.json).toBe(full.json);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("−0 is kept as the full validation keeps it, in every field that may be 0", () => {
    // pawn: Scratch has 0 boxes; miniatures: Scratch starts at 0; standard: Scratch's penalty 0.
    for (const [preset, field] of [
      [boxTrackConfig("pawn"), "boxes"],
      [boxTrackConfig("miniatures"), "min"],
      [boxTrackConfig("standard"), "penalty"],
    ] as const) {
      const input = JSON.parse(JSON.stringify(preset));
      input.levels[0][field] = -0;
      expect(Object.is(boxTrack.parseConfig(input, "config").levels[0][field], -0), field).toBe(true);
      expect(Object.is(validateBoxConfig(input, "config").levels[0][field], -0), field).toBe(true);
    }
  });

  it("a preset's levels, shared between parses, cannot be changed by a caller", () => {
    const a = boxTrack.parseConfig(JSON.parse(JSON.stringify(presets[0])), "config");
    expect(() => {
      (a.levels[1] as { boxes: number }).boxes = 9;
    }).toThrow();
    expect(boxTrack.parseConfig(JSON.parse(JSON.stringify(presets[0])), "config").levels[1].boxes).toBe(
      presets[0].levels[1].boxes,
    );
    a.levels.push({ ...a.levels[0] }); // the list itself is the parse's own
    expect(boxTrack.parseConfig(JSON.parse(JSON.stringify(presets[0])), "config").levels).toHaveLength(
      presets[0].levels.length,
    );
  });

  it("−0 is kept as the full validation keeps it", () => {
    const input = JSON.parse(JSON.stringify(presets[0]));
    input.levels[0].penalty = -0;
    expect(Object.is(boxTrack.parseConfig(input, "config").levels[0].penalty, -0)).toBe(
      Object.is(validateBoxConfig(input, "config").levels[0].penalty, -0),
    );
  });
});
