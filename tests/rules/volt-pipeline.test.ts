import { describe, expect, it } from "vitest";
import {
  seededRng,
  enumerateDice,
  recordedDice,
  type AttackResolution,
  pipelineFor,
  resolveAttack,
  rollAttack,
  newTrack,
  trackStateKey,
  type Track,
} from "../../src/rules";
import { fieldOf } from "./errors";

const track = (willpower = 6, marks: Record<string, string> = {}): Track => ({
  config: newTrack({ kind: "volt", willpower } as { kind: string }).config,
  state: { marks },
});

interface Opts {
  attack?: number;
  damage?: number;
  pierce?: number;
  stun?: boolean;
  ranged?: boolean;
  guard?: number;
  armor?: { coverage: number; protection: [number, number] } | null;
  distance?: number;
  modifier?: number;
  attackerMarks?: Record<string, string>;
  defenderMarks?: Record<string, string>;
}

function request(o: Opts = {}): Record<string, unknown> {
  const situation: Record<string, unknown> = {};
  if (o.distance !== undefined) situation.distance = o.distance;
  if (o.modifier !== undefined) situation.modifier = o.modifier;
  return {
    preset: "volt",
    attacker: {
      name: "Ana",
      track: track(6, o.attackerMarks),
      willpower: 6,
      strength: 10,
      weapon: {
        name: "Blade",
        attack: o.attack ?? 14,
        damage: o.damage ?? 15,
        pierce: o.pierce ?? 5,
        stun: o.stun ?? false,
        ranged: o.ranged ?? false,
      },
    },
    defender: { name: "Bo", track: track(6, o.defenderMarks), guard: o.guard ?? 8, armor: o.armor ?? null },
    options: { recovery: "monthly" },
    situation,
  };
}

const marksAfter = (r: AttackResolution): unknown => (r.defenderAfter?.track.state as { marks: unknown }).marks;
const keys = (r: AttackResolution): string[] => r.steps.map((s) => s.key);

describe("Volt attack pipeline", () => {
  it("is registered, alternating, with 2d20 slots", () => {
    const p = pipelineFor("volt");
    expect(p.exchange).toBe("alternating");
    const req = p.parseRequest(request());
    expect(p.slots(req).map((s) => [s.id, s.formula])).toEqual([
      ["attack", "2d20"],
      ["damage", "2d20"],
    ]);
    expect(p.slots(p.parseRequest(request({ stun: true }))).map((s) => s.id)).toEqual([
      "attack",
      "damage",
      "injuryDamage",
    ]);
  });

  it("seed: Damage 15, damage dice 9 and 13 → Injury 13", () => {
    const r = resolveAttack(request({ damage: 15 }), { attack: [10, 3], damage: [9, 13] });
    expect(r.outcome).toBe("wound");
    expect(r.wound).toEqual({ row: 13, type: "injury" });
    expect(r.woundKey).toBe("injury");
    expect(marksAfter(r)).toEqual({ 13: "injury" });
    expect(r.defenderAfter?.status.condition).toBe("dying");
    expect(r.steps.every((s) => s.rule.startsWith("Volt: "))).toBe(true);
  });

  it("a die hits if above Guard and no higher than the attack value", () => {
    // Guard 8, attack 14: 8 misses (not above), 14 hits, 15 misses
    expect(resolveAttack(request(), { attack: [8, 15] }).outcome).toBe("miss");
    expect(resolveAttack(request(), { attack: [8, 15] }).hit).toBe(false);
    expect(resolveAttack(request(), { attack: [14, 15], damage: [20, 20] }).numbers.hits).toBe(1);
    expect(resolveAttack(request(), { attack: [9, 2], damage: [20, 20] }).numbers.hits).toBe(1);
  });

  it("Hit vs Full Hit: +2 Pierce, +5 Damage", () => {
    const hit = resolveAttack(request({ damage: 10, pierce: 5 }), { attack: [12, 3], damage: [12, 14] });
    expect(keys(hit)).toContain("FUDGE.Volt.Step.Hit");
    expect(hit.numbers).toMatchObject({ hits: 1, pierce: 5, damageValue: 10, damageSuccess: 0 });
    expect(hit.wound).toEqual({ failedRoll: true, damage: 10, type: "injury" });
    const full = resolveAttack(request({ damage: 10, pierce: 5 }), { attack: [12, 9], damage: [12, 14] });
    expect(keys(full)).toContain("FUDGE.Volt.Step.FullHit");
    expect(full.numbers).toMatchObject({ hits: 2, pierce: 7, damageValue: 15 });
    expect(full.wound).toEqual({ row: 14, type: "injury" });
  });

  it("a failed damage roll marks the lowest unmarked row, or nothing above the Damage", () => {
    const r = resolveAttack(request({ damage: 10, defenderMarks: { 1: "injury" } }), {
      attack: [12, 3],
      damage: [15, 18],
    });
    expect(marksAfter(r)).toEqual({ 1: "injury", 2: "injury" });
    const none = resolveAttack(request({ damage: 1, defenderMarks: { 1: "injury" } }), {
      attack: [12, 3],
      damage: [15, 18],
    });
    expect(marksAfter(none)).toEqual({ 1: "injury" });
    expect(none.defenderAfter?.steps.map((s) => s.key)).toEqual(["FUDGE.Volt.Step.FailedAboveDamage"]);
  });

  it("ranged: a die hits if above the distance", () => {
    const r = request({ ranged: true, distance: 12, guard: 2 });
    expect(resolveAttack(r, { attack: [12, 11] }).outcome).toBe("miss");
    expect(resolveAttack(r, { attack: [13, 11], damage: [3, 4] }).numbers).toMatchObject({ hits: 1, threshold: 12 });
  });

  it("the attacker's wound penalty is subtracted from the attack value", () => {
    // Will 6, Stun on row 8: −4 → attack 14 becomes 10; a 12 no longer hits
    const r = resolveAttack(request({ attackerMarks: { 8: "stun" } }), { attack: [12, 3] });
    expect(r.numbers.attackValue).toBe(10);
    expect(r.outcome).toBe("miss");
    expect(resolveAttack(request({ modifier: 2 }), { attack: [16, 3], damage: [1, 1] }).numbers).toMatchObject({
      attackValue: 16,
      hits: 1,
    });
  });

  it("attack values over 20 add 20 to a die that still succeeds", () => {
    // attack 25, guard 18: a 3 counts as 23 → hit
    const r = resolveAttack(request({ attack: 25, guard: 18 }), { attack: [3, 10], damage: [1, 1] });
    expect(r.numbers.hits).toBe(1);
  });

  it("armor: Coverage 1–19 is bypassed when the white die is above it, hit or not", () => {
    const armor = { coverage: 10, protection: [4, 11] as [number, number] };
    // white 16 misses (above attack 14) but is above Coverage → armor bypassed
    const by = resolveAttack(request({ armor, pierce: 5 }), { attack: [12, 16], damage: [13, 2] });
    expect(keys(by)).toContain("FUDGE.Volt.Step.ArmorBypassed");
    expect(by.wound).toEqual({ row: 13, type: "injury" });
    // white 10 is not above Coverage 10 → struck, Pierce 5 inside 4–11: Damage −5, Stun
    const struck = resolveAttack(request({ armor, pierce: 5 }), { attack: [12, 10], damage: [9, 2] });
    expect(keys(struck)).toContain("FUDGE.Volt.Step.ArmorCovers");
    expect(struck.numbers.damageValue).toBe(15); // Full Hit (10 hits too): 15 + 5 − 5
    expect(struck.wound).toEqual({ row: 9, type: "stun" });
  });

  it("armor: Coverage 20 always strikes", () => {
    const armor = { coverage: 20, protection: [4, 11] as [number, number] };
    const r = resolveAttack(request({ armor, pierce: 5 }), { attack: [12, 20], damage: [9, 2] });
    expect(keys(r)).toContain("FUDGE.Volt.Step.ArmorSealed");
    expect(r.numbers.damageValue).toBe(10);
    expect(r.wound).toEqual({ row: 9, type: "stun" });
  });

  it("armor: Pierce below → no damage; inside → −5 and Stun; above → as if no armor", () => {
    const armor = { coverage: 20, protection: [6, 9] as [number, number] };
    const below = resolveAttack(request({ armor, pierce: 5 }), { attack: [12, 3] });
    expect(below).toMatchObject({ outcome: "noDamage", hit: true, wound: null, defenderAfter: null });
    expect(below.dice.damage).toBeUndefined();
    const inside = resolveAttack(request({ armor, pierce: 6 }), { attack: [12, 3], damage: [7, 3] });
    expect(inside.numbers.damageValue).toBe(10);
    expect(inside.wound).toEqual({ row: 7, type: "stun" });
    const top = resolveAttack(request({ armor, pierce: 9 }), { attack: [12, 3], damage: [7, 3] });
    expect(top.wound).toEqual({ row: 7, type: "stun" });
    const above = resolveAttack(request({ armor, pierce: 10 }), { attack: [12, 3], damage: [7, 14] });
    expect(keys(above)).toContain("FUDGE.Volt.Step.ArmorPierced");
    expect(above.numbers.damageValue).toBe(15);
    expect(above.wound).toEqual({ row: 14, type: "injury" });
    // a Full Hit's +2 Pierce can carry the attack through
    const fullHit = resolveAttack(request({ armor, pierce: 8 }), { attack: [12, 13], damage: [7, 14] });
    expect(fullHit.numbers).toMatchObject({ pierce: 10, damageValue: 20 });
    expect(fullHit.wound).toEqual({ row: 14, type: "injury" });
  });

  it("stun weapon: a Hit deals Stun; a Full Hit also makes a separate Injury roll without the +5", () => {
    const hit = resolveAttack(request({ stun: true, damage: 10 }), { attack: [12, 3], damage: [6, 2] });
    expect(hit.wound).toEqual({ row: 6, type: "stun" });
    expect(hit.dice.injuryDamage).toBeUndefined();
    const full = resolveAttack(request({ stun: true, damage: 10 }), {
      attack: [12, 9],
      damage: [14, 2],
      injuryDamage: [12, 9],
    });
    expect(full.wound).toEqual([
      { row: 14, type: "stun" },
      { row: 9, type: "injury" },
    ]);
    expect(full.numbers).toMatchObject({ damageValue: 15, injuryDamageValue: 10 });
    expect(full.woundKey).toBe("stun+injury");
    expect(marksAfter(full)).toEqual({ 14: "stun", 9: "injury" });
    expect(full.defenderAfter?.status).toMatchObject({ condition: "dying", canAct: false });
    // the Injury lands on the Stun → "+"
    const plus = resolveAttack(request({ stun: true, damage: 10 }), {
      attack: [12, 9],
      damage: [8, 2],
      injuryDamage: [8, 2],
    });
    expect(marksAfter(plus)).toEqual({ 8: "injuryOnStun" });
  });

  it("does not mutate the request", () => {
    const req = request({ defenderMarks: { 13: "stun" } });
    const before = JSON.stringify(req);
    resolveAttack(req, { attack: [10, 3], damage: [9, 13] });
    expect(JSON.stringify(req)).toBe(before);
  });

  it("rolls only the dice the rules need", () => {
    const rng = seededRng(7);
    for (let i = 0; i < 50; i++) {
      const r = rollAttack(request({ stun: true }), rng);
      expect(Object.keys(r.dice)).toContain("attack");
      if (r.outcome === "miss") expect(Object.keys(r.dice)).toEqual(["attack"]);
      if (r.numbers.hits === 1) expect(r.dice.injuryDamage).toBeUndefined();
    }
  });

  it("bad input names the field", () => {
    const with_ = (path: string[], v: unknown): Record<string, unknown> => {
      const r = request() as Record<string, any>;
      let o = r;
      for (const k of path.slice(0, -1)) o = o[k];
      o[path[path.length - 1]] = v;
      return r;
    };
    const attack = { attack: [10, 3], damage: [9, 13] };
    expect(fieldOf(() => resolveAttack(with_(["attacker", "weapon", "damage"], "x"), attack))).toBe(
      "attacker.weapon.damage",
    );
    expect(fieldOf(() => resolveAttack(with_(["attacker", "weapon", "stun"], 1), attack))).toBe("attacker.weapon.stun");
    expect(fieldOf(() => resolveAttack(with_(["attacker", "weapon"], undefined), attack))).toBe("attacker.weapon");
    expect(fieldOf(() => resolveAttack(with_(["defender", "guard"], undefined), attack))).toBe("defender.guard");
    expect(
      fieldOf(() => resolveAttack(with_(["defender", "armor"], { coverage: 21, protection: [1, 2] }), attack)),
    ).toBe("defender.armor.coverage");
    expect(
      fieldOf(() => resolveAttack(with_(["defender", "armor"], { coverage: 5, protection: [6, 2] }), attack)),
    ).toBe("defender.armor.protection[1]");
    expect(fieldOf(() => resolveAttack(with_(["defender", "track"], { config: { kind: "volt" } }), attack))).toBe(
      "defender.track.config.willpower",
    );
    expect(fieldOf(() => resolveAttack(with_(["options", "recovery"], "yearly"), attack))).toBe("options.recovery");
    expect(fieldOf(() => resolveAttack(request({ ranged: true }), attack))).toBe("situation.distance");
    expect(fieldOf(() => resolveAttack(request({ attackerMarks: { 11: "stun" } }), attack))).toBe("attacker.track");
    expect(fieldOf(() => resolveAttack(request(), { attack: [10, 3] }))).toBe("dice.damage");
    expect(fieldOf(() => resolveAttack(request(), { attack: [10, 21] }))).toBe("dice.attack[1]");
    expect(fieldOf(() => resolveAttack(request(), { attack: [10] }))).toBe("dice.attack");
  });

  it("options.recovery defaults to monthly and accepts weekly / nightly", () => {
    const p = pipelineFor("volt");
    const r = request();
    delete r.options;
    expect(p.parseRequest(r).options.recovery).toBe("monthly");
    expect(p.parseRequest({ ...request(), options: { recovery: "nightly" } }).options.recovery).toBe("nightly");
  });
});

describe("Volt exact odds", () => {
  const summary = (r: AttackResolution): string =>
    JSON.stringify([
      r.outcome,
      r.woundKey,
      r.wound,
      r.defenderAfter ? trackStateKey(r.defenderAfter.track) : null,
      r.defenderAfter?.status.condition ?? null,
    ]);

  function exact(input: Record<string, unknown>): Map<string, number> {
    const p = pipelineFor("volt");
    const req = p.parseRequest(input);
    const out = new Map<string, number>();
    enumerateDice(
      p.slots(req),
      (d) => p.resolve(req, d),
      (r: AttackResolution, prob) => out.set(summary(r), (out.get(summary(r)) ?? 0) + prob),
    );
    return out;
  }

  function brute(input: Record<string, unknown>): Map<string, number> {
    const p = pipelineFor("volt");
    const req = p.parseRequest(input);
    const slots = p.slots(req);
    const out = new Map<string, number>();
    for (let a = 0; a < 400; a++) {
      const attack = [1 + Math.floor(a / 20), 1 + (a % 20)];
      // a miss or a no-damage hit never reads the damage dice
      const probe = p.resolve(req, recordedDice({ attack, damage: [20, 20] }, slots));
      const damages = probe.dice.damage ? 400 : 1;
      for (let d = 0; d < damages; d++) {
        const damage = [1 + Math.floor(d / 20), 1 + (d % 20)];
        const r = p.resolve(req, recordedDice({ attack, damage }, slots));
        const k = summary(r);
        out.set(k, (out.get(k) ?? 0) + 1 / 400 / damages);
      }
    }
    return out;
  }

  const same = (a: Map<string, number>, b: Map<string, number>): void => {
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [k, v] of a) expect(v).toBeCloseTo(b.get(k) as number, 12);
  };

  it("outcome classes give the same distribution as all 400 × 400 dice pairs (armor, Full Hit)", () => {
    const input = request({
      attack: 15,
      damage: 12,
      pierce: 5,
      guard: 6,
      armor: { coverage: 12, protection: [5, 6] },
      defenderMarks: { 2: "injury", 12: "stun" },
    });
    const e = exact(input);
    expect([...e.values()].reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    same(e, brute(input));
  });

  it("… and without armor, damage over 20", () => {
    const input = request({ attack: 12, damage: 22, pierce: 5, guard: 4 });
    same(exact(input), brute(input));
  });

  it("stun weapon: each slot's classes match the 400 raw pairs in every context", () => {
    const p = pipelineFor("volt");
    const req = p.parseRequest(
      request({
        stun: true,
        attack: 15,
        damage: 9,
        guard: 5,
        armor: { coverage: 15, protection: [3, 6] },
        defenderMarks: { 9: "injury" },
      }),
    );
    const slots = p.slots(req);
    const outcomes = Object.fromEntries(slots.map((s) => [s.id, s.outcomes()]));
    for (const id of ["attack", "damage", "injuryDamage"]) {
      expect(outcomes[id].reduce((s, o) => s + o.p, 0)).toBeCloseTo(1, 12);
      const others = slots.filter((s) => s.id !== id).map((s) => s.id);
      // contexts: the other slots at class representatives
      const contexts: Record<string, number[]>[] = [{}];
      for (const o of others) {
        const next: Record<string, number[]>[] = [];
        // at most 6 representatives per other slot, spread over its classes (keeps the test fast)
        const reps = outcomes[o].filter(
          (_, i, all) => all.length <= 6 || i % Math.ceil(all.length / 6) === 0 || i === all.length - 1,
        );
        for (const c of contexts) for (const x of reps) next.push({ ...c, [o]: x.dice });
        contexts.splice(0, contexts.length, ...next);
      }
      for (const c of contexts) {
        const byClass = new Map<string, number>();
        for (const x of outcomes[id]) {
          const k = summary(p.resolve(req, recordedDice({ ...c, [id]: x.dice }, slots)));
          byClass.set(k, (byClass.get(k) ?? 0) + x.p);
        }
        const raw = new Map<string, number>();
        for (let b = 1; b <= 20; b++)
          for (let w = 1; w <= 20; w++) {
            const k = summary(p.resolve(req, recordedDice({ ...c, [id]: [b, w] }, slots)));
            raw.set(k, (raw.get(k) ?? 0) + 1 / 400);
          }
        same(byClass, raw);
      }
    }
  });

  it("without explanation (explain: false) builds no step, and resolves every dice pair as the explained resolution", () => {
    // The forecast's enumerations resolve thousands of leaves and read no step (issue 34).
    const p = pipelineFor("volt");
    for (const o of [{}, { stun: true }, { armor: { coverage: 14, protection: [2, 6] as [number, number] } }]) {
      const req = p.parseRequest(request(o));
      for (let a = 1; a <= 20; a += 3)
        for (let d = 1; d <= 20; d += 4) {
          const rolled: Record<string, number[]> = { attack: [a, 21 - a], damage: [d, 21 - d] };
          if ("stun" in o) rolled.injuryDamage = [d, a];
          const dice = recordedDice(rolled, p.slots(req));
          const full = p.resolve(req, dice);
          const quiet = p.resolve(req, dice, { explain: false });
          expect(quiet.steps).toEqual([]);
          expect(full.steps.length).toBeGreaterThan(0);
          expect({ ...quiet, steps: full.steps }).toEqual(full);
        }
    }
  });
});
