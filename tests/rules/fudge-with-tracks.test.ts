/**
 * The duel forecast swaps the tracks of a parsed request with `withTracks` (fudgeWithTracks),
 * which reuses the damage factors prepared for the request. Every resolution must equal that of
 * the same request parsed afresh with those tracks (explanation, numbers, wound, preview, errors).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededRng, rollingDice, type AttackResolution, pipelineFor, applyWound, type Track } from "../../src/rules";
import { fighter, fudgeOptions, parsedFudgeRequest, fudgeSituation } from "./fudge-arbitraries";

const outcome = (f: () => AttackResolution): unknown => {
  try {
    return f();
  } catch (e) {
    return { error: String(e), field: (e as { field?: unknown }).field };
  }
};

describe("fudgeWithTracks = the request parsed afresh with those tracks", () => {
  const p = pipelineFor("fudge");
  it("every option combination, wounded and stunned tracks", () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fighter,
        fighter,
        fudgeOptions,
        fudgeSituation,
        fc.array(fc.constantFrom("scratch", "hurt", "veryHurt", "incapacitated"), { maxLength: 3 }),
        fc.array(fc.constantFrom("scratch", "hurt", "veryHurt"), { maxLength: 3 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 1000 }),
        (a, d, o, s, aWounds, dWounds, stunned, seed) => {
          const parsed = parsedFudgeRequest(a, d, o, s);
          if (!parsed) return;
          const { input, req } = parsed;
          const wounded = (t: Track, levels: string[]): Track => {
            for (const level of levels) {
              try {
                t = applyWound(t, stunned && t.config.kind === "box" ? { level, stun: true } : { level }).track;
              } catch {
                // a level the track does not have (pawn, DC track): leave it
              }
            }
            return t;
          };
          const aTrack = wounded(req.attacker.track, aWounds);
          const dTrack = wounded(req.defender.track, dWounds);
          // The base request's factors are prepared first, as in a forecast.
          outcome(() => p.resolve(req, rollingDice(p.slots(req), seededRng(seed))));
          const swapped = p.withTracks!(req, aTrack, dTrack);
          const fresh = p.parseRequest({
            ...input,
            attacker: { ...input.attacker, track: aTrack },
            defender: { ...input.defender, track: dTrack },
          });
          for (const opts of [{}, { explain: false, preview: false }]) {
            const x = outcome(() => p.resolve(swapped, rollingDice(p.slots(swapped), seededRng(seed)), opts));
            const y = outcome(() => p.resolve(fresh, rollingDice(p.slots(fresh), seededRng(seed)), opts));
            expect(x).toEqual(y);
          }
          compared++;
        },
      ),
      { numRuns: 400, seed: 10 },
    );
    expect(compared).toBeGreaterThan(100);
  });
});
