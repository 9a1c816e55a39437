/**
 * What the page should show, computed in Node from the stored documents with the rules core
 * (the wound track's own status), independently of the templates and the DOM.
 */
import { signed, trackStateKey, trackStatus } from "../../src/rules";
import { trackFor } from "../../src/system/combatant";
import { worldRulesFrom, type ActorDoc } from "../../src/system/data";

export function expectedStatus(stored: { settings: Record<string, unknown> }, actor: unknown) {
  const rules = worldRulesFrom((k) => stored.settings[k]);
  const st = trackStatus(trackFor(actor as ActorDoc, rules));
  return { penalty: st.penalty, penaltyText: signed(st.penalty), condition: st.condition, levelKey: st.levelKey };
}

/** The rules core's canonical key of an actor's track state (equal for equal tracks; null and the empty state are equal). */
export function trackKey(stored: { settings: Record<string, unknown> }, actor: unknown): string {
  const rules = worldRulesFrom((k) => stored.settings[k]);
  return trackStateKey(trackFor(actor as ActorDoc, rules));
}
