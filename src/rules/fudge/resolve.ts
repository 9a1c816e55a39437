/**
 * Resolution of one Fudge attack from its dice (Fudge 1995 §4.5x, RULES.md §2): the opposed roll,
 * the damage factors, the wound level by the world's method, Damage Capacity variants, pulled
 * punches and stun, and the wound placed on the defender's track. Dice are read through the
 * DiceReader in the order the rules need them (a damage roll only after a hit).
 */
import { readDiceOption } from "../dice-options";
import { RulesError } from "../errors";
import { signed, type Step } from "../explain";
import { describeLevel } from "../ladder";
import type { AttackResolution, DiceReader, FollowUp, ResolveOptions } from "../pipeline";
import { applyWound, woundLevelName, type TrackStatus } from "../track";
import { shieldValue, WEAPON_SIZE_VALUE, type FudgeCombatant } from "./combatant";
import { facesText, readDieValues, readFudgeTotal } from "./dice";
import { effectiveMassScale, strengthScaleCounts } from "./factors";
import { readMinMidMax } from "./minMidMax";
import type { FudgeOptions } from "./options";
import { prepared, type Prepared } from "./prepared";
import type { FudgeRequest, FudgeSituation } from "./request";
import { fstep, vstep } from "./util";
import {
  atLeastHurt,
  grazeTableLevel,
  levelAt,
  levelForNumber,
  levelOnTrack,
  severity,
  shiftBy,
  type LevelScale,
} from "./woundLevel";

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

/** Resolves one opposed exchange from its dice (see pipeline.ts DiceReader). */
export function resolveFudge(req: FudgeRequest, dice: DiceReader, opts: ResolveOptions = {}): AttackResolution {
  // Exact odds and the duel forecast read only numbers and wounds: they skip the explanation.
  const r = new FudgeResolution(req, dice, opts.explain !== false);
  r.opposedRoll();
  r.damageFactors();
  if (r.rd <= 0) return r.missed();
  r.hitFactor();
  if (!r.woundLevel()) return r.result("gmJudgement", null, null, null);
  r.lastPoint();
  r.damageCapacity();
  r.pullPunch();
  if (r.level === null) {
    if (r.explain) r.steps.push(fstep("FUDGE.Step.Fudge.NoDamage", R_WOUND));
    return r.result("noDamage", null, null, null);
  }
  const wound = r.wound(r.level);
  if (opts.preview === false) return r.result("wound", r.level, wound, null);
  const applied = applyWound(r.d.track, wound);
  return r.result("wound", r.level, wound, {
    track: applied.track,
    status: applied.status,
    steps: applied.steps,
    ended: applied.ended,
  });
}

/** One resolution's working state: the request, the dice read, the numbers found and the explanation built, phase by phase. */
class FudgeResolution {
  readonly a: FudgeCombatant;
  readonly d: FudgeCombatant;
  readonly o: FudgeOptions;
  readonly s: FudgeSituation;
  readonly pre: Prepared;
  readonly scale: LevelScale;
  readonly steps: Step[] = [];
  readonly numbers: Record<string, number> = {};
  readonly read: Record<string, number[]> = {};
  readonly followUps: FollowUp[] = [];
  // The opposed roll.
  attackRoll = 0;
  defenceRoll = 0;
  attackerTotal = 0;
  defenderTotal = 0;
  /** The relative degree (attacker's total − defender's). */
  rd = 0;
  /** The defender's wound penalty (eased by Willpower), which his Damage Capacity roll takes too. */
  dPenalty = 0;
  // The damage factors.
  odf = 0;
  ddf = 0;
  factor = 0;
  baseFactor = 0;
  graze = false;
  rollOnThisHit = false;
  // The wound.
  level: string | null = null;
  /** The damage number (or Min-Mid-Max die read) when the method has one: DC points adjust it. */
  damageNumber: number | null = null;
  /** Fudge §4.52 (4) "This can be temporary - until the battle is over": the level the wound would have without it. */
  unadjusted: string | null = null;

  constructor(
    req: FudgeRequest,
    private readonly dice: DiceReader,
    readonly explain: boolean,
  ) {
    this.a = req.attacker;
    this.d = req.defender;
    this.o = req.options;
    this.s = req.situation;
    this.pre = prepared(req);
    this.scale = this.pre.scale;
  }

  /** Reads a slot of n Fudge dice: their total, the faces kept for the card. */
  readFudge(id: string, n: number): number {
    const faces = this.dice(id);
    if (n === 4 && this.o.dice !== undefined) return this.readOption(id, faces);
    const total = readFudgeTotal(faces, dicePath(id), n);
    // A plain copy of the validated faces (`[...faces]` without the iterator: a rolled array may be holey).
    let copy: number[];
    if (n === 4) copy = [faces[0], faces[1], faces[2], faces[3]];
    else {
      copy = [];
      for (let i = 0; i < n; i++) copy.push(faces[i]);
    }
    this.read[id] = copy;
    return total;
  }

  /** Fudge §3.21–3.22: a four-Fudge-dice roll thrown with the world's dice option, read as its table reads it. */
  private readOption(id: string, faces: number[]): number {
    const path = dicePath(id);
    const result = readDiceOption(this.o.dice, faces, path);
    if (result === null)
      throw new RulesError(path, "FUDGE.Error.Dice.Unfinished", "this throw is rolled again: the roll is not finished");
    this.read[id] = faces.slice();
    return result;
  }

  /** The faces of a read four-dice slot as the card shows them: "+ + 0 −", or an option's raw dice ("3 5 2"). */
  facesOf(id: string): string {
    return this.o.dice === undefined ? facesText(this.read[id]) : this.read[id].join(" ");
  }

  ladderName(v: number): string {
    let label = this.pre.ladderNames.get(v);
    if (label === undefined) this.pre.ladderNames.set(v, (label = describeLevel(v, this.o.ladder).label));
    return label;
  }

  /** A wound level as a step parameter, as the defender's track names it: a custom level by its own label, else its i18n key (the card localizes it); "undamaged" for none. */
  levelParam(key: string | null): string {
    return woundLevelName(this.d.track, key ?? "undamaged");
  }

  numberStep(n: number, level: string | null, rule: string): Step {
    return vstep("FUDGE.Step.Fudge.DamageNumber", rule, n, { value: signed(n), level: this.levelParam(level) });
  }

  result(
    outcome: string,
    woundKey: string | null,
    wound: unknown,
    defenderAfter: AttackResolution["defenderAfter"],
  ): AttackResolution {
    return {
      preset: "fudge",
      outcome,
      hit: this.rd >= 1,
      woundKey,
      wound,
      numbers: this.numbers,
      dice: this.read,
      steps: this.steps,
      defenderAfter,
      followUps: this.followUps,
    };
  }

  /** The opposed roll (Fudge §3.5, §4.2): both sides roll their combat skill. */
  opposedRoll(): void {
    const { a, d, s, pre } = this;
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
    const aPenalty = this.easedPenalty(a, aStatus.penalty, "attackerWill");
    this.dPenalty = this.easedPenalty(d, dStatus.penalty, "defenderWill");
    // Fudge §4.31 option: −1 to the side whose weapon + shield is 2 or more lower (melee only).
    const mismatch =
      this.o.weaponShieldMismatch && !a.weapon.ranged
        ? Math.sign(gear(d) - gear(a)) * (Math.abs(gear(d) - gear(a)) >= 2 ? 1 : 0)
        : 0;
    this.attackerTotal = this.attackerRoll(aPenalty, mismatch);
    this.defenderTotal = this.defenderRoll(dStunned, mismatch);
    const rd = this.attackerTotal - this.defenderTotal;
    this.rd = rd;
    if (this.explain) this.steps.push(fstep("FUDGE.Step.Fudge.RelativeDegree", R_OPPOSED, rd));
    const numbers = this.numbers;
    numbers.attackRoll = this.attackRoll;
    numbers.defenseRoll = this.defenceRoll;
    numbers.attackerTotal = this.attackerTotal;
    numbers.defenderTotal = this.defenderTotal;
    numbers.relativeDegree = rd;
  }

  /** The attacker's total: skill, dice, situation, all-out attack, wound penalty, the defender's shield. */
  private attackerRoll(aPenalty: number, mismatch: number): number {
    const { a, d, s, steps, explain } = this;
    const attackRoll = this.readFudge("attack", 4);
    this.attackRoll = attackRoll;
    if (explain)
      steps.push(
        vstep("FUDGE.Step.Fudge.Skill", R_OPPOSED, a.skill, {
          value: signed(a.skill),
          name: a.name,
          level: this.ladderName(a.skill),
        }),
      );
    if (explain)
      steps.push(
        vstep("FUDGE.Step.Fudge.Dice", "Fudge §3.2", attackRoll, {
          value: signed(attackRoll),
          faces: this.facesOf("attack"),
        }),
      );
    let total = a.skill + attackRoll;
    if (s.modifier !== 0) {
      total += s.modifier;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.Situational", R_MELEE, s.modifier));
    }
    if (s.allOutAttack) {
      // Fudge §4.31: all-out offense grants +1 to the combat skill.
      total += 1;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.AllOutAttack", R_MELEE, 1));
    }
    if (aPenalty !== 0) {
      // Fudge §4.51 / §4.31: wound penalties apply to every roll of the wounded character.
      total += aPenalty;
      if (explain)
        steps.push(
          vstep("FUDGE.Step.Fudge.WoundPenalty", "Fudge §4.51", aPenalty, { value: signed(aPenalty), name: a.name }),
        );
    }
    const dShield = shieldValue(d.shield, a.weapon.ranged);
    if (dShield !== 0) {
      // Fudge §4.31: a shield is subtracted from the opponent's weapon skill.
      total -= dShield;
      if (explain)
        steps.push(
          fstep("FUDGE.Step.Fudge.Shield", R_MELEE, -dShield, {
            name: d.name,
            shield: `FUDGE.Fudge.Shield.${d.shield}`,
          }),
        );
    }
    if (mismatch > 0) {
      total -= 1;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.WeaponShieldLower", R_MELEE, -1, { name: a.name }));
    }
    total += this.fudgePoint(s.attackerFudgePoint, a.name);
    if (explain)
      steps.push(
        vstep("FUDGE.Step.Fudge.AttackerTotal", R_OPPOSED, total, {
          value: signed(total),
          name: a.name,
          level: this.ladderName(total),
        }),
      );
    return total;
  }

  /** The defender's total: defence skill, dice, situation, all-out defence, wound penalty, stun, the attacker's shield. */
  private defenderRoll(dStunned: boolean, mismatch: number): number {
    const { a, d, s, steps, explain } = this;
    const defenceRoll = this.readFudge("defense", 4);
    this.defenceRoll = defenceRoll;
    if (explain)
      steps.push(
        vstep("FUDGE.Step.Fudge.Skill", R_OPPOSED, d.defense, {
          value: signed(d.defense),
          name: d.name,
          level: this.ladderName(d.defense),
        }),
      );
    if (explain)
      steps.push(
        vstep("FUDGE.Step.Fudge.Dice", "Fudge §3.2", defenceRoll, {
          value: signed(defenceRoll),
          faces: this.facesOf("defense"),
        }),
      );
    let total = d.defense + defenceRoll;
    if (s.defenderModifier !== 0) {
      total += s.defenderModifier;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.Situational", R_MELEE, s.defenderModifier));
    }
    if (s.allOutDefense) {
      // Fudge §4.31: an all-out defensive stance earns +2 to the combat skill.
      total += 2;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.AllOutDefense", R_MELEE, 2));
    }
    const dPenalty = this.dPenalty;
    if (dPenalty !== 0) {
      total += dPenalty;
      if (explain)
        steps.push(
          vstep("FUDGE.Step.Fudge.WoundPenalty", "Fudge §4.51", dPenalty, { value: signed(dPenalty), name: d.name }),
        );
    }
    if (dStunned) {
      // Fudge §4.62: a Stunned character is "−1 to defend" (Very Stunned's −2 to all is in the track's penalty).
      total -= 1;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.StunnedDefense", R_STUN, -1, { name: d.name }));
    }
    // Fudge §4.31: the attacker's shield lowers the defender's combat skill in melee (it does not
    // hinder a dodge against a ranged attack).
    const aShield = a.weapon.ranged ? 0 : shieldValue(a.shield, false);
    if (aShield !== 0) {
      total -= aShield;
      if (explain)
        steps.push(
          fstep("FUDGE.Step.Fudge.Shield", R_MELEE, -aShield, {
            name: a.name,
            shield: `FUDGE.Fudge.Shield.${a.shield}`,
          }),
        );
    }
    if (mismatch < 0) {
      total -= 1;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.WeaponShieldLower", R_MELEE, -1, { name: d.name }));
    }
    total += this.fudgePoint(s.defenderFudgePoint, d.name);
    if (explain)
      steps.push(
        vstep("FUDGE.Step.Fudge.DefenderTotal", R_OPPOSED, total, {
          value: signed(total),
          name: d.name,
          level: this.ladderName(total),
        }),
      );
    return total;
  }

  /** Fudge §1.36: "alter a die roll one level, up or down" — a Fudge Point moves the side's result (0: none spent). */
  private fudgePoint(levels: number, name: string): number {
    if (levels !== 0 && this.explain)
      this.steps.push(fstep("FUDGE.Step.Fudge.FudgePoint", "Fudge §1.36", levels, { name }));
    return levels;
  }

  /** Fudge §4.51 option: a Willpower roll against the GM's Difficulty eases this roll's wound penalty (meet: one less; beat by 2: none). */
  private easedPenalty(c: FudgeCombatant, penalty: number, slot: string): number {
    const o = this.o;
    if (!o.willpowerVsPenalty || penalty >= 0 || c.willpower === null) return penalty;
    const roll = this.readFudge(slot, 4);
    const rolled = c.willpower + roll;
    const diff = o.willpowerVsPenalty.difficulty;
    const eased = rolled >= diff + 2 ? 0 : rolled >= diff ? Math.min(0, penalty + 1) : penalty;
    if (this.explain)
      this.steps.push(
        fstep("FUDGE.Step.Fudge.WillpowerVsPenalty", R_PAIN, eased - penalty, {
          name: c.name,
          rolled: this.ladderName(rolled),
          difficulty: this.ladderName(diff),
          penalty: signed(eased),
        }),
      );
    return eased;
  }

  /** Damage factors (Fudge §4.54). Scale-piercing needs a good hit (RD ≥ 2, §4.58). */
  damageFactors(): void {
    this.odf = this.pre.odf.total;
    this.ddf = (this.rd >= 2 ? this.pre.ddf.goodHit : this.pre.ddf.graze).total;
  }

  /** A tie or a miss: no wound; an all-out attacker who ties or loses lets the other fighter win (Fudge §4.31). */
  missed(): AttackResolution {
    const { rd, numbers, steps, d } = this;
    numbers.odf = this.odf;
    numbers.ddf = this.ddf;
    numbers.damageFactor = this.odf - this.ddf;
    if (this.explain)
      steps.push(fstep(rd === 0 ? "FUDGE.Step.Fudge.Standoff" : "FUDGE.Step.Fudge.Miss", R_OPPOSED, rd));
    if (this.s.allOutAttack) {
      // Fudge §4.31: an all-out attacker who ties or loses lets the other fighter win, with +2 to damage.
      const counter = [fstep("FUDGE.Step.Fudge.AllOutCounter", R_MELEE, 2, { name: d.name, rd: signed(0 - rd) })];
      steps.push(...counter);
      this.followUps.push({
        type: "allOutCounter",
        target: "attacker",
        params: { relativeDegree: 0 - rd, damageBonus: 2, by: d.name },
        steps: counter,
      });
    }
    return this.result(rd === 0 ? "standoff" : "miss", null, null, null);
  }

  /** A hit's damage factor: the prepared factors, all-out offense, the even/odd damage roll (Fudge §4.54, §4.31, §4.61). */
  hitFactor(): void {
    const { o, s, steps, explain } = this;
    if (explain) {
      // The prepared factors' steps are frozen (shared): indexed, not iterated.
      const os = this.pre.odf.steps;
      const ds = (this.rd >= 2 ? this.pre.ddf.goodHit : this.pre.ddf.graze).steps;
      for (let i = 0; i < os.length; i++) steps.push(os[i]);
      for (let i = 0; i < ds.length; i++) steps.push(ds[i]);
    }
    if (s.allOutAttack) {
      // Fudge §4.31: all-out offense adds +1 for damage if successful.
      this.odf += 1;
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.AllOutDamage", R_MELEE, 1));
    }
    this.graze = this.rd === 1;
    this.rollOnThisHit = o.woundMode === "factors" && o.damageRoll !== "none" && (!this.graze || o.grazeDamageRoll);
    this.baseFactor = this.odf - this.ddf;
    if (this.rollOnThisHit && o.damageRoll === "evenOdd") {
      // Fudge §4.61: the winner's even die total adds one to his ODF; the loser's even total adds one to his DDF.
      if (Math.abs(this.attackRoll) % 2 === 0) {
        this.odf += 1;
        if (explain) steps.push(fstep("FUDGE.Step.Fudge.EvenAttack", R_ROLL, 1, { roll: signed(this.attackRoll) }));
      }
      if (Math.abs(this.defenceRoll) % 2 === 0) {
        this.ddf += 1;
        if (explain) steps.push(fstep("FUDGE.Step.Fudge.EvenDefense", R_ROLL, 1, { roll: signed(this.defenceRoll) }));
      }
    }
    const factor = this.odf - this.ddf;
    this.factor = factor;
    if (explain)
      steps.push(
        vstep("FUDGE.Step.Fudge.DamageFactor", R_WOUND, factor, {
          value: signed(factor),
          odf: signed(this.odf),
          ddf: signed(this.ddf),
        }),
      );
    this.numbers.odf = this.odf;
    this.numbers.ddf = this.ddf;
    this.numbers.damageFactor = factor;
  }

  /** The wound level before Damage Capacity rolls, pulled punches and stun; false while the GM has yet to judge it. */
  woundLevel(): boolean {
    const o = this.o;
    if (o.woundMode === "gmJudgement") {
      if (!this.gmLevel()) return false;
    } else if (this.graze) this.level = this.grazeLevel();
    else if (o.woundMode === "minMidMax") this.minMidMaxLevel();
    else this.factorsLevel();
    if (this.damageNumber !== null) this.numbers.damageNumber = this.damageNumber;
    return true;
  }

  /** Fudge §4.55: the GM assesses the factors and announces the wound; false until he has. */
  private gmLevel(): boolean {
    const { o, s, steps, explain, scale } = this;
    if (explain)
      steps.push(
        fstep("FUDGE.Step.Fudge.GmJudgement", R_WOUND, this.rd, {
          odf: signed(this.odf),
          ddf: signed(this.ddf),
          factor: signed(this.factor),
        }),
      );
    if (s.gmLevel === null) return false;
    this.level = s.gmLevel === "none" ? null : s.gmLevel;
    if (explain)
      steps.push(fstep("FUDGE.Step.Fudge.GmLevel", R_WOUND, undefined, { level: this.levelParam(this.level) }));
    if (o.gmSituationalRoll) {
      // Fudge §4.55: −1..+1 no change; +3 / +4 add a wound level or two. ±2 is left to the GM.
      const roll = this.readFudge("situational", 4);
      this.numbers.situationalRoll = roll;
      const by = roll >= 4 ? 2 : roll === 3 ? 1 : 0;
      if (explain)
        steps.push(
          Math.abs(roll) === 2
            ? fstep("FUDGE.Step.Fudge.SituationalGmCall", R_WOUND, roll)
            : fstep("FUDGE.Step.Fudge.SituationalRoll", R_WOUND, roll, { by }),
        );
      this.level = shiftBy(scale, this.level, by);
    }
    return true;
  }

  /** Fudge §4.63: Min-Mid-Max, three d6 read by the relative degree and the factor. */
  private minMidMaxLevel(): void {
    const o = this.o;
    const values = readDieValues(this.dice("damage"), "dice.damage", 3, 6);
    this.read.damage = [...values];
    const mmm = readMinMidMax(values, this.factor, this.rd, o.minMidMax.table, o.minMidMax.severeNegative);
    if (this.explain) this.steps.push(...mmm.steps);
    Object.assign(this.numbers, { mmmBonus: mmm.bonus, mmmRead: mmm.value });
    this.damageNumber = mmm.value;
    this.level = levelForNumber(this.scale, this.damageNumber);
    if (this.explain) this.steps.push(this.numberStep(this.damageNumber, this.level, "Fudge §4.63"));
  }

  /** Fudge §4.55: damage number = RD (doubled with the double-RD option) + total damage factor, and the damage rolls of §4.61. */
  private factorsLevel(): void {
    const { o, rd, steps, explain, scale, numbers } = this;
    const rdPart = o.doubleRd ? 2 * rd : rd;
    if (explain)
      steps.push(
        vstep(o.doubleRd ? "FUDGE.Step.Fudge.DoubleRd" : "FUDGE.Step.Fudge.RdPart", R_WOUND, rdPart, {
          value: signed(rdPart),
          rd,
        }),
      );
    let damageNumber = rdPart + this.factor;
    if (o.damageRoll === "dfNumber" || o.damageRoll === "situational4dF") {
      // Fudge §4.61: 1dF (or a 4dF Situational roll) added to the damage number.
      const roll = this.readFudge("damage", o.damageRoll === "dfNumber" ? 1 : 4);
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
    this.damageNumber = damageNumber;
    let level = levelForNumber(scale, damageNumber);
    if (explain) steps.push(this.numberStep(damageNumber, level, R_WOUND));
    if (o.damageRoll === "dfLevel" && level !== null) {
      // Fudge §4.61: 1dF applied to the wound level.
      const roll = this.readFudge("damage", 1);
      numbers.damageRoll = roll;
      level = shiftBy(scale, level, roll);
      if (explain)
        steps.push(fstep("FUDGE.Step.Fudge.DamageDieLevel", R_ROLL, roll, { level: this.levelParam(level) }));
    }
    this.level = level;
  }

  /** Fudge §4.56: a graze wounds by the graze table, plus any Scale difference; a damage roll moves it by one level at most. */
  private grazeLevel(): string | null {
    const { a, d, o, scale, explain, steps, numbers, factor, baseFactor } = this;
    if (explain) steps.push(fstep("FUDGE.Step.Fudge.Graze", R_GRAZE, this.rd));
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
          level: this.levelParam(levelOnTrack(scale, grazeTableLevel(o.graze.table, baseFactor))),
        }),
      );
    if (raise > 0 && explain)
      steps.push(
        fstep(capped ? "FUDGE.Step.Fudge.GrazeScaleCapped" : "FUDGE.Step.Fudge.GrazeScale", R_GRAZE, raise, {
          diff: signed(diff),
          level: this.levelParam(base),
        }),
      );
    if (!this.rollOnThisHit) return base;
    let rolled: string | null;
    if (o.damageRoll === "dfLevel") {
      const roll = this.readFudge("damage", 1);
      numbers.damageRoll = roll;
      rolled = shiftBy(scale, base, roll);
    } else if (o.damageRoll === "evenOdd") {
      rolled = fromTable(factor);
    } else {
      const roll = this.readFudge("damage", o.damageRoll === "dfNumber" ? 1 : 4);
      numbers.damageRoll = roll;
      rolled = fromTable(factor + roll);
    }
    // Fudge §4.56: a damage roll changes a graze by one level at most.
    const b = severity(scale, base);
    const clamped = levelAt(scale, Math.max(b - 1, Math.min(b + 1, severity(scale, rolled))));
    if (explain)
      steps.push(
        fstep("FUDGE.Step.Fudge.GrazeRoll", R_GRAZE, numbers.damageRoll ?? factor - baseFactor, {
          level: this.levelParam(clamped),
        }),
      );
    return clamped;
  }

  /** Fudge §4.58: no damage yet, a critical success or a Scale damage roll may still let a point through. */
  lastPoint(): void {
    const { a, d, o, scale, explain, steps, damageNumber } = this;
    if (this.level !== null || o.woundMode === "gmJudgement") return;
    if (o.criticalLetsPointThrough && this.attackRoll >= 4) {
      // Fudge §4.58: a critical success (all four dice +: a roll of +4, or better under d6−d6 or a table) lets a point through.
      this.level = levelForNumber(scale, 1);
      if (explain)
        steps.push(fstep("FUDGE.Step.Fudge.CriticalPoint", R_SCALE, 1, { level: this.levelParam(this.level) }));
    } else if (
      o.scaleDamageRoll &&
      o.woundMode === "factors" &&
      damageNumber !== null &&
      damageNumber + scaleGap(a, d, this.rd >= 2) >= 1
    ) {
      // Fudge §4.58: when Scale alone stands between a Scratch and no damage, a damage roll
      // decides: 1dF, + gives a Scratch (this system's reading), 0 or − nothing.
      const roll = this.readFudge("scale", 1);
      this.numbers.scaleRoll = roll;
      if (roll > 0) this.level = levelForNumber(scale, 1);
      if (explain)
        steps.push(fstep("FUDGE.Step.Fudge.ScaleDamageRoll", R_SCALE, roll, { level: this.levelParam(this.level) }));
    }
  }

  /** Damage Capacity variants (Fudge §4.52): a roll (DC or Willpower) or a gift or fault moves the level. */
  damageCapacity(): void {
    const { a, d, o, scale, explain, steps } = this;
    let dcDelta = 0;
    // Fudge §4.52 (1): against a weapon whose damage DC meets by its value (`dcWithoutRoll`), no roll.
    if (
      ((o.dcVariant === "roll" && !a.weapon.dcWithoutRoll) || o.dcVariant === "willpower") &&
      atLeastHurt(scale, this.level)
    ) {
      // Fudge §4.52 (1) and (4): on a hit of at least Hurt, Great or better → one less;
      // Mediocre..Good → no change; Poor or worse → one more. Wound penalties apply to the roll.
      const trait = o.dcVariant === "roll" ? d.damageCapacity : (d.willpower as number);
      const roll = this.readFudge("dc", 4);
      const rolled = trait + roll + this.dPenalty;
      dcDelta = rolled >= 2 ? -1 : rolled <= -2 ? 1 : 0;
      this.numbers.dcRoll = rolled;
      if (explain)
        steps.push(
          fstep(o.dcVariant === "roll" ? "FUDGE.Step.Fudge.DcRoll" : "FUDGE.Step.Fudge.WillpowerRoll", R_DC, dcDelta, {
            trait: signed(trait),
            roll: signed(roll),
            penalty: signed(this.dPenalty),
            rolled: signed(rolled),
            level: this.ladderName(rolled),
          }),
        );
    } else if (o.dcVariant === "gift" && this.level !== null && d.dcGift !== "none") {
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
    if (dcDelta === 0) return;
    this.unadjusted = this.level;
    // Fudge §4.52: the adjustment is one wound level, or one damage point (when there is a number).
    if (o.dcAdjust === "point" && this.damageNumber !== null) {
      // The level moves as far as the number's level moves (keeps a 1dF level shift already made).
      const moved =
        severity(scale, levelForNumber(scale, this.damageNumber + dcDelta)) -
        severity(scale, levelForNumber(scale, this.damageNumber));
      this.damageNumber += dcDelta;
      this.numbers.damageNumber = this.damageNumber;
      this.level = shiftBy(scale, this.level, moved);
      if (explain) steps.push(this.numberStep(this.damageNumber, this.level, R_DC));
    } else {
      this.level = shiftBy(scale, this.level, dcDelta);
      if (explain) steps.push(fstep("FUDGE.Step.Fudge.DcLevel", R_DC, dcDelta, { level: this.levelParam(this.level) }));
    }
  }

  /** Pulling punches (Fudge §4.62): the attacker names the worst level the blow may cause. */
  pullPunch(): void {
    const { s, scale } = this;
    if (s.pullPunch !== null && severity(scale, this.unadjusted) > severity(scale, s.pullPunch))
      this.unadjusted = s.pullPunch;
    if (s.pullPunch !== null && severity(scale, this.level) > severity(scale, s.pullPunch)) {
      this.level = s.pullPunch;
      if (this.explain)
        this.steps.push(
          fstep("FUDGE.Step.Fudge.PullPunch", R_STUN, undefined, { level: this.levelParam(s.pullPunch) }),
        );
    }
  }

  /** The wound for the defender's track: a stun mark, the safeguards' facts, a Willpower adjustment that lapses. */
  wound(dealt: string): Record<string, unknown> {
    const { a, d, o, s, scale, explain, steps } = this;
    let level = dealt;
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
          this.attackerTotal >= 1 &&
          out &&
          severity(scale, level) < severity(scale, out)
        ) {
          // Fudge §4.62 GM option: a Good (or better) blow to the head knocks the victim out.
          level = out;
          wound.level = out;
          if (explain)
            steps.push(
              fstep("FUDGE.Step.Fudge.HeadBlowKnockout", R_STUN, this.attackerTotal, {
                level: this.ladderName(this.attackerTotal),
              }),
            );
        }
        if (explain) steps.push(fstep("FUDGE.Step.Fudge.Stun", R_STUN, undefined, { level: this.levelParam(level) }));
      } else if (explain)
        steps.push(fstep("FUDGE.Step.Fudge.StunNotCapable", R_STUN, undefined, { weapon: a.weapon.name }));
    }
    if (d.track.config.kind === "box") {
      // Fudge §4.64 safeguards are applied by the box track; it needs these facts of the round.
      if (s.beganRoundIncapacitated) wound.beganRoundIncapacitated = true;
      if (s.spendFudgePoint) wound.spendFudgePoint = true;
    }
    if (explain)
      steps.push(fstep("FUDGE.Step.Fudge.Wound", R_WOUND, undefined, { name: d.name, level: this.levelParam(level) }));
    const unadjusted = this.unadjusted;
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
          level: this.levelParam(level),
          unadjusted: this.levelParam(unadjusted),
        }),
      ];
      if (explain) steps.push(lapse[0]);
      this.followUps.push({
        type: "battleLapse",
        target: "defender",
        params: { from: level, to: unadjusted },
        steps: lapse,
      });
    }
    this.level = level;
    return wound;
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
