/**
 * A chat card's stored data is written by its author (a player's client can run any code): any
 * forgery of a real card — a field missing or of the wrong type at any depth, an array cut short
 * or grown, a huge string, an unknown key, a "__proto__" key, markup in a string — renders, through
 * the same context builders and real templates as Foundry and the playground, either the normal
 * card or the short error line; it never throws, never shows markup, and a card drawn as an error
 * offers no action (the actions read the card through the same check).
 */
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { attackCardContext, rollCardContext } from "../../src/system/card";
import { applyDamage, defend, rollTrait, startAttack } from "../../src/system/actions";
import { checkCard } from "../../src/system/integrity";
import { seededRng } from "../../src/rules";
import type { ActorDoc, AttackCardData } from "../../src/system/data";
import { GM, PLAYER1, PLAYER2, PRESET_IDS, knight, leroy, rulesFor, theodora } from "./fixtures";
import { makeRenderer } from "./render";

type Json = unknown;
const r = makeRenderer();
const viewerFor = (user: typeof GM, actors: ActorDoc[]) => ({
  user,
  actor: (id: string) => actors.find((a) => a._id === id),
});

/** Real cards of every preset at every stage (attack, defence, applied), as the template tests build them. */
function realCards() {
  const out: { preset: (typeof PRESET_IDS)[number]; card: AttackCardData; actors: ActorDoc[] }[] = [];
  for (const preset of PRESET_IDS) {
    const rules = rulesFor(preset);
    const a = preset === "miniatures" ? knight() : leroy();
    const d = preset === "miniatures" ? knight("knave", "Knavely Knave") : theodora();
    const w = a.items.find((i) => i.type === "weapon")!._id;
    for (const seed of [1, 2, 3, 5, 8]) {
      let card = startAttack(a, w, [d], { modifier: 1 }, seededRng(seed), rules, PLAYER1);
      out.push({ preset, card, actors: [a, d] });
      if (card.targets[0].defend === "pending") {
        card = { ...card, ...defend(card, d, seed % 2 ? [-1, -1, -1, 0] : [1, 1, 0, 0], PLAYER2).system };
        out.push({ preset, card, actors: [a, d] });
      }
      if ((card.targets[0].resolution as { wound: unknown } | null)?.wound) {
        card = { ...card, ...applyDamage(card, d, GM, rules, { now: 0 }).cardUpdate.system };
        out.push({ preset, card, actors: [a, d] });
      }
    }
  }
  return out;
}
const CARDS = realCards();
const ROLL_CARDS = PRESET_IDS.map((preset) => {
  const a = preset === "miniatures" ? knight() : leroy();
  const key = preset === "volt" ? "volt.willpower" : preset === "miniatures" ? "guts" : "attributes.strength";
  return { preset, card: rollTrait(a, key, preset === "volt" ? [3, 17] : [1, 0, 0, -1], rulesFor(preset)) };
});

/** Every path (list of keys) into a JSON value, the root included. */
function paths(v: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (typeof v === "object" && v !== null) for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

const SCRIPT = "<script>alert(1)</script>";
const WRONG: Json[] = [
  null,
  undefined,
  0,
  -1,
  1e9,
  Number.NaN,
  3.5,
  true,
  "",
  "x",
  SCRIPT,
  "x".repeat(50_000),
  [],
  [1, 2],
  {},
  { a: 1 },
  [[], {}],
  { key: 1 },
];

type Mutation =
  | { kind: "delete" }
  | { kind: "set"; value: Json }
  | { kind: "addKey"; key: string; value: Json }
  | { kind: "proto" }
  | { kind: "truncate" }
  | { kind: "grow"; n: number };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant({ kind: "delete" as const }),
  fc.constantFrom(...WRONG).map((value) => ({ kind: "set" as const, value })),
  fc.record({
    kind: fc.constant("addKey" as const),
    key: fc.constantFrom("extra", "__proto__", "constructor", "prototype", SCRIPT),
    value: fc.constantFrom(...WRONG),
  }),
  fc.constant({ kind: "proto" as const }),
  fc.constant({ kind: "truncate" as const }),
  fc.record({ kind: fc.constant("grow" as const), n: fc.integer({ min: 1, max: 600 }) }),
);

/** Applies a mutation at a path of a deep copy; "__proto__" keys are made own keys, as JSON.parse makes them. */
function mutate(root: Json, path: (string | number)[], m: Mutation): Json {
  const copy = structuredClone(root);
  if (path.length === 0 && m.kind !== "addKey" && m.kind !== "proto") return m.kind === "set" ? m.value : copy;
  const parent = path.slice(0, -1).reduce<Json>((o, k) => (o as Record<string | number, Json>)[k], copy) as Record<
    string | number,
    Json
  >;
  const key = path[path.length - 1];
  const here = path.length === 0 ? copy : parent[key];
  switch (m.kind) {
    case "delete":
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
    case "set":
      parent[key] = m.value;
      break;
    case "addKey":
    case "proto":
      if (typeof here === "object" && here !== null && !Array.isArray(here)) {
        const k = m.kind === "proto" ? "__proto__" : m.key;
        Object.defineProperty(here, k, {
          value: m.kind === "proto" ? JSON.parse('{"polluted": true, "toString": 1}') : m.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      break;
    case "truncate":
      if (Array.isArray(here)) here.length = Math.floor(here.length / 2);
      else if (typeof here === "string") parent[key] = here.slice(0, Math.floor(here.length / 2));
      break;
    case "grow":
      if (Array.isArray(here))
        for (let i = 0; i < m.n; i++) here.push(here.length ? structuredClone(here[i % here.length]) : SCRIPT);
      else if (typeof here === "string") parent[key] = here + SCRIPT.repeat(m.n);
      break;
  }
  return copy;
}

/** A forged card: one to three mutations at random paths of a real card. */
function forged<T>(cards: readonly T[], data: (c: T) => Json) {
  return fc
    .tuple(fc.constantFrom(...cards), fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }))
    .map(([c, ms]) => {
      let v = data(c);
      for (const [i, m] of ms) {
        const ps = paths(v);
        v = mutate(v, ps[i % ps.length], m);
      }
      return { c, forged: v };
    });
}

function expectSafe(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(/class="fudge-card-error"/.test(html) || /class="fudge-card-header"/.test(html)).toBe(true);
  expect(Object.prototype).not.toHaveProperty("polluted");
}

describe("forged chat cards render the card or the error line, never throw", () => {
  test("attack cards of every preset and stage, for the GM and the players", () => {
    fc.assert(
      fc.property(
        forged(CARDS, (c) => c.card),
        fc.constantFrom(GM, PLAYER1, PLAYER2),
        ({ c, forged: card }, user) => {
          const rules = rulesFor(c.preset);
          const html = r.render(
            "attackCard",
            attackCardContext({ _id: "m1", system: card as AttackCardData }, rules, viewerFor(user, c.actors)),
          );
          expectSafe(html);
          const isError = html.includes('class="fudge-card-error"');
          // The error line offers nothing to click; a card drawn as normal passes the check every action makes first.
          if (isError) expect(html).not.toContain("data-action");
          else expect(() => checkCard(card)).not.toThrow();
        },
      ),
      { numRuns: 1500, seed: 10_610 },
    );
  });

  test("trait roll cards", () => {
    fc.assert(
      fc.property(
        forged(ROLL_CARDS, (c) => c.card),
        ({ c, forged: card }) => {
          expectSafe(r.render("rollCard", rollCardContext(card as never, rulesFor(c.preset))));
        },
      ),
      { numRuns: 600, seed: 10_611 },
    );
  });

  test("the colleague's forgery: a resolution with fields missing draws the error line", () => {
    const c = CARDS.find(
      (x) =>
        x.preset === "fudge" &&
        (x.card.targets[0].resolution as { wound?: unknown } | null)?.wound &&
        !x.card.targets[0].applied.length,
    )!;
    const card = structuredClone(c.card);
    card.targets[0].resolution = { outcome: "wound", hit: true, woundKey: "hurt", wound: { level: "hurt" } };
    const html = r.render(
      "attackCard",
      attackCardContext({ _id: "m1", system: card }, rulesFor("fudge"), viewerFor(GM, c.actors)),
    );
    expect(html).toContain("This attack card is malformed");
    expect(html).not.toContain("data-action");
    expect(() => checkCard(card)).toThrow(/malformed/);
  });

  test("unforged cards still draw as normal cards", () => {
    for (const c of CARDS) {
      const html = r.render(
        "attackCard",
        attackCardContext({ _id: "m1", system: c.card }, rulesFor(c.preset), viewerFor(GM, c.actors)),
      );
      expect(html).not.toContain("fudge-card-error");
    }
    for (const c of ROLL_CARDS)
      expect(r.render("rollCard", rollCardContext(c.card, rulesFor(c.preset)))).not.toContain("fudge-card-error");
  });
});
