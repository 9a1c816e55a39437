/**
 * The card and the odds speak each preset's own words (the table-first rule): what the headline
 * and its facts say, rendered through the real template and lang file, from fixed dice.
 */
import { describe, expect, test } from "vitest";
import { attackCardContext, rollCardContext } from "../../src/system/card";
import { characterSheetContext, miniatureSheetContext } from "../../src/system/sheet";
import { attackOdds, rollDialogContext } from "../../src/system/attack-dialog";
import { defend, rollTrait, startAttack, toggleWoundBox, updatedState } from "../../src/system/actions";
import type { ActorDoc, AttackCardData } from "../../src/system/data";
import { GM, PLAYER1, PLAYER2, knight, leroy, loadLang, rulesFor, theodora } from "./fixtures";
import { makeRenderer } from "./render";

const r = makeRenderer();
const lang = loadLang();
const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** The rendered headline line and facts of the card's first target. */
function readCard(card: AttackCardData, actors: ActorDoc[]) {
  const html = r.render(
    "attackCard",
    attackCardContext({ _id: "m1", system: card }, rulesFor(card.preset), {
      user: GM,
      actor: (id) => actors.find((a) => a._id === id),
    }),
  );
  const headline = text(/<p class="fudge-headline">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? "");
  const facts = [...html.matchAll(/<span class="fudge-fact" data-fact="(\w+)">([^<]*)<\/span>/g)].map((m) => ({
    key: m[1],
    text: m[2].trim(),
  }));
  return { headline, facts };
}

function fateExchange(attack: number[], defence: number[]) {
  const rules = rulesFor("fate");
  const a = leroy();
  const d = theodora();
  const card = startAttack(a, "broadsword", [d], {}, { attack }, rules, PLAYER1);
  return { card: { ...card, ...defend(card, d, defence, PLAYER2).system }, actors: [a, d] };
}

describe("FATE: the card and the odds in the FATE ladder's words (seed 003)", () => {
  test("a margin of 0 is Scratched, no effect (not a Fudge standoff)", () => {
    // Leroy Good +1 with 0 0 0 0 against Theodora Good +1 with 0 0 0 0: margin 0.
    const { card, actors } = fateExchange([0, 0, 0, 0], [0, 0, 0, 0]);
    expect((card.targets[0].resolution as { numbers: { margin: number } }).numbers.margin).toBe(0);
    const { headline, facts } = readCard(card, actors);
    expect(headline).toBe("Theodora is Scratched: no effect");
    expect(facts).toEqual([{ key: "margin", text: "margin 0" }]);
  });

  test("the headline's number is the margin of success, not Fudge's RD", () => {
    // + + 0 0 against 0 0 0 0: margin +2, Hurt.
    const { card, actors } = fateExchange([1, 1, 0, 0], [0, 0, 0, 0]);
    const { headline, facts } = readCard(card, actors);
    expect(headline).toBe("Theodora takes Hurt (−1)");
    expect(facts).toEqual([{ key: "margin", text: "margin +2" }]);
  });

  test("the odds name a margin of 0 Scratched, with its effect (none: it is no level of the ladder); Fudge keeps its standoff", () => {
    const a = leroy();
    const w = a.items!.find((i) => i.type === "weapon") as never;
    const fate = attackOdds(a, w, theodora(), rulesFor("fate"));
    const fudge = attackOdds(a, w, theodora(), rulesFor("fudge"));
    const label = (v: typeof fate) => v.segments.find((s) => s.key === "standoff")!.labelKeys.map((k) => lang[k]);
    expect(label(fate)).toEqual(["Scratched (no effect)"]);
    expect(label(fudge)).toEqual(["Standoff"]);
    // The sheet's hover summary on Attack says the same.
    expect(fate.summary.map((s) => lang[s.label])).toContain("Scratched (no effect)");
    expect(fudge.summary.map((s) => lang[s.label])).toContain("Standoff");
  });
});

describe("Fudge keeps RD and the damage number (Fudge §4.55)", () => {
  test("Leroy + + 0 0 against Theodora 0 0 0 0: RD +2, damage 4", () => {
    const rules = rulesFor("fudge");
    const a = leroy();
    const d = theodora();
    const c = startAttack(a, "broadsword", [d], {}, { attack: [1, 1, 0, 0] }, rules, PLAYER1);
    const card = { ...c, ...defend(c, d, [0, 0, 0, 0], PLAYER2).system };
    const { headline, facts } = readCard(card, [a, d]);
    // The fixture's Theodora has High Pain Threshold (Fudge §4.51): Hurt costs her nothing.
    expect(headline).toBe("Theodora takes Hurt");
    expect(facts).toEqual([
      { key: "relativeDegree", text: "RD +2" },
      { key: "damageNumber", text: "damage 4" },
    ]);
  });
});

describe("Volt: a Hit or a Full Hit, as Volt says it", () => {
  function voltCard(attack: number[]) {
    const rules = rulesFor("volt");
    const a = leroy();
    const d = theodora();
    const card = startAttack(a, "broadsword", [d], {}, { attack, damage: [5, 20] }, rules, PLAYER1);
    return { card, actors: [a, d] };
  }

  test("one die above Guard and within the attack value: Hit", () => {
    const { card, actors } = voltCard([13, 1]);
    expect((card.targets[0].resolution as { numbers: { hits: number } }).numbers.hits).toBe(1);
    expect(readCard(card, actors).facts).toEqual([{ key: "hits", text: "Hit" }]);
  });

  test("both dice: Full Hit (+2 Pierce, +5 Damage)", () => {
    const { card, actors } = voltCard([13, 12]);
    expect((card.targets[0].resolution as { numbers: { hits: number } }).numbers.hits).toBe(2);
    expect(readCard(card, actors).facts).toEqual([{ key: "hits", text: "Full Hit" }]);
  });
});

describe("Miniatures: Near Death as the Miniatures rules have it (Miniatures: Wounds)", () => {
  const MINI_NEAR_DEATH = "Falls, cannot act; rolls Guts from its next turn";
  const FUDGE_NEAR_DEATH = "Unconscious, dying without help";
  const rowEffect = (html: string, level: string): string =>
    text(
      new RegExp(
        `<li class="fudge-track-row[^"]*" data-level="${level}">[\\s\\S]*?<span class="fudge-row-effect">([\\s\\S]*?)</span>\\s*</li>`,
      ).exec(html)?.[1] ?? "",
    );

  test("the datacard's Near Death row: the model falls and rolls Guts, not Fudge's dying without help", () => {
    const html = r.render(
      "miniature",
      miniatureSheetContext(knight(), rulesFor("miniatures"), { editable: true, owner: true }),
    );
    expect(rowEffect(html, "nearDeath")).toBe(MINI_NEAR_DEATH);
  });

  test("a character sheet in a Miniatures world says the same; in a Fudge world Fudge §4.51's words stay", () => {
    const mini = r.render(
      "character",
      characterSheetContext(leroy(), rulesFor("miniatures"), { editable: true, owner: true }),
    );
    expect(rowEffect(mini, "nearDeath")).toBe(MINI_NEAR_DEATH);
    const fudge = r.render(
      "character",
      characterSheetContext(leroy(), rulesFor("fudge"), { editable: true, owner: true }),
    );
    expect(rowEffect(fudge, "nearDeath")).toBe(FUDGE_NEAR_DEATH);
  });

  test("the card's changed rows: a Scratch that overflows into Near Death says what happens next", () => {
    const rules = rulesFor("miniatures");
    let d: ActorDoc = knight("knave", "Knavely Knave");
    for (const ref of ["scratch:0", "scratch:1", "hurt:0", "veryHurt:0"]) {
      const state = updatedState(toggleWoundBox(d, ref, rules));
      d = {
        ...d,
        system: { ...d.system, woundTrack: { ...(d.system as { woundTrack: object }).woundTrack, state } },
      } as ActorDoc;
    }
    const a = knight();
    // MODF +3 with + 0 0 0 against DDF +4: a wound of 0, a Scratch, with no Scratch box open.
    // Every slot is rolled up front; the crash roll counts only for a flying model.
    const card = startAttack(a, "knightSword", [d], {}, { attack: [1, 0, 0, 0], crash: [0, 0, 0, 0] }, rules, PLAYER1);
    expect((card.targets[0].resolution as { woundKey: string }).woundKey).toBe("scratch");
    const html = r.render(
      "attackCard",
      attackCardContext({ _id: "m1", system: card }, rules, {
        user: GM,
        actor: (id) => [a, d].find((x) => x._id === id),
      }),
    );
    expect(rowEffect(html, "nearDeath")).toBe(MINI_NEAR_DEATH);
    expect(html).not.toContain(FUDGE_NEAR_DEATH);
  });
});

describe("Miniatures: a datacard stat's roll in numbers, as the datacard shows it", () => {
  const rules = rulesFor("miniatures");
  const rollLine = (html: string) => ({
    stat: text(/<span class="fudge-level-text">([^<]*)<\/span>/.exec(html)?.[1] ?? ""),
    outcome: text(/<p class="fudge-outcome[^"]*">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? ""),
  });

  test("Sir Knightly's Strength +1 with + 0 0 −: '+1', then '+1 — success (Difficulty 0)'", () => {
    const html = r.render("rollCard", rollCardContext(rollTrait(knight(), "strength", [1, 0, 0, -1], rules), rules));
    expect(rollLine(html)).toEqual({ stat: "+1", outcome: "+1 — success (Difficulty 0)" });
  });

  test("its worked-out steps say the stat and the target as numbers too ('Stat +1', '+1 against 0'), no ladder name", () => {
    const html = r.render("rollCard", rollCardContext(rollTrait(knight(), "strength", [1, 0, 0, -1], rules), rules));
    const steps = text(html.slice(html.indexOf("<ol")));
    expect(steps).toContain("Stat +1");
    expect(steps).toContain("+1 against 0: success by 1");
    expect(steps).not.toMatch(/Good|Fair|Trait/);
    // A character keeps "Trait Good (+1)" and "Good against Fair".
    const pc = text(
      r.render("rollCard", rollCardContext(rollTrait(leroy(), "attributes.strength", [1, 0, 0, -1], rules), rules)),
    );
    expect(pc).toContain("Trait Good (1)");
    expect(pc).toContain("Good against Fair: success by 1");
  });

  test("a character's trait keeps the ladder (Fudge §1.3), in any world", () => {
    const html = r.render(
      "rollCard",
      rollCardContext(rollTrait(leroy(), "attributes.strength", [1, 0, 0, -1], rules), rules),
    );
    expect(rollLine(html)).toEqual({ stat: "Good (+1)", outcome: "Good (+1) — success (Difficulty Fair (0))" });
  });

  test("the roll dialog offers the datacard's numbers as the Difficulty; a character's offers the ladder", () => {
    const options = (html: string) =>
      [...html.matchAll(/<option value="(-?\d+)"[^>]*>([^<]*)<\/option>/g)].map((m) => m[2]);
    const mini = r.render("rollDialog", rollDialogContext("Sir Knightly", "dexterity", rules));
    expect(options(mini)).toEqual(["\u22123", "\u22122", "\u22121", "0", "+1", "+2", "+3", "+4"]);
    expect(mini).toContain("equal or beat this number");
    const pc = r.render("rollDialog", rollDialogContext("Leroy", "attributes.strength", rules));
    expect(options(pc)).toEqual([
      "Terrible (\u22123)",
      "Poor (\u22122)",
      "Mediocre (\u22121)",
      "Fair (0)",
      "Good (+1)",
      "Great (+2)",
      "Superb (+3)",
      "Legendary (+4)",
    ]);
  });
});

describe('Miniatures: a stat roll is the Legendary roll ("On an unmodified roll of +4, re-roll, ignoring all [-] results, and add") and takes a Guts failure by 1\'s −1 to rolls', () => {
  const rules = rulesFor("miniatures");
  const SHAKEN = {
    pending: [{ reason: "newWoundLevel", target: 1, sinceTurn: 1, lastTurn: 1, bonus: 0, forfeitNext: 0, effect: 1 }],
    effect: 1,
  };

  test("Sir Knightly's Dexterity +1 with four + and a re-roll of + − 0 +: +7, the card says the re-roll", () => {
    const roll = rollTrait(knight(), "dexterity", [1, 1, 1, 1, 1, -1, 0, 1], rules);
    expect([roll.result, roll.resultName, roll.success, roll.dice]).toEqual([7, "+7", true, [1, 1, 1, 1, 1, -1, 0, 1]]);
    const html = r.render("rollCard", rollCardContext(roll, rules));
    // The re-roll is set apart from the first four dice.
    // Drawn as the attack card's faces (templates/parts/dice-faces.hbs), each named for screen readers.
    const faces = [...html.matchAll(/<span class="(fudge-face[^"]*)"[^>]*aria-label="([^"]*)"[^>]*>([^<]*)</g)].map(
      (m) => m[3] || m[2],
    );
    expect(faces.join(" ")).toBe("+ + + + \u00b7 + \u2212 blank +");
    const steps = text(html);
    expect(steps).toContain("Legendary roll: re-rolled 1 time(s) for +2");
    expect(steps).toContain("+7 against 0: success by 7");
  });

  test("four + without the re-roll are refused, not read as +4; a Fudge world reads four dice only", () => {
    expect(() => rollTrait(knight(), "dexterity", [1, 1, 1, 1], rules)).toThrow(/re-roll is missing/);
    expect(rollTrait(leroy(), "attributes.strength", [1, 1, 1, 1], rulesFor("fudge")).result).toBe(5);
    expect(() => rollTrait(leroy(), "attributes.strength", [1, 1, 1, 1, 1, 0, 0, 0], rulesFor("fudge"))).toThrow();
  });

  test("a model shaken by a failure by 1 rolls one lower, its card's modifier says −1 and a step names the rule; attack rolls only leaves it", () => {
    const shaken = knight();
    (shaken.system as { gutsState: unknown }).gutsState = SHAKEN;
    const roll = rollTrait(shaken, "strength", [0, 0, 0, 0], rules);
    expect([roll.result, roll.penalty, roll.success]).toEqual([0, -1, true]);
    expect(text(r.render("rollCard", rollCardContext(roll, rules)))).toContain(
      lang["FUDGE.Miniatures.Step.GutsRollPenalty"],
    );
    const attackOnly = rulesFor("miniatures", { miniatures: { ...rules.miniatures, gutsRollPenalty: "attackRolls" } });
    expect(rollTrait(shaken, "strength", [0, 0, 0, 0], attackOnly)).toMatchObject({ result: 1, penalty: 0 });
  });
});
