/**
 * GM judgement (world option "wound determination: GM judgement"), RULES §2.2: "the card shows
 * the factors and RD and the GM picks the wound level, optionally after a Situational 4dF (−1..+1
 * no change, +3/+4 one or two levels worse)". Fudge §4.55: "the GM assesses the factors … 'I'd say
 * the loser is Hurt.' … The GM can also use a Situational roll … Roll the dice behind a GM screen
 * … A roll of -1 to +1 isn't significant - no change from what you decided. But a roll of +3 or +4
 * adds a wound level or two to the damage."
 * The card is rendered with the real template and lang file; Apply goes through rederiveTarget
 * (the GM's client's own derivation) as src/foundry/chat.ts and the playground do.
 */
import { describe, expect, test } from "vitest";
import { attackCardContext } from "../../src/system/card";
import { applyDamage, defend, judgeWound, startAttack, undoDamage } from "../../src/system/actions";
import { checkCard, woundLogOf } from "../../src/system/integrity";
import { rederiveTarget, type GmPick } from "../../src/system/rederive";
import { trackFor } from "../../src/system/combatant";
import { trackStatus } from "../../src/rules";
import type { ActorDoc, AttackCardData, WorldRules } from "../../src/system/data";
import { GM, PLAYER1, PLAYER2, leroy, rulesFor, theodora } from "./fixtures";
import { makeRenderer } from "./render";
import { keyOf } from "../rules/errors";

const r = makeRenderer();
const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

function judgementRules(situationalRoll = false): WorldRules {
  const rules = rulesFor("fudge");
  rules.fudge = { ...rules.fudge, woundMode: "gmJudgement", gmSituationalRoll: situationalRoll };
  return rules;
}

/** Leroy (PLAYER1) hits Theodora (PLAYER2): + + + 0 against 0 0 0 0. */
function hit(rules: WorldRules, dice: Record<string, number[]> = { attack: [1, 1, 1, 0] }): AttackCardData {
  const card = startAttack(leroy(), "broadsword", [theodora()], {}, dice, rules, PLAYER1);
  return { ...card, targets: defend(card, theodora(), [0, 0, 0, 0], PLAYER2).system.targets };
}

function view(
  card: AttackCardData,
  rules: WorldRules,
  user: { id: string; isGM: boolean },
  defender: ActorDoc = theodora(),
) {
  const ctx = attackCardContext({ _id: "m1", system: card }, rules, {
    user,
    actor: (id) => (id === "theodora" ? defender : id === "leroy" ? leroy() : undefined),
  });
  const html = r.render("attackCard", ctx);
  return {
    ctx,
    html,
    headline: text(/<p class="fudge-headline">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? ""),
    options: [...html.matchAll(/<option value="([^"]*)"( selected)?>([^<]*)<\/option>/g)].map((m) => ({
      value: m[1],
      selected: !!m[2],
      text: m[3],
    })),
  };
}

/** The GM's Apply as the Foundry GM client does it: re-derived from the live sides with his pick. */
function gmApply(card: AttackCardData, rules: WorldRules, pick: GmPick, defender: ActorDoc = theodora()) {
  const live = rederiveTarget(card, card.targets[0], { attacker: leroy(), defender, author: PLAYER1, gm: pick }, rules);
  return judgeWound(card, defender, GM, rules, pick, {
    messageId: "m1",
    resolution: live.resolution,
    differs: live.differs,
    now: 1,
  });
}

function updated(a: ActorDoc<"character">, u: { system: unknown; flags?: unknown }): ActorDoc<"character"> {
  const state = (u.system as { woundTrack: { "==state": unknown } }).woundTrack["==state"];
  return {
    ...a,
    flags: u.flags as Record<string, unknown>,
    system: { ...a.system, woundTrack: { ...a.system.woundTrack, state } },
  };
}

describe("GM judgement: the GM picks the wound on the card (RULES §2.2, Fudge §4.55)", () => {
  test("the hit awaits the GM: players read 'The GM decides', the GM gets the track's levels and no wound, and an Apply", () => {
    const rules = judgementRules();
    const card = hit(rules);
    expect((card.targets[0].resolution as { outcome: string }).outcome).toBe("gmJudgement");
    for (const user of [PLAYER1, PLAYER2]) {
      const p = view(card, rules, user);
      expect(p.headline).toBe("The GM decides Theodora's wound");
      expect(p.options).toEqual([]);
      expect(p.html).not.toContain('data-action="apply');
    }
    const g = view(card, rules, GM);
    expect(g.headline).toBe("The GM decides Theodora's wound");
    // The factors and RD the GM judges stay on the card.
    expect(g.html).toContain('data-fact="relativeDegree"');
    expect(g.options.map((o) => o.text)).toEqual([
      "No wound",
      "Scratch",
      "Hurt",
      "Very Hurt",
      "Incapacitated",
      "Near Death",
    ]);
    expect(g.options.map((o) => o.value)).toEqual([
      "none",
      "scratch",
      "hurt",
      "veryHurt",
      "incapacitated",
      "nearDeath",
    ]);
    expect(g.html).toContain('data-action="applyJudgement"');
    expect(text(/<button[^>]*data-action="applyJudgement"[\s\S]*?<\/button>/.exec(g.html)![0])).toBe(
      "Rule and apply to Theodora",
    );
    expect(r.missing.size).toBe(0);
  });

  test("'I'd say the loser is Hurt': the GM's Apply writes Hurt, the card records the pick, passes its check and shows it applied; Undo restores", () => {
    const rules = judgementRules();
    const card = hit(rules);
    const res = gmApply(card, rules, { level: "hurt" });
    const after = updated(theodora(), res.actorUpdate!);
    expect(trackStatus(trackFor(after, rules)).levelKey).toBe("hurt");
    expect(woundLogOf(after)).toHaveLength(1);
    const stored = { ...card, targets: res.cardUpdate.system.targets };
    expect(stored.targets[0].gmLevel).toBe("hurt");
    expect(stored.targets[0].differs).toBe(false);
    expect(checkCard(JSON.parse(JSON.stringify(stored)))).toBeTruthy();
    const shown = view(stored, rules, GM, after);
    expect(shown.headline).toMatch(/^Theodora takes Hurt/);
    expect(shown.ctx.targets[0].state).toBe("applied");
    expect(shown.options).toEqual([]);
    expect(shown.ctx.targets[0].canUndo).toBe(true);
    // Applying again is refused: the wound log says it is applied.
    expect(() => gmApply(stored, rules, { level: "scratch" }, after)).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.AlreadyApplied" }),
    );
    // Undo as for any card; then the GM may rule again (his last pick selected).
    const u = undoDamage(stored, after, GM, rules, { messageId: "m1" });
    const undone = updated(after, u.actorUpdate);
    expect(trackStatus(trackFor(undone, rules)).levelKey).toBe(trackStatus(trackFor(theodora(), rules)).levelKey);
    const again = view({ ...stored, targets: u.cardUpdate.system.targets }, rules, GM, undone);
    expect(again.ctx.targets[0].state).toBe("undone");
    expect(again.options.find((o) => o.selected)?.value).toBe("hurt");
    expect(again.ctx.targets[0].canApply).toBe(false);
  });

  test("'no change from what you decided' … 'no wound': nothing is written to the defender, the card records the ruling", () => {
    const rules = judgementRules();
    const card = hit(rules);
    const res = gmApply(card, rules, { level: "none" });
    expect(res.actorUpdate).toBeNull();
    const stored = { ...card, targets: res.cardUpdate.system.targets };
    expect(stored.targets[0].gmLevel).toBe("none");
    expect((stored.targets[0].resolution as { outcome: string }).outcome).toBe("noDamage");
    expect(checkCard(JSON.parse(JSON.stringify(stored)))).toBeTruthy();
    expect(view(stored, rules, PLAYER2).headline).not.toContain("The GM decides");
  });

  test("Situational 4dF: rolled by the GM after his pick, never by the attacker; +3 adds a wound level; the card's own faces are not read", () => {
    const rules = judgementRules(true);
    // The attacker's client does not roll the GM's dice, whatever it is handed.
    const card = hit(rules, { attack: [1, 1, 1, 0], situational: [-1, -1, -1, -1] });
    expect(Object.keys(card.targets[0].dice).sort()).toEqual(["attack", "defense"]);
    // A card that carries a "situational" roll of its own (a forgery): only the GM's faces count.
    const forged = {
      ...card,
      targets: [{ ...card.targets[0], dice: { ...card.targets[0].dice, situational: [-1, -1, -1, -1] } }],
    };
    const res = gmApply(forged, rules, { level: "hurt", situational: [1, 1, 1, 0] });
    expect(trackStatus(trackFor(updated(theodora(), res.actorUpdate!), rules)).levelKey).toBe("veryHurt");
    const stored = { ...card, targets: res.cardUpdate.system.targets };
    expect(stored.targets[0].dice.situational).toEqual([1, 1, 1, 0]);
    expect(checkCard(JSON.parse(JSON.stringify(stored)))).toBeTruthy();
    // −1..+1: no change.
    expect(
      trackStatus(
        trackFor(
          updated(theodora(), gmApply(card, rules, { level: "hurt", situational: [1, -1, 0, 0] }).actorUpdate!),
          rules,
        ),
      ).levelKey,
    ).toBe("hurt");
    // With the option on, the GM's pick needs his roll; a roll of other dice is refused.
    expect(() => gmApply(card, rules, { level: "hurt" })).toThrow();
    expect(() => gmApply(card, rules, { level: "hurt", situational: [3, 0, 0, 0] })).toThrow();
  });
});

describe("GM judgement: only the GM's own input counts (docs/foundry.md Integrity)", () => {
  test("a player cannot pick: judgeWound refuses him, and Apply without a pick has nothing to apply", () => {
    const rules = judgementRules();
    const card = hit(rules);
    const live = rederiveTarget(
      card,
      card.targets[0],
      { attacker: leroy(), defender: theodora(), author: PLAYER1 },
      rules,
    );
    expect(
      keyOf(() =>
        judgeWound(
          card,
          theodora(),
          PLAYER2,
          rules,
          { level: "hurt" },
          { messageId: "m1", resolution: live.resolution },
        ),
      ),
    ).toBe("FUDGE.Error.GmJudgement.GmOnly");
    expect(keyOf(() => judgeWound(card, theodora(), PLAYER1, rules, { level: "hurt" }, { messageId: "m1" }))).toBe(
      "FUDGE.Error.GmJudgement.GmOnly",
    );
    expect(
      keyOf(() => applyDamage(card, theodora(), PLAYER2, rules, { messageId: "m1", resolution: live.resolution })),
    ).toBe("FUDGE.Error.NothingToApply");
  });

  test("a forged card claiming a gmLevel is refused: in its situation (the attacker's claim), and its own gmLevel is never read", () => {
    const rules = judgementRules();
    const card = hit(rules);
    const claimed = { ...card, situation: { gmLevel: "nearDeath" } };
    expect(
      keyOf(() =>
        rederiveTarget(
          claimed,
          claimed.targets[0],
          { attacker: leroy(), defender: theodora(), author: PLAYER1 },
          rules,
        ),
      ),
    ).toBe("FUDGE.Error.Integrity.Situation");
    expect(
      keyOf(() =>
        rederiveTarget(
          claimed,
          claimed.targets[0],
          { attacker: leroy(), defender: theodora(), author: PLAYER1, gm: { level: "scratch" } },
          rules,
        ),
      ),
    ).toBe("FUDGE.Error.Integrity.Situation");
    // A target that says the GM already ruled Near Death: the live result still awaits the GM.
    const ruled = {
      ...card,
      targets: [
        {
          ...card.targets[0],
          gmLevel: "nearDeath",
          resolution: {
            ...(card.targets[0].resolution as object),
            outcome: "wound",
            woundKey: "nearDeath",
            wound: { level: "nearDeath" },
          },
        },
      ],
    };
    expect(checkCard(ruled)).toBeTruthy();
    const live = rederiveTarget(
      ruled,
      ruled.targets[0],
      { attacker: leroy(), defender: theodora(), author: PLAYER1 },
      rules,
    );
    expect(live.resolution.outcome).toBe("gmJudgement");
    expect(
      keyOf(() =>
        applyDamage(ruled, theodora(), PLAYER1, rules, { relayed: true, messageId: "m1", resolution: live.resolution }),
      ),
    ).toBe("FUDGE.Error.NothingToApply");
    // Players are offered no Apply on it.
    expect(view(ruled, rules, PLAYER1).ctx.targets[0].canApply).toBe(false);
  });

  test("the card check limits the recorded pick to a short level key", () => {
    const card = hit(judgementRules());
    for (const bad of ["<b>hurt</b>", "x".repeat(65), 3, null])
      expect(keyOf(() => checkCard({ ...card, targets: [{ ...card.targets[0], gmLevel: bad }] }))).toBe(
        "FUDGE.Error.Card.Malformed",
      );
    for (const ok of ["", "none", "veryHurt", "level12"])
      expect(checkCard({ ...card, targets: [{ ...card.targets[0], gmLevel: ok }] })).toBeTruthy();
  });

  test("only a hit awaiting the GM's judgement takes a pick; an unknown level is refused", () => {
    const rules = judgementRules();
    const factors = rulesFor("fudge");
    const plain = hit(factors);
    expect(
      keyOf(() =>
        rederiveTarget(
          plain,
          plain.targets[0],
          { attacker: leroy(), defender: theodora(), author: PLAYER1, gm: { level: "hurt" } },
          factors,
        ),
      ),
    ).toBe("FUDGE.Error.GmJudgement.NotPending");
    expect(keyOf(() => judgeWound(plain, theodora(), GM, factors, { level: "hurt" }, { messageId: "m1" }))).toBe(
      "FUDGE.Error.GmJudgement.NotPending",
    );
    const card = hit(rules);
    expect(() => gmApply(card, rules, { level: "dead" })).toThrow();
    expect(() => gmApply(card, rules, { level: "bruised" })).toThrow();
    expect(keyOf(() => gmApply(card, rules, { level: "" }))).toBe("FUDGE.Error.GmJudgement.BadLevel");
  });
});
