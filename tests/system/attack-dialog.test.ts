/**
 * The attack dialog's pure parts and the odds/forecast on screen: fields per preset, reading a
 * form back (claims checked), exact odds segments that sum to 1, the duel forecast of the seed's
 * pair (issue #9's figures), and the sheet's Attack tooltip / disabled reason.
 */
import { describe, expect, test } from "vitest";
import { exactOdds, duelForecast } from "../../src/rules";
import { attackRequest } from "../../src/system/combatant";
import {
  attackDialogContext,
  attackOdds,
  duelRequest,
  forecastLineOf,
  forecastView,
  forecastViewOf,
  mainWeapon,
  readSituation,
  situationFields,
} from "../../src/system/attack-dialog";
import { resolveSamples } from "../../src/cli/samples";
import { actorSheetContext } from "../../src/system/sheet";
import { findSample } from "../../src/cli/samples";
import {
  PLAYER1,
  item,
  leroy as fixtureLeroy,
  loadLang,
  rulesFor,
  theodora as fixtureTheodora,
  PRESET_IDS,
} from "./fixtures";
import { startAttack } from "../../src/system/actions";
import type { ActorDoc, ItemDoc } from "../../src/system/data";
import { makeRenderer } from "./render";

// The pack's Leroy and Theodora (the seed's pair), as the playground and the CLI use them.
const leroy = () => structuredClone(findSample("Leroy", "a"));
const theodora = () => structuredClone(findSample("Theodora", "b"));

describe("attack dialog", () => {
  test("each preset offers only its own situational options, each with a hint", () => {
    const names = (p: (typeof PRESET_IDS)[number]) => situationFields(p, null).map((f) => f.name);
    // The defender's modifier and all-out defence are his own, in his Defend dialog (src/system/defence.ts).
    expect(names("fudge")).toEqual(["modifier", "allOutAttack", "pullPunch"]);
    expect(names("fate")).toEqual(["modifier"]);
    expect(names("volt")).toEqual(["modifier"]);
    expect(names("miniatures")).toContain("gangUp");
    for (const p of PRESET_IDS)
      for (const f of situationFields(p, null)) expect(f.hintKey).toBe(`FUDGE.Attack.Hint.${f.name}`);
  });

  test("Fudge §4.62 head blow: offered only for a stun-capable weapon when the world allows it; read back and sent to the rules core", () => {
    const rules = rulesFor("fudge");
    const stunWeapon = { system: { stunCapable: true } } as never;
    const names = (r: typeof rules | undefined, w: unknown) =>
      situationFields("fudge", w as never, {}, r).map((f) => f.name);
    expect(names(rules, stunWeapon)).toEqual(["modifier", "allOutAttack", "stun", "pullPunch"]);
    const on = { ...rules, fudge: { ...rules.fudge, headBlowKnockout: true } };
    expect(names(on, stunWeapon)).toContain("headBlow");
    expect(names(on, null)).not.toContain("headBlow");
    expect(names(undefined, stunWeapon)).not.toContain("headBlow");
    expect(
      readSituation("fudge", [
        ["stun", "on"],
        ["headBlow", "on"],
      ]),
    ).toEqual({ stun: true, headBlow: true });
    const a = leroy();
    const w = (a.items ?? []).find((i) => i.type === "weapon") as never;
    expect(
      (attackRequest(a, w, theodora(), on, { stun: true, headBlow: true }) as { situation: Record<string, unknown> })
        .situation,
    ).toMatchObject({ stun: true, headBlow: true });
  });

  test("Fudge §4.7: a weapon's magic bonus reaches the rules core (0 for a weapon stored before the field)", () => {
    const rules = rulesFor("fudge");
    const a = leroy();
    const w = structuredClone((a.items ?? []).find((i) => i.type === "weapon")) as unknown as {
      system: Record<string, unknown>;
    };
    const magicOf = (x: unknown) =>
      (attackRequest(a, x as never, theodora(), rules) as { attacker: { weapon: { magic: number } } }).attacker.weapon
        .magic;
    delete w.system.magic;
    expect(magicOf(w)).toBe(0);
    w.system.magic = 2;
    expect(magicOf(w)).toBe(2);
    const odds = (x: unknown) => exactOdds(attackRequest(a, x as never, theodora(), rules));
    expect(odds(w).outcomes.miss).toBeCloseTo(odds({ ...w, system: { ...w.system, magic: 0 } }).outcomes.miss, 12);
  });

  test("Fudge §4.52 (1): a weapon met by Damage Capacity without a roll reaches the rules core (false for a weapon stored before the field)", () => {
    const rules = { ...rulesFor("fudge"), fudge: { ...rulesFor("fudge").fudge, dcVariant: "roll" as const } };
    const a = leroy();
    const w = structuredClone((a.items ?? []).find((i) => i.type === "weapon")) as unknown as {
      system: Record<string, unknown>;
    };
    const req = (x: unknown) =>
      attackRequest(a, x as never, theodora(), rules) as { attacker: { weapon: { dcWithoutRoll: boolean } } };
    delete w.system.dcWithoutRoll;
    expect(req(w).attacker.weapon.dcWithoutRoll).toBe(false);
    w.system.dcWithoutRoll = true;
    expect(req(w).attacker.weapon.dcWithoutRoll).toBe(true);
    // no DC roll is read: every leaf resolves without the "dc" slot
    expect(exactOdds(req(w)).leaves).toBeLessThan(
      exactOdds(req({ ...w, system: { ...w.system, dcWithoutRoll: false } })).leaves,
    );
  });

  test("a form reads back into a Situation; out-of-range or foreign values are dropped", () => {
    expect(
      readSituation("fudge", [
        ["modifier", "2"],
        ["allOutAttack", "on"],
        ["pullPunch", "hurt"],
        ["cover", "on"],
      ]),
    ).toEqual({ modifier: 2, allOutAttack: true, pullPunch: "hurt" });
    expect(
      readSituation("fudge", [
        ["modifier", "99"],
        ["pullPunch", "dead"],
        ["modifier", "1.5"],
      ]),
    ).toEqual({});
    // Each number within its own range: modifiers ±10, a Miniatures range in inches up to 999.
    expect(
      readSituation("fudge", [
        ["modifier", "11"],
        ["allOutAttack", "on"],
        ["defenderModifier", "-10"],
      ]),
    ).toEqual({ allOutAttack: true });
    expect(
      readSituation("miniatures", [
        ["rangeInches", "36"],
        ["gangUp", "9"],
      ]),
    ).toEqual({ rangeInches: 36 });
    expect(
      readSituation("fate", [
        ["modifier", "-1"],
        ["defenseModifier", "-1"],
      ]),
    ).toEqual({ modifier: -1 });
  });

  test('a measure of 0 is a value, not "no modifier": Volt distance 0 ("ranged: above the distance value") and a Miniatures range of 0 are kept, and a ranged attack at distance 0 rolls', () => {
    expect(
      readSituation("volt", [
        ["distance", "0"],
        ["modifier", "0"],
      ]),
    ).toEqual({ distance: 0 });
    expect(readSituation("miniatures", [["rangeInches", "0"]])).toEqual({ rangeInches: 0 });
    const rules = rulesFor("volt");
    const pistol = item(
      "weapon",
      "Pistol",
      { equipped: true, ranged: true, volt: { attack: 16, pierce: 0, damage: 10, stun: false } } as never,
      "p1",
    );
    const a = { ...fixtureLeroy(), items: [...(fixtureLeroy().items ?? []), pistol] };
    const card = startAttack(
      a,
      "p1",
      [fixtureTheodora()],
      readSituation("volt", [["distance", "0"]]),
      { attack: [5, 7], damage: [3, 3], injuryDamage: [3, 3] },
      rules,
      PLAYER1,
    );
    expect((card.targets[0].resolution as { outcome: string }).outcome).not.toBe("miss");
  });

  test("the remembered choice fills the fields", () => {
    const f = situationFields("fudge", null, { modifier: 1, allOutAttack: true, pullPunch: "scratch" });
    expect(f.find((x) => x.name === "modifier")!.value).toBe(1);
    expect(f.find((x) => x.name === "allOutAttack")!.checked).toBe(true);
    expect(f.find((x) => x.name === "pullPunch")!.choices.find((c) => c.selected)!.value).toBe("scratch");
  });

  test("Leroy vs Theodora: the odds segments are the rules core's exact odds (58 % wound, 15 % standoff, 26 % miss)", () => {
    const rules = rulesFor("fudge");
    const a = leroy();
    const w = (a.items ?? []).find((i) => i.type === "weapon") as never;
    const view = attackOdds(a, w, theodora(), rules);
    const odds = exactOdds(attackRequest(a, w, theodora(), rules));
    const p = Object.fromEntries(view.segments.map((s) => [s.key, s.p]));
    expect(p.miss).toBeCloseTo(odds.outcomes.miss, 12);
    expect(p.standoff).toBeCloseTo(odds.outcomes.standoff, 12);
    expect(view.segments.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
    expect(view.summary.map((s) => s.pctText)).toEqual(["58%", "15%", "26%"]);
    // The segments name the defender's own track levels.
    expect(view.segments.filter((s) => s.key.startsWith("wound.")).map((s) => s.labelKeys[0])).toContain(
      "FUDGE.Wound.hurt",
    );
    // All-out attack moves the odds towards wounds.
    const allOut = attackOdds(a, w, theodora(), rules, { allOutAttack: true });
    expect(allOut.segments.find((s) => s.key === "miss")!.p).toBeLessThan(p.miss);
  });

  test("every preset's dialog context renders odds for its sample pair", () => {
    for (const preset of ["fudge", "fate", "volt"] as const) {
      const ctx = attackDialogContext(leroy(), mainWeapon(leroy()), [theodora()], rulesFor(preset));
      expect(ctx.odds[0].error).toBeNull();
      expect(ctx.odds[0].segments.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 9);
    }
  });

  test("the odds are those of the attack as the table rolls it: each target's measured range (\"−1 per full or partial multiple of the weapon's Range beyond the first\", RULES §3), shown as measured, not an input", () => {
    const rules = rulesFor("miniatures");
    const yanni = structuredClone(findSample("Yanni the Yeoman", "y"));
    const bow = (yanni.items ?? []).find((i) => i.name === "Shortbow") as never;
    const knave = structuredClone(findSample("Knavely Knave", "k"));
    const king = structuredClone(findSample("King Kingsley", "q"));
    // The player once typed 5": the table's 10" and 40" count, as the attack will roll them.
    const ctx = attackDialogContext(yanni, bow, [knave, king], rules, { rangeInches: 5 }, [
      { rangeInches: 10, inContact: false },
      { rangeInches: 40, inContact: false },
    ]);
    const miss = (i: number) => ctx.odds[i].segments.find((x) => x.key === "miss")?.p ?? 0;
    const expected = (target: typeof knave, range: number) =>
      attackOdds(yanni, bow, target, rules, { rangeInches: range, inContact: false }).segments.find(
        (x) => x.key === "miss",
      )?.p ?? 0;
    expect(miss(0)).toBeCloseTo(expected(knave, 10), 12);
    expect(miss(1)).toBeCloseTo(expected(king, 40), 12);
    expect(miss(1)).toBeGreaterThan(miss(0));
    const field = (name: string) => ctx.fields.find((f) => f.name === name)!;
    expect(field("rangeInches").measured).toEqual([
      { name: "Knavely Knave", text: "10", textKey: "" },
      { name: "King Kingsley", text: "40", textKey: "" },
    ]);
    expect(field("inContact").measured.map((m) => m.textKey)).toEqual([
      "FUDGE.Attack.MeasuredNo",
      "FUDGE.Attack.MeasuredNo",
    ]);
    // What the table does not measure (cover) stays an input; without measures every field does.
    expect(field("cover").measured).toEqual([]);
    expect(attackDialogContext(yanni, bow, [knave], rules).fields.every((f) => f.measured.length === 0)).toBe(true);
    const r = makeRenderer();
    const html = r.render("attackDialog", ctx);
    expect(r.missing).toEqual(new Set());
    expect(html).not.toContain('name="rangeInches"');
    expect(html).not.toContain('name="inContact"');
    expect(html).toContain('name="cover"');
    const text = html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
    expect(text).toContain(
      "Range (inches) Knavely Knave: 10King Kingsley: 40 Measured from the tokens on the table; the attack uses this.",
    );
    expect(text).toContain("In base contact Knavely Knave: noKing Kingsley: no");
  });

  test("duel forecast Leroy vs Theodora: Leroy wins 75 %, Theodora 25 %, over about 3.6 exchanges (the rules core's forecast)", () => {
    const f = forecastView(leroy(), theodora(), rulesFor("fudge"));
    expect(f.error).toBeNull();
    expect(f.aWinsText).toBe("75%");
    expect(f.bWinsText).toBe("25%");
    expect(Number(f.exchangesText)).toBeCloseTo(3.6, 0);
  });

  test("a Miniatures duel forecast at the table counts Guts checks, from each model's failures in force (Miniatures: Guts)", () => {
    const rules = rulesFor("miniatures");
    const king = () => structuredClone(findSample("King Kingsley", "a"));
    // Knavely without his Self-interest (a text-only fault): wounded, he would flee and the King
    // win whatever the Guts checks (the gifts and faults have their own test below).
    const knave = () => {
      const k = structuredClone(findSample("Knavely Knave", "b"));
      for (const i of k.items) if (i.type === "fault") (i.system as { effect: string }).effect = "none";
      return k;
    };
    const request = duelRequest(king(), knave(), rules);
    const on = duelForecast({ ...request, gutsChecks: true });
    const off = duelForecast({ ...request, gutsChecks: false });
    const f = forecastView(king(), knave(), rules);
    expect(f.error).toBeNull();
    expect(f.aWins).toBe(on.bOut);
    expect(Math.abs(f.aWins - off.bOut)).toBeGreaterThan(0.01);
    // The King still shaken by a failure by 2 ("may not attack") wins less often.
    const shaken = king();
    (shaken.system as { gutsState: unknown }).gutsState = {
      pending: [{ reason: "newWoundLevel", target: 1, sinceTurn: 1, lastTurn: 1, bonus: 0, forfeitNext: 0, effect: 2 }],
      effect: 2,
    };
    expect(forecastView(shaken, knave(), rules).aWins).toBeLessThan(f.aWins - 0.01);
  });

  test("a Miniatures duel at the table opens with a charge: a model facing a Terrifying foe checks Guts first (Miniatures: Guts)", () => {
    const rules = rulesFor("miniatures");
    const king = () => structuredClone(findSample("King Kingsley", "a"));
    const brutas = () => structuredClone(findSample("Brutas the Brute", "b"));
    const request = duelRequest(king(), brutas(), rules);
    expect(request).toMatchObject({ preset: "miniatures", gutsChecks: true, terrifyingCharge: true });
    expect(request.first ?? "a").toBe("a");
    const on = duelForecast({ ...request, budgetMs: 60_000 });
    const off = duelForecast({ ...request, terrifyingCharge: false });
    expect([on.method, on.exact]).toEqual(["chain", true]);
    expect(on.bOut).toBeLessThan(off.bOut - 0.05);
    // The view of that answer (forecastView asks the same request within the table's budget; on a
    // loaded machine the answer could be the estimate, so the view is built from the exact one).
    const f = forecastViewOf("King Kingsley", "Brutas the Brute", on);
    expect(f.error).toBeNull();
    expect(f.aWins).toBe(on.bOut);
    // the text keeps its shape: win chances and exchanges
    expect([f.aWinsText, f.bWinsText, f.exchangesText]).toEqual([
      expect.stringMatching(/^\d+%$/),
      expect.stringMatching(/^\d+%$/),
      expect.stringMatching(/^\d+\.\d$/),
    ]);
    // other presets' requests do not ask for it
    expect(duelRequest(leroy(), theodora(), rulesFor("fudge"))).not.toHaveProperty("terrifyingCharge");
    // a fight under way (a model hurt, or one with a failed check in force) made its charge already
    const hurt = king();
    (hurt.system as { woundTrack: { state: unknown } }).woundTrack.state = {
      marks: { scratch: [{ level: "scratch" }] },
    };
    expect(duelRequest(hurt, brutas(), rules).terrifyingCharge).toBe(false);
    expect(duelRequest(brutas(), hurt, rules).terrifyingCharge).toBe(false);
    const shaken = king();
    (shaken.system as { gutsState: unknown }).gutsState = {
      pending: [{ reason: "terrifying", target: 1, sinceTurn: 1, lastTurn: 1, bonus: 0, forfeitNext: 0, effect: 1 }],
      effect: 1,
    };
    expect(duelRequest(shaken, brutas(), rules).terrifyingCharge).toBe(false);
  }, 60_000);
});

describe("the table's forecast line: an estimate reads as an estimate, never as exact (issue #10)", () => {
  const en = loadLang();
  const format = (line: { key: string; data: Record<string, string> }) =>
    en[line.key].replace(/\{(\w+)\}/g, (_, k: string) => line.data[k]);
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const duel = resolveSamples({ preset: "fudge", a: "Leroy", b: "Theodora" });

  test("the table asks for the forecast with the sampled fallback", () => {
    expect(duelRequest(leroy(), theodora(), rulesFor("volt")).fallback).toBe("sample");
  });
  test("an estimate: ≈ each win chance ± its interval, the number of simulated duels, and that it is not exact", () => {
    const f = duelForecast({ ...duel, method: "sample" });
    const view = forecastViewOf("Leroy", "Theodora", f);
    const line = forecastLineOf(view, escape);
    expect(line.key).toBe("FUDGE.Forecast.Estimate");
    expect(format(line)).toBe(
      "Leroy vs Theodora: Leroy wins ≈ 76% ± 0.8%, Theodora wins ≈ 24% ± 0.8%, in about 3.6 exchanges — an estimate from 20,000 simulated duels (99% interval), not an exact forecast.",
    );
    // The user's number format for the duels.
    expect(forecastViewOf("Leroy", "Theodora", f, "de").estimate!.duelsText).toBe("20.000");
  });
  test("an exact forecast keeps its plain line (no ≈, no interval)", () => {
    const line = forecastLineOf(forecastViewOf("Leroy", "Theodora", duelForecast(duel)), escape);
    expect(line.key).toBe("FUDGE.Forecast.Line");
    expect(format(line)).toBe("Leroy vs Theodora: Leroy wins 75%, Theodora wins 25%, in about 3.6 exchanges.");
  });
  test("an estimate with duels that had no winner (cut off at maxExchanges) says how many; names are escaped", () => {
    const f = duelForecast({ ...duel, method: "sample", samples: 1000, maxExchanges: 1 });
    const line = forecastLineOf(forecastViewOf("<b>Leroy</b>", "Theo & Co", f), escape);
    expect(line.key).toBe("FUDGE.Forecast.EstimateUnended");
    const text = format(line);
    expect(text).toMatch(
      /^&#60;b&#62;Leroy&#60;\/b&#62; vs Theo &#38; Co: &#60;b&#62;Leroy&#60;\/b&#62; wins ≈ \d+% ± \d\.\d%, Theo &#38; Co wins ≈ \d+% ± \d\.\d%, no winner ≈ \d+% — an estimate from 1,000 simulated duels \(99% interval\), not an exact forecast\.$/,
    );
    expect(text).not.toContain("<b>");
  });
});

describe("sheet: Attack shows its odds, or why it is disabled", () => {
  test("a targeted Theodora gives the Attack button the odds; an unequipped weapon is disabled with a reason", () => {
    const rules = rulesFor("fudge");
    const ctx = actorSheetContext(leroy(), rules, { editable: true, owner: true, targets: [theodora()] });
    const w = ctx.weapons[0];
    expect(w.attackShown).toBe(true);
    expect(w.attackBlockedKey).toBe("");
    expect(w.odds[0].summary[0].pctText).toBe("58%");
    const bare = leroy();
    for (const i of bare.items ?? []) if (i.type === "weapon") (i.system as { equipped: boolean }).equipped = false;
    const ctx2 = actorSheetContext(bare, rules, { editable: true, owner: true, targets: [theodora()] });
    expect(ctx2.weapons[0].attackShown).toBe(true);
    expect(ctx2.weapons[0].attackBlockedKey).toBe("FUDGE.Sheet.AttackBlocked.unequipped");
    expect(ctx2.weapons[0].odds).toEqual([]);
  });

  test('Miniatures: the odds are under what the table measured for each target, by the weapon\'s kind, as the dialog\'s ("Melee attacks must be made in base-to-base contact with the target model"; "−1 for every multiple of the weapon\'s Range")', () => {
    const rules = rulesFor("miniatures");
    const mini = (name: string) => structuredClone(findSample(name, name)) as ActorDoc;
    const yanni = mini("Yanni the Yeoman");
    const [knave, king] = [mini("Knavely Knave"), mini("King Kingsley")];
    // Yanni himself among the targets (left out) keeps the others paired with their own measures.
    const ctx = actorSheetContext(yanni, rules, {
      editable: true,
      owner: true,
      targets: [yanni, knave, king],
      targetMeasures: [
        { melee: { inContact: true }, ranged: {} },
        { melee: { inContact: true, gangUp: 0 }, ranged: { inContact: true, rangeInches: 1 } },
        { melee: { inContact: false, gangUp: 0 }, ranged: { inContact: false, rangeInches: 40 } },
      ],
    });
    const odds = (weapon: string) => ctx.weapons.find((w) => w.name === weapon)!.odds;
    const dagger = (yanni.items ?? []).find((i) => i.name === "Dagger") as ItemDoc<"weapon">;
    const bow = (yanni.items ?? []).find((i) => i.name === "Shortbow") as ItemDoc<"weapon">;
    // Melee: the Dagger reaches Knavely (in contact), not the King 40" away.
    expect(odds("Dagger").map((o) => o.name)).toEqual(["Knavely Knave", "King Kingsley"]);
    expect(odds("Dagger")[0]).toEqual(attackOdds(yanni, dagger, knave, rules, { inContact: true, gangUp: 0 }));
    expect(odds("Dagger")[1].error?.key).toBe("FUDGE.Error.Miniatures.MeleeNotInContact");
    // Ranged: no shot while in base contact with Knavely; the King at 40" is at −2.
    expect(odds("Shortbow")[0].error).not.toBeNull();
    expect(odds("Shortbow")[1]).toEqual(attackOdds(yanni, bow, king, rules, { inContact: false, rangeInches: 40 }));
    expect(odds("Shortbow")[1]).not.toEqual(attackOdds(yanni, bow, king, rules));
  });

  test("a hostile target name is escaped once more for Foundry's HTML tooltip", () => {
    const t = { ...theodora(), name: "<img src=x onerror=alert(1)>" };
    const ctx = actorSheetContext(leroy(), rulesFor("fudge"), { editable: true, owner: true, targets: [t] });
    expect(ctx.weapons[0].odds[0].tooltipName).toBe("&#60;img src=x onerror=alert(1)&#62;");
  });
});

describe("token bar and HUD controls", () => {
  test("woundBar: one segment per level, widths by boxes, marked share; HUD controls mark the first open and clear the last marked box", async () => {
    const { woundBar, hudWoundControls, trackView } = await import("../../src/system/view");
    const { trackFor } = await import("../../src/system/combatant");
    const { toggleWoundBox } = await import("../../src/system/actions");
    const rules = rulesFor("fudge");
    const a = leroy();
    const ref = hudWoundControls(trackView(() => trackFor(a, rules), true)).find((c) => c.key === "scratch")!.addRef!;
    const u = toggleWoundBox(a, ref, rules) as { system: { woundTrack: Record<string, unknown> } };
    a.system.woundTrack.state = Object.values(u.system.woundTrack)[0] as never;
    const view = trackView(() => trackFor(a, rules), true);
    const bar = woundBar(view);
    expect(bar.map((s) => s.key)).toEqual(view.rows.map((r) => r.key));
    // Each level's severity on the seven-step ramp: the mildest 0, the worst 6.
    expect(bar.map((s) => s.tier)).toEqual([0, 2, 3, 5, 6]);
    expect(bar.reduce((n, s) => n + Number(s.width), 0)).toBeCloseTo(100, 1);
    const scratch = bar.find((s) => s.key === "scratch")!;
    expect(scratch.marked).toBe(1);
    expect(Number(scratch.fill)).toBeCloseTo(100 / scratch.boxes, 1);
    const c = hudWoundControls(view).find((x) => x.key === "scratch")!;
    expect(c.clearRef).toBe(ref);
    expect(c.addRef).not.toBe(ref);
  });
});

describe("trait roll dialog", () => {
  test("Difficulty by ladder name (the world's default selected); the form reads back checked numbers", async () => {
    const { rollDialogContext, readRollOptions } = await import("../../src/system/attack-dialog");
    const ctx = rollDialogContext("Leroy", "attributes.strength", rulesFor("fudge"));
    expect(ctx.difficulties.find((d) => d.selected)!.label).toBe("Fair (0)");
    expect(ctx.difficulties[0].value).toBeLessThan(ctx.difficulties[ctx.difficulties.length - 1].value);
    expect(rollDialogContext("Leroy", "volt.strength", rulesFor("volt")).difficulties).toEqual([]);
    expect(
      readRollOptions([
        ["difficulty", "2"],
        ["modifier", "-1"],
      ]),
    ).toEqual({ difficulty: 2, modifier: -1 });
    expect(
      readRollOptions([
        ["difficulty", "x"],
        ["modifier", "0"],
        ["other", "3"],
      ]),
    ).toEqual({});
  });
  test("Fudge §1.36: the automatic-success checkbox is offered when asked, and read back only when ticked", async () => {
    const { rollDialogContext, readRollOptions } = await import("../../src/system/attack-dialog");
    expect(rollDialogContext("Leroy", "attributes.strength", rulesFor("fudge")).autoSuccess).toBe(false);
    expect(
      rollDialogContext("Leroy", "attributes.strength", rulesFor("fudge"), {}, undefined, [], true).autoSuccess,
    ).toBe(true);
    expect(readRollOptions([["fudgePointSuccess", "on"]])).toEqual({ autoSuccess: true });
    expect(readRollOptions([["fudgePointSuccess", true]])).toEqual({ autoSuccess: true });
    expect(readRollOptions([["fudgePointSuccess", false]])).toEqual({});
    expect(readRollOptions([["fudgePointSuccess", "yes please"]])).toEqual({});
  });
});
