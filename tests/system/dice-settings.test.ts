// @vitest-environment happy-dom
/**
 * The ladder and dice options as world settings (issue 32): the extended lower end (Fudge §1.3)
 * names Abysmal (−4) on sheets' ladder pickers and in level names; the dice option (§3.21–3.22)
 * is a rules-menu choice, refused with a sentence while a combat is running (nothing saved), and
 * a stored value the rules do not know falls back to 4dF.
 */
import { describe, expect, it } from "vitest";
import {
  RULE_FIELDS,
  SettingsFormError,
  applyRulesForm,
  formEntries,
  rulesMenuContext,
} from "../../src/system/settings-menu";
import { defaultWorldRules, worldRulesFrom } from "../../src/system/data";
import { characterSheetContext } from "../../src/system/sheet";
import { ladderOf, levelView } from "../../src/system/view";
import { DICE_OPTION_IDS, readDiceOption } from "../../src/rules";
import { leroy } from "./fixtures";

describe("the ladder's lower end as a world setting (Fudge §1.3)", () => {
  it("off: below Terrible is 'Terrible −1'; on: Abysmal (−4), and sheets offer it for traits", () => {
    const off = defaultWorldRules();
    expect(levelView(-4, ladderOf(off)).name).toBe("Terrible -1".replace("-", "−"));
    const on = { ...off, lowerEnd: true };
    expect(levelView(-4, ladderOf(on)).name).toBe("Abysmal");
    const sheet = (rules: typeof off) =>
      characterSheetContext(leroy(), rules, { editable: true, owner: true }).ladderChoices!.map((c) => c.value);
    expect(sheet(off)).not.toContain(-4);
    expect(sheet(on)).toContain(-4);
    expect(sheet(on)[0]).toBe(-4);
  });

  it("is a general field of the rules menu, read back from the form", () => {
    const ctx = rulesMenuContext(defaultWorldRules());
    expect(ctx.groups.find((g) => g.key === "general")!.fields.map((f) => f.path)).toContain("lowerEnd");
    const after = applyRulesForm(defaultWorldRules(), { lowerEnd: "on" }, ["general"]);
    expect(after.lowerEnd).toBe(true);
  });
});

/** The menu's form as it opens for `rules`, with `changes` typed in. */
const form = (rules: ReturnType<typeof defaultWorldRules>, changes: Record<string, unknown>) => ({
  ...Object.fromEntries(RULE_FIELDS.flatMap((f) => formEntries(rules, f))),
  ...changes,
});

describe("the dice option as a world setting (Fudge §3.21–3.22)", () => {
  it("offers each of the text's dice in the Dice group of a Fudge world and of a FATE world (a Fudge derivative), not Miniatures' or Volt's", () => {
    for (const preset of ["fudge", "fate"] as const) {
      const field = rulesMenuContext({ ...defaultWorldRules(), preset })
        .groups.find((g) => g.key === "dice")!
        .fields.find((f) => f.path === "dice")!;
      expect(field.choices.map((c) => c.value)).toEqual([...DICE_OPTION_IDS]);
      expect(field.choices.find((c) => c.selected)!.value).toBe("4dF");
    }
    // Miniatures rolls its datacard's 4dF and Volt its 2d20, as their own texts say.
    for (const preset of ["miniatures", "volt"] as const) {
      const paths = rulesMenuContext({ ...defaultWorldRules(), preset }).groups.flatMap((g) =>
        g.fields.map((f) => f.path),
      );
      expect(paths).not.toContain("dice");
    }
  });

  it("changes outside a combat; refused with a sentence while one is running, nothing saved", () => {
    const before = defaultWorldRules();
    expect(applyRulesForm(before, form(before, { dice: "3d6" }), ["dice"]).dice).toBe("3d6");
    expect(applyRulesForm(before, form(before, { dice: "3d6" }), ["dice"], { combatRunning: false }).dice).toBe("3d6");
    let err: unknown;
    try {
      applyRulesForm(before, form(before, { dice: "3d6" }), ["dice"], { combatRunning: true });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsFormError);
    expect((err as SettingsFormError).key).toBe("FUDGE.Error.Settings.DiceInCombat");
    expect(before.dice).toBe("4dF");
    // The other options save during a combat when the dice stay.
    expect(
      applyRulesForm(before, form(before, { dice: "4dF", lowerEnd: "on" }), ["general", "dice"], {
        combatRunning: true,
      }).lowerEnd,
    ).toBe(true);
    expect(() => applyRulesForm(before, form(before, { dice: "2d10" }), ["dice"])).toThrow(/must be one of 4dF, 4d6F/);
  });

  it("a stored dice option the rules do not know reads as 4dF", () => {
    expect(worldRulesFrom((k) => (k === "dice" ? "d7" : undefined)).dice).toBe("4dF");
    expect(worldRulesFrom((k) => (k === "dice" ? "d%" : undefined)).dice).toBe("d%");
  });
});

describe("a trait roll with each dice option in the playground (the same flow as Foundry's)", () => {
  for (const option of DICE_OPTION_IDS)
    it(`${option}: the card's result is the trait plus the option's reading of its recorded throws`, async () => {
      const { Store } = await import("../../playground/store");
      const { sampleActors } = await import("../../playground/packs");
      const { playgroundPort } = await import("../../playground/port");
      const { parseDice } = await import("../../playground/dice");
      const flows = await import("../../src/system/flows");
      const { testPage } = await import("./playground-page");
      const actors = sampleActors();
      const hero = actors.find((a) => a.name.startsWith("Leroy"))!;
      const state = {
        version: 1,
        preset: "fudge",
        theme: "light",
        settings: { preset: "fudge", dice: option },
        actors,
        messages: [],
        open: [],
        targets: [],
        user: { id: "pgGamemaster0001", name: "Gamemaster", isGM: true },
      };
      const store = new Store(() => state as never, null, 0);
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const port = playgroundPort(store, parseDice(`seed:${seed}`), testPage());
        await flows.rollTrait(port, hero._id, "attributes.strength", { fastForward: true });
        const card = store.state.messages.at(-1)!.system as {
          dice: number[];
          diceOption?: string;
          result: number;
          level: number;
          penalty: number;
        };
        const last = option === "d%" ? [card.dice.at(-1)!] : card.dice;
        const reading = readDiceOption(option, last)!;
        expect(card.result).toBe(card.level + card.penalty + reading);
        if (option === "4dF") expect(card.diceOption).toBeUndefined();
        else expect(card.diceOption).toBe(option);
        // Every throw but the last was one the table rolls again.
        if (option === "d%") for (const d of card.dice.slice(0, -1)) expect(readDiceOption(option, [d])).toBeNull();
      }
    });
});

describe("the roll dialog's exact chance of success under the world's dice (Fudge §3.4, §3.21–3.22)", () => {
  it("is the option's exact chance for the trait with its penalty, and follows the Difficulty picked", async () => {
    const { traitRollChance } = await import("../../src/system/actions");
    const { unopposedChance } = await import("../../src/rules");
    const hero = leroy();
    const level = (hero.system as { attributes: Record<string, number> }).attributes.strength ?? 0;
    for (const dice of DICE_OPTION_IDS) {
      const rules = { ...defaultWorldRules(), dice };
      for (const difficulty of [-2, 0, 1, 3]) {
        const odds = traitRollChance(hero, "attributes.strength", rules, { difficulty })!;
        expect(odds.dice).toBe(dice);
        expect(odds.chance).toBe(unopposedChance(dice, level, difficulty));
      }
      // A modifier counts as the roll takes it.
      expect(traitRollChance(hero, "attributes.strength", rules, { difficulty: 1, modifier: -2 })!.chance).toBe(
        unopposedChance(dice, level - 2, 1),
      );
    }
    // 4dF at Fair against Fair: §3.23's 61.7 %.
    const fair = { ...hero, system: { ...hero.system, attributes: { strength: 0 } } } as typeof hero;
    expect(traitRollChance(fair, "attributes.strength", defaultWorldRules(), { difficulty: 0 })!.percent).toBe("61.7");
    // No ladder roll against a Difficulty: Volt, Miniatures.
    expect(traitRollChance(hero, "attributes.strength", { ...defaultWorldRules(), preset: "volt" })).toBeNull();
  });
});
