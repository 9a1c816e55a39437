/** Volt: Recovery — the Recover action, rolled from its dice. */
import { signed, step, type Step } from "../explain";
import { healTrack, trackStatus, type Track } from "../track";
import { int } from "../validate";
import { rollStep, VOLT_RULE } from "../tracks/volt";
import { voltRoll, type VoltRollResult } from "./roll";

export interface RecoverActionResult {
  track: Track;
  /** Null when the character cannot act (no roll is made). */
  roll: VoltRollResult | null;
  steps: Step[];
}

/**
 * The action *Recover*: requires being able to act; roll Willpower with the wound penalty
 * (penalty subtracted from the value); a success clears the highest Stun.
 */
export function recoverAction(track: Track, willpower: number, black: number, white: number): RecoverActionResult {
  int(willpower, "willpower", 0, 99);
  const status = trackStatus(track);
  if (!status.canAct) return { track, roll: null, steps: [step("FUDGE.Volt.Step.RecoverCannotAct", VOLT_RULE.recovery)] };
  const value = willpower + status.penalty;
  const roll = voltRoll(value, black, white);
  const steps: Step[] = [step("FUDGE.Volt.Step.RecoverRoll", VOLT_RULE.recovery, value, { willpower, penalty: signed(status.penalty), value }), rollStep(roll, VOLT_RULE.recovery)];
  const healed = healTrack(track, { type: "recover", result: roll.success ? "success" : "failure" });
  return { track: healed.track, roll, steps: [...steps, ...healed.steps] };
}
