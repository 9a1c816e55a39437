/**
 * Volt attack pipeline (seed 001, RULES.md §5): attack roll against Guard (or distance), Hit or
 * Full Hit, armor (Coverage with the white die, Pierce against Protection), damage roll into a
 * wound row. Each side attacks in turn ("alternating").
 */
import { RulesError } from "../errors";
import { dieValues, rollDie, type DiceOutcome, type Rng } from "../dice";
import { signed, step, type Step } from "../explain";
import {
  resolution,
  type AttackPipeline,
  type AttackRequest,
  type AttackResolution,
  type DiceReader,
  type DiceSlot,
  type ResolveOptions,
} from "../pipeline";
import { applyWound, parseTrack, trackStatus, type Track } from "../track";
import { array, at, bool, int, oneOf, optInt, record, str, type Path } from "../validate";
import {
  rollStep,
  VOLT_MAX_WOUND_ROW,
  VOLT_RECOVERY_INTERVALS,
  type VoltRecoveryInterval,
  type VoltWound,
  type VoltWoundType,
} from "./track";
import { voltDie, voltRoll } from "./roll";

export const VOLT_ATTACK_RULE = {
  attack: "Volt: The attack roll",
  fullHit: "Volt: Full hit",
  armor: "Volt: Armor",
  damage: "Volt: The damage roll",
  effects: "Volt: The Immediate Effects",
} as const;

/** Full Hit: +2 Pierce, +5 Damage (Volt: Full hit). */
export const VOLT_FULL_HIT_PIERCE = 2;
export const VOLT_FULL_HIT_DAMAGE = 5;
/** Pierce inside the Protection interval: Damage −5, marked as Stun (Volt: Armor). */
export const VOLT_ARMOR_DAMAGE_REDUCTION = 5;

export interface VoltWeapon {
  name: string;
  attack: number;
  damage: number;
  pierce: number;
  /** A "*" weapon: deals Stun (and, on a Full Hit, a separate Injury roll). */
  stun: boolean;
  ranged: boolean;
}

export interface VoltArmor {
  coverage: number;
  protection: [number, number];
}

export interface VoltCombatant {
  name: string;
  track: Track;
  willpower: number | null;
  strength: number | null;
  weapon: VoltWeapon | null;
  guard: number | null;
  armor: VoltArmor | null;
}

export interface VoltOptions {
  recovery: VoltRecoveryInterval;
}

export interface VoltSituation extends Record<string, unknown> {
  /** Ranged attacks: a die hits if above the distance. */
  distance: number | null;
  /** Added to the attack value. */
  modifier: number;
}

export interface VoltAttackRequest extends AttackRequest<VoltCombatant, VoltOptions> {
  preset: "volt";
  situation: VoltSituation;
}

// ---------------------------------------------------------------------------------------------
// Parsing

/**
 * The largest Damage a weapon may have: a Full Hit adds +5, and a damage roll's result (up to the
 * Damage itself, Volt: The damage roll) names the row marked, which must be a row a wound can name.
 * Refused at input, so exact odds never meet a wound they cannot record.
 */
export const VOLT_MAX_DAMAGE = VOLT_MAX_WOUND_ROW - VOLT_FULL_HIT_DAMAGE;

function parseWeapon(input: unknown, path: Path): VoltWeapon {
  const o = record(input, path);
  const damage = int(o.damage, at(path, "damage"), 0, 999);
  if (damage > VOLT_MAX_DAMAGE)
    throw new RulesError(
      at(path, "damage"),
      "FUDGE.Volt.Error.DamageTooHigh",
      `Damage ${damage} cannot fit the wound track: a Full Hit (+${VOLT_FULL_HIT_DAMAGE}) would name a row above ${VOLT_MAX_WOUND_ROW}`,
      {
        damage,
        max: VOLT_MAX_DAMAGE,
      },
    );
  return {
    name: str(o.name, at(path, "name"), ""),
    attack: int(o.attack, at(path, "attack"), -99, 999),
    damage,
    pierce: optInt(o.pierce, at(path, "pierce"), 0, -99, 999),
    stun: bool(o.stun, at(path, "stun"), false),
    ranged: bool(o.ranged, at(path, "ranged"), false),
  };
}

function parseArmor(input: unknown, path: Path): VoltArmor | null {
  if (input === undefined || input === null) return null;
  const o = record(input, path);
  const coverage = int(o.coverage, at(path, "coverage"), 1, 20);
  const pr = array(o.protection, at(path, "protection"), 2, 2);
  const a = int(pr[0], at(at(path, "protection"), 0), 0, 999);
  const b = int(pr[1], at(at(path, "protection"), 1), a, 999);
  return { coverage, protection: [a, b] };
}

function parseCombatant(input: unknown, path: Path, role: "attacker" | "defender"): VoltCombatant {
  const o = record(input, path);
  const track = parseTrack(o.track, at(path, "track"));
  if (role === "defender" && track.config.kind !== "volt")
    throw new RulesError(
      at(path, "track.config.kind"),
      "FUDGE.Volt.Error.NotVoltTrack",
      `the defender needs a "volt" wound track (got "${track.config.kind}")`,
    );
  const opt = (k: string, min: number, max: number): number | null =>
    o[k] === undefined || o[k] === null ? null : int(o[k], at(path, k), min, max);
  return {
    name: str(o.name, at(path, "name"), ""),
    track,
    willpower: opt("willpower", 0, 99),
    strength: opt("strength", 0, 99),
    weapon:
      role === "attacker"
        ? parseWeapon(o.weapon, at(path, "weapon"))
        : o.weapon === undefined || o.weapon === null
          ? null
          : parseWeapon(o.weapon, at(path, "weapon")),
    guard: opt("guard", 0, 999),
    armor: parseArmor(o.armor, at(path, "armor")),
  };
}

export function parseVoltRequest(input: unknown): VoltAttackRequest {
  const o = record(input, "");
  oneOf(o.preset, "preset", ["volt"] as const);
  const attacker = parseCombatant(o.attacker, "attacker", "attacker");
  const defender = parseCombatant(o.defender, "defender", "defender");
  const opts = record(o.options ?? {}, "options");
  const options: VoltOptions = {
    recovery: oneOf(opts.recovery, "options.recovery", VOLT_RECOVERY_INTERVALS, "monthly"),
  };
  const sit = record(o.situation ?? {}, "situation");
  const weapon = attacker.weapon as VoltWeapon;
  const distance = weapon.ranged
    ? int(sit.distance, "situation.distance", 0, 999)
    : sit.distance === undefined || sit.distance === null
      ? null
      : int(sit.distance, "situation.distance", 0, 999);
  const situation: VoltSituation = { distance, modifier: optInt(sit.modifier, "situation.modifier", 0, -99, 99) };
  if (!weapon.ranged && defender.guard === null)
    throw new RulesError("defender.guard", "FUDGE.Volt.Error.GuardNeeded", "a melee attack needs the defender's Guard");
  // Volt: The Immediate Effects — a character who cannot act does not attack.
  if (!trackStatus(attacker.track).canAct)
    throw new RulesError(
      "attacker.track",
      "FUDGE.Volt.Error.CannotAct",
      "the attacker cannot act (a mark above the worst penalty)",
    );
  return { preset: "volt", attacker, defender, options, situation };
}

// ---------------------------------------------------------------------------------------------
// The numbers of a request

/** Attack value: weapon Attack + situation modifier + the attacker's wound penalty (≤ 0, subtracted). */
export function voltAttackValue(req: VoltAttackRequest): { value: number; penalty: number } {
  const penalty = trackStatus(req.attacker.track).penalty;
  return { value: (req.attacker.weapon as VoltWeapon).attack + req.situation.modifier + penalty, penalty };
}

/** What a die must beat: Guard (melee) or the distance (ranged). */
export function voltThreshold(req: VoltAttackRequest): number {
  const w = req.attacker.weapon as VoltWeapon;
  return w.ranged ? (req.situation.distance as number) : (req.defender.guard as number);
}

/** Volt: The attack roll — a die hits if above Guard (or distance) and no higher than the value. */
export function voltAttackDieHits(value: number, threshold: number, face: number): boolean {
  const d = voltDie(value, face);
  return d.success && d.value > threshold;
}

/** Volt: Armor — Coverage 20 always; otherwise struck unless the white die is above Coverage. */
export function voltArmorStruck(armor: VoltArmor, white: number): boolean {
  return armor.coverage >= 20 || white <= armor.coverage;
}

function damageValues(req: VoltAttackRequest, slot: "damage" | "injuryDamage"): number[] {
  const w = req.attacker.weapon as VoltWeapon;
  const base = slot === "damage" ? [w.damage, w.damage + VOLT_FULL_HIT_DAMAGE] : [w.damage];
  const withArmor = req.defender.armor ? base.flatMap((d) => [d, d - VOLT_ARMOR_DAMAGE_REDUCTION]) : base;
  return [...new Set(withArmor)];
}

/** Group the 400 pairs by a signature; one representative per class. */
function classes(signature: (black: number, white: number) => string): DiceOutcome[] {
  const byKey = new Map<string, DiceOutcome>();
  for (let black = 1; black <= 20; black++)
    for (let white = 1; white <= 20; white++) {
      const k = signature(black, white);
      const o = byKey.get(k);
      if (o) o.p += 1;
      else byKey.set(k, { dice: [black, white], p: 1 });
    }
  return [...byKey.values()].map((o) => ({ dice: o.dice, p: o.p / 400 }));
}

function d20Pair(id: string, labelKey: string, outcomes: () => DiceOutcome[]): DiceSlot {
  return {
    id,
    formula: "2d20",
    labelKey,
    roll: (rng: Rng) => [rollDie(20, rng), rollDie(20, rng)],
    outcomes,
    uniform: { n: 2, sides: 20, lowest: 1 },
  };
}

function slots(req: VoltAttackRequest): DiceSlot[] {
  const { value } = voltAttackValue(req);
  const threshold = voltThreshold(req);
  const armor = req.defender.armor;
  // Exact odds: attack pairs that hit the same way (and strike armor the same way) resolve alike.
  const list = [
    d20Pair("attack", "FUDGE.Volt.Dice.Attack", () =>
      classes(
        (b, w) =>
          `${voltAttackDieHits(value, threshold, b)}/${voltAttackDieHits(value, threshold, w)}/${armor ? voltArmorStruck(armor, w) : ""}`,
      ),
    ),
    // Damage pairs that give the same result for every Damage this request can roll resolve alike
    // (all failures of a value are one class: a failed roll marks the lowest unmarked row).
    d20Pair("damage", "FUDGE.Volt.Dice.Damage", () => {
      const values = damageValues(req, "damage");
      return classes((b, w) =>
        values
          .map((v) => {
            const r = voltRoll(v, b, w);
            return r.success ? r.result : "f";
          })
          .join("/"),
      );
    }),
  ];
  if ((req.attacker.weapon as VoltWeapon).stun)
    list.push(
      d20Pair("injuryDamage", "FUDGE.Volt.Dice.InjuryDamage", () => {
        const values = damageValues(req, "injuryDamage");
        return classes((b, w) =>
          values
            .map((v) => {
              const r = voltRoll(v, b, w);
              return r.success ? r.result : "f";
            })
            .join("/"),
        );
      }),
    );
  return list;
}

// ---------------------------------------------------------------------------------------------
// Resolution

interface DamageRoll {
  wound: VoltWound;
  /** Null when the caller asked for no explanation (ResolveOptions.explain false). */
  steps: Step[] | null;
  value: number;
  result: number;
  success: boolean;
}

/** The numbers a damage roll adds to the resolution, by slot (names built once). */
const DAMAGE_NUMBERS = {
  damage: { value: "damageValue", result: "damageResult", success: "damageSuccess" },
  injuryDamage: { value: "injuryDamageValue", result: "injuryDamageResult", success: "injuryDamageSuccess" },
} as const;

function damageRoll(
  dice: DiceReader,
  slot: "damage" | "injuryDamage",
  value: number,
  type: VoltWoundType,
  explain: boolean,
): DamageRoll {
  const path = slot === "damage" ? "dice.damage" : "dice.injuryDamage";
  const [black, white] = dieValues(dice(slot), path, 2, 20);
  // Volt: The damage roll — roll the Damage like an attribute; the result is the row marked.
  const roll = voltRoll(value, black, white, path);
  const steps: Step[] | null = explain
    ? [
        step(
          slot === "damage" ? "FUDGE.Volt.Step.DamageRoll" : "FUDGE.Volt.Step.InjuryDamageRoll",
          VOLT_ATTACK_RULE.damage,
          value,
          { damage: value, type },
        ),
        rollStep(roll, VOLT_ATTACK_RULE.damage),
      ]
    : null;
  const numbers = { value, result: roll.result, success: roll.success };
  if (roll.success) {
    steps?.push(step("FUDGE.Volt.Step.DamageWound", VOLT_ATTACK_RULE.damage, roll.result, { row: roll.result, type }));
    return { wound: { row: roll.result, type }, steps, ...numbers };
  }
  // Volt: The attack roll — a failed damage roll marks the lowest unmarked row (not above the Damage).
  steps?.push(step("FUDGE.Volt.Step.DamageFailed", VOLT_ATTACK_RULE.damage, value, { damage: value, type }));
  return { wound: { failedRoll: true, damage: value, type }, steps, ...numbers };
}

/** The steps of a resolution asked for without explanation (ResolveOptions.explain false). */
const NO_STEPS: Step[] = Object.freeze([]) as unknown as Step[];

function resolve(req: VoltAttackRequest, dice: DiceReader, opts: ResolveOptions = {}): AttackResolution {
  const weapon = req.attacker.weapon as VoltWeapon;
  // No explanation asked (exact odds, the forecast's enumerations): no step is built at all.
  const steps: Step[] | null = opts.explain === false ? null : [];
  const numbers: Record<string, number> = {};
  const read: Record<string, number[]> = {};
  const reader: DiceReader = (id) => {
    const d = dice(id);
    read[id] = d;
    return d;
  };
  const { value, penalty } = voltAttackValue(req);
  const threshold = voltThreshold(req);
  const [black, white] = dieValues(reader("attack"), "dice.attack", 2, 20);
  Object.assign(numbers, { attackValue: value, threshold, black, white });
  steps?.push(
    step("FUDGE.Volt.Step.AttackValue", VOLT_ATTACK_RULE.attack, value, {
      weapon: weapon.name,
      attack: weapon.attack,
      modifier: signed(req.situation.modifier),
      penalty: signed(penalty),
      value,
    }),
    step(
      weapon.ranged ? "FUDGE.Volt.Step.ThresholdDistance" : "FUDGE.Volt.Step.ThresholdGuard",
      VOLT_ATTACK_RULE.attack,
      threshold,
      { threshold },
    ),
  );
  const blackHit = voltAttackDieHits(value, threshold, black);
  const whiteHit = voltAttackDieHits(value, threshold, white);
  steps?.push(
    step(blackHit ? "FUDGE.Volt.Step.BlackHits" : "FUDGE.Volt.Step.BlackMisses", VOLT_ATTACK_RULE.attack, black, {
      die: black,
    }),
    step(whiteHit ? "FUDGE.Volt.Step.WhiteHits" : "FUDGE.Volt.Step.WhiteMisses", VOLT_ATTACK_RULE.attack, white, {
      die: white,
    }),
  );
  const hits = Number(blackHit) + Number(whiteHit);
  numbers.hits = hits;
  const base = { preset: "volt" as const, numbers, dice: read, steps: steps ?? NO_STEPS, followUps: [] };
  if (hits === 0) {
    steps?.push(step("FUDGE.Volt.Step.Miss", VOLT_ATTACK_RULE.attack));
    return resolution(base, "miss", false, null, null, null);
  }
  const full = hits === 2;
  let pierce = weapon.pierce;
  let damage = weapon.damage;
  if (full) {
    // Volt: Full hit — +2 Pierce, +5 Damage.
    pierce += VOLT_FULL_HIT_PIERCE;
    damage += VOLT_FULL_HIT_DAMAGE;
    steps?.push(step("FUDGE.Volt.Step.FullHit", VOLT_ATTACK_RULE.fullHit, damage, { pierce, damage }));
  } else steps?.push(step("FUDGE.Volt.Step.Hit", VOLT_ATTACK_RULE.attack, damage, { pierce, damage }));
  numbers.pierce = pierce;

  let type: VoltWoundType = weapon.stun ? "stun" : "injury";
  let absorbed = false;
  const armor = req.defender.armor;
  if (armor) {
    numbers.coverage = armor.coverage;
    const struck = voltArmorStruck(armor, white);
    if (armor.coverage >= 20) steps?.push(step("FUDGE.Volt.Step.ArmorSealed", VOLT_ATTACK_RULE.armor, 20));
    else
      steps?.push(
        step(struck ? "FUDGE.Volt.Step.ArmorCovers" : "FUDGE.Volt.Step.ArmorBypassed", VOLT_ATTACK_RULE.armor, white, {
          white,
          coverage: armor.coverage,
        }),
      );
    if (struck) {
      const [a, b] = armor.protection;
      const params = { pierce, from: a, to: b };
      if (pierce < a) {
        // Volt: Armor — Pierce below the Protection: deflected, no damage at all.
        steps?.push(step("FUDGE.Volt.Step.ArmorDeflects", VOLT_ATTACK_RULE.armor, pierce, params));
        return resolution(base, "noDamage", true, null, null, null);
      }
      if (pierce > b) steps?.push(step("FUDGE.Volt.Step.ArmorPierced", VOLT_ATTACK_RULE.armor, pierce, params));
      else {
        // Volt: Armor — inside the interval: Damage −5, marked as Stun.
        absorbed = true;
        damage -= VOLT_ARMOR_DAMAGE_REDUCTION;
        type = "stun";
        steps?.push(step("FUDGE.Volt.Step.ArmorStops", VOLT_ATTACK_RULE.armor, damage, { ...params, damage }));
      }
    }
  }

  const explain = steps !== null;
  const rolls = [damageRoll(reader, "damage", damage, type, explain)];
  if (full && weapon.stun) {
    // Volt: Full hit — a Stun weapon also inflicts Injury: a separate roll, without the +5.
    const injuryDamage = weapon.damage - (absorbed ? VOLT_ARMOR_DAMAGE_REDUCTION : 0);
    steps?.push(
      step("FUDGE.Volt.Step.StunWeaponInjury", VOLT_ATTACK_RULE.fullHit, injuryDamage, { damage: injuryDamage }),
    );
    rolls.push(damageRoll(reader, "injuryDamage", injuryDamage, absorbed ? "stun" : "injury", explain));
  }
  for (let i = 0; i < rolls.length; i++) {
    const r = rolls[i];
    if (r.steps) steps?.push(...r.steps);
    const names = DAMAGE_NUMBERS[i === 0 ? "damage" : "injuryDamage"];
    numbers[names.value] = r.value;
    numbers[names.result] = r.result;
    numbers[names.success] = r.success ? 1 : 0;
  }
  const wounds = rolls.map((r) => r.wound);
  const wound = wounds.length === 1 ? wounds[0] : wounds;
  const woundKey = wounds.length === 1 ? wounds[0].type : [...new Set(wounds.map((w) => w.type))].join("+");
  // The duel forecast places the wound on the real track itself: no preview.
  if (opts.preview === false) return resolution(base, "wound", true, woundKey, wound, null);
  const after = applyWound(req.defender.track, wound);
  return resolution(base, "wound", true, woundKey, wound, {
    track: after.track,
    status: after.status,
    steps: after.steps,
    ended: after.ended,
  });
}

export const voltPipeline: AttackPipeline<VoltAttackRequest> = {
  preset: "volt",
  exchange: "alternating",
  // Volt: Guard, distance and armor are the defender's fixed numbers; only the attacker's penalty moves the roll.
  parseRequest: parseVoltRequest,
  slots,
  resolve,
};
