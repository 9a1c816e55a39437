import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seededRng, rollAttack, applyWound, healTrack, newTrack, trackStatus } from "../../src/rules";
import { recoverAction } from "../../src/rules/volt";

const root = join(__dirname, "../..");
const lang = JSON.parse(readFileSync(join(root, "lang/en.json"), "utf8")) as Record<string, string>;
// The preset's folder holds its track kind too.
const sources = readdirSync(join(root, "src/rules/volt")).map((f) => join(root, "src/rules/volt", f));

describe("Volt i18n", () => {
  it("every FUDGE.Volt key in the code has English text", () => {
    const keys = new Set(
      sources.flatMap((f) =>
        [...readFileSync(f, "utf8").matchAll(/"(FUDGE\.Volt\.[A-Za-z0-9_.]+)"/g)].map((m) => m[1]),
      ),
    );
    expect(keys.size).toBeGreaterThan(50);
    for (const k of keys) expect(lang[k], k).toBeTypeOf("string");
  });

  it("every step of random attacks has text whose placeholders are filled, and names a Volt rule", () => {
    const rng = seededRng(11);
    const track = newTrack({ kind: "volt", willpower: 6 } as { kind: string });
    for (let i = 0; i < 300; i++) {
      const r = rollAttack(
        {
          preset: "volt",
          attacker: {
            name: "A",
            track,
            weapon: {
              name: "W",
              attack: 8 + (i % 13),
              damage: 5 + (i % 17),
              pierce: i % 9,
              stun: i % 3 === 0,
              ranged: i % 5 === 0,
            },
          },
          defender: {
            name: "B",
            track,
            guard: 6,
            armor: i % 2 ? { coverage: 5 + (i % 16), protection: [3, 6] } : null,
          },
          situation: { distance: 7 },
        },
        rng,
      );
      for (const s of [...r.steps, ...(r.defenderAfter?.steps ?? []), ...(r.defenderAfter?.status.steps ?? [])]) {
        expect(s.rule).toMatch(/^Volt: /);
        const text = lang[s.key];
        expect(text, s.key).toBeTypeOf("string");
        for (const m of text.matchAll(/\{(\w+)\}/g)) expect(s.params?.[m[1]], `${s.key} {${m[1]}}`).toBeDefined();
      }
    }
  });

  it("healing and status steps have filled text too", () => {
    const rng = seededRng(5);
    const d20 = (): number => 1 + Math.floor(rng() * 20);
    for (let i = 0; i < 200; i++) {
      let t = newTrack({ kind: "volt", willpower: i % 14, tough: (i % 7) - 3 } as { kind: string });
      const steps = [];
      for (let j = 0; j < 8; j++) {
        const r = applyWound(
          t,
          j % 4 === 3
            ? { failedRoll: true, damage: d20(), type: "stun" }
            : { row: d20() + 2, type: j % 2 ? "stun" : "injury" },
        );
        steps.push(...r.steps, ...r.status.steps);
        t = r.track;
      }
      for (const h of [
        { type: "injuryRecovery", black: d20(), white: d20(), strength: 10, medical: i % 3 },
        { type: "recover", result: "success" },
        { type: "rest" },
        { type: "box", ref: "row-12" },
      ])
        steps.push(...healTrack(t, h).steps);
      steps.push(...recoverAction(t, 6, d20(), d20()).steps, ...trackStatus(t).steps);
      for (const s of steps) {
        expect(s.rule).toMatch(/^Volt: /);
        const text = lang[s.key];
        expect(text, s.key).toBeTypeOf("string");
        for (const m of text.matchAll(/\{(\w+)\}/g)) expect(s.params?.[m[1]], `${s.key} {${m[1]}}`).toBeDefined();
      }
    }
  });
});
