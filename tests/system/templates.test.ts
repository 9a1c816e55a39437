/**
 * Every template renders from the context builders, for every preset, with the real helpers and
 * lang files; no i18n key is missing; user text is escaped.
 */
import { describe, expect, test } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  characterSheetContext,
  itemSheetContext,
  miniatureSheetContext,
  npcSheetContext,
} from "../../src/system/sheet";
import { attackCardContext, rollCardContext } from "../../src/system/card";
import { applyDamage, defend, rollTrait, startAttack, toggleWoundBox, updatedState } from "../../src/system/actions";
import { seededRng, CONDITIONS, applyWound } from "../../src/rules";
import {
  SHIELD_SIZES,
  STAT_BASES,
  TRACK_PRESETS,
  TRAIT_EFFECTS,
  WEAPON_SIZES,
  WORLD_RULE_SETTINGS,
  type ActorDoc,
  type AttackCardData,
} from "../../src/system/data";
import { GUTS_REASONS } from "../../src/rules/miniatures";
import { SITUATION_FIELDS, trackFor } from "../../src/system/combatant";
import { FUDGE_LEVELS } from "../../src/system/view";
import {
  GM,
  PLAYER1,
  PLAYER2,
  PRESET_IDS,
  ROOT,
  goblin,
  knight,
  leroy,
  loadLang,
  rulesFor,
  theodora,
} from "./fixtures";
import { makeRenderer } from "./render";

const XSS = "<img src=x onerror=alert(1)>";

function withState(a: ActorDoc, state: unknown): ActorDoc {
  return {
    ...a,
    system: { ...a.system, woundTrack: { ...(a.system as { woundTrack: object }).woundTrack, state } },
  } as ActorDoc;
}

const viewerFor = (user: typeof GM, actors: ActorDoc[]) => ({
  user,
  actor: (id: string) => actors.find((a) => a._id === id),
});

/** Runs a full attack → defend → apply for a preset; returns the card after each stage. */
function loop(preset: (typeof PRESET_IDS)[number], seed: number) {
  const rules = rulesFor(preset);
  const a = preset === "miniatures" ? knight() : leroy();
  const d = preset === "miniatures" ? knight("knave", "Knavely Knave") : theodora();
  const w = a.items.find((i) => i.type === "weapon")!._id;
  const cards: AttackCardData[] = [];
  let card = startAttack(a, w, [d], { modifier: 1 }, seededRng(seed), rules, PLAYER1);
  cards.push(card);
  if (card.targets[0].defend === "pending") {
    card = { ...card, ...defend(card, d, [-1, -1, -1, 0], PLAYER2).system };
    cards.push(card);
  }
  const res = card.targets[0].resolution as { wound: unknown } | null;
  if (res?.wound) {
    card = { ...card, ...applyDamage(card, d, GM, rules, { now: 0 }).cardUpdate.system };
    cards.push(card);
  }
  return { rules, a, d, cards };
}

describe("templates render for every preset", () => {
  const r = makeRenderer();

  for (const preset of PRESET_IDS) {
    test(`${preset}: character, npc, miniature sheets`, () => {
      const rules = rulesFor(preset);
      const html = r.render("character", characterSheetContext(leroy(), rules, { editable: true, owner: true }));
      expect(html).toContain("Leroy");
      expect(html).toContain('data-action="toggleWoundBox"');
      expect(html).toMatch(/class="fudge-penalty/);
      expect(html).toMatch(/class="fudge-condition/);
      const npc = r.render("npc", npcSheetContext(goblin(), rules, { editable: false, owner: false }));
      expect(npc).toContain("Goblin");
      expect(npc).not.toContain('data-action="attack"'); // not the viewer's
      const mini = r.render("miniature", miniatureSheetContext(knight(), rules, { editable: true, owner: true }));
      expect(mini).toContain("Sir Knightly");
    });

    test(`${preset}: item sheets`, () => {
      const rules = rulesFor(preset);
      for (const it of [...leroy().items, ...theodora().items, ...knight().items]) {
        const html = r.render(it.type as "weapon", itemSheetContext(it, rules, { editable: true }));
        expect(html).toContain(`value="${it.name}"`);
      }
    });

    test(`${preset}: attack card through every stage, roll card`, () => {
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const { rules, a, d, cards } = loop(preset, seed);
        for (const c of cards) {
          for (const user of [GM, PLAYER1, PLAYER2]) {
            const html = r.render(
              "attackCard",
              attackCardContext({ _id: "m1", system: c }, rules, viewerFor(user, [a, d])),
            );
            expect(html).toContain(a.name);
            expect(html).toContain(d.name);
          }
        }
      }
      const a = preset === "miniatures" ? knight() : leroy();
      const key = preset === "volt" ? "volt.willpower" : preset === "miniatures" ? "guts" : "attributes.strength";
      const faces = preset === "volt" ? [3, 17] : [1, 0, 0, -1];
      const html = r.render("rollCard", rollCardContext(rollTrait(a, key, faces, rulesFor(preset)), rulesFor(preset)));
      expect(html).toContain(a.name);
    });
  }

  test("wounded tracks render overflow tags and the real penalty", () => {
    const rules = rulesFor("fudge");
    let a: ActorDoc = leroy();
    // Four Scratches with three Scratch boxes: the 4th overflows into Hurt (Fudge §4.57).
    for (const ref of ["scratch:0", "scratch:1", "scratch:2"])
      a = withState(a, updatedState(toggleWoundBox(a, ref, rules)));
    const card = startAttack(theodora(), "poleaxe", [a], {}, { attack: [0, 0, 0, 0] }, rules, PLAYER2);
    const c2 = { ...card, ...defend(card, a, [0, 0, 0, 0], PLAYER1).system };
    // A standoff deals no wound; use a forced graze instead: attacker +1 over the defender.
    const card3 = startAttack(theodora(), "poleaxe", [a], {}, { attack: [1, 0, 0, 0] }, rules, PLAYER2);
    const c3 = { ...card3, ...defend(card3, a, [0, 0, 0, 0], PLAYER1).system };
    const ap = applyDamage(c3, a, GM, rules, { now: 0 });
    a = withState(a, updatedState(ap.actorUpdate));
    const ctx = characterSheetContext(a as ActorDoc<"character">, rules, { editable: true, owner: true });
    const html = r.render("character", ctx);
    expect(c2.targets[0].resolution).not.toBeNull();
    expect(ctx.track.rows.some((row) => row.overflowCount > 0) || ctx.track.penalty < 0).toBe(true);
    expect(html).toContain(`data-penalty="${ctx.track.penalty}"`);
    if (ctx.track.rows.some((row) => row.overflowCount > 0)) expect(html).toContain("fudge-overflow-tag");
  });

  test("sheets render at every step of filling the track, in every preset (dead, taken out, stunned …)", () => {
    for (const preset of PRESET_IDS) {
      const rules = rulesFor(preset);
      for (const start of [leroy(), goblin(), knight()] as ActorDoc[]) {
        let a = start;
        const name = a.type === "miniature" ? "miniature" : a.type === "npc" ? "npc" : "character";
        const ctx0 =
          name === "miniature"
            ? miniatureSheetContext(a as ActorDoc<"miniature">, rules, { editable: true, owner: true })
            : characterSheetContext(a as ActorDoc<"character">, rules, { editable: true, owner: true });
        const refs = ctx0.track.rows.flatMap((row) => row.boxes.filter((b) => !b.disabled).map((b) => b.ref));
        for (const ref of refs) {
          a = withState(a, updatedState(toggleWoundBox(a, ref, rules)));
          const ctx =
            name === "miniature"
              ? miniatureSheetContext(a as ActorDoc<"miniature">, rules, { editable: true, owner: true })
              : characterSheetContext(a as ActorDoc<"character">, rules, { editable: true, owner: true });
          const html = r.render(name, ctx);
          expect(html).toContain(`data-penalty="${ctx.track.penalty}"`);
        }
      }
    }
  });

  test("Fudge options and situations render: stun, pulled punch, GM judgement, damage rolls, DC variants", () => {
    const base = rulesFor("fudge");
    const variants = [
      { woundMode: "gmJudgement" as const, gmSituationalRoll: true },
      { woundMode: "minMidMax" as const },
      { damageRoll: "dfNumber" as const },
      { damageRoll: "dfLevel" as const },
      { damageRoll: "evenOdd" as const },
      { damageRoll: "situational4dF" as const },
      { dcVariant: "roll" as const },
      { dcVariant: "gift" as const },
      { dcVariant: "willpower" as const },
      { dcVariant: "track" as const },
      { doubleRd: true, lessLethal: true },
    ];
    const situations = [{}, { stun: false, pullPunch: "hurt", allOutDefense: true, defenderModifier: -1 }];
    const t = theodora();
    t.items[1] = {
      ...t.items[1],
      system: { ...(t.items[1].system as object), stunCapable: true },
    } as (typeof t.items)[number];
    for (const v of variants) {
      const rules = { ...base, fudge: { ...base.fudge, ...v } };
      for (const sit of situations)
        for (let seed = 1; seed <= 6; seed++) {
          let card = startAttack(t, "poleaxe", [leroy()], sit, seededRng(seed), rules, PLAYER2);
          card = { ...card, ...defend(card, leroy(), [-1, 0, 0, 0], PLAYER1).system };
          const html = r.render("attackCard", attackCardContext({ system: card }, rules, viewerFor(GM, [t, leroy()])));
          expect(html).toContain("Theodora");
        }
    }
  });

  test("the GM toggle 'apply wounds to selected tokens' puts one Apply-to-selected button on the card", () => {
    const base = rulesFor("fudge");
    const card0 = startAttack(theodora(), "poleaxe", [leroy()], {}, seededRng(3), base, GM);
    const card = { ...card0, ...defend(card0, leroy(), [-1, -1, -1, -1], GM).system };
    const targeted = attackCardContext({ system: card }, base, viewerFor(GM, [theodora(), leroy()]));
    const selected = attackCardContext(
      { system: card },
      { ...base, applyTo: "selected" },
      viewerFor(GM, [theodora(), leroy()]),
    );
    expect(targeted.targets[0].canApply).toBe(true);
    expect(targeted.canApplySelected).toBe(false);
    expect(selected.canApplySelected).toBe(true);
    expect(r.render("attackCard", selected)).toContain('data-action="applySelected"');
    expect(r.render("attackCard", targeted)).not.toContain('data-action="applySelected"');
  });

  test("a doomed PC's owner sees 'spend a Fudge Point' on the card (Fudge §4.64 setting on)", () => {
    const rules = { ...rulesFor("fudge"), fudgeTrack: { ...rulesFor("fudge").fudgeTrack, safeguardFudgePoint: true } };
    const l = leroy();
    let t = trackFor(l, rules);
    for (const level of ["nearDeath", "incapacitated", "veryHurt", "hurt", "scratch", "scratch", "scratch"])
      t = applyWound(t, { level }).track;
    const doomed = {
      ...l,
      system: { ...l.system, fudgePoints: 1, woundTrack: { ...l.system.woundTrack, state: t.state } },
    } as ActorDoc<"character">;
    const card0 = startAttack(theodora(), "poleaxe", [doomed], {}, seededRng(3), rules, GM);
    const card = { ...card0, ...defend(card0, doomed, [-1, -1, -1, -1], GM).system };
    const html = r.render(
      "attackCard",
      attackCardContext({ system: card }, rules, viewerFor(PLAYER1, [theodora(), doomed])),
    );
    expect(html).toContain('data-action="applyFudgePoint"');
  });

  test("card numbers: ladder modifiers signed, Volt values plain, success flags yes/no", () => {
    for (const [preset, signedRd] of [
      ["fudge", true],
      ["volt", false],
    ] as const) {
      const rules = rulesFor(preset);
      const card0 = startAttack(
        leroy(),
        leroy().items.find((i) => i.type === "weapon")!._id,
        [theodora()],
        {},
        seededRng(5),
        rules,
        GM,
      );
      const card = preset === "fudge" ? { ...card0, ...defend(card0, theodora(), [0, 0, 0, 0], GM).system } : card0;
      const nums = attackCardContext({ system: card }, rules, viewerFor(GM, [leroy(), theodora()])).targets[0].numbers;
      expect(nums.length).toBeGreaterThan(0);
      for (const n of nums) {
        if (n.textKey) expect(["FUDGE.Card.Yes", "FUDGE.Card.No"]).toContain(n.textKey);
        else if (!signedRd || n.key === "mmmRead") expect(n.text).toBe(String(n.value));
        else if (n.value > 0) expect(n.text).toBe(`+${n.value}`);
      }
    }
  });

  test("a Volt card shows only the marked rows of the defender's track", () => {
    const rules = rulesFor("volt");
    for (let seed = 1; seed <= 20; seed++) {
      const card = startAttack(
        leroy(),
        leroy().items.find((i) => i.type === "weapon")!._id,
        [theodora()],
        {},
        seededRng(seed),
        rules,
        GM,
      );
      const after = attackCardContext({ system: card }, rules, viewerFor(GM, [leroy(), theodora()])).targets[0].after;
      if (!after) continue;
      expect(after.rows.length).toBeGreaterThan(0);
      for (const row of after.rows) expect(row.boxes.some((b) => b.marked)).toBe(true);
      return;
    }
    throw new Error("no seed in 1..20 wounded Theodora");
  });

  test("the custom wound-track editor renders its levels, escaped", () => {
    const rules = rulesFor("fudge");
    const l = leroy();
    const custom = {
      ...l,
      system: {
        ...l.system,
        woundTrack: {
          ...l.system.woundTrack,
          preset: "custom",
          customLevels: [
            { key: "graze", label: "<b>Graze</b>", boxes: 2, penalty: 0, threshold: 1, effect: "" },
            { key: "down", label: "Down", boxes: 1, penalty: -2, threshold: 4, effect: "cannotAct" },
          ],
        },
      },
    } as ActorDoc<"character">;
    const html = r.render("character", characterSheetContext(custom, rules, { editable: true, owner: true }));
    expect(html).toContain('name="system.woundTrack.customLevels.1.boxes"');
    expect(html).toContain('data-action="addCustomLevel"');
    expect(html).toContain("&lt;b&gt;Graze&lt;/b&gt;");
    expect(html).not.toContain("<b>Graze</b>");
  });

  test("no i18n key used while rendering is missing from lang (en.json + parts)", () => {
    expect([...r.missing].sort()).toEqual([]);
  });
});

describe("escaping", () => {
  test("an actor and items named like markup render as text", () => {
    const r = makeRenderer();
    for (const preset of PRESET_IDS) {
      const rules = rulesFor(preset);
      const a = {
        ...leroy(),
        name: XSS,
        items: leroy().items.map((i) => ({ ...i, name: XSS })),
      } as ActorDoc<"character">;
      const html = r.render("character", characterSheetContext(a, rules, { editable: true, owner: true }));
      expect(html).not.toContain("<img src=x");
      expect(html).toContain("&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;");
      const m = { ...knight(), name: XSS } as ActorDoc<"miniature">;
      expect(r.render("miniature", miniatureSheetContext(m, rules, { editable: true, owner: true }))).not.toContain(
        "<img src=x",
      );
      const d = { ...theodora(), name: XSS } as ActorDoc<"character">;
      const att = preset === "miniatures" ? { ...knight(), name: XSS } : a;
      const def = preset === "miniatures" ? { ...knight("k2"), name: XSS } : d;
      const w = att.items.find((i) => i.type === "weapon")!._id;
      const card = startAttack(att, w, [def], {}, seededRng(9), rules, GM);
      const html2 = r.render("attackCard", attackCardContext({ system: card }, rules, viewerFor(GM, [att, def])));
      expect(html2).not.toContain("<img src=x");
      expect(html2).toContain("&lt;img");
    }
  });

  test("templates never use triple braces, except rich text's sanitised HTML (rich.html) in the rich-text partial", () => {
    const files = ["actor", "item", "chat", "parts", "dialog", "settings"].flatMap((d) =>
      readdirSync(join(ROOT, "templates", d)).map((f) => join(ROOT, "templates", d, f)),
    );
    expect(files.length).toBeGreaterThanOrEqual(15);
    for (const f of files) {
      // The rich-text partial may put `rich.html` (enriched by Foundry or sanitizeHtml'd, src/system/rich-text.ts) through {{{ }}}, nothing else.
      const src = readFileSync(f, "utf8").replace(/\{\{!--[\s\S]*?--\}\}/g, "");
      const body = f.endsWith(join("parts", "rich-text.hbs")) ? src.replaceAll("{{{rich.html}}}", "") : src;
      expect(body, f).not.toMatch(/\{\{\{|\{\{&/);
    }
    expect(readFileSync(join(ROOT, "templates", "parts", "rich-text.hbs"), "utf8")).toContain("{{{rich.html}}}");
  });
});

describe("i18n keys", () => {
  test("every literal FUDGE./TYPES. key in templates and src/system exists in lang", () => {
    const lang = loadLang();
    const files = [
      ...["actor", "item", "chat", "parts"].flatMap((d) =>
        readdirSync(join(ROOT, "templates", d)).map((f) => join(ROOT, "templates", d, f)),
      ),
      ...readdirSync(join(ROOT, "src", "system"), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(".ts"))
        .map((f) => join(ROOT, "src", "system", f)),
    ];
    const missing: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      for (const m of text.matchAll(/["'`]((?:FUDGE|TYPES)\.[A-Za-z0-9_.]+)["'`]/g)) {
        // Prefixes completed at run time (`FUDGE.Effect.${e}`) end with a dot and are checked by rendering.
        if (m[1].endsWith(".")) continue;
        if (!(m[1] in lang)) missing.push(`${f.slice(ROOT.length)}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("every enum the sheets offer has a label", () => {
    const lang = loadLang();
    const need = (prefix: string, values: readonly (string | number)[]) =>
      values.map((v) => `${prefix}${v}`).filter((k) => !(k in lang));
    const missing = [
      ...need("FUDGE.Condition.", CONDITIONS),
      ...need("FUDGE.Effect.", TRAIT_EFFECTS),
      ...need("FUDGE.TrackPreset.", TRACK_PRESETS),
      ...need("FUDGE.WeaponSize.", WEAPON_SIZES),
      ...need("FUDGE.Item.ShieldSize.", SHIELD_SIZES),
      ...need("FUDGE.StatBasis.", STAT_BASES),
      ...need("FUDGE.Hands.", [1, 2]),
      ...need("FUDGE.WeaponPower.", ["muscle", "fixed"]),
      ...need("FUDGE.ScalePiercing.", ["none", "halve", "ignore"]),
      ...need("FUDGE.Miniatures.Guts.Effect", [0, 1, 2, 3, 4]),
      ...need("FUDGE.Guts.Reason.", GUTS_REASONS),
      ...need("FUDGE.Situation.", Object.values(SITUATION_FIELDS).flat()),
      ...need("FUDGE.Card.Outcome.", ["miss", "standoff", "noDamage", "wound", "gmJudgement"]),
      ...need("FUDGE.Attribute.", ["strength", "damageCapacity", "willpower", "dexterity", "guts", "movement"]),
      ...need("FUDGE.Wound.", FUDGE_LEVELS),
      // Each stored setting is named; the menu's fields carry the hints (tests/system/settings-menu.test.ts).
      ...need(
        "FUDGE.Settings.",
        WORLD_RULE_SETTINGS.map((k) => `${k}.Name`),
      ),
      ...need("FUDGE.Ladder.", ["legendary", "superb", "great", "good", "fair", "mediocre", "poor", "terrible"]),
    ];
    expect(missing).toEqual([]);
    for (const t of ["character", "npc", "miniature"]) expect(lang[`TYPES.Actor.${t}`]).toBeTruthy();
    for (const t of ["weapon", "armor", "shield", "gift", "fault", "skill"])
      expect(lang[`TYPES.Item.${t}`]).toBeTruthy();
    for (const p of PRESET_IDS) expect(lang[`FUDGE.Preset.${p}`]).toBeTruthy();
  });
});
