/**
 * The battle's-end chat note (Fudge §4.52 (4) "This can be temporary - until the battle is over"):
 * the pure builder and the real template with the real lang file; names and labels are escaped.
 */
import { describe, expect, test } from "vitest";
import { battleEndNote } from "../../src/system/battle-end";
import { woundLevelName, newTrack } from "../../src/rules";
import { boxTrackConfig, dcTrackConfig } from "../../src/rules/fudge";
import { makeRenderer } from "./render";

const XSS = "<img src=x onerror=alert(1)>";
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim();

describe("battleEndNote", () => {
  test("nothing to say: null (no message is posted)", () => {
    expect(battleEndNote([])).toBeNull();
    expect(battleEndNote([{ name: "Theodora", notes: [] }])).toBeNull();
  });

  test("one line per lapse, each led by the actor's name, in the order given", () => {
    const ctx = battleEndNote([
      { name: "Theodora", notes: [{ result: "lapsed", from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.veryHurt" }] },
      { name: "Leroy", notes: [{ result: "gone", from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.scratch" }] },
    ])!;
    expect(ctx.titleKey).toBe("FUDGE.BattleEnd.Title");
    expect(ctx.lines.map((l) => [l.name, l.result, l.key])).toEqual([
      ["Theodora", "lapsed", "FUDGE.BattleEnd.Lapsed"],
      ["Leroy", "gone", "FUDGE.BattleEnd.Gone"],
    ]);
  });

  test("level names: a custom level's own label, else the level's i18n key (box and DC tracks)", () => {
    const custom = newTrack(
      boxTrackConfig("custom", {
        levels: [
          { key: "scratch", boxes: 3, penalty: 0, effect: "none", min: 1, tag: "S" },
          { key: "level2", boxes: 1, penalty: -1, effect: "penalty", min: 3, tag: "B", label: "Bruised" },
        ],
      }),
    );
    expect(woundLevelName(custom, "level2")).toBe("Bruised");
    expect(woundLevelName(custom, "scratch")).toBe("FUDGE.Wound.scratch");
    expect(woundLevelName(newTrack(dcTrackConfig(1)), "veryHurt")).toBe("FUDGE.Wound.veryHurt");
  });
});

describe("templates/chat/battle-end.hbs", () => {
  test("reads in the game's words: name, what lapsed, the rule", () => {
    const r = makeRenderer();
    const html = r.render(
      "battleEnd",
      battleEndNote([
        { name: "Theodora", notes: [{ result: "lapsed", from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.veryHurt" }] },
        { name: "Leroy", notes: [{ result: "gone", from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.scratch" }] },
        {
          name: "Mallory",
          notes: [
            {
              result: "refused",
              from: "",
              to: "",
              reason: {
                key: "FUDGE.Error.BattleLapseOneLevel",
                params: { field: "FUDGE.Field.value", from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.nearDeath" },
              },
            },
          ],
        },
      ]),
    );
    const lines = [...html.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => text(m[1]));
    expect(text(html)).toMatch(/^The battle is over/);
    expect(lines).toEqual([
      "Theodora: the Willpower adjustment lapses — Hurt becomes Very Hurt (Fudge §4.52).",
      "Leroy: no Hurt wound is left to become Scratch (Fudge §4.52).",
      "Mallory: a recorded lapse is left as it is. A wound recorded as Hurt cannot lapse to Near Death: the Willpower adjustment is one level or one damage point (Fudge §4.52).",
    ]);
    expect(html).toContain('data-lapse-result="refused"');
    expect([...r.missing]).toEqual([]);
  });

  test("names and custom labels are escaped", () => {
    const r = makeRenderer();
    const html = r.render(
      "battleEnd",
      battleEndNote([{ name: XSS, notes: [{ result: "lapsed", from: XSS, to: "FUDGE.Wound.veryHurt" }] }]),
    );
    expect(html).not.toContain("<img");
    expect(html.match(/&lt;img src&#x3D;x onerror&#x3D;alert\(1\)&gt;/g)).toHaveLength(2);
  });
});
