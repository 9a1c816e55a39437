/**
 * Plain data shapes of every document's `system` field, with default values. The Foundry
 * TypeDataModel schemas (src/foundry), the pack sources and the playground all follow these.
 * Nothing here imports Foundry; nothing here computes rules (that is src/rules).
 *
 * Conventions: ladder values are plain numbers (Fair = 0, Good = +1 …, Fudge §1.3); a wound
 * track's `state` is the JSON state of the track kind the world preset selects (null = unhurt,
 * the track's `initial` state); ids are Foundry document ids / uuids as strings.
 */
import { DICE_OPTION_IDS, PRESETS, type DiceOptionId, type PresetId } from "../rules";
import {
  GUTS_ROLL_PENALTY_RULES,
  initialGutsState,
  type GutsRollPenaltyRule,
  type GutsState,
  MINI_TRAIT_RULES,
  type MiniTraitRule,
} from "../rules/miniatures";
import { defaultFudgeOptions, type FudgeOptions } from "../rules/fudge";
import { VOLT_RECOVERY_INTERVALS, type VoltRecoveryInterval } from "../rules/volt";
import { checkAttributeSet, defaultAttributeSet, type AttributeSet } from "./attributes";
import type { AdvancementEntry } from "../rules/character";

// ─── Actors ────────────────────────────────────────────────────────────────────────────

/** Box-track shapes of a Fudge character (Fudge §4.57; cinematic/epic outside the seeds). */
export const TRACK_PRESETS = ["standard", "cinematic", "epic", "custom"] as const;
export type TrackPresetId = (typeof TRACK_PRESETS)[number];

/** One level of a custom box track (Fudge §4.57: "any levels, boxes, thresholds and penalties"). */
export interface CustomWoundLevel {
  /** Stable key (i18n suffix when a known level: scratch, hurt, veryHurt, incapacitated, nearDeath). */
  key: string;
  /** Display name for a level without a known key. */
  label: string;
  boxes: number;
  /** Penalty to every roll while this is the worst marked level (0 or negative). */
  penalty: number;
  /** Lowest damage number that reaches this level. */
  threshold: number;
  /** Non-numeric effect of the level: "" | "cannotAct" | "dying". */
  effect: "" | "cannotAct" | "dying";
  /**
   * Fudge §4.51 (the Light Wound): the penalty outside combat while this is the worst marked
   * level, when it differs from `penalty`; null/absent = `penalty` in and out of combat.
   */
  afterCombatPenalty?: number | null;
}

export interface CharacterWoundTrack {
  /** Kind-specific track state (box / dc / fate / volt); null = unhurt. */
  state: unknown;
  preset: TrackPresetId;
  /** Epic track: extra Hurt / Very Hurt boxes over cinematic, 0–2 each (outside the seeds). */
  epicExtraHurt: number;
  epicExtraVeryHurt: number;
  /** Only when preset = "custom". */
  customLevels?: CustomWoundLevel[];
  /** FATE ladder: a track has a kind label (Physical, Social …) — FATE wound ladder. */
  label: string;
}

/**
 * Attribute levels by the world's attribute keys (src/system/attributes.ts); the default set is
 * Strength, Damage Capacity, Willpower and Mass (Fudge §4.54: Mass rated within the character's
 * Scale, Fair 0). A key the world's set no longer lists keeps its level.
 */
export type Attributes = Record<string, number>;

export interface Scale {
  strength: number;
  mass: number;
}

/** Volt 4.0 block: Willpower sets the penalty column, Strength the recovery cap, Tough/Fragile the top row. */
export interface VoltBlock {
  willpower: number;
  strength: number;
  guard: number;
  /** Tough (+) / Fragile (−) steps: raise or lower the top penalty row (Volt: Marking Wounds). */
  tough: number;
}

/** What `system.experience` holds (Fudge §5.2; src/system/experience.ts reads it through the rules core). */
export interface StoredExperience {
  /** The number of the next log entry's id (`ep<n>`): ids are never reused, so an Undo names one entry. */
  next: number;
  /** The spends (the awards are the GM's own record: ActorDoc.gmRecords.experience). */
  log: AdvancementEntry[];
  /** EP of spends no longer in the log (evicted past its bound, or carried over by the data version 8 migration). */
  spentEarlier?: number;
}

export interface CharacterData {
  attributes: Attributes;
  scale: Scale;
  fudgePoints: number;
  woundTrack: CharacterWoundTrack;
  volt: VoltBlock;
  /** Name of the skill item used to defend (Fudge opposed roll); "" = an attribute/Fair. */
  defenseSkill: string;
  /** Ladder value used when no defence skill item is found. */
  defenseDefault: number;
  /** Rich text (HTML; src/system/rich-text.ts). */
  notes: string;
  /** Experience Points and the advancement log (Fudge §5.2; src/system/experience.ts); null until the first award. */
  experience?: StoredExperience | null;
}

export interface NpcData extends CharacterData {
  /** NPC pawn track: Undamaged / Hurt / Out of the battle (Fudge §4.57). */
  pawn: boolean;
}

/** Miniatures: Guts check state — the rules core's shape (src/rules/miniatures/guts.ts). */
export type { GutsState } from "../rules/miniatures";

export interface MiniatureData {
  strength: number;
  dexterity: number;
  guts: number;
  /** Inches (Miniatures: 5"). */
  movement: number;
  /** Number of Terrifying gifts (0 = not terrifying). */
  terrifying: number;
  flying: boolean;
  woundTrack: { state: unknown };
  gutsState: GutsState;
  /** The model's standing Guts circumstances, set by the GM (seed 004 "Sample characters"; src/system/guts.ts). */
  gutsStanding: GutsStanding;
  notes: string;
}

/**
 * What the GM says about a miniature that its Guts checks depend on (seed 004 "Sample
 * characters"): it is defending the King (counts with Faithful), it is a peasant (Noble presence:
 * −1 when in melee with such a model) and a follower (Leader: −1 once the Leader has fallen).
 * The table derives the melee and the fall from live documents (src/system/guts.ts).
 */
export interface GutsStanding {
  defendingKing: boolean;
  peasant: boolean;
  follower: boolean;
}

export const GUTS_STANDING_KEYS = ["defendingKing", "peasant", "follower"] as const;

export function defaultGutsStanding(): GutsStanding {
  return { defendingKing: false, peasant: false, follower: false };
}

export type ActorType = "character" | "npc" | "miniature";

// ─── Items ─────────────────────────────────────────────────────────────────────────────

/** Fudge §4.54 weapon size classes (muscle-powered). */
export const WEAPON_SIZES = ["none", "martialArt", "small", "medium", "large", "twoHanded"] as const;
export type WeaponSize = (typeof WEAPON_SIZES)[number];
export const STAT_BASES = ["strength", "dexterity", "none"] as const;
export type StatBasis = (typeof STAT_BASES)[number];

export interface WeaponData {
  size: WeaponSize;
  /** +1 if sharp (Fudge §4.54). */
  sharp: boolean;
  /** Maces, flails: armour counts half (Fudge §4.54). */
  heavyBlunt: boolean;
  /** A magic weapon's bonus to the offensive damage factor (Fudge §4.7 "+1 for Magic"). */
  magic: number;
  /** "muscle": attacker's Strength counts; "fixed": the weapon's own Strength (guns, crossbows). */
  power: "muscle" | "fixed";
  /** Fixed-power weapon's own Strength. */
  strength: number;
  /** Miniatures: which stat adds to MODF/RODF. */
  statBasis: StatBasis;
  hands: 1 | 2;
  /** Range increment in inches (Miniatures) / metres; 0 = melee. */
  range: number;
  ranged: boolean;
  stunCapable: boolean;
  /** Fudge §4.52 (1): with the DC roll variant, DC counts as a factor against this damage, no roll (a stun ray, a quarterstaff). */
  dcWithoutRoll: boolean;
  /** Fudge §4.58: on a good hit the target's Scale is halved or ignored. */
  scalePiercing: "none" | "halve" | "ignore";
  /** Projectile weapon scaled to the attacker's size: his Strength Scale counts (Fudge §4.54 note). */
  scaledToAttacker: boolean;
  /** Name of the skill item used to attack. */
  skill: string;
  /** Miniatures datacard weapon damage (added to MODF/RODF). */
  miniaturesDamage: number;
  /** Miniatures: may shoot in base contact. */
  shootInContact: boolean;
  volt: { attack: number; pierce: number; damage: number; stun: boolean };
  equipped: boolean;
  description: string;
}

export interface ArmorData {
  /** Defensive factor of the armour (Fudge §4.54: +1 light pliable … +4 heavy metal). */
  value: number;
  magic: number;
  volt: { coverage: number; protection: { min: number; max: number } };
  equipped: boolean;
  description: string;
}

export const SHIELD_SIZES = ["small", "medium", "large"] as const;
export type ShieldSize = (typeof SHIELD_SIZES)[number];
export interface ShieldData {
  size: ShieldSize;
  /** Miniatures: DDF bonus of the shield. */
  miniaturesBonus: number;
  equipped: boolean;
  description: string;
}

/** Miniatures trait rules as gift/fault effects: the rules core's own list, one name each. */
export const MINI_TRAIT_EFFECTS = MINI_TRAIT_RULES;
export type MiniTraitEffect = MiniTraitRule;

export const TRAIT_EFFECTS = [
  "none",
  "highPainThreshold",
  "lowPainThreshold",
  "painTolerance",
  "painIntolerant",
  "damageResistant",
  "fragile",
  "toughHide",
  "rapidHealing",
  "terrifying",
  "tough",
  "fragileVolt",
  // Miniatures: the sample datacards' gifts and faults with a rule (seed 004 "Sample characters"),
  // each the rules core's trait rule of the same name.
  ...MINI_TRAIT_EFFECTS,
] as const;
export type TraitEffect = (typeof TRAIT_EFFECTS)[number];

/**
 * Each rules effect: a gift's or a fault's, and the preset whose rules read it (the item sheet
 * offers a gift only gifts' effects of the world's preset, a fault only faults').
 */
export const TRAIT_EFFECT_RULE: Record<Exclude<TraitEffect, "none">, { kind: "gift" | "fault"; preset: PresetId }> = {
  // Fudge §4.51 and Fantasy Fudge: the pain shift of the box track.
  highPainThreshold: { kind: "gift", preset: "fudge" },
  lowPainThreshold: { kind: "fault", preset: "fudge" },
  painTolerance: { kind: "gift", preset: "fudge" },
  painIntolerant: { kind: "fault", preset: "fudge" },
  // Fudge §4.54: Damage Capacity gifts and faults, Tough Hide in the defensive damage factor.
  damageResistant: { kind: "gift", preset: "fudge" },
  fragile: { kind: "fault", preset: "fudge" },
  toughHide: { kind: "gift", preset: "fudge" },
  // Fudge §4.8: Rapid Healing heals twice as fast.
  rapidHealing: { kind: "gift", preset: "fudge" },
  // Volt: Wound rows — Tough raises the top row, Fragile lowers it.
  tough: { kind: "gift", preset: "volt" },
  fragileVolt: { kind: "fault", preset: "volt" },
  // Seed 004 "Sample characters": the datacards' gifts and faults with a tabletop effect.
  terrifying: { kind: "gift", preset: "miniatures" },
  steadfast: { kind: "gift", preset: "miniatures" },
  backstabber: { kind: "gift", preset: "miniatures" },
  faithful: { kind: "gift", preset: "miniatures" },
  noblePresence: { kind: "gift", preset: "miniatures" },
  mercenary: { kind: "fault", preset: "miniatures" },
  selfInterest: { kind: "fault", preset: "miniatures" },
  chivalrous: { kind: "fault", preset: "miniatures" },
  poorMelee: { kind: "fault", preset: "miniatures" },
  leader: { kind: "fault", preset: "miniatures" },
};

/** The effects a gift (or fault) may take in a world of `preset`: None first, then the kind's own. */
export function traitEffectsFor(kind: "gift" | "fault", preset: PresetId): TraitEffect[] {
  const own = TRAIT_EFFECTS.filter(
    (e) => e !== "none" && TRAIT_EFFECT_RULE[e].kind === kind && TRAIT_EFFECT_RULE[e].preset === preset,
  );
  return own.length ? ["none", ...own] : [];
}

export interface TraitData {
  effect: TraitEffect;
  /** Size of the effect where it has one (Tough Hide +1, Volt Tough steps, Terrifying count, a Miniatures rule's bonus; 0 = the rule's own +1). */
  value: number;
  description: string;
}
export type GiftData = TraitData;
export type FaultData = TraitData;

export interface SkillData {
  level: number;
  /** Five-Point Fudge skill group (SRD, Fantasy Fudge: Athletic, Combat …); "" = none. */
  group: string;
  description: string;
}

export type ItemType = "weapon" | "armor" | "shield" | "gift" | "fault" | "skill";
export interface ItemSystemMap {
  weapon: WeaponData;
  armor: ArmorData;
  shield: ShieldData;
  gift: GiftData;
  fault: FaultData;
  skill: SkillData;
}

/** A plain item as the UI layer sees it (Foundry Item → toObject(), pack source, playground). */
export interface ItemDoc<T extends ItemType = ItemType> {
  _id: string;
  name: string;
  type: T;
  img?: string;
  system: ItemSystemMap[T];
}

export interface ActorSystemMap {
  character: CharacterData;
  npc: NpcData;
  miniature: MiniatureData;
}

/** A plain actor as the UI layer sees it. `uuid` is optional (playground uses _id). */
export interface ActorDoc<T extends ActorType = ActorType> {
  _id: string;
  uuid?: string;
  name: string;
  type: T;
  img?: string;
  system: ActorSystemMap[T];
  items: ItemDoc[];
  /** Foundry ownership levels by user id ("default" for everyone); 3 = owner. */
  ownership?: Record<string, number>;
  /** Document flags by scope; the system's own are under "fudge-wounds" (e.g. the wound log, src/system/integrity.ts). */
  flags?: Record<string, unknown>;
  /**
   * Records only a GM writes about this actor (the automatic death's `killedFrom`), kept outside
   * it where players cannot write: Foundry's hidden world setting (src/foundry/gm-records.ts), the
   * playground's store. Given where an action needs them.
   */
  gmRecords?: Record<string, unknown>;
}

// ─── Defaults ──────────────────────────────────────────────────────────────────────────

export function defaultCharacterData(): CharacterData {
  return {
    attributes: { strength: 0, damageCapacity: 0, willpower: 0, mass: 0 },
    scale: { strength: 0, mass: 0 },
    fudgePoints: 3,
    woundTrack: { state: null, preset: "standard", epicExtraHurt: 0, epicExtraVeryHurt: 0, label: "" },
    // Volt: ordinary humans have Will 6 and the top penalty row at 10 (tough 0).
    volt: { willpower: 6, strength: 6, guard: 10, tough: 0 },
    defenseSkill: "",
    defenseDefault: 0,
    notes: "",
    experience: null,
  };
}

export function defaultNpcData(): NpcData {
  return { ...defaultCharacterData(), pawn: false };
}

export function defaultMiniatureData(): MiniatureData {
  return {
    strength: 0,
    dexterity: 0,
    guts: 0,
    movement: 5, // Miniatures: Movement 5"
    terrifying: 0,
    flying: false,
    woundTrack: { state: null },
    gutsState: initialGutsState(),
    gutsStanding: defaultGutsStanding(),
    notes: "",
  };
}

export function defaultWeaponData(): WeaponData {
  return {
    size: "medium",
    sharp: false,
    heavyBlunt: false,
    magic: 0,
    power: "muscle",
    strength: 0,
    statBasis: "strength",
    hands: 1,
    range: 0,
    ranged: false,
    stunCapable: false,
    dcWithoutRoll: false,
    scalePiercing: "none",
    scaledToAttacker: false,
    skill: "",
    miniaturesDamage: 0,
    shootInContact: false,
    volt: { attack: 10, pierce: 0, damage: 10, stun: false },
    equipped: true,
    description: "",
  };
}

export function defaultArmorData(): ArmorData {
  return {
    value: 0,
    magic: 0,
    volt: { coverage: 20, protection: { min: 0, max: 0 } },
    equipped: true,
    description: "",
  };
}

export function defaultShieldData(): ShieldData {
  return { size: "small", miniaturesBonus: 1, equipped: true, description: "" };
}

export function defaultTraitData(): TraitData {
  return { effect: "none", value: 0, description: "" };
}

export function defaultSkillData(): SkillData {
  return { level: 0, group: "", description: "" };
}

export const ACTOR_DEFAULTS: { [K in ActorType]: () => ActorSystemMap[K] } = {
  character: defaultCharacterData,
  npc: defaultNpcData,
  miniature: defaultMiniatureData,
};

export const ITEM_DEFAULTS: { [K in ItemType]: () => ItemSystemMap[K] } = {
  weapon: defaultWeaponData,
  armor: defaultArmorData,
  shield: defaultShieldData,
  gift: defaultTraitData,
  fault: defaultTraitData,
  skill: defaultSkillData,
};

// ─── World rules (settings) ────────────────────────────────────────────────────────────

/**
 * Fudge preset options: the rules core's own shape (src/rules/fudge/options.ts), minus the
 * ladder (built from `legendary` and localized names by the caller) and the Willpower roll
 * against penalties (built from fudgeTrack.willpowerVsPenalty / willpowerDifficulty).
 */
/** The world's Fudge options; the dice are the world's own setting (`WorldRules.dice`), read into each request. */
export type FudgeWorldOptions = Omit<FudgeOptions, "ladder" | "willpowerVsPenalty" | "dice">;

/** Threshold row of a box track: damage numbers from `min` reach level `key` (Fudge §4.56). */
export interface ThresholdRow {
  key: string;
  min: number;
}

/** Options that shape the Fudge box / DC tracks and their safeguards (Fudge §4.52, §4.57, §4.64, §4.8). */
export interface FudgeTrackOptions {
  /** §4.56 thresholds; null = the track's defaults (standard, or the double-RD table when doubleRd). */
  thresholds: ThresholdRow[] | null;
  /** §4.57 option, off by default: Scratches never push beyond Very Hurt. */
  scratchesCapAtVeryHurt: boolean;
  /** §4.57 DC track: Scratches that add up to one DC level (default 3). */
  dcTrackScratchesPerHit: number;
  /** §4.57 DC track: DC Terrible → −3 ("penalty") or Incapacitated. */
  dcTrackTerrible: "penalty" | "incapacitated";
  /** §4.57 optional Willpower roll to reduce a penalty against a GM-set Difficulty. */
  willpowerVsPenalty: boolean;
  willpowerDifficulty: number;
  /** §4.64 PC safeguards (outside the seeds), PCs only. */
  safeguardThreeLevels: boolean;
  safeguardNearDeathFromIncapacitated: boolean;
  safeguardFudgePoint: boolean;
  /** §4.8: optional Constitution roll for natural healing. */
  healingConstitutionRoll: boolean;
  /** NPCs marked `pawn` use the pawn track (§4.57). */
  allowPawns: boolean;
}

// Volt recovery intervals are the rules core's (Volt: Recovery).
export const VOLT_RECOVERY = VOLT_RECOVERY_INTERVALS;
export type VoltRecovery = VoltRecoveryInterval;
export const APPLY_TARGETS = ["targeted", "selected"] as const;
export type ApplyTarget = (typeof APPLY_TARGETS)[number];

/** Character creation methods (Fudge §1.5 subjective, §1.6 objective; SRD Five-Point Fudge). */
export const CREATION_METHODS = ["subjective", "objective", "fivePoint"] as const;
export type CreationMethod = (typeof CREATION_METHODS)[number];

export interface CreationRules {
  method: CreationMethod;
  /** Fudge §1.61: null = half the attributes, rounded up. */
  freeAttributeLevels: number | null;
  /** Fudge §1.62: free skill levels. */
  freeSkillLevels: number;
  /** Fudge §1.63: free gifts. */
  freeGifts: number;
  /** Five-Point Fudge: points to spend on skill groups. */
  fivePointPoints: number;
  /**
   * Five-Point Fudge: the GM's rows beside the text's one- and two-point rows (the SRD's three- and
   * four-point rows from his copy), as counts of skills per level (rules parseFivePointRows).
   */
  fivePointRows: FivePointRowEntry[];
}

/** A Five-Point row as the rules menu stores it: points, focus, and how many skills at each level. */
export interface FivePointRowEntry {
  points: number;
  focus: string;
  superb: number;
  great: number;
  good: number;
  fair: number;
  mediocre: number;
}

export interface WorldRules {
  preset: PresetId;
  /** How characters are made, and the budget of the objective methods. */
  creation: CreationRules;
  /** The world's attributes and which of them the wound rules read (src/system/attributes.ts). */
  attributeSet: AttributeSet;
  /** Legendary on the ladder (Fudge §1.3: configurable). */
  legendary: boolean;
  /** The ladder extended below Terrible (Abysmal −4, src/rules/ladder.ts LOWER_RUNG): traits and results named there. */
  lowerEnd: boolean;
  /** The dice a trait is rolled with (Fudge §3.21–3.22, src/rules/dice-options.ts); changed only outside a combat. */
  dice: DiceOptionId;
  fudge: FudgeWorldOptions;
  fudgeTrack: FudgeTrackOptions;
  miniatures: {
    /** +1 per attack when more than one model attacks the same enemy (Miniatures). */
    gangUp: boolean;
    /** Range penalty from token distance (Miniatures: −1 per Range multiple). */
    rangeFromDistance: boolean;
    /** Wound penalties also lower HDDF (off: HDDF is armour only, Miniatures: The datacard). */
    penaltyLowersHddf: boolean;
    /**
     * Miniatures: Guts — "1 Model is at a -1 to rolls (Rolls only, not stats)": every roll of the
     * model ("allRolls": attacks, Guts checks and re-checks, the Near Death roll) or its attack
     * rolls only ("attackRolls").
     */
    gutsRollPenalty: GutsRollPenaltyRule;
  };
  fate: {
    /** Default label of a new FATE track (FATE ladder: a track has a kind label). */
    defaultLabel: string;
  };
  volt: {
    /** Volt: Injury recovery roll interval (monthly by default). */
    recovery: VoltRecovery;
  };
  /** Clear Scratches (and stun marks) when combat ends (Fudge §4.8). */
  clearScratchesAtCombatEnd: boolean;
  /** Apply to targeted or selected tokens (GM toggle). */
  applyTo: ApplyTarget;
  /** Difficulty Level of unopposed rolls (Fudge: default Fair). */
  defaultDifficulty: number;
  /** Players may see the duel forecast from the Token HUD too (the GM always can). */
  forecastForPlayers: boolean;
  /** Fudge §1.36: what the text leaves to the GM about a Fudge Point's automatic success (Fudge and FATE worlds). */
  fudgePoints: FudgePointRules;
}

/** Fudge §1.36, "accomplish an Unopposed action automatically": the GM's calls the text leaves open. */
export interface FudgePointRules {
  /** Off: spent in place of the roll (the roll dialog). On: also on the card of a failed roll, after the dice. */
  autoSuccessAfterRoll: boolean;
  /** The text: "the GM may veto" a Difficulty beyond Superb or more than 3 above the trait. Off: vetoed. */
  autoSuccessPastLimits: boolean;
}

/**
 * The presets whose rolls the world's dice option throws (Fudge §3.21–3.22): Fudge, and FATE (a
 * Fudge derivative rolling Fudge's 4dF). Miniatures keeps its datacard's 4dF and Volt its 2d20.
 */
export const usesDiceOption = (preset: string): boolean => preset === "fudge" || preset === "fate";

export function defaultWorldRules(): WorldRules {
  // The Willpower roll against penalties (Fudge §4.51) is set by fudgeTrack.willpowerVsPenalty / willpowerDifficulty.
  const { ladder: _ladder, willpowerVsPenalty: _willpower, dice: _dice, ...fudge } = defaultFudgeOptions();
  return {
    preset: "fudge",
    creation: {
      method: "subjective",
      freeAttributeLevels: null,
      freeSkillLevels: 50,
      freeGifts: 2,
      fivePointPoints: 5,
      fivePointRows: [],
    },
    attributeSet: defaultAttributeSet(),
    legendary: true,
    lowerEnd: false,
    dice: "4dF",
    fudge,
    fudgeTrack: {
      thresholds: null,
      scratchesCapAtVeryHurt: false,
      dcTrackScratchesPerHit: 3,
      dcTrackTerrible: "penalty",
      willpowerVsPenalty: false,
      willpowerDifficulty: 0,
      safeguardThreeLevels: false,
      safeguardNearDeathFromIncapacitated: false,
      safeguardFudgePoint: false,
      healingConstitutionRoll: false,
      allowPawns: true,
    },
    miniatures: { gangUp: true, rangeFromDistance: true, penaltyLowersHddf: false, gutsRollPenalty: "allRolls" },
    fate: { defaultLabel: "Physical" },
    volt: { recovery: "monthly" },
    clearScratchesAtCombatEnd: true,
    applyTo: "targeted",
    defaultDifficulty: 0,
    forecastForPlayers: false,
    fudgePoints: { autoSuccessAfterRoll: false, autoSuccessPastLimits: false },
  };
}

/**
 * World settings (namespace `fudge-wounds`) that hold world rules: one setting per top-level
 * field of WorldRules; the object-valued ones (fudge, fudgeTrack, miniatures, fate, volt) are
 * Object settings edited in the settings menu and merged over the defaults key by key.
 */
export const WORLD_RULE_SETTINGS = [
  "preset",
  "creation",
  "attributeSet",
  "legendary",
  "lowerEnd",
  "dice",
  "fudge",
  "fudgeTrack",
  "miniatures",
  "fate",
  "volt",
  "clearScratchesAtCombatEnd",
  "applyTo",
  "defaultDifficulty",
  "forecastForPlayers",
  "fudgePoints",
] as const satisfies readonly (keyof WorldRules)[];

function mergeOver(def: unknown, v: unknown): unknown {
  if (v === undefined || v === null) return def;
  if (def === null) return structuredClone(v);
  if (Array.isArray(def)) return Array.isArray(v) ? structuredClone(v) : def;
  if (typeof def === "object") {
    if (typeof v !== "object" || Array.isArray(v)) return def;
    const out: Record<string, unknown> = {};
    for (const [k, d] of Object.entries(def as Record<string, unknown>))
      out[k] = mergeOver(d, (v as Record<string, unknown>)[k]);
    return out;
  }
  return typeof v === typeof def ? v : def;
}

/**
 * World rules from a settings getter (Foundry: `k => game.settings.get("fudge-wounds", k)`;
 * playground and tests: a dictionary). Unset values fall back to defaults; values of the wrong
 * type also fall back, so a broken setting never blocks a sheet (the rules core still validates
 * what it receives).
 */
export function worldRulesFrom(get: (key: string) => unknown): WorldRules {
  const def = defaultWorldRules();
  const out = { ...def } as Record<string, unknown>;
  for (const key of WORLD_RULE_SETTINGS) {
    let v: unknown;
    try {
      v = get(key);
    } catch {
      v = undefined;
    }
    out[key] = mergeOver(def[key], v);
  }
  const r = out as unknown as WorldRules;
  if (!(PRESETS as readonly string[]).includes(r.preset)) r.preset = "fudge";
  if (!(APPLY_TARGETS as readonly string[]).includes(r.applyTo)) r.applyTo = "targeted";
  if (!(GUTS_ROLL_PENALTY_RULES as readonly string[]).includes(r.miniatures.gutsRollPenalty))
    r.miniatures.gutsRollPenalty = "allRolls";
  if (!(CREATION_METHODS as readonly string[]).includes(r.creation.method)) r.creation.method = "subjective";
  if (!(DICE_OPTION_IDS as readonly string[]).includes(r.dice)) r.dice = "4dF";
  // A stored set that does not check (a broken setting) falls back to the default set.
  try {
    checkAttributeSet(r.attributeSet);
  } catch {
    r.attributeSet = defaultAttributeSet();
  }
  return r;
}

// ─── Chat message: attack card ─────────────────────────────────────────────────────────

export type DefendState = "none" | "pending" | "rolled";

/** One applied wound on a target, with the exact track state before and after (for Undo). */
export interface AppliedRecord {
  userId: string;
  /** ISO timestamp or epoch ms of the apply. */
  at: number;
  before: unknown;
  after: unknown;
  undone: boolean;
  undoneBy?: string;
  /** How the wound was placed (track steps), and whether it ended the fight. */
  steps: unknown[];
  ended: boolean;
  /** Fudge §4.64: the defender spent a Fudge Point to survive this wound (Undo gives it back). */
  fudgePointSpent?: boolean;
}

/** The defender's side of a card target as his Defend recorded it (src/system/defence.ts): the skill he defended with, all-out defence, his modifier. */
export interface DefenceShown {
  skillName: string;
  level: number;
  allOutDefense: boolean;
  modifier: number;
}

export interface AttackCardTarget {
  /** Actor uuid (or playground id). */
  actorId: string;
  tokenId?: string;
  name: string;
  /** Fudge/FATE opposed: the defender's roll; Miniatures/Volt: static defence ("none"). */
  defend: DefendState;
  /** Recorded defence dice faces (4dF) when rolled. */
  defendDice: number[] | null;
  defendUserId: string | null;
  /**
   * This target's own situation over the card's (the table's measures: Miniatures range, gang-up,
   * contact), an attacker's claim like the card's; absent or {} on cards without one.
   */
  situation?: Record<string, unknown>;
  /** The request sent to the preset pipeline for this target (plain JSON, re-derivable). */
  request: unknown;
  /** Recorded dice by slot id (attacker's roll, defender's roll, damage rolls …). */
  dice: Record<string, number[]>;
  /** Snapshot of the resolution (re-derivable from request + dice); null until resolvable. */
  resolution: unknown | null;
  /** Applied records, newest last; at most one is live (not undone). Shown on the card only: Undo reads the target's wound log. */
  applied: AppliedRecord[];
  /** Set by Apply when the result re-derived from the live actors differed from what the card showed. */
  differs?: boolean;
  /** The defender's own choices for his defence roll (defence.ts DefenceShown), shown on his side of the card; null: none. */
  defence?: DefenceShown | null;
  /**
   * GM judgement (Fudge §4.55): the wound level the GM picked on his own client when he applied
   * ("none": no wound); "" or absent: no pick yet. Shown only: Apply never reads it from the card.
   */
  gmLevel?: string;
}

export interface AttackCardData {
  preset: PresetId;
  /** The user who made the attack (may ask a GM to apply to targets they do not own). */
  userId: string;
  attackerId: string;
  attackerName: string;
  weaponId: string;
  weaponName: string;
  /** Situation of the attack (modifier, all-out, cover, range …), as given in the dialog. */
  situation: Record<string, unknown>;
  /** The attacker's recorded dice shared by every target (e.g. "attack": 4dF faces). */
  attackDice: Record<string, number[]>;
  /** Fudge §3.21–3.22: the world's dice option the card's rolls were thrown with ("" or absent: 4dF, or the preset's own dice). */
  diceOption?: DiceOptionId | "";
  targets: AttackCardTarget[];
}

export function defaultAttackCardData(): AttackCardData {
  return {
    preset: "fudge",
    userId: "",
    attackerId: "",
    attackerName: "",
    weaponId: "",
    weaponName: "",
    situation: {},
    attackDice: {},
    targets: [],
  };
}
