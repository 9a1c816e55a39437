/**
 * The attack pipeline of the `fudge` preset (Fudge 1995 §4.5x, RULES.md §2): an opposed combat
 * roll, the damage factors, the wound by the chosen method, Damage Capacity variants, stun and
 * pulled punches, and the wound placed on the defender's track.
 */
import { RulesError } from "../errors";
import { signed, type Step } from "../explain";
import { describeLevel } from "../ladder";
import { FOUR_DF_WEIGHTS, facesForTotal } from "../dice";
import {
  type PairedOutcomes,
  type AttackPipeline,
  type AttackRequest,
  type AttackResolution,
  type DiceReader,
  type DiceSlot,
  type FollowUp,
  type ResolveOptions,
} from "../pipeline";
import { applyWound, trackStatus, woundLevelName, type Track, type TrackStatus } from "../track";
import { at, boolField, optIntField, record, str, type Path, type Raw } from "../validate";
import { parseCombatant, shieldValue, WEAPON_SIZE_VALUE, type FudgeCombatant } from "./combatant";
import { fstep, vstep } from "./util";
import { rejectUnknown } from "../validate";
import { facesText, fudgeDiceSlot, plainDiceSlot, readDieValues, readFudgeTotal } from "./dice";
import { defensiveFactor, effectiveMassScale, offensiveFactor, strengthScaleCounts } from "./factors";
import { readMinMidMax } from "./minMidMax";
import { parseFudgeOptions, usesDoubledThresholds, type FudgeOptions } from "./options";
import {
  atLeastHurt,
  checkLevel,
  grazeTableLevel,
  isStandardLevel,
  levelAt,
  levelOnTrack,
  levelForNumber,
  levelScaleFor,
  severity,
  shiftBy,
  type LevelScale,
} from "./woundLevel";

/** This attack only (the card's situation fields). */
export type FudgeSituation = {
  /** Situational modifier to the attacker's roll (Fudge §4.31: position, aiming, blessing …). */
  modifier: number;
  /** Situational modifier to the defender's roll. */
  defenderModifier: number;
  /** Fudge §4.31 all-out offense: +1 to the attacker's skill and +1 to his ODF on a hit. */
  allOutAttack: boolean;
  /** Fudge §4.31 all-out defense: +2 to the defender's skill. */
  allOutDefense: boolean;
  /** Fudge §4.62: a stun attack (needs a stun-capable weapon). */
  stun: boolean;
  /** Fudge §4.62: the worst wound level the blow may cause, or null. */
  pullPunch: string | null;
  /** Fudge §4.64 safeguard: the defender began the round Incapacitated. */
  beganRoundIncapacitated: boolean;
  /** Fudge §4.64 safeguard: the defender spends a Fudge Point to turn a deadly wound into a serious one. */
  spendFudgePoint: boolean;
  /** Fudge §4.55 GM judgement: the level the GM picks ("none" for no damage), null until picked. */
  gmLevel: string | null;
  /** Fudge §4.62: the blow is aimed at the head (with the headBlowKnockout option, a Good stun blow knocks out). */
  headBlow: boolean;
};

export interface FudgeRequest extends AttackRequest<FudgeCombatant, FudgeOptions> {
  preset: "fudge";
  situation: FudgeSituation;
}

const SITUATION_FIELDS = [
  "modifier",
  "defenderModifier",
  "allOutAttack",
  "allOutDefense",
  "stun",
  "pullPunch",
  "beganRoundIncapacitated",
  "spendFudgePoint",
  "gmLevel",
  "headBlow",
] as const;

export function parseSituation(
  input: unknown,
  path: Path,
  scale: LevelScale,
  defender: FudgeCombatant,
): FudgeSituation {
  // Fields read by name (see validate.ts): most requests have no situation, and `o[key]` on the
  // shared empty one was a megamorphic lookup per field.
  const o = (input === undefined || input === null ? NO_SITUATION : record(input, path)) as Raw<
    (typeof SITUATION_FIELDS)[number]
  >;
  rejectUnknown(o, SITUATION_FIELDS, path);
  const pullPunch =
    o.pullPunch === undefined || o.pullPunch === null
      ? null
      : checkLevel(scale, str(o.pullPunch, at(path, "pullPunch")), at(path, "pullPunch"));
  let gmLevel: string | null = null;
  if (o.gmLevel !== undefined && o.gmLevel !== null) {
    const g = str(o.gmLevel, at(path, "gmLevel"));
    gmLevel = g === "none" ? "none" : checkLevel(scale, g, at(path, "gmLevel"));
  }
  const spendFudgePoint = boolField(o.spendFudgePoint, path, "spendFudgePoint", false);
  if (spendFudgePoint && defender.fudgePoints === 0)
    throw new RulesError(
      at(path, "spendFudgePoint"),
      "FUDGE.Error.Fudge.NoFudgePoints",
      `${defender.name} has no Fudge Points left`,
      { name: defender.name },
    );
  return {
    modifier: optIntField(o.modifier, path, "modifier", 0, -20, 20),
    defenderModifier: optIntField(o.defenderModifier, path, "defenderModifier", 0, -20, 20),
    allOutAttack: boolField(o.allOutAttack, path, "allOutAttack", false),
    allOutDefense: boolField(o.allOutDefense, path, "allOutDefense", false),
    stun: boolField(o.stun, path, "stun", false),
    pullPunch,
    beganRoundIncapacitated: boolField(o.beganRoundIncapacitated, path, "beganRoundIncapacitated", false),
    spendFudgePoint,
    gmLevel,
    headBlow: boolField(o.headBlow, path, "headBlow", false),
  };
}

const NO_SITUATION: Record<string, unknown> = Object.freeze({});

const REQUEST_FIELDS = ["preset", "attacker", "defender", "options", "situation"];

/** Parses and checks a request: options default when omitted; every error names its field. */
export function parseFudgeRequest(input: unknown): FudgeRequest {
  const o = record(input, "");
  rejectUnknown(o, REQUEST_FIELDS, "");
  if (o.preset !== "fudge")
    throw new RulesError("preset", "FUDGE.Error.Fudge.Preset", `must be "fudge" (got ${JSON.stringify(o.preset)})`);
  const options = parseFudgeOptions(o.options, "options");
  const attacker = parseCombatant(o.attacker, "attacker");
  const defender = parseCombatant(o.defender, "defender");
  const scale = levelScaleFor(defender.track, "defender.track.config.kind", usesDoubledThresholds(options));
  // Fudge §4.57: with the DC-as-track variant the defender's wounds go on a DC track.
  if (options.dcVariant === "track" && defender.track.config.kind !== "dc")
    throw new RulesError(
      "defender.track.config.kind",
      "FUDGE.Error.Fudge.DcTrackNeeded",
      `the "track" Damage Capacity variant needs a "dc" track (got ${JSON.stringify(defender.track.config.kind)})`,
    );
  if (options.dcVariant === "willpower" && defender.willpower === null)
    throw new RulesError(
      "defender.willpower",
      "FUDGE.Error.Fudge.WillpowerNeeded",
      "the willpower Damage Capacity variant needs the defender's Willpower",
    );
  const grazeRows = options.graze.table;
  for (let i = 0; i < grazeRows.length; i++) {
    const level = grazeRows[i].level;
    // A standard level the track lacks is read at its place (levelOnTrack); any other must be the track's.
    if (level !== null && !scale.keys.includes(level) && !isStandardLevel(level))
      checkLevel(scale, level, `options.graze.table[${i}].level`);
  }
  const situation = parseSituation(o.situation, "situation", scale, defender);
  return { preset: "fudge", attacker, defender, options, situation };
}

const LABEL = {
  attack: "FUDGE.Dice.Fudge.attack",
  defense: "FUDGE.Dice.Fudge.defense",
  damage: "FUDGE.Dice.Fudge.damage",
  dc: "FUDGE.Dice.Fudge.dc",
  situational: "FUDGE.Dice.Fudge.situational",
  scale: "FUDGE.Dice.Fudge.scale",
  attackerWill: "FUDGE.Dice.Fudge.attackerWill",
  defenderWill: "FUDGE.Dice.Fudge.defenderWill",
};

/** The dice a request may read: the opposed roll always; the others only when an option calls for them. */
export function fudgeSlots(req: FudgeRequest): DiceSlot[] {
  const o = req.options;
  const slots = [fudgeDiceSlot("attack", 4, LABEL.attack), fudgeDiceSlot("defense", 4, LABEL.defense)];
  if (o.woundMode === "minMidMax") slots.push(plainDiceSlot("damage", 3, 6, LABEL.damage));
  else if (o.woundMode === "factors" && (o.damageRoll === "dfNumber" || o.damageRoll === "dfLevel"))
    slots.push(fudgeDiceSlot("damage", 1, LABEL.damage));
  else if (o.woundMode === "factors" && o.damageRoll === "situational4dF")
    slots.push(fudgeDiceSlot("damage", 4, LABEL.damage));
  if ((o.dcVariant === "roll" && !req.attacker.weapon.dcWithoutRoll) || o.dcVariant === "willpower")
    slots.push(fudgeDiceSlot("dc", 4, LABEL.dc));
  if (o.woundMode === "gmJudgement" && o.gmSituationalRoll)
    slots.push(fudgeDiceSlot("situational", 4, LABEL.situational));
  if (o.scaleDamageRoll && o.woundMode === "factors") slots.push(fudgeDiceSlot("scale", 1, LABEL.scale));
  if (o.willpowerVsPenalty)
    slots.push(
      fudgeDiceSlot("attackerWill", 4, LABEL.attackerWill),
      fudgeDiceSlot("defenderWill", 4, LABEL.defenderWill),
    );
  return slots;
}

const R_OPPOSED = "Fudge §3.5";
const R_MELEE = "Fudge §4.31";
const R_WOUND = "Fudge §4.55";
const R_GRAZE = "Fudge §4.56";
const R_ROLL = "Fudge §4.61";
const R_STUN = "Fudge §4.62";
const R_DC = "Fudge §4.52";
const R_SCALE = "Fudge §4.58";
const R_PAIN = "Fudge §4.51";

/** `dice.<slot>`, the path of a slot's recorded dice, built once per slot id (every read names it). */
const DICE_PATHS = new Map<string, string>();
function dicePath(id: string): string {
  let p = DICE_PATHS.get(id);
  if (p === undefined) DICE_PATHS.set(id, (p = `dice.${id}`));
  return p;
}

/** Resolves one opposed exchange from recorded dice (see pipeline.ts DiceReader). */
/**
 * What a request determines before any die is read (the defender's level scale, both damage
 * factors with their steps). A card resolves its request once, but exact odds and the duel
 * forecast resolve the same request for every dice class, so this is computed once per request.
 */
interface Prepared {
  scale: ReturnType<typeof levelScaleFor>;
  aStatus: TrackStatus;
  dStatus: TrackStatus;
  /** Ladder names of the totals this request has shown (a card names each total). */
  ladderNames: Map<number, string>;
  odf: ReturnType<typeof offensiveFactor>;
  ddf: { graze: ReturnType<typeof defensiveFactor>; goodHit: ReturnType<typeof defensiveFactor> };
}
const preparedMemo = new WeakMap<FudgeRequest, Prepared>();
/**
 * The last request resolved, held strongly, and how often it was resolved again. A chat card
 * resolves a fresh request once: keeping it in the WeakMap too (an entry per card, weak entries
 * the garbage collector must trace) made a card several times slower. A request resolved again
 * (exact odds, an exchange table) goes into the WeakMap when the next request takes its place.
 */
let lastReq: FudgeRequest | null = null;
let lastPrepared: Prepared | null = null;
let lastReused = false;
/**
 * The duel forecast's requests (fudgeWithTracks) carry their prepared facts themselves, in a
 * non-enumerable property (never copied by a spread, never serialized): as WeakMap entries, two
 * per status pair, they made every garbage collection during a forecast slower (ephemerons).
 */
const PREPARED = Symbol("prepared");
type WithPrepared = FudgeRequest & { [PREPARED]?: Prepared };
function prepared(req: FudgeRequest): Prepared {
  const own = (req as WithPrepared)[PREPARED];
  if (own !== undefined) return own;
  if (req === lastReq) {
    lastReused = true;
    return lastPrepared!;
  }
  if (lastReq && lastReused) preparedMemo.set(lastReq, lastPrepared!);
  let p = preparedMemo.get(req);
  if (!p) {
    const { attacker: a, defender: d, options: o } = req;
    p = {
      scale: levelScaleFor(d.track, "defender.track.config.kind", usesDoubledThresholds(o)),
      aStatus: trackStatus(a.track),
      dStatus: trackStatus(d.track),
      ladderNames: new Map(),
      odf: offensiveFactor(a, o),
      ddf: {
        graze: defensiveFactor(d, a.weapon, o, { goodHit: false }),
        goodHit: defensiveFactor(d, a.weapon, o, { goodHit: true }),
      },
    };
    Object.freeze(p.odf.steps);
    Object.freeze(p.ddf.graze.steps);
    Object.freeze(p.ddf.goodHit.steps);
  }
  lastReq = req;
  lastPrepared = p;
  lastReused = false;
  return p;
}

/**
 * The request with other tracks (the duel forecast): the factors, the level scale and the ladder
 * names prepared for `req` depend on neither track's marks (only the defender's track shape), so
 * they are shared; only the two statuses are new.
 */
export function fudgeWithTracks(
  req: FudgeRequest,
  attacker: Track,
  defender: Track,
  aStatus?: TrackStatus,
  dStatus?: TrackStatus,
): FudgeRequest {
  const pre = prepared(req);
  // The forecast comes back to `req` for every pair of tracks.
  if (!Object.prototype.hasOwnProperty.call(req, PREPARED)) {
    if (Object.isExtensible(req)) Object.defineProperty(req, PREPARED, { value: pre });
    else preparedMemo.set(req, pre); // a frozen request: remembered beside it
  }
  const next: FudgeRequest = {
    ...req,
    attacker: { ...req.attacker, track: attacker },
    defender: { ...req.defender, track: defender },
  };
  const own: Prepared = {
    ...pre,
    scale:
      defender.config === req.defender.track.config
        ? pre.scale
        : levelScaleFor(defender, "defender.track.config.kind", usesDoubledThresholds(req.options)),
    aStatus: aStatus ?? trackStatus(attacker),
    dStatus: dStatus ?? trackStatus(defender),
  };
  Object.defineProperty(next, PREPARED, { value: own });
  return next;
}

/**
 * The attacker's own refusals, before any die (AttackPipeline.checkAttacker): resolveFudge makes
 * this check first, and src/system startAttack before the attacker rolls, so an attacker who may
 * not attack is refused when he attacks, not when the defender clicks Defend. What the defender
 * may do (all-out defence while stunned) is his, read from his live track at Defend.
 */
export function checkFudgeAttacker(a: Pick<FudgeCombatant, "name">, aStatus: TrackStatus): void {
  // Fudge §4.57: an Incapacitated character "can't fight any more" (nor can the dying or dead).
  if (!aStatus.canAct)
    throw new RulesError(
      "attacker.track",
      "FUDGE.Error.Fudge.CannotAct",
      `${a.name} cannot fight (${aStatus.levelKey ?? aStatus.condition})`,
      { name: a.name },
    );
  // Fudge §4.62: "a stunned character cannot attack or all-out defend"; Very Stunned: "no attacks".
  // (Effects are nearly always none: the length test spares two searches of a frozen list.)
  if (aStatus.effects.length !== 0 && (aStatus.effects.includes("stunned") || aStatus.effects.includes("veryStunned")))
    throw new RulesError(
      "attacker.track",
      "FUDGE.Error.Fudge.StunnedNoAttack",
      `${a.name} is stunned and cannot attack`,
      { name: a.name },
    );
}

export function resolveFudge(req: FudgeRequest, dice: DiceReader, opts: ResolveOptions = {}): AttackResolution {
  const { attacker: a, defender: d, options: o, situation: s } = req;
  const pre = prepared(req);
  const scale = pre.scale;
  const steps: Step[] = [];
  /** A wound level as a step parameter, as the defender's track names it: a custom level by its own label, else its i18n key (the card localizes it); "undamaged" for none. */
  const levelParam = (key: string | null): string => woundLevelName(d.track, key ?? "undamaged");
  const numberStep = (n: number, lvl: string | null, rule: string): Step =>
    vstep("FUDGE.Step.Fudge.DamageNumber", rule, n, { value: signed(n), level: levelParam(lvl) });
  // Exact odds and the duel forecast read only numbers and wounds: they skip the explanation.
  const explain = opts.explain !== false;
  const numbers: Record<string, number> = {};
  const read: Record<string, number[]> = {};
  const followUps: FollowUp[] = [];
  const readFudge = (id: string, n: number): number => {
    const faces = dice(id);
    const total = readFudgeTotal(faces, dicePath(id), n);
    // A plain copy of the validated faces (`[...faces]` without the iterator: a rolled array may be holey).
    let copy: number[];
    if (n === 4) copy = [faces[0], faces[1], faces[2], faces[3]];
    else {
      copy = [];
      for (let i = 0; i < n; i++) copy.push(faces[i]);
    }
    read[id] = copy;
    return total;
  };
  const ladderName = (v: number): string => {
    let label = pre.ladderNames.get(v);
    if (label === undefined) pre.ladderNames.set(v, (label = describeLevel(v, o.ladder).label));
    return label;
  };

  // --- The opposed roll (Fudge §3.5, §4.2): both sides roll their combat skill.
  const ranged = a.weapon.ranged;
  const aStatus = pre.aStatus;
  const dStatus = pre.dStatus;
  checkFudgeAttacker(a, aStatus);
  const dStunned = dStatus.effects.length !== 0 && dStatus.effects.includes("stunned");
  if (dStunned && s.allOutDefense)
    throw new RulesError(
      "situation.allOutDefense",
      "FUDGE.Error.Fudge.StunnedNoAllOutDefense",
      `${d.name} is stunned and cannot defend all-out`,
      { name: d.name },
    );
  const aPenalty = easedPenalty(a, aStatus.penalty, "attackerWill");
  const dPenalty = easedPenalty(d, dStatus.penalty, "defenderWill");

  const attackRoll = readFudge("attack", 4);
  if (explain)
    steps.push(
      vstep("FUDGE.Step.Fudge.Skill", R_OPPOSED, a.skill, {
        value: signed(a.skill),
        name: a.name,
        level: ladderName(a.skill),
      }),
    );
  if (explain)
    steps.push(
      vstep("FUDGE.Step.Fudge.Dice", "Fudge §3.2", attackRoll, {
        value: signed(attackRoll),
        faces: facesText(read.attack),
      }),
    );
  let attackerTotal = a.skill + attackRoll;
  if (s.modifier !== 0) {
    attackerTotal += s.modifier;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.Situational", R_MELEE, s.modifier));
  }
  if (s.allOutAttack) {
    // Fudge §4.31: all-out offense grants +1 to the combat skill.
    attackerTotal += 1;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.AllOutAttack", R_MELEE, 1));
  }
  if (aPenalty !== 0) {
    // Fudge §4.51 / §4.31: wound penalties apply to every roll of the wounded character.
    attackerTotal += aPenalty;
    if (explain)
      steps.push(
        vstep("FUDGE.Step.Fudge.WoundPenalty", "Fudge §4.51", aPenalty, { value: signed(aPenalty), name: a.name }),
      );
  }
  const dShield = shieldValue(d.shield, ranged);
  if (dShield !== 0) {
    // Fudge §4.31: a shield is subtracted from the opponent's weapon skill.
    attackerTotal -= dShield;
    if (explain)
      steps.push(
        fstep("FUDGE.Step.Fudge.Shield", R_MELEE, -dShield, { name: d.name, shield: `FUDGE.Fudge.Shield.${d.shield}` }),
      );
  }
  // Fudge §4.31 option: −1 to the side whose weapon + shield is 2 or more lower (melee only).
  const mismatch =
    o.weaponShieldMismatch && !ranged ? Math.sign(gear(d) - gear(a)) * (Math.abs(gear(d) - gear(a)) >= 2 ? 1 : 0) : 0;
  if (mismatch > 0) {
    attackerTotal -= 1;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.WeaponShieldLower", R_MELEE, -1, { name: a.name }));
  }
  if (explain)
    steps.push(
      vstep("FUDGE.Step.Fudge.AttackerTotal", R_OPPOSED, attackerTotal, {
        value: signed(attackerTotal),
        name: a.name,
        level: ladderName(attackerTotal),
      }),
    );

  const defenseRoll = readFudge("defense", 4);
  if (explain)
    steps.push(
      vstep("FUDGE.Step.Fudge.Skill", R_OPPOSED, d.defense, {
        value: signed(d.defense),
        name: d.name,
        level: ladderName(d.defense),
      }),
    );
  if (explain)
    steps.push(
      vstep("FUDGE.Step.Fudge.Dice", "Fudge §3.2", defenseRoll, {
        value: signed(defenseRoll),
        faces: facesText(read.defense),
      }),
    );
  let defenderTotal = d.defense + defenseRoll;
  if (s.defenderModifier !== 0) {
    defenderTotal += s.defenderModifier;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.Situational", R_MELEE, s.defenderModifier));
  }
  if (s.allOutDefense) {
    // Fudge §4.31: an all-out defensive stance earns +2 to the combat skill.
    defenderTotal += 2;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.AllOutDefense", R_MELEE, 2));
  }
  if (dPenalty !== 0) {
    defenderTotal += dPenalty;
    if (explain)
      steps.push(
        vstep("FUDGE.Step.Fudge.WoundPenalty", "Fudge §4.51", dPenalty, { value: signed(dPenalty), name: d.name }),
      );
  }
  if (dStunned) {
    // Fudge §4.62: a Stunned character is "−1 to defend" (Very Stunned's −2 to all is in the track's penalty).
    defenderTotal -= 1;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.StunnedDefense", R_STUN, -1, { name: d.name }));
  }
  // Fudge §4.31: the attacker's shield lowers the defender's combat skill in melee (it does not
  // hinder a dodge against a ranged attack).
  const aShield = ranged ? 0 : shieldValue(a.shield, false);
  if (aShield !== 0) {
    defenderTotal -= aShield;
    if (explain)
      steps.push(
        fstep("FUDGE.Step.Fudge.Shield", R_MELEE, -aShield, { name: a.name, shield: `FUDGE.Fudge.Shield.${a.shield}` }),
      );
  }
  if (mismatch < 0) {
    defenderTotal -= 1;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.WeaponShieldLower", R_MELEE, -1, { name: d.name }));
  }
  if (explain)
    steps.push(
      vstep("FUDGE.Step.Fudge.DefenderTotal", R_OPPOSED, defenderTotal, {
        value: signed(defenderTotal),
        name: d.name,
        level: ladderName(defenderTotal),
      }),
    );

  const rd = attackerTotal - defenderTotal;
  if (explain) steps.push(fstep("FUDGE.Step.Fudge.RelativeDegree", R_OPPOSED, rd));
  numbers.attackRoll = attackRoll;
  numbers.defenseRoll = defenseRoll;
  numbers.attackerTotal = attackerTotal;
  numbers.defenderTotal = defenderTotal;
  numbers.relativeDegree = rd;

  // --- Damage factors (Fudge §4.54). Scale-piercing needs a good hit (RD ≥ 2, §4.58).
  const odfResult = pre.odf;
  const ddfResult = rd >= 2 ? pre.ddf.goodHit : pre.ddf.graze;
  let odf = odfResult.total;
  let ddf = ddfResult.total;

  const result = (
    outcome: string,
    woundKey: string | null,
    wound: unknown,
    defenderAfter: AttackResolution["defenderAfter"],
  ): AttackResolution => ({
    preset: "fudge",
    outcome,
    hit: rd >= 1,
    woundKey,
    wound,
    numbers,
    dice: read,
    steps,
    defenderAfter,
    followUps,
  });

  if (rd <= 0) {
    numbers.odf = odf;
    numbers.ddf = ddf;
    numbers.damageFactor = odf - ddf;
    if (explain) steps.push(fstep(rd === 0 ? "FUDGE.Step.Fudge.Standoff" : "FUDGE.Step.Fudge.Miss", R_OPPOSED, rd));
    if (s.allOutAttack) {
      // Fudge §4.31: an all-out attacker who ties or loses lets the other fighter win, with +2 to damage.
      const counter = [fstep("FUDGE.Step.Fudge.AllOutCounter", R_MELEE, 2, { name: d.name, rd: signed(0 - rd) })];
      steps.push(...counter);
      followUps.push({
        type: "allOutCounter",
        target: "attacker",
        params: { relativeDegree: 0 - rd, damageBonus: 2, by: d.name },
        steps: counter,
      });
    }
    return result(rd === 0 ? "standoff" : "miss", null, null, null);
  }

  if (explain) {
    // The prepared factors' steps are frozen (shared): indexed, not iterated.
    const os = odfResult.steps;
    const ds = ddfResult.steps;
    for (let i = 0; i < os.length; i++) steps.push(os[i]);
    for (let i = 0; i < ds.length; i++) steps.push(ds[i]);
  }
  if (s.allOutAttack) {
    // Fudge §4.31: all-out offense adds +1 for damage if successful.
    odf += 1;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.AllOutDamage", R_MELEE, 1));
  }
  const graze = rd === 1;
  const rollOnThisHit = o.woundMode === "factors" && o.damageRoll !== "none" && (!graze || o.grazeDamageRoll);
  const baseFactor = odf - ddf;
  if (rollOnThisHit && o.damageRoll === "evenOdd") {
    // Fudge §4.61: the winner's even die total adds one to his ODF; the loser's even total adds one to his DDF.
    if (Math.abs(attackRoll) % 2 === 0) {
      odf += 1;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.EvenAttack", R_ROLL, 1, { roll: signed(attackRoll) }));
    }
    if (Math.abs(defenseRoll) % 2 === 0) {
      ddf += 1;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.EvenDefense", R_ROLL, 1, { roll: signed(defenseRoll) }));
    }
  }
  const factor = odf - ddf;
  if (explain)
    steps.push(
      vstep("FUDGE.Step.Fudge.DamageFactor", R_WOUND, factor, {
        value: signed(factor),
        odf: signed(odf),
        ddf: signed(ddf),
      }),
    );
  numbers.odf = odf;
  numbers.ddf = ddf;
  numbers.damageFactor = factor;

  // --- The wound level before Damage Capacity rolls, pulled punches and stun.
  let level: string | null;
  /** The damage number (or Min-Mid-Max die read) when the method has one: DC points adjust it. */
  let damageNumber: number | null = null;

  if (o.woundMode === "gmJudgement") {
    // Fudge §4.55: the GM assesses the factors and announces the wound.
    if (explain)
      steps.push(
        fstep("FUDGE.Step.Fudge.GmJudgement", R_WOUND, rd, {
          odf: signed(odf),
          ddf: signed(ddf),
          factor: signed(factor),
        }),
      );
    if (s.gmLevel === null) return result("gmJudgement", null, null, null);
    level = s.gmLevel === "none" ? null : s.gmLevel;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.GmLevel", R_WOUND, undefined, { level: levelParam(level) }));
    if (o.gmSituationalRoll) {
      // Fudge §4.55: −1..+1 no change; +3 / +4 add a wound level or two. ±2 is left to the GM.
      const roll = readFudge("situational", 4);
      numbers.situationalRoll = roll;
      const by = roll >= 4 ? 2 : roll === 3 ? 1 : 0;
      if (explain)
        steps.push(
          Math.abs(roll) === 2
            ? fstep("FUDGE.Step.Fudge.SituationalGmCall", R_WOUND, roll)
            : fstep("FUDGE.Step.Fudge.SituationalRoll", R_WOUND, roll, { by }),
        );
      level = shiftBy(scale, level, by);
    }
  } else if (graze) {
    level = grazeLevel();
  } else if (o.woundMode === "minMidMax") {
    const values = readDieValues(dice("damage"), "dice.damage", 3, 6);
    read.damage = [...values];
    const mmm = readMinMidMax(values, factor, rd, o.minMidMax.table, o.minMidMax.severeNegative);
    if (explain) steps.push(...mmm.steps);
    Object.assign(numbers, { mmmBonus: mmm.bonus, mmmRead: mmm.value });
    damageNumber = mmm.value;
    level = levelForNumber(scale, damageNumber);
    if (explain) steps.push(numberStep(damageNumber, level, "Fudge §4.63"));
  } else {
    // Fudge §4.55: damage number = RD (doubled with the double-RD option) + total damage factor.
    const rdPart = o.doubleRd ? 2 * rd : rd;
    if (explain)
      steps.push(
        vstep(o.doubleRd ? "FUDGE.Step.Fudge.DoubleRd" : "FUDGE.Step.Fudge.RdPart", R_WOUND, rdPart, {
          value: signed(rdPart),
          rd,
        }),
      );
    damageNumber = rdPart + factor;
    if (o.damageRoll === "dfNumber" || o.damageRoll === "situational4dF") {
      // Fudge §4.61: 1dF (or a 4dF Situational roll) added to the damage number.
      const roll = readFudge("damage", o.damageRoll === "dfNumber" ? 1 : 4);
      numbers.damageRoll = roll;
      damageNumber += roll;
      if (explain)
        steps.push(
          fstep(
            o.damageRoll === "dfNumber" ? "FUDGE.Step.Fudge.DamageDie" : "FUDGE.Step.Fudge.DamageSituational",
            R_ROLL,
            roll,
          ),
        );
    }
    level = levelForNumber(scale, damageNumber);
    if (explain) steps.push(numberStep(damageNumber, level, R_WOUND));
    if (o.damageRoll === "dfLevel" && level !== null) {
      // Fudge §4.61: 1dF applied to the wound level.
      const roll = readFudge("damage", 1);
      numbers.damageRoll = roll;
      level = shiftBy(scale, level, roll);
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.DamageDieLevel", R_ROLL, roll, { level: levelParam(level) }));
    }
  }
  if (damageNumber !== null) numbers.damageNumber = damageNumber;

  if (level === null && o.woundMode !== "gmJudgement") {
    if (o.criticalLetsPointThrough && attackRoll === 4) {
      // Fudge §4.58: a critical success (all four dice +) lets a point of damage through.
      level = levelForNumber(scale, 1);
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.CriticalPoint", R_SCALE, 1, { level: levelParam(level) }));
    } else if (
      o.scaleDamageRoll &&
      o.woundMode === "factors" &&
      damageNumber !== null &&
      damageNumber + scaleGap(a, d, rd >= 2) >= 1
    ) {
      // Fudge §4.58: when Scale alone stands between a Scratch and no damage, a damage roll
      // decides: 1dF, + gives a Scratch (this system's reading), 0 or − nothing.
      const roll = readFudge("scale", 1);
      numbers.scaleRoll = roll;
      if (roll > 0) level = levelForNumber(scale, 1);
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.ScaleDamageRoll", R_SCALE, roll, { level: levelParam(level) }));
    }
  }

  // --- Damage Capacity variants (Fudge §4.52): a roll (DC or Willpower) or a gift/fault.
  let dcDelta = 0;
  // Fudge §4.52 (1): against a weapon whose damage DC meets by its value (`dcWithoutRoll`), no roll.
  if (
    ((o.dcVariant === "roll" && !a.weapon.dcWithoutRoll) || o.dcVariant === "willpower") &&
    atLeastHurt(scale, level)
  ) {
    // Fudge §4.52 (1) and (4): on a hit of at least Hurt, Great or better → one less;
    // Mediocre..Good → no change; Poor or worse → one more. Wound penalties apply to the roll.
    const trait = o.dcVariant === "roll" ? d.damageCapacity : (d.willpower as number);
    const roll = readFudge("dc", 4);
    const rolled = trait + roll + dPenalty;
    dcDelta = rolled >= 2 ? -1 : rolled <= -2 ? 1 : 0;
    numbers.dcRoll = rolled;
    if (explain)
      steps.push(
        fstep(o.dcVariant === "roll" ? "FUDGE.Step.Fudge.DcRoll" : "FUDGE.Step.Fudge.WillpowerRoll", R_DC, dcDelta, {
          trait: signed(trait),
          roll: signed(roll),
          penalty: signed(dPenalty),
          rolled: signed(rolled),
          level: ladderName(rolled),
        }),
      );
  } else if (o.dcVariant === "gift" && level !== null && d.dcGift !== "none") {
    // Fudge §4.52 (2): Damage Resistant reduces the severity by one, Fragile increases it by one.
    dcDelta = d.dcGift === "damageResistant" ? -1 : 1;
    if (explain)
      steps.push(
        fstep(
          d.dcGift === "damageResistant" ? "FUDGE.Step.Fudge.DamageResistant" : "FUDGE.Step.Fudge.Fragile",
          R_DC,
          dcDelta,
        ),
      );
  }
  // Fudge §4.52 (4) "This can be temporary - until the battle is over": the level the wound would have without it.
  let unadjusted: string | null = null;
  if (dcDelta !== 0) {
    unadjusted = level;
    // Fudge §4.52: the adjustment is one wound level, or one damage point (when there is a number).
    if (o.dcAdjust === "point" && damageNumber !== null) {
      // The level moves as far as the number's level moves (keeps a 1dF level shift already made).
      const moved =
        severity(scale, levelForNumber(scale, damageNumber + dcDelta)) -
        severity(scale, levelForNumber(scale, damageNumber));
      damageNumber += dcDelta;
      numbers.damageNumber = damageNumber;
      level = shiftBy(scale, level, moved);
      if (explain) steps.push(numberStep(damageNumber, level, R_DC));
    } else {
      level = shiftBy(scale, level, dcDelta);
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.DcLevel", R_DC, dcDelta, { level: levelParam(level) }));
    }
  }

  // --- Pulling punches (Fudge §4.62): the attacker names the worst level the blow may cause.
  if (s.pullPunch !== null && severity(scale, unadjusted) > severity(scale, s.pullPunch)) unadjusted = s.pullPunch;
  if (s.pullPunch !== null && severity(scale, level) > severity(scale, s.pullPunch)) {
    level = s.pullPunch;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.PullPunch", R_STUN, undefined, { level: levelParam(s.pullPunch) }));
  }

  if (level === null) {
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.NoDamage", R_WOUND));
    return result("noDamage", null, null, null);
  }

  // --- The wound for the defender's track.
  const wound: Record<string, unknown> = { level };
  if (s.stun) {
    if (d.track.config.kind !== "box") {
      // A DC track (Fudge §4.57) has no stun marks: the blow counts as a wound.
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.StunNoBoxTrack", R_STUN));
    } else if (a.weapon.stunCapable) {
      // Fudge §4.62: a stun attack turns the wound into a stun mark (the track applies its effects).
      wound.stun = true;
      const out = scale.keys.find((k) => k === "incapacitated");
      if (
        o.headBlowKnockout &&
        s.headBlow &&
        attackerTotal >= 1 &&
        out &&
        severity(scale, level) < severity(scale, out)
      ) {
        // Fudge §4.62 GM option: a Good (or better) blow to the head knocks the victim out.
        level = out;
        wound.level = out;
        if (explain)
          steps.push(
            fstep("FUDGE.Step.Fudge.HeadBlowKnockout", R_STUN, attackerTotal, { level: ladderName(attackerTotal) }),
          );
      }
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.Stun", R_STUN, undefined, { level: levelParam(level) }));
    } else {
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.StunNotCapable", R_STUN, undefined, { weapon: a.weapon.name }));
    }
  }
  if (d.track.config.kind === "box") {
    // Fudge §4.64 safeguards are applied by the box track; it needs these facts of the round.
    if (s.beganRoundIncapacitated) wound.beganRoundIncapacitated = true;
    if (s.spendFudgePoint) wound.spendFudgePoint = true;
  }
  if (explain)
    steps.push(fstep("FUDGE.Step.Fudge.Wound", R_WOUND, undefined, { name: d.name, level: levelParam(level) }));
  if (
    o.dcVariant === "willpower" &&
    o.willpowerAdjustment === "untilBattleEnds" &&
    unadjusted !== null &&
    unadjusted !== level &&
    !wound.stun
  ) {
    // Fudge §4.52 (4) "This can be temporary - until the battle is over": the wound is recorded at
    // the adjusted level; when the battle is over it goes to the level it would have had (the
    // caller keeps this follow-up and hands it to endBattle, src/rules/track.ts).
    const lapse = [
      fstep("FUDGE.Step.Fudge.WillpowerUntilBattleEnds", R_DC, undefined, {
        level: levelParam(level),
        unadjusted: levelParam(unadjusted),
      }),
    ];
    if (explain) steps.push(lapse[0]);
    followUps.push({ type: "battleLapse", target: "defender", params: { from: level, to: unadjusted }, steps: lapse });
  }
  if (opts.preview === false) return result("wound", level, wound, null);
  const applied = applyWound(d.track, wound);
  return result("wound", level, wound, {
    track: applied.track,
    status: applied.status,
    steps: applied.steps,
    ended: applied.ended,
  });

  /** Fudge §4.51 option: a Willpower roll against the GM's Difficulty eases this roll's wound penalty (meet: one less; beat by 2: none). */
  function easedPenalty(c: FudgeCombatant, penalty: number, slot: string): number {
    if (!o.willpowerVsPenalty || penalty >= 0 || c.willpower === null) return penalty;
    const roll = readFudge(slot, 4);
    const rolled = c.willpower + roll;
    const diff = o.willpowerVsPenalty.difficulty;
    const eased = rolled >= diff + 2 ? 0 : rolled >= diff ? Math.min(0, penalty + 1) : penalty;
    if (explain)
      steps.push(
        fstep("FUDGE.Step.Fudge.WillpowerVsPenalty", R_PAIN, eased - penalty, {
          name: c.name,
          rolled: ladderName(rolled),
          difficulty: ladderName(diff),
          penalty: signed(eased),
        }),
      );
    return eased;
  }

  /** Fudge §4.56: a graze wounds by the graze table, plus any Scale difference; a damage roll moves it by one level at most. */
  function grazeLevel(): string | null {
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.Graze", R_GRAZE, rd));
    const atkScale = strengthScaleCounts(a.weapon) ? a.strengthScale : 0;
    const diff = atkScale - d.massScale;
    const raise = diff <= 0 ? 0 : o.graze.scaleRaise === "perPoint" ? diff : o.graze.scaleRaise === "one" ? 1 : 0;
    let capped = false;
    const fromTable = (f: number): string | null => {
      const table = levelOnTrack(scale, grazeTableLevel(o.graze.table, f));
      const raised = shiftBy(scale, table, raise);
      if (raise === 0 || o.woundMode !== "factors") return raised;
      // Fudge §4.56 "it should be minimized for such a narrow victory": the Scale raise never
      // lifts a graze above what a hit of RD 2 would do with the same factor (this system's reading).
      const hit2 = levelForNumber(scale, (o.doubleRd ? 4 : 2) + f);
      const cap = Math.max(severity(scale, table), severity(scale, hit2));
      if (severity(scale, raised) <= cap) return raised;
      capped = true;
      return levelAt(scale, cap);
    };
    const base = fromTable(baseFactor);
    if (explain)
      steps.push(
        fstep("FUDGE.Step.Fudge.GrazeTable", R_GRAZE, baseFactor, {
          level: levelParam(levelOnTrack(scale, grazeTableLevel(o.graze.table, baseFactor))),
        }),
      );
    if (raise > 0 && explain)
      steps.push(
        fstep(capped ? "FUDGE.Step.Fudge.GrazeScaleCapped" : "FUDGE.Step.Fudge.GrazeScale", R_GRAZE, raise, {
          diff: signed(diff),
          level: levelParam(base),
        }),
      );
    if (!rollOnThisHit) return base;
    let rolled: string | null;
    if (o.damageRoll === "dfLevel") {
      const roll = readFudge("damage", 1);
      numbers.damageRoll = roll;
      rolled = shiftBy(scale, base, roll);
    } else if (o.damageRoll === "evenOdd") {
      rolled = fromTable(factor);
    } else {
      const roll = readFudge("damage", o.damageRoll === "dfNumber" ? 1 : 4);
      numbers.damageRoll = roll;
      rolled = fromTable(factor + roll);
    }
    // Fudge §4.56: a damage roll changes a graze by one level at most.
    const b = severity(scale, base);
    const clamped = levelAt(scale, Math.max(b - 1, Math.min(b + 1, severity(scale, rolled))));
    if (explain)
      steps.push(
        fstep("FUDGE.Step.Fudge.GrazeRoll", R_GRAZE, numbers.damageRoll ?? factor - baseFactor, {
          level: levelParam(clamped),
        }),
      );
    return clamped;
  }
}

/** Fudge §4.31: what a fighter's weapon and shield are worth in melee (weapon size and sharpness + shield). */
function gear(c: FudgeCombatant): number {
  const w = c.weapon;
  return (w.kind === "muscle" ? WEAPON_SIZE_VALUE[w.size] + (w.sharp ? 1 : 0) : 0) + shieldValue(c.shield, false);
}

/** Fudge §4.58: how much the Scale difference alone takes off the damage number (defender's Mass Scale over the attacker's counted Strength Scale). */
function scaleGap(a: FudgeCombatant, d: FudgeCombatant, goodHit: boolean): number {
  const atkScale = strengthScaleCounts(a.weapon) ? a.strengthScale : 0;
  return Math.max(0, effectiveMassScale(d, a.weapon, goodHit) - atkScale);
}

/**
 * Exact odds by relative degree (Fudge §3.5: an opposed roll is read as the difference of the two
 * results). Unless an option reads one of the two rolls on its own — the even/odd damage roll
 * (§4.61), the critical point (§4.58: all four dice +), the head-blow knockout (§4.62: a Good
 * blow), or Willpower rolls that move the totals before the opposed roll (§4.51) — the resolution
 * depends on the attack and defence dice only through attackRoll − defenseRoll, so the 81 pairs
 * of 4dF totals fall into 17 classes; every class with RD ≤ −1 is a miss that reads nothing more
 * (the pipeline returns before the damage step), so those merge into one. Checked against the
 * enumeration of all 81 pairs in tests/rules/odds-classes.test.ts.
 */
export function fudgePairedOutcomes(req: FudgeRequest): PairedOutcomes | null {
  const o = req.options;
  if (o.woundMode === "factors" && o.damageRoll === "evenOdd") return null;
  if (o.criticalLetsPointThrough || o.willpowerVsPenalty) return null;
  if (o.headBlowKnockout && req.situation.headBlow && req.situation.stun) return null;
  // The relative degree of two rolls of 0, from the pipeline itself (the other slots' first classes
  // stand in for dice a hit might read; a refusal — an attacker who cannot act — leaves no classes).
  let slots: DiceSlot[] | null = null;
  let base: number;
  try {
    base = resolveFudge(
      req,
      (id) =>
        id === "attack" || id === "defense"
          ? (ZERO_4DF as number[])
          : (slots ??= fudgeSlots(req)).find((s) => s.id === id)!.outcomes()[0].dice,
      { explain: false, preview: false },
    ).numbers.relativeDegree;
  } catch {
    return null;
  }
  const outcomes: PairedOutcomes["outcomes"] = [];
  let missP = 0;
  let miss: [number[], number[]] | null = null;
  for (const c of DIFFERENCE_CLASSES) {
    if (base + c.diff <= -1) {
      missP += c.p;
      miss = c.dice; // the last one: RD −1 when it can be reached
    } else outcomes.push(c);
  }
  if (miss) outcomes.push({ dice: miss, p: missP });
  return { slots: ["attack", "defense"], outcomes };
}

const ZERO_4DF: readonly number[] = Object.freeze([0, 0, 0, 0]);

/**
 * attackRoll − defenseRoll of two 4dF rolls: 17 classes (−8 … +8), each with its probability
 * (the ways out of 81 × 81) and representative faces (shared, frozen: resolutions copy them).
 */
const DIFFERENCE_CLASSES: ReadonlyArray<{ diff: number; dice: [number[], number[]]; p: number }> = (() => {
  const w = FOUR_DF_WEIGHTS;
  const out = [];
  for (let diff = -8; diff <= 8; diff++) {
    let ways = 0;
    for (let a = -4; a <= 4; a++) {
      const d = a - diff;
      if (d >= -4 && d <= 4) ways += w[a + 4] * w[d + 4];
    }
    const ta = Math.max(-4, Math.min(4, diff));
    out.push({
      diff,
      dice: [Object.freeze(facesForTotal(4, ta)), Object.freeze(facesForTotal(4, ta - diff))] as [number[], number[]],
      p: ways / 6561,
    });
  }
  return out;
})();

export const fudgePipeline: AttackPipeline<FudgeRequest> = {
  preset: "fudge",
  // Fudge §4.22: one opposed roll per simultaneous combat round; the loser may be wounded.
  exchange: "opposed",
  pairedOutcomes: fudgePairedOutcomes,
  parseRequest: parseFudgeRequest,
  checkAttacker: (req) => checkFudgeAttacker(req.attacker, trackStatus(req.attacker.track)),
  withTracks: fudgeWithTracks,
  slots: fudgeSlots,
  resolve: resolveFudge,
};
