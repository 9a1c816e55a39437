/** Context builders: numbers come from the rules core; track view follows the render model. */
import { describe, expect, test } from "vitest";
import {
  characterSheetContext,
  itemSheetContext,
  miniatureSheetContext,
  npcSheetContext,
  actorSheetContext,
} from "../../src/system/sheet";
import { attackCardContext, rollCardContext } from "../../src/system/card";
import { defend, rollTrait, startAttack, toggleWoundBox, applyDamage, updatedState } from "../../src/system/actions";
import { trackFor, attackRequest, miniatureDatacard } from "../../src/system/combatant";
import { datacard, parseDatacard } from "../../src/rules/miniatures";
import { SAMPLE_CARDS, sampleModel } from "../rules/miniatures-samples";
import { renderTrack, trackStatus } from "../../src/rules";
import { defaultMiniatureData, type ActorDoc, type ItemDoc } from "../../src/system/data";
import { GM, PLAYER1, PLAYER2, STRANGER, goblin, item, knight, leroy, rulesFor, theodora } from "./fixtures";

const opts = { editable: true, owner: true };

function withState<T extends ActorDoc>(a: T, state: unknown): T {
  return {
    ...a,
    system: { ...a.system, woundTrack: { ...(a.system as { woundTrack: object }).woundTrack, state } },
  } as T;
}

describe('Volt: Recovery "Injury recovery roll (monthly by default; weekly or nightly per setting)" on the sheet', () => {
  test("the Injury recovery button names the world's interval; its tooltip says how often and that the system does not track time", () => {
    for (const recovery of ["monthly", "weekly", "nightly"] as const) {
      const c = characterSheetContext(leroy(), rulesFor("volt", { volt: { recovery } }), {
        editable: true,
        owner: true,
      });
      const b = c.healing.find((h) => h.data.heal === "injuryRecovery")!;
      expect(b.labelKey).toBe(`FUDGE.Heal.InjuryRecoveryEvery.${recovery}`);
      expect(b.tooltipKey).toBe(`FUDGE.Heal.InjuryRecoveryInterval.${recovery}`);
    }
  });
});

describe("character sheet", () => {
  test("Leroy and Theodora: ODF and DDF as in seed 000 (Leroy→Theodora +2, Theodora→Leroy +3)", () => {
    const rules = rulesFor("fudge");
    const l = characterSheetContext(leroy(), rules, opts);
    const t = characterSheetContext(theodora(), rules, opts);
    const lOdf = l.weapons.find((w) => w.id === "broadsword")!.factor!;
    const tOdf = t.weapons.find((w) => w.id === "poleaxe")!.factor!;
    const lDdf = l.derived.find((d) => d.key === "ddf")!.value!;
    const tDdf = t.derived.find((d) => d.key === "ddf")!.value!;
    expect(lOdf - tDdf).toBe(2);
    expect(tOdf - lDdf).toBe(3);
    expect(l.weapons[0].factorSteps.length).toBeGreaterThan(0);
  });

  test("attributes show ladder names with numbers", () => {
    const c = characterSheetContext(theodora(), rulesFor("fudge"), opts);
    const str = c.attributes.find((a) => a.key === "strength")!;
    expect(str.level.label).toBe("Superb (+3)");
    expect(str.level.rungKey).toBe("FUDGE.Ladder.superb");
    expect(str.field).toBe("system.attributes.strength");
    const big = characterSheetContext(
      {
        ...leroy(),
        system: { ...leroy().system, attributes: { strength: 6, damageCapacity: -5, willpower: 0, mass: 0 } },
      },
      rulesFor("fudge", { legendary: false }),
      opts,
    );
    expect(big.attributes[0].level.name).toBe("Superb +3");
    expect(big.attributes[1].level.name).toBe("Terrible \u22122");
  });

  test("the track view is the render model; penalty and condition always present", () => {
    const rules = rulesFor("fudge");
    const a = withState(leroy(), updatedState(toggleWoundBox(leroy(), "veryHurt:0", rules)));
    const c = characterSheetContext(a, rules, opts);
    const r = renderTrack(trackFor(a, rules));
    expect(c.track.rows.map((x) => x.key)).toEqual(r.rows.map((x) => x.key));
    expect(c.track.penalty).toBe(r.status.penalty);
    expect(c.track.penaltyText).toBe("\u22122");
    expect(c.track.conditionKey).toBe("FUDGE.Condition.able");
    expect(c.track.rows.find((x) => x.key === "veryHurt")!.current).toBe(true);
    expect(c.track.rows.flatMap((x) => x.boxes).every((b) => !b.locked)).toBe(true);
    const ro = characterSheetContext(a, rules, { editable: false, owner: false });
    expect(ro.track.rows.flatMap((x) => x.boxes).every((b) => b.locked)).toBe(true);
    expect(ro.weapons.every((w) => !w.canAttack)).toBe(true);
    expect(ro.healing).toEqual([]);
  });

  test("overflow marks carry their real level", () => {
    const rules = rulesFor("fudge");
    let a = leroy();
    // Theodora's blow lands Hurt on a full Hurt level: it overflows into Very Hurt.
    a = withState(a, {
      marks: {
        scratch: [null, null, null],
        hurt: [{ level: "hurt" }],
        veryHurt: [{ level: "hurt" }],
        incapacitated: [null],
        nearDeath: [null],
      },
      stun: null,
      dead: false,
    });
    const c = characterSheetContext(a, rules, opts);
    const vh = c.track.rows.find((x) => x.key === "veryHurt")!;
    expect(vh.overflowCount).toBe(1);
    expect(vh.boxes[0].realLevelLabelKey).toBe(c.track.rows.find((x) => x.key === "hurt")!.labelKey);
    expect(vh.boxes[0].mark).not.toBe("");
  });

  test("every preset builds a sheet; Volt shows its block, FATE its label, Fudge its track preset", () => {
    for (const p of ["fudge", "fate", "volt", "miniatures"] as const) {
      const c = characterSheetContext(leroy(), rulesFor(p), opts);
      expect(c.preset).toBe(p);
      expect(c.track.error).toBeNull();
      expect(c.track.kind).toBe(trackFor(leroy(), rulesFor(p)).config.kind);
    }
    expect(characterSheetContext(leroy(), rulesFor("volt"), opts).volt).toEqual({
      willpower: 6,
      strength: 6,
      guard: 10,
      tough: 0,
    });
    expect(
      characterSheetContext(leroy(), rulesFor("fudge"), opts).trackPreset!.options.find((o) => o.selected)!.value,
    ).toBe("standard");
    expect(characterSheetContext(leroy(), rulesFor("miniatures"), opts).presetNotice).toBe(
      "FUDGE.Sheet.MiniaturesUseDatacards",
    );
  });

  test("track presets: cinematic and epic shapes, pawn NPCs, DC-as-track", () => {
    const boxes = (a: ActorDoc, rules = rulesFor("fudge")) =>
      characterSheetContext(a as ActorDoc<"character">, rules, opts).track.rows.map((r) => r.boxes.length);
    const l = leroy();
    expect(boxes(l)).toEqual([3, 1, 1, 1, 1]);
    expect(
      boxes({ ...l, system: { ...l.system, woundTrack: { ...l.system.woundTrack, preset: "cinematic" } } }),
    ).toEqual([4, 2, 1, 1, 1]); // Fudge §4.57 (full text, RULES §2.3): nine circles, Scratch 4, Hurt 2, Very Hurt 1, Incapacitated 1, Near Death 1
    expect(
      boxes({
        ...l,
        system: {
          ...l.system,
          woundTrack: { ...l.system.woundTrack, preset: "epic", epicExtraHurt: 2, epicExtraVeryHurt: 0 },
        },
      }),
    ).toEqual([4, 4, 1, 1, 1]);
    expect(npcSheetContext(goblin(), rulesFor("fudge"), opts).track.rows.map((r) => r.key)).toEqual([
      "scratch",
      "hurt",
      "out",
    ]);
    const dcRules = rulesFor("fudge");
    dcRules.fudge = { ...dcRules.fudge, dcVariant: "track" };
    expect(characterSheetContext(leroy(), dcRules, opts).track.kind).toBe("dc");
    const custom = {
      ...l,
      system: {
        ...l.system,
        woundTrack: {
          ...l.system.woundTrack,
          preset: "custom" as const,
          customLevels: [
            { key: "scratch", label: "", boxes: 2, penalty: 0, threshold: 1, effect: "" as const },
            { key: "hurt", label: "", boxes: 2, penalty: -1, threshold: 4, effect: "" as const },
            { key: "down", label: "Down", boxes: 1, penalty: -1, threshold: 8, effect: "cannotAct" as const },
          ],
        },
      },
    };
    expect(boxes(custom)).toEqual([2, 2, 1]);
    const noLevels = {
      ...l,
      system: { ...l.system, woundTrack: { ...l.system.woundTrack, preset: "custom" as const } },
    };
    expect(characterSheetContext(noLevels, rulesFor("fudge"), opts).track.error!.key).toBe(
      "FUDGE.Error.CustomLevelsMissing",
    );
  });

  test("pain gifts shift the penalties (Fudge §4.51)", () => {
    const rules = rulesFor("fudge");
    const state = updatedState(toggleWoundBox(leroy(), "hurt:0", rules));
    expect(characterSheetContext(withState(leroy(), state), rules, opts).track.penalty).toBe(-1);
    expect(characterSheetContext(withState(theodora(), state), rules, opts).track.penalty).toBe(0); // High Pain Threshold
  });

  test("a stored state that no longer fits shows an error view, not a crash", () => {
    const bad = withState(leroy(), { marks: { nonsense: true } });
    const c = characterSheetContext(bad, rulesFor("fudge"), opts);
    expect(c.track.error).not.toBeNull();
    expect(c.track.error!.key).toMatch(/^FUDGE\.Error\./);
    expect(c.healing).toEqual([]);
  });
});

describe("miniature sheet", () => {
  /** A miniature actor built from a seed datacard the way the pack sources hold it. */
  function fromSample(key: keyof typeof SAMPLE_CARDS): ActorDoc<"miniature"> {
    const s = SAMPLE_CARDS[key];
    const system = {
      ...defaultMiniatureData(),
      strength: s.strength,
      dexterity: s.dexterity,
      guts: s.guts,
      movement: s.movement,
      terrifying: s.terrifying,
    };
    const items: ItemDoc[] = s.weapons.map((w, i) =>
      item(
        "weapon",
        w.name,
        {
          miniaturesDamage: w.damage,
          hands: w.hands as 1 | 2,
          ranged: w.kind === "ranged",
          range: "range" in w ? w.range : 0,
          statBasis: w.stat,
        },
        `w${i}`,
      ),
    );
    if (s.armor) items.push(item("armor", "Armor", { value: s.armor }, "armor"));
    if (s.shield) items.push(item("shield", "Shield", { miniaturesBonus: s.shield }, "shield"));
    return { _id: key, name: s.name, type: "miniature", system, items };
  }

  for (const key of Object.keys(SAMPLE_CARDS) as (keyof typeof SAMPLE_CARDS)[]) {
    test(`${key}: MODF/RODF/DDF/HDDF as the rules core derives the printed card`, () => {
      const ctx = miniatureSheetContext(fromSample(key), rulesFor("miniatures"), opts);
      const want = datacard(parseDatacard(sampleModel(key), "card"));
      const got = Object.fromEntries(ctx.derived.map((d) => [d.key, d.value]));
      expect(got).toEqual({ modf: want.modf, rodf: want.rodf, ddf: want.ddf, hddf: want.hddf });
      expect(ctx.miniature!.movement).toBe(want.movement);
    });
  }

  test("wounds lower the stats, not the rolls (Miniatures: Wounds)", () => {
    const rules = rulesFor("miniatures");
    const k = knight();
    const hurt = withState(k, updatedState(toggleWoundBox(k, "veryHurt:0", rules)));
    const c0 = miniatureSheetContext(k, rules, opts);
    const c1 = miniatureSheetContext(hurt, rules, opts);
    expect(c1.attributes[0].level.value).toBe(c0.attributes[0].level.value - 2);
    expect(c1.attributes[0].base).toBe(k.system.strength);
    expect(c1.derived.find((d) => d.key === "ddf")!.value).toBe(c0.derived.find((d) => d.key === "ddf")!.value! - 2);
    expect(c1.miniature!.movement).toBe(k.system.movement - 2);
  });

  test("miniature datacard mapping parses; a character cannot be a Miniatures combatant", () => {
    expect(() => parseDatacard(miniatureDatacard(knight(), rulesFor("miniatures")), "x")).not.toThrow();
    expect(() => attackRequest(leroy(), null, knight(), rulesFor("miniatures"))).toThrow();
    expect(actorSheetContext(knight(), rulesFor("fudge"), opts).presetNotice).toBe("FUDGE.Sheet.MiniatureNeedsPreset");
  });
});

describe("item sheet", () => {
  test("choices are marked; skills show their ladder level", () => {
    const rules = rulesFor("fudge");
    const w = itemSheetContext(leroy().items[1], rules);
    expect(w.choices.size.find((c) => c.selected)!.value).toBe("large");
    expect(w.choices.size.every((c) => c.labelKey.startsWith("FUDGE.WeaponSize."))).toBe(true);
    const s = itemSheetContext(leroy().items[0], rules);
    expect(s.level!.label).toBe("Good (+1)");
    const g = itemSheetContext(theodora().items[3], rules);
    expect(g.choices.effect.find((c) => c.selected)!.value).toBe("highPainThreshold");
    expect(itemSheetContext(leroy().items[1], rulesFor("volt")).show).toMatchObject({ volt: true, fudge: false });
    // Only the world's preset's fields: FATE reads a weapon's skill, no Fudge factor.
    expect(itemSheetContext(leroy().items[1], rulesFor("fate")).show).toMatchObject({ fate: true, fudge: false });
    // A fault offers faults' effects; an effect stored from another preset stays, said so.
    const fault = itemSheetContext(item("fault", "Frail", { effect: "tough", value: 1 }), rules);
    expect(fault.choices.effect.map((c) => [c.value, c.otherPreset ?? false])).toEqual([
      ["none", false],
      ["lowPainThreshold", false],
      ["painIntolerant", false],
      ["fragile", false],
      ["tough", true],
    ]);
    expect(fault.choices.effect.find((c) => c.selected)!.value).toBe("tough");
  });
});

describe("attack card context", () => {
  test("buttons follow the viewer: defender's owner defends, attacker applies via relay, strangers see results only", () => {
    const rules = rulesFor("fudge");
    const actors = [leroy(), theodora()];
    const viewer = (user: typeof GM) => ({ user, actor: (id: string) => actors.find((a) => a._id === id) });
    const card = startAttack(
      leroy(),
      "broadsword",
      [theodora()],
      { modifier: 1, allOutAttack: true },
      { attack: [1, 1, 0, 0] },
      rules,
      PLAYER1,
    );
    const msg = { _id: "m", system: card };
    expect(attackCardContext(msg, rules, viewer(PLAYER2)).targets[0].canDefend).toBe(true);
    expect(attackCardContext(msg, rules, viewer(PLAYER1)).targets[0].canDefend).toBe(false);
    expect(attackCardContext(msg, rules, viewer(PLAYER1)).situation.map((s) => s.key)).toEqual([
      "modifier",
      "allOutAttack",
    ]);
    const c = { ...card, targets: defend(card, theodora(), [0, 0, 0, -1], PLAYER2).system.targets };
    const asAttacker = attackCardContext({ system: c }, rules, viewer(PLAYER1)).targets[0];
    expect(asAttacker.canApply).toBe(true);
    expect(asAttacker.applyVia).toBe("needsRelay");
    // Good +1, dice +2, modifier +1, all-out +1 vs Fair 0: RD +5; factor +2 and all-out +1 → 8: Incapacitated.
    expect(asAttacker.relativeDegreeText).toBe("+5");
    expect(asAttacker.woundLabelKeys).toEqual(["FUDGE.Wound.incapacitated"]);
    expect(asAttacker.after!.levelKey).toBe("incapacitated");
    expect(asAttacker.after!.canAct).toBe(false);
    expect(asAttacker.dice.map((d) => d.slot)).toEqual(["attack", "defense"]);
    const asStranger = attackCardContext({ system: c }, rules, viewer(STRANGER)).targets[0];
    expect(asStranger.canApply).toBe(false);
    const ap = applyDamage(c, theodora(), GM, rules, { now: 0, messageId: "m" });
    const c2 = { ...c, targets: ap.cardUpdate.system.targets };
    // The card alone does not make a wound "applied": the target's wound log does.
    expect(attackCardContext({ _id: "m", system: c2 }, rules, viewer(GM)).targets[0].isApplied).toBe(false);
    actors[1] = { ...actors[1], flags: ap.actorUpdate.flags };
    const asGM = attackCardContext({ _id: "m", system: c2 }, rules, viewer(GM)).targets[0];
    expect(asGM.isApplied).toBe(true);
    expect(asGM.canApply).toBe(false);
    expect(asGM.canUndo).toBe(true);
    expect(attackCardContext({ _id: "m", system: c2 }, rules, viewer(PLAYER1)).targets[0].undoVia).toBe("deny");
    // Another card's wound is not this card's.
    expect(attackCardContext({ _id: "other", system: c2 }, rules, viewer(GM)).targets[0].isApplied).toBe(false);
  });

  test("roll card context", () => {
    const rules = rulesFor("fudge");
    const r = rollCardContext(rollTrait(leroy(), "attributes.strength", [1, 0, 0, 0], rules), rules);
    expect(r.result!.label).toBe("Great (+2)");
    expect(r.dice).toBe("+ 0 0 0");
    expect(r.hasPenalty).toBe(false);
    expect(trackStatus(trackFor(leroy(), rules)).penalty).toBe(0);
  });
});
