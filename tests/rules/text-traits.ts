/**
 * The sample combatants with their gifts and faults as text only: the packs' Miniatures datacards
 * carry their gifts' and faults' rules (Steadfast, Mercenary, Chivalrous …; seed 004 "Sample
 * characters"), and the tests written for the mechanics without them (the forecast's chain
 * against duels played by the pipeline, the goldens of the speed work) keep their datacards as
 * they were. The rules themselves are tested in tests/rules/miniatures-traits.test.ts.
 */
import { resolveSamples as samplesWithRules } from "../../src/cli/samples";

export function resolveSamples(request: Record<string, unknown>): Record<string, unknown> {
  const out = samplesWithRules(request);
  for (const side of ["attacker", "defender", "a", "b"]) {
    const card = out[side] as Record<string, unknown> | undefined;
    if (!card || typeof card !== "object") continue;
    for (const slot of ["gift", "fault"]) {
      const t = card[slot] as Record<string, unknown> | undefined;
      if (!t || typeof t !== "object") continue;
      const { rule: _rule, value: _value, ...text } = t;
      card[slot] = text;
    }
  }
  return out;
}
