/**
 * Preset `miniatures`: the attack of Fudge Miniatures Battles (seed 004 "Combat", RULES §3).
 * The attacker rolls 4dF (Legendary) + MODF or RODF against the target's DDF; the target does
 * not roll. The wound number (total − DDF) goes on the target's Miniatures box track.
 */
import { RulesError } from "../errors";
import { signed, step, type Step } from "../explain";
import {
  resolution,
  type AttackPipeline,
  type AttackRequest,
  type AttackResolution,
  type DiceReader,
  type DiceSlot,
  type FollowUp,
} from "../pipeline";
import { applyWound, trackStatus, type Track, type TrackStatus } from "../track";
import { at, bool, num, optInt, record } from "../validate";
import { levelForDamage, levelIndex, type BoxTrackConfig } from "../fudge/box-track";
import { datacard, findWeapon, parseDatacard, STAT_LIMIT, traitValue, traitWith, type MiniDatacard } from "./datacard";
import {
  GUTS_RULE,
  GUTS_TARGETS,
  gutsEffectInfo,
  gutsRollPenalty,
  gutsRollPenaltyRule,
  parseGutsState,
  type GutsEffect,
  type GutsRollPenaltyRule,
  type GutsState,
} from "./guts";
import { legendarySlot, legendaryTotal } from "./legendary";
import { rangePenalty } from "./movement";

const MELEE = "Miniatures: Melee Combat";
const RANGED = "Miniatures: Ranged Combat";
const COMBAT = "Miniatures: Combat";
const WOUNDS = "Miniatures: Wounds";
const TRAITS = "Miniatures: Sample characters";

/** Bonus of the crash wound of a flying model that falls Near Death ("an additional 4dF+5 wound"). */
export const CRASH_BONUS = 5;

export interface MiniCombatant extends MiniDatacard {
  /** Failed Guts checks still in force (guts.ts); default none. */
  gutsState?: GutsState;
}

export interface MiniOptions {
  /** Wound penalties also lower HDDF. Default false. */
  penaltyLowersHddf: boolean;
  /** The gang-up +1 also applies to ranged attacks. Default false: the seed gives it under Melee Combat. */
  gangUpRanged: boolean;
  /**
   * Which rolls a Guts failure by 1 lowers (guts.ts GUTS_ROLL_PENALTY_RULES): "allRolls" (default)
   * or "attackRolls". Attack rolls take it either way; the duel forecast's Guts rolls read it.
   * Kept absent when not given (a request without it parses as it always did).
   */
  gutsRollPenalty?: GutsRollPenaltyRule;
}

export interface MiniSituation {
  /** Index into the attacker's weapons. The request may name it instead; default the first weapon. */
  weapon: number;
  /** Number of other models attacking the same enemy; ≥ 1 gives +1 to hit. Default 0. */
  gangUp: number;
  /** Distance to the target in inches (ranged); default within Range. */
  rangeInches: number | null;
  /** The target is behind cover (ranged): −1. Default false. */
  cover: boolean;
  /** The attacker is in base contact with an enemy. Default true for melee, false for ranged. */
  inContact: boolean;
  /** The target is helpless (HDDF). Default false. */
  helpless: boolean;
  /** The target is surprised (HDDF). Default false. */
  surprised: boolean;
  /** This shot goes into a melee where friends of the attacker fight (they check Guts at +0). Default false. */
  friendShootsIntoMelee: boolean;
  /** Any other modifier to the roll (a Guts runner's free attack at +1, a GM's call). Default 0. */
  modifier: number;
  /** The attacker strikes from behind: a Skilled backstabber adds its +value ODF. Default false (kept absent when not given). */
  fromBehind?: boolean;
  /**
   * This attack is the free attack on a model leaving base contact (Miniatures: Disengaging; a
   * Guts runner's too): a Poor melee combatant defender gives it +value. Default false (kept absent when not given).
   */
  disengaging?: boolean;
}

export interface MiniAttackRequest extends AttackRequest<MiniCombatant, MiniOptions> {
  preset: "miniatures";
  situation: MiniSituation & Record<string, unknown>;
}

function parseCombatant(input: unknown, path: string): MiniCombatant {
  const card = parseDatacard(input, path) as MiniCombatant;
  if (card.track.config.kind !== "box")
    throw new RulesError(
      at(path, "track.config.kind"),
      "FUDGE.Error.Miniatures.TrackKind",
      `the miniatures preset needs a box track (got "${card.track.config.kind}")`,
    );
  const o = input as Record<string, unknown>;
  if (o.gutsState !== undefined) card.gutsState = parseGutsState(o.gutsState, at(path, "gutsState"));
  return card;
}

function parseRequest(input: unknown): MiniAttackRequest {
  const o = record(input, "");
  if (o.preset !== "miniatures")
    throw new RulesError(
      "preset",
      "FUDGE.Error.UnknownPreset",
      `expected "miniatures" (got ${JSON.stringify(o.preset)})`,
    );
  const attacker = parseCombatant(o.attacker, "attacker");
  const defender = parseCombatant(o.defender, "defender");
  const op = o.options === undefined ? {} : record(o.options, "options");
  const options: MiniOptions = {
    penaltyLowersHddf: bool(op.penaltyLowersHddf, "options.penaltyLowersHddf", false),
    gangUpRanged: bool(op.gangUpRanged, "options.gangUpRanged", false),
  };
  if (op.gutsRollPenalty !== undefined)
    options.gutsRollPenalty = gutsRollPenaltyRule(op as { gutsRollPenalty?: GutsRollPenaltyRule });
  const s = o.situation === undefined ? {} : record(o.situation, "situation");
  const weapon =
    s.weapon === undefined
      ? findWeapon(attacker, 0, "situation.weapon")
      : findWeapon(attacker, s.weapon, "situation.weapon");
  const w = attacker.weapons[weapon];
  const situation: MiniSituation & Record<string, unknown> = {
    ...s,
    weapon,
    gangUp: optInt(s.gangUp, "situation.gangUp", 0, 0, 100),
    rangeInches:
      s.rangeInches === undefined || s.rangeInches === null
        ? null
        : num(s.rangeInches, "situation.rangeInches", 0, 100000),
    cover: bool(s.cover, "situation.cover", false),
    inContact: bool(s.inContact, "situation.inContact", w.kind === "melee"),
    helpless: bool(s.helpless, "situation.helpless", false),
    surprised: bool(s.surprised, "situation.surprised", false),
    friendShootsIntoMelee: bool(s.friendShootsIntoMelee, "situation.friendShootsIntoMelee", false),
    modifier: optInt(s.modifier, "situation.modifier", 0, -STAT_LIMIT, STAT_LIMIT),
  };
  // The gifts' and faults' flags: only where given, so a request without them parses as it always did.
  if (s.fromBehind !== undefined) situation.fromBehind = bool(s.fromBehind, "situation.fromBehind");
  if (s.disengaging !== undefined) situation.disengaging = bool(s.disengaging, "situation.disengaging");
  return { preset: "miniatures", attacker, defender, options, situation };
}

function slots(): DiceSlot[] {
  return [
    legendarySlot("attack", "FUDGE.Miniatures.Dice.Attack"),
    legendarySlot("crash", "FUDGE.Miniatures.Dice.Crash"),
  ];
}

/** Wound level rank for Guts checks: Scratch (and unhurt) 0, then one per level with an effect. */
export function woundRank(config: BoxTrackConfig, key: string | null): number {
  if (key === null) return 0;
  const i = levelIndex(config, key);
  const levels = config.levels.slice(0, i + 1);
  return levels.filter((l) => l.effect !== "none").length + (i >= config.levels.length ? 1 : 0);
}

/**
 * Whether the defender is defenceless, by the field that makes it so, else null. This system's
 * reading of Chivalrous's "defenseless" (docs/rules-api.md): a Near Death model (face up, it
 * "cannot do anything else"), a helpless target (`situation.helpless`), and a model that failed a
 * Guts check by 4 ("enemies treat it as a helpless target"). A surprised target, or one that runs
 * (failure by 3), can still defend: not defenceless.
 */
export function defenceless(dStatus: TrackStatus, gutsEffect: number, helpless = false): string | null {
  if (dStatus.condition === "dying") return "defender.track";
  if (helpless) return "situation.helpless";
  if (gutsEffectInfo(gutsEffect as GutsEffect).helpless) return "defender.gutsState.effect";
  return null;
}

/** Checks what the rules forbid before any die is read; throws a RulesError naming the field. */
function checkLegal(req: MiniAttackRequest, aStatus: TrackStatus, dStatus: TrackStatus): void {
  const { attacker: a, defender: d, situation: s } = req;
  const w = a.weapons[s.weapon];
  // Miniatures: Wounds — a Near Death model "cannot do anything else"; the dead do not fight.
  if (!aStatus.canAct)
    throw new RulesError(
      "attacker.track",
      "FUDGE.Error.Miniatures.CannotAct",
      `${a.name} cannot act (${aStatus.levelKey ?? aStatus.condition})`,
      { name: a.name },
    );
  if (dStatus.condition === "dead")
    throw new RulesError("defender.track", "FUDGE.Error.Miniatures.AlreadyDead", `${d.name} is already dead`, {
      name: d.name,
    });
  // Miniatures: Guts — a failure by 2 or more: may not attack (3 runs, 4 cowers).
  const g = gutsEffectInfo(a.gutsState?.effect ?? 0);
  if (!g.mayAttack)
    throw new RulesError(
      "attacker.gutsState.effect",
      "FUDGE.Error.Miniatures.GutsNoAttack",
      `${a.name} failed a Guts check and may not attack`,
      { name: a.name, effect: g.effect },
    );
  // Miniatures: Sample characters — Chivalrous: "Cannot strike a defenseless opponent".
  const why = defenceless(dStatus, d.gutsState?.effect ?? 0, s.helpless);
  if (why && traitWith(a, "chivalrous"))
    throw new RulesError(
      why,
      "FUDGE.Error.Miniatures.Chivalrous",
      `${a.name} is chivalrous and cannot strike ${d.name}, who is defenseless`,
      { name: a.name, target: d.name },
    );
  if (w.kind === "ranged" && s.inContact && !w.shootInContact)
    // Miniatures: Ranged Combat — no firing in base contact unless the weapon says so.
    throw new RulesError(
      "situation.inContact",
      "FUDGE.Error.Miniatures.ShootInContact",
      `${w.name} may not be fired in base contact with an enemy`,
      { weapon: w.name },
    );
  if (w.kind === "melee" && !s.inContact) {
    // Miniatures: Melee Combat — melee attacks need base contact unless the weapon says otherwise (its reach).
    if (w.range === undefined)
      throw new RulesError(
        "situation.inContact",
        "FUDGE.Error.Miniatures.MeleeNotInContact",
        `${w.name} needs base-to-base contact`,
        { weapon: w.name },
      );
    if (s.rangeInches !== null && s.rangeInches > w.range)
      throw new RulesError(
        "situation.rangeInches",
        "FUDGE.Error.Miniatures.OutOfReach",
        `${w.name} reaches ${w.range}"`,
        { weapon: w.name, reach: w.range },
      );
  }
}

function resolve(req: MiniAttackRequest, read: DiceReader): AttackResolution {
  const { attacker: a, defender: d, situation: s, options } = req;
  const aStatus = trackStatus(a.track);
  const dStatus = trackStatus(d.track);
  checkLegal(req, aStatus, dStatus);
  const steps: Step[] = [];
  const w = a.weapons[s.weapon];
  const aCard = datacard(a, aStatus.penalty, options);
  const dCard = datacard(d, dStatus.penalty, options);
  const dw = aCard.weapons[s.weapon];
  steps.push(...dw.steps);
  const numbers: Record<string, number> = {};
  const mods = rollModifiers(req, steps, numbers);

  // Which defence: DDF, or HDDF against a Near Death, helpless or surprised target.
  const nearDeath = dStatus.condition === "dying";
  const dGuts = gutsEffectInfo(d.gutsState?.effect ?? 0);
  const useHddf = nearDeath || s.helpless || s.surprised || dGuts.helpless;
  const defence = useHddf ? dCard.hddf : dCard.ddf;
  if (useHddf) {
    const why = nearDeath ? "nearDeath" : dGuts.helpless ? "terrified" : s.helpless ? "helpless" : "surprised";
    steps.push(
      step("FUDGE.Miniatures.Step.UseHddf", nearDeath ? WOUNDS : COMBAT, defence, {
        reason: why,
        value: signed(defence),
      }),
    );
  } else steps.push(...dCard.steps.filter((x) => x.key === "FUDGE.Miniatures.Step.Ddf"));

  const faces = read("attack");
  const roll = legendaryTotal(faces, "dice.attack");
  if (roll.rerolls.length > 0)
    steps.push(
      step("FUDGE.Miniatures.Step.Legendary", "Miniatures: Ground rules", roll.total - roll.base, {
        rerolls: roll.rerolls.length,
      }),
    );
  const total = roll.total + dw.odf + mods;
  steps.push(
    step("FUDGE.Miniatures.Step.AttackRoll", w.kind === "melee" ? MELEE : RANGED, total, {
      dice: signed(roll.total),
      odf: signed(dw.odf),
      modifiers: signed(mods),
      total: signed(total),
      defense: signed(defence),
    }),
  );
  const margin = total - defence;
  Object.assign(numbers, {
    dice: roll.total,
    odf: dw.odf,
    modifiers: mods,
    attackerTotal: total,
    ddf: dCard.ddf,
    hddf: dCard.hddf,
    defense: defence,
    relativeDegree: margin,
  });
  const dice: Record<string, number[]> = { attack: faces };
  const followUps: FollowUp[] = [];
  if (w.kind === "ranged" && s.friendShootsIntoMelee) {
    // Miniatures: Guts — "a friend shoots into the combat": the attacker's friends in that melee check at +0.
    followUps.push({
      type: "gutsCheck",
      target: "attacker",
      params: { who: "friendsInMelee", target: GUTS_TARGETS.friendShoots, reason: "friendShoots" },
      steps: [step("FUDGE.Miniatures.Step.GutsFriendShoots", GUTS_RULE, GUTS_TARGETS.friendShoots)],
    });
  }
  const base = { preset: "miniatures" as const, numbers, dice, steps, followUps };

  if (!nearDeath && total < defence) {
    // Miniatures: Combat — a hit needs the total to equal or beat DDF.
    steps.push(step("FUDGE.Miniatures.Step.Miss", COMBAT, margin));
    return resolution(base, "miss", false, null, null, null);
  }
  if (nearDeath) steps.push(step("FUDGE.Miniatures.Step.AutoHit", WOUNDS));
  const config = d.track.config as unknown as BoxTrackConfig;
  // Miniatures: Combat — the wound equals the relative degree (total − DDF); 0 is a Scratch.
  const level = margin < 0 ? null : levelForDamage(config, margin);
  numbers.damageNumber = margin;
  if (level === null) {
    steps.push(step("FUDGE.Miniatures.Step.NoWound", WOUNDS, margin));
    return resolution(base, "noDamage", true, null, null, null);
  }
  steps.push(step("FUDGE.Miniatures.Step.Wound", WOUNDS, margin, { level, damage: margin }));
  const wound = { level };
  const after = woundAndItsSequels(req, wound, dStatus, read, base);
  return resolution(base, "wound", true, level, wound, after);
}

/** Modifiers to the attack roll (not to stats): gang-up, range, cover, a Guts failure by 1, the situation, traits. */
function rollModifiers(req: MiniAttackRequest, steps: Step[], numbers: Record<string, number>): number {
  const { attacker: a, defender: d, situation: s, options } = req;
  const w = a.weapons[s.weapon];
  let mods = 0;
  // Miniatures: Melee Combat — "If more than one model are attacking a single enemy, each attack gains a +1 bonus to hit."
  const gangUp = s.gangUp >= 1 && (w.kind === "melee" || options.gangUpRanged) ? 1 : 0;
  if (gangUp) {
    mods += 1;
    steps.push(step("FUDGE.Miniatures.Step.GangUp", MELEE, 1, { others: s.gangUp }));
  }
  numbers.gangUp = gangUp;
  let rp = 0;
  if (w.kind === "ranged") {
    if (s.rangeInches !== null) {
      // Miniatures: Ranged Combat — −1 for every multiple of the weapon's Range or portion thereof.
      rp = rangePenalty(w.range!, s.rangeInches);
      steps.push(
        step("FUDGE.Miniatures.Step.Range", RANGED, rp, {
          distance: s.rangeInches,
          range: w.range!,
          penalty: signed(rp),
        }),
      );
    }
    if (s.cover) {
      // Miniatures: Ranged Combat — a target behind cover: −1.
      mods -= 1;
      steps.push(step("FUDGE.Miniatures.Step.Cover", RANGED, -1));
    }
  }
  mods += rp;
  numbers.rangePenalty = rp;
  numbers.cover = w.kind === "ranged" && s.cover ? -1 : 0;
  // Miniatures: Guts — a failure by 1 in force: "−1 to rolls (Rolls only, not stats)"; an attack
  // roll under either gutsRollPenalty rule.
  const shaken = gutsRollPenalty(a.gutsState);
  if (shaken !== 0) {
    mods += shaken;
    steps.push(step("FUDGE.Miniatures.Step.GutsRollPenalty", GUTS_RULE, shaken));
  }
  numbers.gutsPenalty = shaken;
  if (s.modifier !== 0) {
    mods += s.modifier;
    steps.push(step("FUDGE.Miniatures.Step.Modifier", COMBAT, s.modifier, { value: signed(s.modifier) }));
  }
  numbers.modifier = s.modifier;
  /** A trait's +value to the roll when its situation holds: a step, and `numbers[rule]` (absent otherwise). */
  const traitBonus = (
    when: boolean | undefined,
    card: MiniDatacard,
    rule: "backstabber" | "poorMelee",
    numberKey: string,
  ): void => {
    const t = when ? traitWith(card, rule) : undefined;
    if (!t) return;
    const v = traitValue(t);
    mods += v;
    steps.push(step(`FUDGE.Miniatures.Step.Trait.${rule}`, TRAITS, v, { name: t.name, value: signed(v) }));
    numbers[numberKey] = v;
  };
  // Miniatures: Sample characters — Skilled backstabber: "+1 ODF when attacking from behind".
  traitBonus(s.fromBehind, a, "backstabber", "backstab");
  // Miniatures: Sample characters — Poor melee combatant: "opponents get +1 to 'free' disengagement attack".
  traitBonus(s.disengaging, d, "poorMelee", "poorMelee");
  return mods;
}

/**
 * The wound on the defender's track and what follows it: a flying model's crash, the Guts check
 * or Near Death fall the new level calls for, a Self-interest model's flight.
 */
function woundAndItsSequels(
  req: MiniAttackRequest,
  wound: { level: string },
  dStatus: TrackStatus,
  read: DiceReader,
  base: { numbers: Record<string, number>; dice: Record<string, number[]>; steps: Step[]; followUps: FollowUp[] },
): { track: Track; status: TrackStatus; steps: Step[]; ended: boolean } {
  const d = req.defender;
  const { numbers, dice, steps, followUps } = base;
  const config = d.track.config as unknown as BoxTrackConfig;
  const nearDeath = dStatus.condition === "dying";
  const first = applyWound(d.track, wound);
  let after: { track: Track; status: TrackStatus; steps: Step[]; ended: boolean } = {
    track: first.track,
    status: first.status,
    steps: [...first.steps],
    ended: first.ended,
  };
  const reachedNearDeath = !nearDeath && after.status.condition === "dying";
  if (reachedNearDeath && d.flying) {
    // Miniatures: Wounds — a flying model falling Near Death "takes an additional 4dF+5 wound as it crashes".
    const cf = read("crash");
    dice.crash = cf;
    const cr = legendaryTotal(cf, "dice.crash");
    const crashDamage = cr.total + CRASH_BONUS;
    const crashLevel = levelForDamage(config, crashDamage);
    numbers.crashDamage = crashDamage;
    const cSteps = [
      step("FUDGE.Miniatures.Step.Crash", WOUNDS, crashDamage, {
        dice: signed(cr.total),
        bonus: CRASH_BONUS,
        level: crashLevel ?? "",
      }),
    ];
    steps.push(...cSteps);
    if (crashLevel !== null) {
      const c = applyWound(after.track, { level: crashLevel });
      after = { track: c.track, status: c.status, steps: [...after.steps, ...c.steps], ended: c.ended };
      followUps.push({
        type: "crashWound",
        target: "defender",
        params: { level: crashLevel, damage: crashDamage },
        steps: [...cSteps, ...c.steps],
      });
    }
  }

  // Guts checks the wound calls for (Miniatures: Guts).
  const before = woundRank(config, dStatus.levelKey);
  const now = woundRank(config, after.status.levelKey);
  if (after.status.condition === "dying" && reachedNearDeath) {
    // Miniatures: Wounds — falls face up, cannot act, rolls Guts from its next turn (nearDeathGuts).
    followUps.push({
      type: "nearDeath",
      target: "defender",
      params: { rollFromNextTurn: true },
      steps: [step("FUDGE.Miniatures.Step.FallsNearDeath", WOUNDS)],
    });
  } else if (after.status.canAct && now > before) {
    const two = now - before >= 2;
    const target = two ? GUTS_TARGETS.twoWoundLevels : GUTS_TARGETS.newWoundLevel;
    const reason = two ? "twoWoundLevels" : "newWoundLevel";
    followUps.push({
      type: "gutsCheck",
      target: "defender",
      params: { who: "self", target, reason, levels: now - before },
      steps: [
        step(two ? "FUDGE.Miniatures.Step.GutsTwoLevels" : "FUDGE.Miniatures.Step.GutsNewLevel", GUTS_RULE, target),
      ],
    });
  }
  // Miniatures: Sample characters — Self-interest: "will flee combat if wounded" (any wound, a
  // Scratch too; a model that fell Near Death or worse cannot run).
  const selfish = traitWith(d, "selfInterest");
  if (selfish && after.status.canAct)
    followUps.push({
      type: "fleesCombat",
      target: "defender",
      params: { rule: "selfInterest" },
      steps: [step("FUDGE.Miniatures.Step.Trait.selfInterest", TRAITS, 0, { name: selfish.name })],
    });
  return after;
}

export const miniaturesPipeline: AttackPipeline<MiniAttackRequest> = {
  preset: "miniatures",
  exchange: "alternating",
  parseRequest,
  // Miniatures has no Defend: everything the rules forbid is known before any die (resolve checks it first too).
  checkAttacker: (req) => checkLegal(req, trackStatus(req.attacker.track), trackStatus(req.defender.track)),
  slots,
  resolve,
};
