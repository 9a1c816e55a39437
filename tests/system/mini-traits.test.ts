/**
 * Miniatures gifts and faults with a rule at the table (seed 004 "Sample characters"): the trait
 * effects on gift/fault items, which item holds the datacard's gift and fault slot, the sample
 * miniatures' packs, and the attack dialog's options that depend on them.
 */
import { describe, expect, test } from "vitest";
import { findSample } from "../../src/cli/samples";
import { parseDatacard } from "../../src/rules/miniatures";
import { datacardTrait, ignoredMiniTraits, miniatureDatacard, miniRules } from "../../src/system/combatant";
import { MINI_TRAIT_EFFECTS, TRAIT_EFFECTS, type ActorDoc, type ItemDoc } from "../../src/system/data";
import {
  attackDialogContext,
  duelRequest,
  forecastView,
  mainWeapon,
  readSituation,
  situationFields,
} from "../../src/system/attack-dialog";
import { itemSheetContext, miniatureSheetContext } from "../../src/system/sheet";
import { item, rulesFor } from "./fixtures";
import { defaultGutsChoice, gutsChoiceFor, gutsDialogContext } from "../../src/system/guts-dialog";

const rules = rulesFor("miniatures");
const sample = (name: string) => structuredClone(findSample(name, "a"));

describe("trait effects with a Miniatures rule", () => {
  test("every Miniatures rule is a gift/fault effect, after the older effects (stored items keep theirs)", () => {
    expect(TRAIT_EFFECTS.slice(-MINI_TRAIT_EFFECTS.length)).toEqual([...MINI_TRAIT_EFFECTS]);
    expect(TRAIT_EFFECTS[0]).toBe("none");
  });

  test("the item sheet offers a gift the Miniatures gifts' rules (not faults', not other presets'), with a one-line hint for the chosen one", () => {
    const steadfast = item("gift", "Steadfast", { effect: "steadfast", value: 1 });
    const ctx = itemSheetContext(steadfast, rules);
    expect(ctx.choices.effect.map((c) => c.value)).toEqual([
      "none",
      "terrifying",
      "steadfast",
      "backstabber",
      "faithful",
      "noblePresence",
    ]);
    expect(ctx.choices.effect.find((c) => c.selected)?.value).toBe("steadfast");
    expect(ctx.effectHintKey).toBe("FUDGE.Miniatures.TraitRule.steadfast");
    expect(
      itemSheetContext(item("gift", "Tough Hide", { effect: "toughHide", value: 1 }), rules).effectHintKey,
    ).toBeNull();
  });
});

describe("the datacard's gift and fault", () => {
  test("the sample miniatures' packs carry the seed's rules (Brutas's Terrifying is the actor's count)", () => {
    const expected: Record<string, Record<string, unknown>> = {
      "Sir Knightly": {
        gift: { name: "Faithful", rule: "faithful", value: 1 },
        fault: { name: "Chivalrous", rule: "chivalrous" },
      },
      "Yanni the Yeoman": {
        gift: { name: "Steadfast", rule: "steadfast", value: 1 },
        fault: { name: "Poor Melee Combatant", rule: "poorMelee", value: 1 },
      },
      "Knavely Knave": {
        gift: { name: "Skilled Backstabber", rule: "backstabber", value: 1 },
        fault: { name: "Self-Interest", rule: "selfInterest" },
      },
      "Brutas the Brute": { gift: { name: "Terrifying Appearance" }, fault: { name: "Mercenary", rule: "mercenary" } },
      "King Kingsley": {
        gift: { name: "Noble Presence", rule: "noblePresence", value: 1 },
        fault: { name: "Leader", rule: "leader", value: 1 },
      },
    };
    for (const [name, slots] of Object.entries(expected)) {
      const card = miniatureDatacard(sample(name), rules);
      for (const slot of ["gift", "fault"] as const) {
        const { effect, ...rest } = card[slot] as Record<string, unknown>;
        expect(rest, `${name} ${slot}`).toEqual(slots[slot]);
        // The description still goes in as text.
        expect(effect, `${name} ${slot}`).toMatch(/^[^<]+$/);
      }
      // The rules core takes the card as it is.
      expect(() => parseDatacard(card, name)).not.toThrow();
    }
  });

  test("the first item with a rule holds the slot; a text-only gift does not hide a rule; extra rules are listed as not counting", () => {
    const knave = sample("Knavely Knave");
    const text = item("gift", "Lucky", { description: "<p>Luck.</p>" });
    const second = item("gift", "Steadfast", { effect: "steadfast" });
    knave.items = [text, ...knave.items, second];
    const card = miniatureDatacard(knave, rules);
    expect((card.gift as Record<string, unknown>).rule).toBe("backstabber");
    expect([...miniRules(knave)].sort()).toEqual(["backstabber", "selfInterest"]);
    expect(ignoredMiniTraits(knave).map((i) => i.name)).toEqual(["Steadfast"]);
    // The datacard's gear tab says so on that item.
    const rows = miniatureSheetContext(knave as ActorDoc<"miniature">, rules, { editable: true, owner: true }).gifts;
    expect(rows.map((r) => [r.name, r.summary.map((x) => x.key)])).toEqual([
      ["Lucky", []],
      ["Skilled Backstabber", ["FUDGE.Effect.backstabber"]],
      ["Steadfast", ["FUDGE.Effect.steadfast", "FUDGE.Item.RuleNotCounted"]],
    ]);
    // Without any rule, the first item is the slot's text (as before the rules existed).
    const only = datacardTrait([text]);
    expect(only).toEqual({ name: "Lucky", effect: "Luck." });
  });

  test("value 0 leaves the rule's own +1; another value is passed on; older items (effect none) carry no rule", () => {
    expect(datacardTrait([item("gift", "Backstabber", { effect: "backstabber", value: 0 })])).not.toHaveProperty(
      "value",
    );
    expect(datacardTrait([item("gift", "Backstabber", { effect: "backstabber", value: 2 })])?.value).toBe(2);
    const old = datacardTrait([item("fault", "Self-Interest", { effect: "none", value: 0 })]);
    expect(old).not.toHaveProperty("rule");
    // Characters and NPCs have no datacard rules.
    const leroy = sample("Leroy");
    leroy.items.push(item("gift", "Backstabber", { effect: "backstabber" }));
    expect(miniRules(leroy).size).toBe(0);
    expect(ignoredMiniTraits(leroy)).toEqual([]);
  });
});

describe("the attack dialog's Miniatures options", () => {
  const names = (attacker: ActorDoc, targets: ActorDoc[], weapon = mainWeapon(attacker)) =>
    situationFields("miniatures", weapon, {}, rules, { attacker, targets }).map((f) => f.name);

  test('"From behind" only for an attacker with Skilled backstabber', () => {
    expect(names(sample("Knavely Knave"), [sample("Sir Knightly")])).toContain("fromBehind");
    expect(names(sample("Sir Knightly"), [sample("Knavely Knave")])).not.toContain("fromBehind");
    expect(situationFields("miniatures", null).map((f) => f.name)).not.toContain("fromBehind");
  });

  test('"Free attack on a disengaging model" only in melee against a Poor melee combatant', () => {
    const yanni = sample("Yanni the Yeoman");
    expect(names(sample("Brutas the Brute"), [yanni])).toContain("disengaging");
    expect(names(sample("Brutas the Brute"), [sample("Sir Knightly")])).not.toContain("disengaging");
    expect(names(sample("Brutas the Brute"), [sample("Sir Knightly"), yanni])).toContain("disengaging");
    // Yanni's shortbow shooting at Yanni: no free melee attack.
    const bow = yanni.items.find(
      (i) => i.type === "weapon" && (i.system as { ranged: boolean }).ranged,
    ) as ItemDoc<"weapon">;
    expect(names(yanni, [sample("Yanni the Yeoman")], bow)).not.toContain("disengaging");
  });

  test("both read back from a form and reach the attack request", () => {
    const s = readSituation("miniatures", [
      ["fromBehind", true],
      ["disengaging", "on"],
    ]);
    expect(s).toEqual({ fromBehind: true, disengaging: true });
    const knave = sample("Knavely Knave");
    const ctx = attackDialogContext(knave, mainWeapon(knave), [sample("Yanni the Yeoman")], rules, s);
    expect(
      ctx.fields.filter((f) => f.name === "fromBehind" || f.name === "disengaging").map((f) => [f.name, f.checked]),
    ).toEqual([
      ["fromBehind", true],
      ["disengaging", true],
    ]);
  });
});

describe("the duel forecast at the table", () => {
  test("the request the attack dialog, Token HUD and tracker send carries both datacards' rules", () => {
    const req = duelRequest(sample("Knavely Knave"), sample("Brutas the Brute"), rules) as {
      a: Record<string, { rule?: string }>;
      b: Record<string, { rule?: string }>;
    };
    expect([req.a.gift.rule, req.a.fault.rule, req.b.gift.rule, req.b.fault.rule]).toEqual([
      "backstabber",
      "selfInterest",
      undefined,
      "mercenary",
    ]);
  });

  test("the forecast at the table follows them: King Kingsley against a Self-interest Knavely wins as soon as he wounds him", () => {
    const king = () => sample("King Kingsley");
    const knave = sample("Knavely Knave");
    const textOnly = sample("Knavely Knave");
    for (const i of textOnly.items) if (i.type === "fault") (i.system as { effect: string }).effect = "none";
    const withRule = forecastView(king(), knave, rules);
    expect(withRule.error).toBeNull();
    expect(withRule.aWins).toBe(1);
    expect(forecastView(king(), textOnly, rules).aWins).toBeLessThan(0.95);
  });
});

describe("the Check Guts dialog reads the targeted opponents", () => {
  const sample = (name: string) => structuredClone(findSample(name, "a")) as ActorDoc;
  test("Miniatures: Guts — \"0 plus the number of 'Terrifying' gifts the opponent has\": a targeted Brutas fills the count; none targeted leaves the default", () => {
    const brutas = sample("Brutas the Brute");
    expect((brutas.system as { terrifying: number }).terrifying).toBe(1);
    const ogre = structuredClone(brutas);
    (ogre.system as { terrifying: number }).terrifying = 3;
    expect(gutsChoiceFor([sample("King Kingsley"), ogre, brutas]).terrifying).toBe(3);
    expect(gutsChoiceFor([sample("King Kingsley")])).toEqual(defaultGutsChoice());
    expect(gutsChoiceFor([])).toEqual(defaultGutsChoice());
    // The context shows it, with the reason kept.
    expect(gutsDialogContext(sample("Yanni the Yeoman"), gutsChoiceFor([ogre]))).toMatchObject({
      terrifying: 3,
      steadfast: true,
    });
  });

  test("a charge is the first choice only when a targeted opponent is Terrifying (\"charged by … a Terrifying opponent … 0 plus the number of 'Terrifying' gifts\"); otherwise a check the GM calls for, at a new wound level's +1", () => {
    const king = sample("King Kingsley");
    expect((king.system as { terrifying: number }).terrifying).toBe(0);
    for (const targets of [[king], []]) expect(gutsChoiceFor(targets)).toMatchObject({ reason: "other", target: 1 });
    expect(gutsChoiceFor([king, sample("Brutas the Brute")])).toMatchObject({ reason: "charged", terrifying: 1 });
    // The dialog selects it.
    const ctx = gutsDialogContext(sample("Yanni the Yeoman"), gutsChoiceFor([king]));
    expect(ctx.reasons.find((r) => r.selected)?.value).toBe("other");
    expect(ctx.target).toBe(1);
    // A remembered charge is dropped when no Terrifying opponent is targeted; kept (charging) when one is.
    const charging = { ...defaultGutsChoice(), reason: "charging" as const };
    expect(gutsChoiceFor([king], charging).reason).toBe("other");
    expect(gutsChoiceFor([sample("Brutas the Brute")], charging).reason).toBe("charging");
  });
});
