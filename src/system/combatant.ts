/**
 * Pure mapping from actor/item data (src/system/data.ts) and the world rules to what the rules
 * core takes: the actor's wound track (`trackFor`) and each preset's attack request
 * (`attackRequest`). Nothing here decides a rule; it only reads data into the core's shapes.
 */
import {
  RulesError,
  standardLadder,
  newTrack,
  parseTrack,
  trackStatus,
  trackStunInForce,
  type StunSnapshot,
  type Track,
} from "../rules";
import { htmlToText } from "./rich-text";
import type { PresetId } from "../rules";
import {
  boxTrackConfig,
  DEFAULT_THRESHOLDS,
  type BoxLevel,
  type BoxTrackConfig,
  dcTrackConfig,
  DC_WOUND_LEVELS,
  usesDoubledThresholds,
} from "../rules/fudge";
import { defaultFateConfig } from "../rules/fate";
import { defaultVoltRows } from "../rules/volt";
import { datacard, parseDatacard } from "../rules/miniatures";
import type { FudgeCombatant } from "../rules/fudge";
import { MINI_TRAIT_EFFECTS, type MiniTraitEffect } from "./data";
import { roleLevel } from "./attributes";
import type {
  ActorDoc,
  ArmorData,
  CharacterData,
  ItemDoc,
  ItemType,
  MiniatureData,
  NpcData,
  ShieldData,
  SkillData,
  TraitData,
  TraitEffect,
  WeaponData,
  WorldRules,
  CustomWoundLevel,
} from "./data";

// Side-effect imports: each registers its track kind / pipeline with the rules core.

/** The id the UI layer uses for an actor (Foundry uuid, or the playground's _id). */
export const actorRef = (a: { _id: string; uuid?: string }): string => a.uuid ?? a._id;

export function itemsOf<T extends ItemType>(actor: ActorDoc, type: T): ItemDoc<T>[] {
  return (actor.items ?? []).filter((i): i is ItemDoc<T> => i.type === type);
}

export function equippedOf<T extends "weapon" | "armor" | "shield">(actor: ActorDoc, type: T): ItemDoc<T>[] {
  return itemsOf(actor, type).filter((i) => (i.system as { equipped: boolean }).equipped);
}

export function findItem(actor: ActorDoc, id: string, field = "itemId"): ItemDoc {
  const it = (actor.items ?? []).find((i) => i._id === id);
  if (!it)
    throw new RulesError(field, "FUDGE.Error.NoSuchItem", `no item ${JSON.stringify(id)} on ${actor.name}`, { id });
  return it;
}

/** Level of a skill item by name (case-insensitive), or null. */
export function skillLevel(actor: ActorDoc, name: string): number | null {
  const n = name.trim().toLowerCase();
  if (!n) return null;
  const s = itemsOf(actor, "skill").find((i) => i.name.trim().toLowerCase() === n);
  return s ? (s.system as SkillData).level : null;
}

/** Gifts and faults with a rules effect. */
export function traitEffects(actor: ActorDoc): { effect: TraitEffect; value: number; name: string }[] {
  return [...itemsOf(actor, "gift"), ...itemsOf(actor, "fault")]
    .map((i) => ({ effect: (i.system as TraitData).effect, value: (i.system as TraitData).value, name: i.name }))
    .filter((t) => t.effect !== "none");
}

const hasEffect = (actor: ActorDoc, e: TraitEffect): boolean => traitEffects(actor).some((t) => t.effect === e);
const effectSum = (actor: ActorDoc, e: TraitEffect, dflt = 1): number =>
  traitEffects(actor)
    .filter((t) => t.effect === e)
    .reduce((s, t) => s + (t.value || dflt), 0);

/**
 * Pain shift of the box track: −1 High Pain Threshold / Pain Tolerance, +1 Low Pain Threshold /
 * Pain Intolerant (Fudge §4.51; Fantasy Fudge).
 */
export function painShift(actor: ActorDoc): number {
  let s = 0;
  if (hasEffect(actor, "highPainThreshold") || hasEffect(actor, "painTolerance")) s -= 1;
  if (hasEffect(actor, "lowPainThreshold") || hasEffect(actor, "painIntolerant")) s += 1;
  return s;
}

/** Volt Tough steps: the actor's own value plus Tough gifts, minus Fragile faults (Volt: Wound rows). */
export function voltTough(actor: ActorDoc<"character" | "npc">): number {
  return actor.system.volt.tough + effectSum(actor, "tough") - effectSum(actor, "fragileVolt");
}

function customLevels(d: CharacterData): BoxLevel[] {
  const levels = d.woundTrack.customLevels ?? [];
  if (!levels.length)
    throw new RulesError(
      "system.woundTrack.customLevels",
      "FUDGE.Error.CustomLevelsMissing",
      "a custom wound track needs at least one level",
    );
  return customBoxLevels(levels);
}

/** A sheet's custom levels as the rules core's box levels (Fudge §4.57 custom track). */
export function customBoxLevels(levels: CustomWoundLevel[]): BoxLevel[] {
  return levels.map((l) => ({
    key: l.key,
    boxes: l.boxes,
    penalty: l.penalty,
    effect: l.effect === "" ? (l.penalty < 0 ? "penalty" : "none") : l.effect,
    min: l.threshold,
    tag: (l.label || l.key).charAt(0).toUpperCase(),
    // A level with its own name keeps it; the standard levels are named by their key.
    ...(l.label ? { label: l.label } : {}),
    // Fudge §4.51 Light Wound: another penalty once the combat is over.
    ...(typeof l.afterCombatPenalty === "number" ? { afterCombatPenalty: l.afterCombatPenalty } : {}),
  }));
}

/** Applies world threshold overrides (Fudge §4.56: editable) to a box config. */
function withThresholds(cfg: BoxTrackConfig, rules: WorldRules): BoxTrackConfig {
  const t = rules.fudgeTrack.thresholds;
  if (!t) return cfg;
  return { ...cfg, levels: cfg.levels.map((l) => ({ ...l, min: t.find((r) => r.key === l.key)?.min ?? l.min })) };
}

/**
 * The world's threshold overrides (Fudge §4.56: "editable") as a Damage-Capacity track's five
 * mins, Scratch..Near Death (RULES §2.2: the damage number is looked up in the threshold table of
 * the track); a level the world does not list keeps the track's default. Null = no overrides.
 */
function dcThresholds(rules: WorldRules): number[] | undefined {
  const t = rules.fudgeTrack.thresholds;
  if (!t) return undefined;
  const base = usesDoubledThresholds(rules.fudge) ? DEFAULT_THRESHOLDS.double : DEFAULT_THRESHOLDS.single;
  return DC_WOUND_LEVELS.slice(0, 5).map((k, i) => t.find((r) => r.key === k)?.min ?? base[i]);
}

/** The track configuration (no state) an actor has under the world rules. */
export function trackConfigFor(actor: ActorDoc, rules: WorldRules): { kind: string } & Record<string, unknown> {
  if (actor.type === "miniature") {
    // Miniatures: Scratch 2, Hurt 1, Very Hurt 1, Near Death 1, Dead 9+.
    return boxTrackConfig("miniatures", { label: "" }) as unknown as { kind: string } & Record<string, unknown>;
  }
  const a = actor as ActorDoc<"character" | "npc">;
  const d = a.system as CharacterData;
  switch (rules.preset) {
    case "fate":
      // FATE ladder: a track has a kind label.
      return defaultFateConfig(d.woundTrack.label || rules.fate.defaultLabel) as unknown as { kind: string } & Record<
        string,
        unknown
      >;
    case "volt": {
      const tough = voltTough(a);
      return {
        kind: "volt",
        label: d.woundTrack.label || "FUDGE.Volt.Track.Label",
        willpower: d.volt.willpower,
        tough,
        rows: defaultVoltRows(tough),
      };
    }
    case "miniatures":
      return boxTrackConfig("miniatures", { label: d.woundTrack.label }) as unknown as { kind: string } & Record<
        string,
        unknown
      >;
    case "fudge": {
      if (rules.fudge.dcVariant === "track") {
        // Fudge §4.57: Damage Capacity itself records the damage.
        return dcTrackConfig(roleLevel(d.attributes, rules.attributeSet, "damageCapacity"), {
          doubleRd: usesDoubledThresholds(rules.fudge),
          scratchesPerHit: rules.fudgeTrack.dcTrackScratchesPerHit,
          terrible: rules.fudgeTrack.dcTrackTerrible,
          // Fudge §4.56: the world's edited thresholds count on this track too.
          thresholds: dcThresholds(rules),
          label: d.woundTrack.label,
        }) as unknown as { kind: string } & Record<string, unknown>;
      }
      const pawn = a.type === "npc" && (d as NpcData).pawn && rules.fudgeTrack.allowPawns;
      const preset = pawn ? "pawn" : d.woundTrack.preset;
      const pc = a.type === "character";
      const cfg = boxTrackConfig(preset, {
        doubleRd: usesDoubledThresholds(rules.fudge),
        epicExtraHurt: d.woundTrack.epicExtraHurt,
        epicExtraVeryHurt: d.woundTrack.epicExtraVeryHurt,
        levels: preset === "custom" ? customLevels(d) : undefined,
        scratchCap: rules.fudgeTrack.scratchesCapAtVeryHurt,
        painShift: painShift(a),
        // Fudge §4.64: safeguards protect PCs only.
        safeguards: pc
          ? {
              maxThreeLevels: rules.fudgeTrack.safeguardThreeLevels,
              nearDeathNeedsIncapacitated: rules.fudgeTrack.safeguardNearDeathFromIncapacitated,
              fudgePointSaves: rules.fudgeTrack.safeguardFudgePoint,
            }
          : {},
        label: d.woundTrack.label,
      });
      return withThresholds(cfg, rules) as unknown as { kind: string } & Record<string, unknown>;
    }
  }
}

/** Actors a flow has read (readActor), with the track parsed once under the flow's rules. */
const readTracks = new WeakMap<object, { rules: WorldRules; track: Track | null }>();

/**
 * A flow reads each actor once: `doc` is a plain copy of the live actor, which nothing changes
 * afterwards, and every trackFor of it under `rules` answers from one parse (the first one), so a
 * flow's many readers (the request, the integrity check, the wound, Guts) do not parse it again.
 */
export function readActor<T extends ActorDoc>(doc: T, rules: WorldRules): T {
  if (!readTracks.has(doc)) readTracks.set(doc, { rules, track: null });
  return doc;
}

/** Freezes a parsed track whole: one shared parse must not be changed by a reader. */
function frozen<T>(v: T): T {
  if (v && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) frozen(x);
  }
  return v;
}

/** The actor's wound track: config from the world rules, state from the actor (null = unhurt). Throws a RulesError when the stored state does not fit. */
export function trackFor(actor: ActorDoc, rules: WorldRules): Track {
  const read = readTracks.get(actor);
  if (read && read.rules === rules) return (read.track ??= frozen(parsedTrack(actor, rules)));
  return parsedTrack(actor, rules);
}

function parsedTrack(actor: ActorDoc, rules: WorldRules): Track {
  const config = trackConfigFor(actor, rules);
  const state = (actor.system as CharacterData | MiniatureData).woundTrack.state;
  if (state === null || state === undefined) return newTrack(config);
  return parseTrack({ config, state }, "system.woundTrack");
}

/** The stun in force on the actor's track (Fudge §4.62, its track kind's hook); null when none, or the stored track does not fit. */
export function stunInForce(actor: ActorDoc, rules: WorldRules): StunSnapshot | null {
  try {
    return trackStunInForce(trackFor(actor, rules));
  } catch (e) {
    if (e instanceof RulesError) return null;
    throw e;
  }
}

// ─── Attack requests ───────────────────────────────────────────────────────────────────

export interface Situation extends Record<string, unknown> {
  modifier?: number;
}

function fudgeWeapon(w: ItemDoc<"weapon"> | null) {
  if (!w) return { name: "", kind: "muscle" as const, size: "none" as const }; // Fudge §4.54: no weapon −1
  const s = w.system;
  return {
    name: w.name,
    kind: s.power,
    size: s.size,
    sharp: s.sharp,
    strength: s.strength,
    scaledToAttacker: s.scaledToAttacker,
    heavyBlunt: s.heavyBlunt,
    // Fudge §4.7; data stored before the field existed has none.
    magic: s.magic ?? 0,
    scalePiercing: s.scalePiercing,
    ranged: s.ranged,
    stunCapable: s.stunCapable,
    // Fudge §4.52 (1); data stored before the field existed has none.
    dcWithoutRoll: s.dcWithoutRoll ?? false,
  };
}

/** Sum of equipped armour (value and magic, Fudge §4.54). */
export function armorTotals(actor: ActorDoc): { value: number; magic: number } {
  return equippedOf(actor, "armor").reduce(
    (t, a) => ({ value: t.value + (a.system as ArmorData).value, magic: t.magic + (a.system as ArmorData).magic }),
    { value: 0, magic: 0 },
  );
}

/** The largest equipped shield (Fudge §4.31), or "none". */
export function shieldOf(actor: ActorDoc): "none" | "small" | "medium" | "large" {
  const order = ["none", "small", "medium", "large"] as const;
  return equippedOf(actor, "shield").reduce<(typeof order)[number]>((best, s) => {
    const size = (s.system as ShieldData).size;
    return order.indexOf(size) > order.indexOf(best) ? size : best;
  }, "none");
}

/** Defence level of an actor: the named defence skill, else the default (Fudge §4.22). */
export function defenceLevel(actor: ActorDoc<"character" | "npc">): number {
  return skillLevel(actor, actor.system.defenseSkill) ?? actor.system.defenseDefault;
}

/** Weapon skill level: the weapon's named skill, else the actor's defence default (Fair). */
export function weaponSkill(actor: ActorDoc, weapon: ItemDoc<"weapon"> | null): number {
  if (weapon) {
    const l = skillLevel(actor, weapon.system.skill);
    if (l !== null) return l;
  }
  return actor.type === "miniature" ? 0 : (actor.system as CharacterData).defenseDefault;
}

/** The fudge preset's combatant (src/rules/fudge/combatant.ts) of an actor with a weapon. */
export function fudgeCombatant(
  actor: ActorDoc<"character" | "npc">,
  weapon: ItemDoc<"weapon"> | null,
  rules: WorldRules,
): Omit<FudgeCombatant, "track" | "weapon" | "armor"> & Record<string, unknown> {
  const d = actor.system;
  const dcGift = hasEffect(actor, "damageResistant")
    ? "damageResistant"
    : hasEffect(actor, "fragile")
      ? "fragile"
      : "none";
  return {
    name: actor.name,
    pc: actor.type === "character",
    skill: weaponSkill(actor, weapon),
    defense: defenceLevel(actor),
    // The attributes that play Strength, Mass, Damage Capacity and Willpower in the world's set.
    strength: roleLevel(d.attributes, rules.attributeSet, "strength"),
    strengthScale: d.scale.strength,
    massScale: d.scale.mass,
    mass: roleLevel(d.attributes, rules.attributeSet, "mass"),
    damageCapacity: roleLevel(d.attributes, rules.attributeSet, "damageCapacity"),
    willpower: roleLevel(d.attributes, rules.attributeSet, "willpower"),
    weapon: fudgeWeapon(weapon),
    armor: armorTotals(actor),
    shield: shieldOf(actor),
    toughHide: effectSum(actor, "toughHide"),
    dcGift,
    fudgePoints: d.fudgePoints,
    track: trackFor(actor, rules),
  };
}

function firstWeapon(actor: ActorDoc): ItemDoc<"weapon"> | null {
  return equippedOf(actor, "weapon")[0] ?? null;
}

/** A Miniatures datacard (src/rules/miniatures/datacard.ts) from a miniature actor. */
export function miniatureDatacard(actor: ActorDoc, rules: WorldRules): Record<string, unknown> {
  if (actor.type !== "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.NotMiniature", "the miniatures preset needs miniature actors", {
      name: actor.name,
    });
  const d = actor.system as MiniatureData;
  const armor = armorTotals(actor);
  const gifts = itemsOf(actor, "gift");
  const faults = itemsOf(actor, "fault");
  const card: Record<string, unknown> = {
    name: actor.name,
    strength: d.strength,
    dexterity: d.dexterity,
    guts: d.guts,
    movement: d.movement,
    weapons: equippedOf(actor, "weapon").map((w) => miniWeapon(w)),
    armor: armor.value + armor.magic,
    shield: equippedOf(actor, "shield").reduce((s, i) => Math.max(s, (i.system as ShieldData).miniaturesBonus), 0),
    terrifying: d.terrifying,
    flying: d.flying,
    track: trackFor(actor, rules),
    gutsState: structuredClone(d.gutsState),
  };
  const gift = datacardTrait(gifts);
  const fault = datacardTrait(faults);
  if (gift) card.gift = gift;
  if (fault) card.fault = fault;
  return card;
}

/** The trait effects that are the rules core's Miniatures trait rules (same names, src/rules/miniatures/datacard.ts). */
export function isMiniTraitEffect(effect: unknown): effect is MiniTraitEffect {
  return (MINI_TRAIT_EFFECTS as readonly unknown[]).includes(effect);
}

/**
 * The gift (or fault) on the datacard. The seed's datacard has one gift and one fault, and so
 * does the rules core's; a miniature actor may carry several items. The one that counts is the
 * first (in the sheet's order) whose effect is a Miniatures rule, else the first: a rule is never
 * hidden behind a text-only gift, and further rules of the same kind are shown as not counting
 * (`ignoredMiniTraits`). The description goes in as text, not HTML (the core's plain data).
 */
export function datacardTrait(items: ItemDoc<"gift" | "fault">[]): Record<string, unknown> | undefined {
  const item = items.find((i) => isMiniTraitEffect(i.system.effect)) ?? items[0];
  if (!item) return undefined;
  const out: Record<string, unknown> = { name: item.name, effect: htmlToText(item.system.description) };
  const s = item.system;
  if (isMiniTraitEffect(s.effect)) {
    out.rule = s.effect;
    // 0 (the item's default) leaves the rule's own +1.
    if (Number.isInteger(s.value) && s.value !== 0) out.value = s.value;
  }
  return out;
}

/** The Miniatures rules on a miniature's datacard (its gift's and its fault's); none for other actors. */
export function miniRules(actor: ActorDoc): Set<MiniTraitEffect> {
  const out = new Set<MiniTraitEffect>();
  if (actor.type !== "miniature") return out;
  for (const type of ["gift", "fault"] as const) {
    const rule = datacardTrait(itemsOf(actor, type))?.rule;
    if (isMiniTraitEffect(rule)) out.add(rule);
  }
  return out;
}

/** Gift and fault items whose Miniatures rule does not count, because another of the same kind already holds the datacard's slot. */
export function ignoredMiniTraits(actor: ActorDoc): ItemDoc<"gift" | "fault">[] {
  if (actor.type !== "miniature") return [];
  return (["gift", "fault"] as const).flatMap((type) =>
    itemsOf(actor, type)
      .filter((i) => isMiniTraitEffect(i.system.effect))
      .slice(1),
  );
}

export function miniWeapon(w: ItemDoc<"weapon">): Record<string, unknown> {
  const s = w.system as WeaponData;
  const out: Record<string, unknown> = {
    name: w.name,
    hands: s.hands,
    kind: s.ranged ? "ranged" : "melee",
    damage: s.miniaturesDamage,
    stat: s.ranged ? "none" : s.statBasis,
  };
  if (s.ranged) {
    out.range = s.range > 0 ? s.range : 1;
    out.rangedStat = s.statBasis === "strength" || s.statBasis === "dexterity" ? s.statBasis : "none";
    out.shootInContact = s.shootInContact;
  } else if (s.range > 0) out.range = s.range;
  return out;
}

function voltSide(actor: ActorDoc, weapon: ItemDoc<"weapon"> | null, rules: WorldRules): Record<string, unknown> {
  if (actor.type === "miniature")
    throw new RulesError("actor.type", "FUDGE.Error.NotCharacter", "the volt preset needs character or npc actors", {
      name: actor.name,
    });
  const a = actor as ActorDoc<"character" | "npc">;
  const armor = equippedOf(a, "armor")[0] ?? null;
  return {
    name: a.name,
    track: trackFor(a, rules),
    willpower: a.system.volt.willpower,
    strength: a.system.volt.strength,
    weapon: weapon
      ? {
          name: weapon.name,
          attack: weapon.system.volt.attack,
          damage: weapon.system.volt.damage,
          pierce: weapon.system.volt.pierce,
          stun: weapon.system.volt.stun,
          ranged: weapon.system.ranged,
        }
      : null,
    guard: a.system.volt.guard,
    armor: armor
      ? {
          coverage: armor.system.volt.coverage,
          protection: [armor.system.volt.protection.min, armor.system.volt.protection.max],
        }
      : null,
  };
}

function requireCharacter(actor: ActorDoc, path: string): ActorDoc<"character" | "npc"> {
  if (actor.type === "miniature")
    throw new RulesError(
      `${path}.type`,
      "FUDGE.Error.NotCharacter",
      `${actor.name} is a miniature; this preset needs characters or NPCs`,
      { name: actor.name },
    );
  return actor as ActorDoc<"character" | "npc">;
}

/**
 * What the table recorded when the current combat round began (src/foundry/combat.ts, written by
 * the active GM's client on the combat): the refs (actorRef) of the combatants' actors then, and
 * which of them were Incapacitated or worse.
 */
export interface RoundStart {
  round: number;
  actors: readonly string[];
  incapacitated: readonly string[];
}

/** Incapacitated or worse (cannot act, Near Death, dead), or knocked out by a stun — from a track status. */
export const incapacitatedBy = (condition: string): boolean => condition !== "able";

/**
 * Fudge §4.64 PC safeguard "nobody becomes Near Death unless they began the round Incapacitated":
 * did the defender begin the round Incapacitated? Never the attacker's claim: in a combat round
 * the table recorded, that record says; otherwise (no combat, a combatant the record does not
 * list, a round not recorded) the defender's current track counts as how he began the round.
 * False unless the world's safeguard is on (nothing else reads it).
 */
export function beganRoundIncapacitated(
  defender: ActorDoc,
  rules: WorldRules,
  roundStart: RoundStart | null | undefined,
): boolean {
  if (
    rules.preset !== "fudge" ||
    !rules.fudgeTrack.safeguardNearDeathFromIncapacitated ||
    defender.type === "miniature"
  )
    return false;
  const ref = actorRef(defender);
  if (roundStart && roundStart.actors.includes(ref)) return roundStart.incapacitated.includes(ref);
  try {
    return incapacitatedBy(trackStatus(trackFor(defender, rules)).condition);
  } catch {
    return false; // a stored track that no longer parses: the attack itself reports it
  }
}

/**
 * The situation of one target's request: the attacker's situation with `beganRoundIncapacitated`
 * derived for this defender (beganRoundIncapacitated above), whatever the situation said.
 */
export function defenderSituation(
  situation: Situation,
  defender: ActorDoc,
  rules: WorldRules,
  roundStart: RoundStart | null | undefined,
): Situation {
  const { beganRoundIncapacitated: _claimed, ...rest } = situation;
  return beganRoundIncapacitated(defender, rules, roundStart) ? { ...rest, beganRoundIncapacitated: true } : rest;
}

/** Keeps only the situation fields a preset's request accepts (the fudge preset rejects unknown fields). */
export const SITUATION_FIELDS: Record<PresetId, readonly string[]> = {
  fudge: [
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
    "attackerFudgePoint",
    "defenderFudgePoint",
  ],
  fate: ["modifier", "defenseModifier", "attackerFudgePoint", "defenderFudgePoint"],
  volt: ["distance", "modifier"],
  miniatures: [
    "gangUp",
    "rangeInches",
    "cover",
    "inContact",
    "helpless",
    "surprised",
    "friendShootsIntoMelee",
    "modifier",
    "fromBehind",
    "disengaging",
  ],
};

export function situationFor(preset: PresetId, situation: Situation): Record<string, unknown> {
  const allowed = SITUATION_FIELDS[preset];
  const out: Record<string, unknown> = {};
  for (const k of allowed) if (situation[k] !== undefined) out[k] = situation[k];
  return out;
}

/**
 * The attack request of the world's preset (plain JSON, validated by the preset's parseRequest
 * when resolved). `weapon` null = unarmed.
 */
export function attackRequest(
  attacker: ActorDoc,
  weapon: ItemDoc<"weapon"> | null,
  defender: ActorDoc,
  rules: WorldRules,
  situation: Situation = {},
): Record<string, unknown> {
  const preset = rules.preset;
  const sit = situationFor(preset, situation);
  switch (preset) {
    case "fudge": {
      const a = requireCharacter(attacker, "attacker");
      const d = requireCharacter(defender, "defender");
      // Fudge §1.3: a world may drop Legendary from the ladder.
      const opts: Record<string, unknown> = { ...structuredClone(rules.fudge) };
      if (!rules.legendary) opts.ladder = standardLadder({}, false);
      // Fudge §3.21–3.22: the world's dice throw the attack's four-dice rolls.
      if (rules.dice !== "4dF") opts.dice = rules.dice;
      // Fudge §4.51: the world's Willpower roll against wound penalties.
      if (rules.fudgeTrack.willpowerVsPenalty)
        opts.willpowerVsPenalty = { difficulty: rules.fudgeTrack.willpowerDifficulty };
      return {
        preset,
        attacker: fudgeCombatant(a, weapon, rules),
        defender: fudgeCombatant(d, firstWeapon(d), rules),
        options: opts,
        situation: sit,
      };
    }
    case "fate": {
      const a = requireCharacter(attacker, "attacker");
      const d = requireCharacter(defender, "defender");
      return {
        preset,
        attacker: { name: a.name, skill: weaponSkill(a, weapon), track: trackFor(a, rules) },
        defender: { name: d.name, skill: defenceLevel(d), defense: defenceLevel(d), track: trackFor(d, rules) },
        // Fudge §3.21–3.22 (FATE is a Fudge derivative): the world's dice throw each side's roll.
        options: rules.dice !== "4dF" ? { dice: rules.dice } : {},
        situation: sit,
      };
    }
    case "volt":
      return {
        preset,
        attacker: voltSide(attacker, weapon, rules),
        defender: voltSide(defender, firstWeapon(defender), rules),
        options: { recovery: rules.volt.recovery },
        situation: sit,
      };
    case "miniatures": {
      const card = miniatureDatacard(attacker, rules);
      const weapons = equippedOf(attacker, "weapon");
      const index = weapon ? weapons.findIndex((w) => w._id === weapon._id) : -1;
      return {
        preset,
        attacker: card,
        defender: miniatureDatacard(defender, rules),
        options: {
          penaltyLowersHddf: rules.miniatures.penaltyLowersHddf,
          gutsRollPenalty: rules.miniatures.gutsRollPenalty,
        },
        situation: { ...sit, weapon: index >= 0 ? index : 0 },
      };
    }
  }
}

/** Miniatures: derived datacard numbers (for the playground's token panel and Guts prompts). */
export function miniatureNumbers(actor: ActorDoc, rules: WorldRules) {
  const c = parseDatacard(miniatureDatacard(actor, rules), "actor");
  return datacard(c, trackStatus(c.track).penalty);
}
