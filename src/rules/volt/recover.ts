/** Volt: Recovery — the Recover action, rolled from its dice. */
import { signed, step, type Step } from "../explain";
import { healTrack, trackStatus, type Track } from "../track";
import { int } from "../validate";
import { highestInjury, rollStep, VOLT_RULE, type VoltTrackState } from "./track";
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
  if (!status.canAct)
    return { track, roll: null, steps: [step("FUDGE.Volt.Step.RecoverCannotAct", VOLT_RULE.recovery)] };
  const value = willpower + status.penalty;
  const roll = voltRoll(value, black, white);
  const steps: Step[] = [
    step("FUDGE.Volt.Step.RecoverRoll", VOLT_RULE.recovery, value, {
      willpower,
      penalty: signed(status.penalty),
      value,
    }),
    rollStep(roll, VOLT_RULE.recovery),
  ];
  const healed = healTrack(track, { type: "recover", result: roll.success ? "success" : "failure" });
  return { track: healed.track, roll, steps: [...steps, ...healed.steps] };
}

export interface MedicalRollResult {
  /** The treating character's medical Background value rolled against (0 = no medical care). */
  value: number;
  /** Null when there was no medical care (value 0: no roll is made). */
  roll: VoltRollResult | null;
  /** How much the Injury recovery roll's value is lowered: the result on a success, else 0. */
  lowers: number;
  steps: Step[];
}

/**
 * Volt: Recovery — "A successful roll using a suitable medical Background reduces the Injury with
 * its result for this particular roll (not permanently)": the treating character's medical
 * Background is a Volt roll (two d20 against its value); a success lowers the value of this one
 * Injury recovery roll by its result, a failure lowers nothing. Value 0: no medical care, no roll.
 */
export function medicalRoll(value: number, black: number, white: number): MedicalRollResult {
  int(value, "medicalValue", 0, 99);
  if (value === 0) return { value, roll: null, lowers: 0, steps: [] };
  const roll = voltRoll(value, black, white, "dice.medical");
  const lowers = roll.success ? roll.result : 0;
  const steps: Step[] = [
    step("FUDGE.Volt.Step.MedicalRoll", VOLT_RULE.recovery, value, { value }),
    rollStep(roll, VOLT_RULE.recovery),
    roll.success
      ? step("FUDGE.Volt.Step.MedicalLowers", VOLT_RULE.recovery, lowers, { result: lowers })
      : step("FUDGE.Volt.Step.MedicalFailed", VOLT_RULE.recovery),
  ];
  return { value, roll, lowers, steps };
}

/** Volt: Recovery — the highest Injury on a Volt track (the recovery roll's value), null when there is none to recover from. */
export function injuryToRecover(track: Track): number | null {
  return highestInjury(track.state as VoltTrackState);
}
