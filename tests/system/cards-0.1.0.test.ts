/**
 * Chat cards are stored messages and never migrated: every attack and roll card 0.1.0 wrote
 * (tests/fixtures/cards-0.1.0.json, made with 0.1.0's own startAttack / defend / applyDamage /
 * undoDamage / rollTrait at cb46e0d: every preset, every stage, the options) still passes today's
 * check, renders as a normal card through today's builders and real templates, and Apply still
 * re-derives it from the live actors as today's code does.
 */
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { attackCardContext, rollCardContext } from "../../src/system/card";
import { applyDamage } from "../../src/system/actions";
import { checkCard, checkRollCard } from "../../src/system/integrity";
import { rederiveTarget } from "../../src/system/rederive";
import { migrateActorSystem, migrateItemSystem } from "../../src/system/migrate";
import {
  ACTOR_DEFAULTS,
  ITEM_DEFAULTS,
  worldRulesFrom,
  type ActorDoc,
  type AttackCardData,
  type WorldRules,
} from "../../src/system/data";
import { GM, ROOT } from "./fixtures";
import { makeRenderer } from "./render";

interface Fixture {
  rules: Record<string, Record<string, unknown>>;
  actors: Record<string, ActorDoc>;
  attackCards: {
    label: string;
    preset: string;
    stage: string;
    rules: string;
    attacker: string;
    defender: string;
    card: AttackCardData;
  }[];
  rollCards: { label: string; preset: string; rules: string; actor: string; card: unknown }[];
}
const FIX = JSON.parse(readFileSync(join(ROOT, "tests", "fixtures", "cards-0.1.0.json"), "utf8")) as Fixture;
const r = makeRenderer();

/** World rules as today's settings read 0.1.0's stored values (merged over today's defaults). */
const rulesOf = (k: string): WorldRules => worldRulesFrom((key) => FIX.rules[k][key]);

const isRec = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const over = (def: unknown, v: unknown): unknown => {
  if (!isRec(def) || !isRec(v)) return v === undefined ? def : v;
  const out: Record<string, unknown> = { ...def };
  for (const [k, x] of Object.entries(v)) out[k] = over(def[k], x);
  return out;
};
/** A 0.1.0 actor as today's world holds it: migrated (src/system/migrate.ts), then its data model's defaults filled in. */
function liveActor(k: string): ActorDoc {
  const a = structuredClone(FIX.actors[k]);
  const system = over(ACTOR_DEFAULTS[a.type](), migrateActorSystem(a.type, a.system));
  const items = a.items.map((i) => ({
    ...i,
    system: over(ITEM_DEFAULTS[i.type](), migrateItemSystem(i.type, i.system)),
  }));
  return { ...a, system, items } as ActorDoc;
}

const stages = (preset: string) => new Set(FIX.attackCards.filter((c) => c.preset === preset).map((c) => c.stage));

describe("0.1.0 cards (tests/fixtures/cards-0.1.0.json)", () => {
  test("the fixture covers every preset at every stage, the options and the roll cards", () => {
    expect([...stages("fudge")].sort()).toEqual(["applied", "defended", "posted", "undone"]);
    expect([...stages("fate")].sort()).toEqual(["applied", "defended", "posted", "undone"]);
    expect([...stages("miniatures")].sort()).toEqual(["applied", "posted", "undone"]);
    expect([...stages("volt")].sort()).toEqual(["applied", "posted", "undone"]);
    const follow = new Set(
      FIX.attackCards.flatMap((c) =>
        c.card.targets.flatMap((t) =>
          ((t.resolution as { followUps?: { type: string }[] } | null)?.followUps ?? []).map((f) => f.type),
        ),
      ),
    );
    for (const f of ["gutsCheck", "nearDeath", "clippedConsumed", "allOutCounter"]) expect(follow).toContain(f);
    expect(new Set(FIX.rollCards.map((c) => c.preset))).toEqual(new Set(["fudge", "miniatures", "fate", "volt"]));
  });

  test.each(FIX.attackCards.map((c, i) => [`${c.label} ${c.stage} #${i}`, c] as const))(
    "attack card %s passes the check and renders as a card",
    (_, c) => {
      expect(() => checkCard(structuredClone(c.card))).not.toThrow();
      const actors = [liveActor(c.attacker), liveActor(c.defender)];
      const ctx = attackCardContext({ _id: "m1", system: structuredClone(c.card) }, rulesOf(c.rules), {
        user: GM,
        actor: (id: string) => actors.find((a) => a._id === id),
      });
      expect(ctx.error).toBeNull();
      const html = r.render("attackCard", ctx);
      expect(html).toContain('class="fudge-card-header"');
      expect(html).not.toContain('class="fudge-card-error"');
      expect(html).toContain(c.card.targets[0].name);
    },
  );

  test.each(FIX.rollCards.map((c) => [c.label, c] as const))(
    "roll card %s passes the check and renders as a card",
    (_, c) => {
      expect(() => checkRollCard(structuredClone(c.card))).not.toThrow();
      const ctx = rollCardContext(structuredClone(c.card), rulesOf(c.rules));
      expect(ctx.error).toBeNull();
      const html = r.render("rollCard", ctx);
      expect(html).not.toContain('class="fudge-card-error"');
      expect(html).toContain((c.card as { actorName: string }).actorName);
    },
  );

  // Apply on a card not (or no longer) applied: re-derived from the live actors and the recorded dice.
  const beyond = (c: Fixture["attackCards"][number]) => c.label.startsWith("beyond today's range");
  const applicable = FIX.attackCards.filter((c) => c.stage !== "applied" && c.card.targets[0].resolution && !beyond(c));
  test.each(applicable.map((c, i) => [`${c.label} ${c.stage} #${i}`, c] as const))(
    "Apply on %s re-derives and applies",
    (_, c) => {
      const rules = rulesOf(c.rules);
      const card = checkCard(structuredClone(c.card));
      const attacker = liveActor(c.attacker);
      const defender = liveActor(c.defender);
      const t = card.targets[0];
      const { resolution, differs } = rederiveTarget(card, t, { attacker, defender, author: GM }, rules);
      const shown = t.resolution as { outcome: string; woundKey: string | null };
      if (!differs) expect([resolution.outcome, resolution.woundKey]).toEqual([shown.outcome, shown.woundKey]);
      if (resolution.wound === null) return;
      const out = applyDamage(card, defender, GM, rules, { resolution, differs, messageId: `m-${c.label}`, now: 0 });
      expect(() => checkCard({ ...card, ...out.cardUpdate.system })).not.toThrow();
      const after = attackCardContext({ _id: `m-${c.label}`, system: { ...card, ...out.cardUpdate.system } }, rules, {
        user: GM,
        actor: (id: string) => [attacker, defender].find((a) => a._id === id),
      });
      expect(after.error).toBeNull();
    },
  );

  // 0.1.0's dialog took modifiers within ±30; today an attack may claim ±10 (Miniatures gang-up 0–8),
  // and a card cannot prove which version wrote it. Such a card still renders; Apply refuses it
  // with the localized reason ("Attack again") before anything is written.
  test.each(FIX.attackCards.filter(beyond).map((c) => [`${c.label} ${c.stage}`, c] as const))(
    "%s: renders; Apply refuses with the reason",
    (_, c) => {
      const rules = rulesOf(c.rules);
      const card = checkCard(structuredClone(c.card));
      const actors = [liveActor(c.attacker), liveActor(c.defender)];
      expect(
        attackCardContext({ _id: "m1", system: card }, rules, {
          user: GM,
          actor: (id: string) => actors.find((a) => a._id === id),
        }).error,
      ).toBeNull();
      expect(() =>
        rederiveTarget(card, card.targets[0], { attacker: actors[0], defender: actors[1], author: GM }, rules),
      ).toThrow(expect.objectContaining({ key: "FUDGE.Error.Integrity.Situation" }));
    },
  );
});
