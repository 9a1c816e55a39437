import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveAttack, newTrack } from "../../src/rules";
import { boxTrackConfig } from "../../src/rules/fudge";

const LEVELS = [null, "scratch", "hurt", "veryHurt", "incapacitated", "nearDeath"];
const df = (t: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(t) ? Math.sign(t) : 0));

const sizes = ["none", "martialArt", "small", "medium", "large", "twoHanded"];
const fighter = fc.record({
  skill: fc.integer({ min: -3, max: 4 }),
  strength: fc.integer({ min: -3, max: 3 }),
  strengthScale: fc.integer({ min: 0, max: 4 }),
  massScale: fc.integer({ min: 0, max: 4 }),
  damageCapacity: fc.integer({ min: -3, max: 3 }),
  armor: fc.record({ value: fc.integer({ min: 0, max: 5 }), magic: fc.integer({ min: 0, max: 1 }) }),
  size: fc.constantFrom(...sizes),
  sharp: fc.boolean(),
  heavyBlunt: fc.boolean(),
});
type F = typeof fighter extends fc.Arbitrary<infer T> ? T : never;
const combatant = (f: F, name: string, doubleRd: boolean) => ({
  name,
  skill: f.skill,
  strength: f.strength,
  strengthScale: f.strengthScale,
  massScale: f.massScale,
  damageCapacity: f.damageCapacity,
  armor: f.armor,
  weapon: { kind: "muscle", size: f.size, sharp: f.sharp, heavyBlunt: f.heavyBlunt },
  track: newTrack(boxTrackConfig("standard", { doubleRd })),
});

describe("fudge pipeline properties", () => {
  it("a better attack roll never gives a milder wound (no damage roll, any graze scale rule)", () => {
    fc.assert(
      fc.property(
        fighter,
        fighter,
        fc.integer({ min: -4, max: 4 }),
        fc.boolean(),
        fc.constantFrom("one", "perPoint", "none"),
        (a, d, def, doubleRd, scaleRaise) => {
          const req = {
            preset: "fudge",
            attacker: combatant(a, "A", doubleRd),
            defender: combatant(d, "D", doubleRd),
            options: { doubleRd, graze: { scaleRaise } },
            situation: {},
          };
          let prev = -1;
          for (let atk = -4; atk <= 4; atk++) {
            const r = resolveAttack(req, { attack: df(atk), defense: df(def) });
            const sev = LEVELS.indexOf(r.woundKey);
            expect(sev).toBeGreaterThanOrEqual(0);
            expect(sev).toBeGreaterThanOrEqual(prev);
            prev = sev;
            // Consistency of the numbers the card shows.
            expect(r.numbers.relativeDegree).toBe(r.numbers.attackerTotal - r.numbers.defenderTotal);
            expect(r.hit).toBe(r.numbers.relativeDegree >= 1);
            if (r.hit) expect(r.numbers.damageFactor).toBe(r.numbers.odf - r.numbers.ddf);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("more armor never gives a worse wound", () => {
    fc.assert(
      fc.property(
        fighter,
        fighter,
        fc.integer({ min: -4, max: 4 }),
        fc.integer({ min: -4, max: 4 }),
        (a, d, atk, def) => {
          const sev = (armor: number) =>
            LEVELS.indexOf(
              resolveAttack(
                {
                  preset: "fudge",
                  attacker: combatant(a, "A", false),
                  defender: combatant({ ...d, armor: { value: armor, magic: 0 } }, "D", false),
                  options: {},
                  situation: {},
                },
                { attack: df(atk), defense: df(def) },
              ).woundKey,
            );
          for (let armor = 0; armor < 6; armor++) expect(sev(armor + 1)).toBeLessThanOrEqual(sev(armor));
        },
      ),
      { numRuns: 200 },
    );
  });
});
