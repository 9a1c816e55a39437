import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  boxTrack,
  boxTrackConfig,
  BOX_TRACK_PRESETS,
  type BoxTrackConfig,
  type BoxTrackState,
  DC_WOUND_LEVELS,
  dcTrack,
  dcTrackConfig,
  type DcTrackState,
} from "../../src/rules/fudge";
import type { Step, TrackRender } from "../../src/rules";

const lang = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8")) as Record<string, string>;
const sources = ["../../src/rules/fudge/box-track.ts", "../../src/rules/fudge/dc-track.ts"]
  .map((p) => readFileSync(new URL(p, import.meta.url), "utf8"))
  .join("\n");

/** Keys owned elsewhere: core validation errors and the ladder names. */
const foreign = (k: string) =>
  /^FUDGE\.Error\.[A-Za-z]+$/.test(k) || k.startsWith("FUDGE.Ladder.") || k === "FUDGE.Error.UndoConflict";

function keysOf(steps: Step[], render?: TrackRender): string[] {
  const out = steps.map((s) => s.key);
  for (const s of steps)
    for (const v of Object.values(s.params ?? {})) if (typeof v === "string" && v.startsWith("FUDGE.")) out.push(v);
  if (render) {
    out.push(...keysOf(render.status.steps));
    for (const r of render.rows) {
      out.push(r.labelKey);
      if (r.effectKey) out.push(r.effectKey);
      for (const v of Object.values(r.labelParams)) if (typeof v === "string" && v.startsWith("FUDGE.")) out.push(v);
      for (const b of r.boxes) {
        out.push(b.labelKey);
        for (const v of Object.values(b.labelParams)) if (typeof v === "string" && v.startsWith("FUDGE.")) out.push(v);
      }
    }
  }
  return out;
}

describe("tracks i18n", () => {
  it("every literal FUDGE.* key in box.ts and dc.ts has English text (or belongs to the core)", () => {
    const literal = [...sources.matchAll(/"(FUDGE\.[A-Za-z.]+)"/g)].map((m) => m[1]);
    expect(literal.length).toBeGreaterThan(50);
    const missing = literal.filter((k) => !lang[k] && !foreign(k));
    expect(missing).toEqual([]);
  });

  it("every key the tracks produce while playing has English text", () => {
    const seen = new Set<string>();
    const add = (ks: string[]) => ks.forEach((k) => seen.add(k));
    const configs: BoxTrackConfig[] = BOX_TRACK_PRESETS.filter((p) => p !== "custom").flatMap((p) => [
      boxTrackConfig(p),
      boxTrackConfig(p, {
        scratchCap: true,
        painShift: -1,
        safeguards: { maxThreeLevels: true, nearDeathNeedsIncapacitated: true, fudgePointSaves: true },
      }),
      boxTrackConfig(p, { painShift: 1, safeguards: { nearDeathNeedsIncapacitated: true } }),
      boxTrackConfig(p, { safeguards: { fudgePointSaves: true } }),
    ]);
    for (const c of configs) {
      const keys = [...c.levels.map((l) => l.key), "dead"];
      for (const flags of [
        {},
        { stun: true },
        { spendFudgePoint: true },
        { beganRoundIncapacitated: true },
        { kill: true },
      ]) {
        for (const first of keys) {
          let s: BoxTrackState = boxTrack.initial(c);
          for (const level of [first, ...keys, ...keys, ...keys]) {
            const r = boxTrack.apply(c, s, { level, ...flags });
            add(keysOf(r.steps, boxTrack.render(c, r.state)));
            for (const h of [
              { type: "roll", result: 1 },
              { type: "natural", weeks: 1 },
              { type: "scratches" },
              { type: "endRound" },
              { type: "box", ref: "dead" },
            ] as const)
              add(keysOf(boxTrack.heal(c, r.state, h).steps, boxTrack.render(c, boxTrack.heal(c, r.state, h).state)));
            s = r.state;
          }
        }
      }
    }
    for (const start of [-3, 0, 3])
      for (const terrible of ["penalty", "incapacitated"] as const)
        for (const scratchesPerHit of [0, 3]) {
          const c = dcTrackConfig(start, { terrible, scratchesPerHit });
          let s: DcTrackState = dcTrack.initial(c);
          add(keysOf([], dcTrack.render(c, s)));
          for (const level of [
            ...DC_WOUND_LEVELS.slice(0, 2),
            "scratch",
            "scratch",
            "scratch",
            "hurt",
            "hurt",
            "hurt",
            "hurt",
            "hurt",
            "dead",
            "hurt",
          ] as const) {
            const r = dcTrack.apply(c, s, { level });
            add(keysOf(r.steps, dcTrack.render(c, r.state)));
            for (const h of [
              { type: "roll", result: 1 },
              { type: "natural", weeks: 1 },
              { type: "scratches" },
              { type: "box", ref: `dc:${start - 1}` },
            ] as const)
              add(keysOf(dcTrack.heal(c, r.state, h).steps));
            s = r.state;
          }
          add(keysOf(dcTrack.apply(c, dcTrack.initial(c), { level: "hurt", kill: true }).steps));
        }
    const missing = [...seen].filter((k) => !lang[k] && !foreign(k));
    expect(missing).toEqual([]);
    // the scenarios reach the rare steps too
    for (const k of [
      "FUDGE.Step.Box.Safeguard.MaxThree",
      "FUDGE.Step.Box.Safeguard.FudgePoint",
      "FUDGE.Step.Box.Stun.knockedOut",
      "FUDGE.Step.Dc.Level.nearDeath",
    ])
      expect(seen.has(k)).toBe(true);
  });

  it("every key the tracks own in en.json is used by the code (literally or through a template)", () => {
    const templates = [...sources.matchAll(/`(FUDGE\.[A-Za-z.]+)\$\{/g)].map((m) => m[1]);
    const owned = (k: string) => /^FUDGE\.(Step\.Box|Step\.Dc|Error\.Track)\./.test(k);
    const unused = Object.keys(lang).filter(
      (k) => owned(k) && !sources.includes(`"${k}"`) && !templates.some((t) => k.startsWith(t)),
    );
    expect(unused).toEqual([]);
  });

  it("placeholders use Foundry's {name} format", () => {
    for (const v of Object.values(lang)) expect(v).not.toMatch(/\{\{|\$\{|%s/);
  });
});
