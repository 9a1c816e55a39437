/**
 * The healing request a sheet's heal button sends to the track. Most
 * kinds need nothing; a healing roll, natural healing and Volt injury recovery need a roll or a
 * number that the host gathers (dialog, dice) and passes in here.
 */
import { RulesError, levelWithNumber } from "../rules";
import type { Step } from "../rules";
import { medicalRoll, type MedicalRollResult } from "../rules/volt";
import { facesText, readFudgeTotal } from "../rules/fudge";
import type { ActorDoc, CharacterData, WorldRules } from "./data";
import { traitEffects } from "./combatant";
import { healsWithConstitutionRoll, injuryRecoveryTitle } from "./rolling";
import { ladderOf } from "./view";
import { roleLevel } from "./attributes";

/** Inputs a heal kind needs from the user, by kind (rendered as a small dialog). */
export const HEAL_INPUTS: Record<string, readonly { name: string; min: number; max: number; initial: number }[]> = {
  // Fudge §4.8: the healer's skill rolls against the wounds; Good heals 1 level, Great 2, Superb 3.
  roll: [{ name: "skill", min: -10, max: 10, initial: 0 }],
  // Fudge §4.8: one level per week of rest.
  natural: [{ name: "weeks", min: 0, max: 520, initial: 1 }],
  // Volt: Recovery — the treating character's medical Background value (0 = no medical care); the
  // table rolls it (two d20) before the recovery roll, and a success lowers that roll's value.
  injuryRecovery: [{ name: "medicalValue", min: 0, max: 99, initial: 0 }],
};

/** The healing dialog's context (templates/dialog/heal-dialog.hbs), for Foundry and the playground. */
export function healDialogContext(
  type: string,
  actorName: string,
  rules: Pick<WorldRules, "volt">,
  healers: HealerGroup[] = [],
) {
  return {
    actorName,
    // Fudge §4.8: the healing roll is the healer's skill: picked from his skills, not typed.
    healers,
    healerPick: type === "roll",
    // Volt: Recovery — the world's interval, so the table knows how often this roll is made.
    ...(type === "injuryRecovery"
      ? { titleKey: injuryRecoveryTitle(rules), noteKey: `FUDGE.Heal.InjuryRecoveryInterval.${rules.volt.recovery}` }
      : {}),
    fields: (HEAL_INPUTS[type] ?? [])
      .filter((s) => !(type === "roll" && s.name === "skill"))
      .map((s) => ({
        ...s,
        labelKey: `FUDGE.Heal.Input.${s.name}`,
        hintKey: `FUDGE.Heal.Hint.${s.name}`,
      })),
    cssClass: "fudge-wounds fudge-heal-dialog",
  };
}

/** A submitted healing form → the numbers healingRequest checks (blank → the field's default). */
export function readHealInputs(type: string, form: Iterable<[string, unknown]>): Record<string, number> {
  const specs = HEAL_INPUTS[type] ?? [];
  const out: Record<string, number> = {};
  for (const [name, raw] of form) {
    const s = specs.find((x) => x.name === name);
    if (!s) continue;
    out[name] = typeof raw === "string" && raw.trim() === "" ? s.initial : Number(raw);
  }
  return out;
}

export interface HealDice {
  /** Four Fudge dice (−1, 0, +1). */
  fudge: number[];
  /** Two d20: black, white. */
  d20: [number, number];
  /** Volt: the medical Background roll's two d20 (black, white), rolled before the recovery roll when there is medical care. */
  medical?: [number, number];
}

type HealInput = (typeof HEAL_INPUTS)[string][number];

function inputError(spec: HealInput, v: number): RulesError | null {
  if (Number.isInteger(v) && v >= spec.min && v <= spec.max) return null;
  return new RulesError(
    `healing.${spec.name}`,
    "FUDGE.Error.OutOfRange",
    `must be between ${spec.min} and ${spec.max}`,
    {
      min: spec.min,
      max: spec.max,
      value: String(v),
    },
  );
}

/** The healing dialog's numbers checked before any die is rolled: the first out of its range, or null. */
export function healInputsError(type: string, inputs: Record<string, number>): RulesError | null {
  for (const spec of HEAL_INPUTS[type] ?? []) {
    const bad = inputError(spec, inputs[spec.name] ?? spec.initial);
    if (bad) return bad;
  }
  return null;
}

const medicalValueOf = (inputs: Record<string, number>): number => inputs.medicalValue ?? 0;

/** Volt: Recovery — does this heal roll the medical Background first (injury recovery with a medical value above 0)? */
export function healsWithMedicalRoll(type: string, inputs: Record<string, number>): boolean {
  return type === "injuryRecovery" && medicalValueOf(inputs) > 0;
}

/**
 * Volt: Recovery — the medical Background roll of an injury recovery, from its dice (the rules
 * core's medicalRoll); null for other heal kinds. Value 0: no medical care, no roll.
 */
export function medicalRollOf(
  type: string,
  inputs: Record<string, number>,
  dice: Pick<HealDice, "medical">,
): MedicalRollResult | null {
  if (type !== "injuryRecovery") return null;
  const value = medicalValueOf(inputs);
  if (value > 0 && !dice.medical) throw new Error("the medical Background roll was not rolled");
  const [black, white] = dice.medical ?? [1, 1];
  return medicalRoll(value, black, white);
}

/**
 * The lines of an injury recovery's chat note (Volt: Recovery): the medical Background roll's
 * steps (its roll, what it lowers), then the recovery's own steps. `format(key, params)` is the host's.
 */
export function injuryRecoveryNoteLines(
  inputs: Record<string, number>,
  dice: Pick<HealDice, "medical">,
  steps: readonly Step[],
  format: (key: string, params: Record<string, string | number>) => string,
): string[] {
  const medical = medicalRollOf("injuryRecovery", inputs, dice);
  return [...(medical?.steps ?? []), ...steps].map((s) => format(s.key, s.params ?? {}));
}

/**
 * Fudge §4.8 (RULES §2.5): the Constitution roll of natural healing, as the rules core reads it —
 * the rolled degree of the character's Constitution, which is his Damage Capacity (Fudge §4.52:
 * DC "may be tied to a character trait such as Constitution"), + 4dF. No wound penalty: the
 * Difficulty already rises with the wound (Fair for Hurt … Great for Incapacitated), and an
 * Incapacitated character, who cannot act, still heals (this system's reading, docs/foundry.md).
 */
export function constitutionRoll(
  actor: ActorDoc,
  fudge: readonly number[],
  rules: Pick<WorldRules, "attributeSet">,
): { trait: number; dice: number; rolled: number } {
  if (actor.type === "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.NotCharacter", "a Constitution roll needs a Fudge character", {
      name: actor.name,
    });
  // Constitution is the attribute that plays Damage Capacity in the world's set (Fudge §4.52).
  const trait = roleLevel((actor.system as CharacterData).attributes, rules.attributeSet, "damageCapacity");
  const dice = readFudgeTotal(fudge, "dice.fudge", 4);
  return { trait, dice, rolled: trait + dice };
}

/** The healing note's line for a Constitution roll (i18n key and params), or null when the heal made none. */
export function healNoteLine(
  type: string,
  actor: ActorDoc,
  dice: HealDice,
  rules: WorldRules,
): { key: string; params: Record<string, string> } | null {
  if (!healsWithConstitutionRoll(type, actor, rules)) return null;
  const c = constitutionRoll(actor, dice.fudge, rules);
  const ladder = ladderOf(rules);
  const name = (n: number) => levelWithNumber(n, ladder);
  return {
    key: "FUDGE.Heal.ConstitutionNote",
    params: { trait: name(c.trait), faces: facesText(dice.fudge), rolled: name(c.rolled) },
  };
}

/**
 * The request for the rules core's healTrack. `rules` (the world's; required, so that no caller
 * drops an option) turns on the Constitution roll of natural healing (Fudge §4.8, world option);
 * the host rolled its 4dF into `dice.fudge`.
 */
export function healingRequest(
  type: string,
  actor: ActorDoc,
  inputs: Record<string, number>,
  dice: HealDice,
  rules: WorldRules,
): Record<string, unknown> {
  const need = (name: string): number => {
    const spec = (HEAL_INPUTS[type] ?? []).find((s) => s.name === name)!;
    const bad = inputError(spec, inputs[name] ?? spec.initial);
    if (bad) throw bad;
    return inputs[name] ?? spec.initial;
  };
  switch (type) {
    case "roll": {
      // Fudge §4.8: the healing roll's rolled degree names how many levels heal.
      const total = dice.fudge.reduce((a, b) => a + b, 0);
      return { type, result: need("skill") + total };
    }
    case "natural": {
      // Fudge §4.8: Rapid Healing heals twice as fast.
      const rapid = traitEffects(actor).some((t) => t.effect === "rapidHealing");
      const req: Record<string, unknown> = rapid
        ? { type, weeks: need("weeks"), rapid }
        : { type, weeks: need("weeks") };
      // Fudge §4.8 (RULES §2.5): with the world's option, the Constitution roll gates each step.
      if (healsWithConstitutionRoll(type, actor, rules))
        req.constitution = constitutionRoll(actor, dice.fudge, rules).rolled;
      return req;
    }
    case "injuryRecovery": {
      if (actor.type === "miniature")
        throw new RulesError("actor.type", "FUDGE.Error.NotCharacter", "injury recovery needs a Volt character", {
          name: actor.name,
        });
      // Volt: Recovery — a successful medical Background roll lowers this roll's value by its result.
      need("medicalValue");
      const medical = medicalRollOf(type, inputs, dice)!.lowers;
      const [black, white] = dice.d20;
      return { type, black, white, strength: (actor.system as CharacterData).volt.strength, medical };
    }
    default:
      return { type };
  }
}

// ─── The healer (Fudge §4.8: "the healer's skill") ─────────────────────────────────────

/** One healer's skills in the healing dialog (an <optgroup>): option values "actorId:skillId". */
export interface HealerGroup {
  name: string;
  options: { value: string; label: string }[];
}

/**
 * Fudge §4.8 healing roll: who heals, with which of his skills — every skill of the actors this
 * user may act as (a GM: every actor), the healed one among them. Nothing is picked beforehand: a
 * healing roll needs a healer and his skill, never a bare number.
 */
export function healerChoices(
  healers: readonly ActorDoc[],
  rules: WorldRules,
  names: Partial<Record<string, string>> = {},
): HealerGroup[] {
  const ladder = ladderOf(rules, names);
  return healers
    .filter((h) => h.type !== "miniature")
    .map((h) => ({
      name: h.name,
      options: (h.items ?? [])
        .filter((i) => i.type === "skill")
        .map((i) => ({
          value: `${h._id}:${i._id}`,
          label: `${i.name}: ${levelWithNumber((i.system as { level: number }).level, ladder)}`,
        })),
    }))
    .filter((g) => g.options.length > 0);
}

/** The healer picked in the form ("actorId:skillId"), or null when none was. */
export function readHealer(form: Iterable<[string, unknown]>): { actorId: string; skillId: string } | null {
  for (const [name, raw] of form) {
    if (name !== "healer" || typeof raw !== "string") continue;
    const m = /^([A-Za-z0-9]{1,64}):([A-Za-z0-9]{1,64})$/.exec(raw);
    if (m) return { actorId: m[1], skillId: m[2] };
  }
  return null;
}

/** The healer's skill by its id, read from the live healer (never from the form's label). */
export function healerSkill(healer: ActorDoc, skillId: string): { name: string; level: number } {
  const s = (healer.items ?? []).find((i) => i._id === skillId && i.type === "skill");
  if (!s)
    throw new RulesError("healer", "FUDGE.Error.Heal.NoSuchSkill", `${healer.name} has no such skill`, {
      name: healer.name,
    });
  return { name: s.name, level: (s.system as { level: number }).level };
}
