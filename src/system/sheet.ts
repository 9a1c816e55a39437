/**
 * Sheet context builders: pure functions over plain actor/item data and the world rules. The
 * Foundry sheets' `_prepareContext` and the playground both call them; the templates render
 * exactly what they return. Every number a rule produces comes from src/rules.
 */
import { fudgePointPool, reducibleWounds } from "./fudge-point-spend";
import { errorView as rulesErrorView } from "./error-text";
import { RulesError, signed, trackStatus } from "../rules";
import type { Ladder, PresetId } from "../rules";
import { parseCombatant, defensiveFactor, offensiveFactor } from "../rules/fudge";
import { datacard, parseDatacard } from "../rules/miniatures";
import { injuryRecoveryTitle } from "./rolling";
import {
  CREATION_METHODS,
  TRACK_PRESETS,
  traitEffectsFor,
  type TraitEffect,
  type ActorDoc,
  type ArmorData,
  type CharacterData,
  type ItemDoc,
  type MiniatureData,
  type NpcData,
  type ShieldData,
  type SkillData,
  type TraitData,
  type WeaponData,
  type WorldRules,
  type CustomWoundLevel,
  GUTS_STANDING_KEYS,
} from "./data";
import {
  fudgeCombatant,
  ignoredMiniTraits,
  isMiniTraitEffect,
  itemsOf,
  miniatureDatacard,
  miniRules,
  trackFor,
  defenceLevel,
  skillLevel,
  weaponSkill,
  type Situation,
} from "./combatant";
import {
  forCombat,
  ladderOf,
  levelView,
  stepView,
  trackView,
  woundBar,
  type BarSegment,
  type LevelView,
  type StepView,
  type TrackView,
} from "./view";
import { attackOdds, type OddsView } from "./attack-dialog";
import { canHeal, canKill, canRecover, canUndoKill } from "./actions";
import { richTextView, type RichTextView } from "./rich-text";
import { ATTRIBUTE_ROLES, attributeLabelKey, attributeLevel } from "./attributes";
import { creationView, type CreationView } from "./creation";
import { experienceView, type ExperienceView } from "./experience";

/** The notes as the sheet shows them: owners edit, everyone else reads (sanitised or Foundry-enriched HTML). */
const notesView = (notes: string, opts: SheetOptions): RichTextView =>
  richTextView("system.notes", notes, {
    editable: opts.editable,
    labelKey: "FUDGE.Sheet.Notes",
    enriched: opts.enrichedNotes,
    uuid: opts.uuid,
  });

export interface SheetOptions {
  editable: boolean;
  owner: boolean;
  /** Localized ladder rung names (FUDGE.Ladder.*), optional. */
  ladderNames?: Partial<Record<string, string>>;
  /** The viewing user's current targets: each Attack button's tooltip gives the odds against them. */
  targets?: ActorDoc[];
  /**
   * What the table measures for each of `targets` (same order), for an attack with a melee and
   * with a ranged weapon (Foundry: src/foundry/chat.ts targetMeasures — Miniatures contact,
   * gang-up, range; Volt distance): each tooltip's odds are those of the attack as the dialog
   * shows it and it will be rolled, with its weapon kind's measures. Absent: nothing measured.
   */
  targetMeasures?: readonly { melee: Situation; ranged: Situation }[];
  /** The sheet's open tab (Foundry's tabGroups.primary); the first screen is "combat". */
  activeTab?: string;
  /** Foundry: the notes as TextEditor.enrichHTML made them (from cleaned HTML); absent elsewhere (sanitised here). */
  enrichedNotes?: string;
  /** Foundry: the actor's uuid (the notes editor's `document-uuid`). */
  uuid?: string;
  /**
   * The actor is in a started combat (Foundry: inStartedCombat). Fudge §4.51 Light Wound: the
   * penalty shown is the one a roll takes now. Absent: not in combat (the playground has none).
   */
  inCombat?: boolean;
  /** The viewing user is a GM: GM-only actions (automatic death) are offered. */
  gm?: boolean;
  /**
   * A prefix unique to this sheet window for the ids that tie each tab to its panel (ARIA
   * aria-controls / aria-labelledby). Foundry: the application's id; default from the actor's id.
   */
  domId?: string;
}

export interface ErrorView {
  key: string;
  params: Record<string, string | number>;
}

const errorView = (e: unknown): ErrorView => rulesErrorView(e);

/** Runs `f`; a RulesError becomes an error view instead of breaking the whole sheet. */
function safe<T>(f: () => T): { value: T | null; error: ErrorView | null } {
  try {
    return { value: f(), error: null };
  } catch (e) {
    return { value: null, error: errorView(e) };
  }
}

export interface AttributeView {
  key: string;
  labelKey: string;
  /** The world's own name for the attribute ("" = labelKey's). */
  label: string;
  /** The wound rules' roles it plays (FUDGE.Attribute.* keys), shown beside it. */
  roleKeys: string[];
  /** Form field name (Foundry's submit format). */
  field: string;
  level: LevelView;
  /** The stored value (Miniatures: before wound penalties). */
  base: number;
  rollable: boolean;
}

export interface ItemRow {
  id: string;
  name: string;
  type: string;
  img: string;
  equipped: boolean | null;
  /** Short summary: weapon factors, armour value, skill level … */
  summary: { key: string; params: Record<string, string | number> }[];
}

export interface WeaponRow extends ItemRow {
  skillLevel: LevelView | null;
  /** The weapon names a skill the actor does not have: shown as a warning, never silently Fair. */
  skillMissing: string;
  /** The weapon's skill picked from the actor's skills, the default stated (empty where none applies). */
  skillChoices: SkillChoice[];
  /** Fudge ODF / Miniatures MODF-RODF / Volt attack. */
  factor: number | null;
  factorText: string;
  factorLabelKey: string;
  factorSteps: StepView[];
  ranged: boolean;
  canAttack: boolean;
  /** Attack is shown (disabled with a reason) rather than hidden when it cannot be used. */
  attackShown: boolean;
  /** Why Attack is disabled ("" when it is not). */
  attackBlockedKey: string;
  /** Exact odds against each current target (the Attack button's tooltip). */
  odds: OddsView[];
}

export interface SkillRow extends ItemRow {
  level: LevelView;
  /** Five-Point Fudge group ("" = none). */
  group: string;
}

/** A choice of a skill by name (the defence skill, a weapon's skill): "" = the stated default. */
export interface SkillChoice {
  value: string;
  label: string;
  /** The default's label: "Default: Fair (+0)" (FUDGE.Sheet.SkillDefault); "" for a skill (its name). */
  labelKey: string;
  labelParams: Record<string, string>;
  selected: boolean;
}

export interface ActionButton {
  action: string;
  labelKey: string;
  /** data-* attributes of the button. */
  data: Record<string, string | number>;
  /** A tooltip (i18n key), when the button says more than its label. */
  tooltipKey?: string;
  /** Why the button cannot be used now (its precondition's refusal: canHeal, canRecover); null when it can. */
  blocked: ErrorView | null;
}

export interface ActorSheetContext {
  actor: { id: string; name: string; img: string; type: string; typeLabelKey: string };
  editable: boolean;
  owner: boolean;
  preset: PresetId;
  presetLabelKey: string;
  cssClass: string;
  attributes: AttributeView[];
  scale: { strength: number; mass: number; strengthText: string; massText: string } | null;
  fudgePoints: number | null;
  /** Fudge §1.36 on the track: the owner's offers (a wounded level one level less) and his spends there with their Undo. */
  fudgePointWounds: FudgePointWoundsView | null;
  trackPreset: {
    value: string;
    options: { value: string; labelKey: string; selected: boolean }[];
    epic: boolean;
    epicExtraHurt: number;
    epicExtraVeryHurt: number;
    pawn: boolean | null;
    /** Fudge §4.57 custom track: its levels as editable rows (null for the other presets). */
    custom: CustomLevelRow[] | null;
  } | null;
  trackLabel: string;
  track: TrackView;
  /** RULES §2.2 automatic death: the GM's button in the wound track's header (actions.killActor). */
  killable: boolean;
  /** Undo of the automatic death: the GM's button while the kill's record matches the live track (actions.undoKill). */
  killUndoable: boolean;
  healing: ActionButton[];
  derived: { key: string; labelKey: string; value: number | null; valueText: string; steps: StepView[] }[];
  derivedError: ErrorView | null;
  volt: { willpower: number; strength: number; guard: number; tough: number } | null;
  defense: LevelView | null;
  defenseSkill: string;
  /** The defence skill picked from the actor's skills, the default first (Fudge §4.22). */
  defenseChoices: SkillChoice[];
  /** The stored defence skill matches no skill of the actor (a deleted or renamed skill). */
  defenseMissing: string;
  /** The creation panel (src/system/creation.ts), characters only. */
  creation: CreationView | null;
  /** Experience Points and the advancement log (Fudge §5.2; src/system/experience.ts), characters and NPCs. */
  experience: ExperienceView | null;
  /** The GM picks the world's creation method on the panel (a world setting): its choices, else null. */
  creationMethods: { value: string; labelKey: string; selected: boolean }[] | null;
  weapons: WeaponRow[];
  armor: ItemRow[];
  shields: ItemRow[];
  skills: SkillRow[];
  gifts: ItemRow[];
  faults: ItemRow[];
  /** Rich-text notes (templates/parts/rich-text.hbs). */
  notes: RichTextView;
  /** Miniatures: Guts state, Movement, flags. */
  miniature: {
    movement: number;
    movementText: string;
    terrifying: number;
    flying: boolean;
    guts: {
      effect: number;
      effectKey: string;
      /** What Guts means for a model out of the fight: its Near Death roll from its next turn, or nothing (Dead). */
      outOfActionKey: string;
      pending: { reason: string; reasonKey: string; target: number; bonus: number }[];
    };
    /** The model's standing Guts circumstances (seed 004 "Sample characters"), as checkboxes near Guts. */
    gutsStanding: { key: string; field: string; labelKey: string; hintKey: string; checked: boolean }[];
    /** Miniatures actions that attack once with every wielded weapon of a kind. */
    attackActions: { kind: "melee" | "ranged"; labelKey: string; count: number }[];
  } | null;
  /** Shown when the actor type does not fit the preset (e.g. a character in a Miniatures world). */
  presetNotice: string;
  /** The prefix of the tab and tab-panel ids (SheetOptions.domId). */
  domId: string;
  /** Sheet tabs (Foundry's data-action="tab"): combat first, with Attack and the wound track. */
  tabs: { id: string; labelKey: string; icon: string; active: boolean; cssClass: string }[];
  tab: Record<string, string>;
  /** Ladder rungs for the trait selects (Fudge §1.3), lowest first; null where traits are numbers. */
  ladderChoices: { value: number; label: string }[] | null;
  /** The token's segmented wound bar (view.ts woundBar), shown under the portrait. */
  woundBar: BarSegment[];
  /** The header's wound status: the worst level reached (or Unhurt), as its row names it. */
  woundLevel: { key: string; params: Record<string, string | number> };
  /** What the header says (headerStatus): where the wounds are, the penalty when it counts, the condition. */
  header: HeaderStatus;
}

export interface HeaderStatus {
  /** Where the wounds are, in the game's words: the worst level (or Unhurt); Volt: the worst Stun row and the worst Injury row. */
  levels: { key: string; params: Record<string, string | number> }[];
  /** The roll penalty is shown, unless the model is out of the fight (it takes no action to roll). */
  showPenalty: boolean;
  /** The condition as the preset names it. */
  conditionKey: string;
  /** A miniature Near Death or Dead (Miniatures: Wounds, "falls … and cannot do anything else"). */
  outOfAction: boolean;
}

const PRESET_LABEL = (p: string): string => `FUDGE.Preset.${p}`;

type WeaponBase = Omit<WeaponRow, "attackShown" | "attackBlockedKey" | "odds">;
/** What each actor type's builder fills; actorSheetContext adds the table view (withTableView). */
export type SheetBase = Omit<
  ActorSheetContext,
  "tabs" | "tab" | "domId" | "ladderChoices" | "woundLevel" | "woundBar" | "weapons" | "header"
> & { weapons: WeaponBase[] };

export interface CustomLevelRow {
  index: number;
  /** A known level's name key (FUDGE.Wound.hurt), or "" when the level has its own label. */
  nameKey: string;
  label: string;
  boxes: number;
  penalty: number;
  threshold: number;
  /** Fudge §4.51 Light Wound: the penalty after combat, "" = none (the level's penalty). */
  afterCombatPenalty: number | "";
  effects: { value: string; labelKey: string; selected: boolean }[];
  removable: boolean;
}

const KNOWN_LEVELS = new Set(["scratch", "hurt", "veryHurt", "incapacitated", "nearDeath"]);

function customLevelRows(levels: CustomWoundLevel[], editable: boolean): CustomLevelRow[] {
  return levels.map((l, index) => ({
    index,
    nameKey: !l.label && KNOWN_LEVELS.has(l.key) ? `FUDGE.Wound.${l.key}` : "",
    label: l.label || l.key,
    boxes: l.boxes,
    penalty: l.penalty,
    threshold: l.threshold,
    afterCombatPenalty: typeof l.afterCombatPenalty === "number" ? l.afterCombatPenalty : "",
    effects: (["", "cannotAct", "dying"] as const).map((e) => ({
      value: e,
      labelKey: `FUDGE.Sheet.CustomEffectOption.${e || "none"}`,
      selected: e === l.effect,
    })),
    removable: editable && levels.length > 1,
  }));
}

function baseItem(i: ItemDoc): ItemRow {
  const s = i.system as unknown as Record<string, unknown>;
  return {
    id: i._id,
    name: i.name,
    type: i.type,
    img: i.img ?? "",
    equipped: typeof s.equipped === "boolean" ? (s.equipped as boolean) : null,
    summary: [],
  };
}

function armorRow(i: ItemDoc<"armor">, preset: PresetId): ItemRow {
  const s = i.system as ArmorData;
  const row = baseItem(i);
  row.summary =
    preset === "volt"
      ? [
          {
            key: "FUDGE.Item.VoltArmorSummary",
            params: { coverage: s.volt.coverage, min: s.volt.protection.min, max: s.volt.protection.max },
          },
        ]
      : [{ key: "FUDGE.Item.ArmorSummary", params: { value: signed(s.value), magic: signed(s.magic) } }];
  return row;
}

function shieldRow(i: ItemDoc<"shield">, preset: PresetId): ItemRow {
  const s = i.system as ShieldData;
  const row = baseItem(i);
  row.summary = [
    preset === "miniatures"
      ? { key: "FUDGE.Item.ShieldMiniSummary", params: { value: signed(s.miniaturesBonus) } }
      : { key: `FUDGE.Item.ShieldSize.${s.size}`, params: {} },
  ];
  return row;
}

/** Names that differ from their effect's key (seed 004's sample datacards). */
const NAME_ALIASES: Record<string, string> = { skilledBackstabber: "backstabber", poorMeleeCombatant: "poorMelee" };

/**
 * The rule effect a gift's or fault's name suggests ("High Pain Threshold" → highPainThreshold), if
 * the item sheet offers it: an effect of the item's kind in the world's preset (Volt's Fragile is
 * fragileVolt).
 */
export function suggestedEffect(name: string, kind: "gift" | "fault", preset: PresetId): TraitEffect | null {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""));
  const effect = NAME_ALIASES[key] ?? key;
  const offered = traitEffectsFor(kind, preset).filter((e) => e !== "none");
  return offered.find((e) => e === effect || e === `${effect}Volt`) ?? null;
}

function traitRow(i: ItemDoc<"gift" | "fault">, preset: PresetId): ItemRow {
  const s = i.system as TraitData;
  const row = baseItem(i);
  if (s.effect !== "none") row.summary = [{ key: `FUDGE.Effect.${s.effect}`, params: { value: s.value } }];
  else {
    // The name promises a rule the item does not carry: say so (pick the effect on its sheet).
    const e = suggestedEffect(i.name, i.type, preset);
    if (e) row.summary = [{ key: "FUDGE.Item.EffectNotSet", params: {} }];
  }
  return row;
}

/** A miniature's gifts or faults: a second item with a Miniatures rule says it does not count (the datacard has one of each). */
function miniTraitRows(actor: ActorDoc, type: "gift" | "fault"): ItemRow[] {
  const ignored = new Set(ignoredMiniTraits(actor).map((i) => i._id));
  return itemsOf(actor, type).map((i) => {
    const row = traitRow(i, "miniatures");
    if (ignored.has(i._id)) row.summary = [...row.summary, { key: "FUDGE.Item.RuleNotCounted", params: {} }];
    return row;
  });
}

function skillRows(actor: ActorDoc, ladder: Ladder): SkillRow[] {
  return itemsOf(actor, "skill").map((i) => ({
    ...baseItem(i),
    level: levelView((i.system as SkillData).level, ladder),
    group: (i.system as Partial<SkillData>).group ?? "",
  }));
}

/** Whether an actor has a skill of this name (as skillLevel reads it: case and spaces aside). */
const hasSkill = (actor: ActorDoc, name: string): boolean => skillLevel(actor, name) !== null;

/**
 * The skills to pick from for a stored skill name: the default first ("" — its label says what it
 * is), then each skill; a stored name that matches none stays selected as a missing choice, so
 * nothing is lost until the user picks again.
 */
export function skillChoices(
  skills: readonly string[],
  stored: string,
  defaultLabel: string,
): { choices: SkillChoice[]; missing: string } {
  const n = stored.trim().toLowerCase();
  const match = skills.find((s) => s.trim().toLowerCase() === n);
  const missing = n && !match ? stored : "";
  const choices: SkillChoice[] = [
    { value: "", label: "", labelKey: "FUDGE.Sheet.SkillDefault", labelParams: { level: defaultLabel }, selected: !n },
    ...skills.map((s) => ({ value: s, label: s, labelKey: "", labelParams: {}, selected: s === match })),
  ];
  if (missing)
    choices.push({
      value: stored,
      label: "",
      labelKey: "FUDGE.Sheet.SkillMissingChoice",
      labelParams: { name: stored },
      selected: true,
    });
  return { choices, missing };
}

function weaponRows(
  actor: ActorDoc,
  rules: WorldRules,
  ladder: Ladder,
  canAttack: boolean,
): { rows: WeaponBase[]; error: ErrorView | null } {
  let error: ErrorView | null = null;
  const preset = rules.preset;
  const rows = itemsOf(actor, "weapon").map((w): WeaponBase => {
    const s = w.system as WeaponData;
    const row: WeaponBase = {
      ...baseItem(w),
      skillLevel: actor.type === "miniature" || preset === "volt" ? null : levelView(weaponSkill(actor, w), ladder),
      // Volt and miniatures read no weapon skill: a stale name there is no warning.
      skillMissing:
        actor.type !== "miniature" && preset !== "volt" && s.skill.trim() && !hasSkill(actor, s.skill) ? s.skill : "",
      skillChoices:
        actor.type === "miniature" || preset === "volt"
          ? []
          : skillChoices(
              itemsOf(actor, "skill").map((i) => i.name),
              s.skill,
              levelView((actor.system as CharacterData).defenseDefault, ladder).label,
            ).choices,
      factor: null,
      factorText: "",
      factorLabelKey: "",
      factorSteps: [],
      ranged: s.ranged,
      canAttack: canAttack && s.equipped,
    };
    if (preset === "fudge" && actor.type !== "miniature") {
      // Fudge §4.54: the ODF of this weapon, from the rules core.
      const r = safe(() =>
        offensiveFactor(
          parseCombatant(fudgeCombatant(actor as ActorDoc<"character" | "npc">, w, rules), "actor"),
          rules.fudge,
        ),
      );
      if (r.value)
        Object.assign(row, {
          factor: r.value.total,
          factorText: signed(r.value.total),
          factorLabelKey: "FUDGE.Sheet.Odf",
          factorSteps: r.value.steps.map(stepView),
        });
      error ??= r.error;
    } else if (preset === "volt") {
      row.summary = [
        {
          key: "FUDGE.Item.VoltWeaponSummary",
          params: { attack: s.volt.attack, pierce: s.volt.pierce, damage: s.volt.damage, stun: s.volt.stun ? "*" : "" },
        },
      ];
    }
    return row;
  });
  return { rows, error };
}

/**
 * The track's healing buttons, each disabled with the reason when its precondition refuses it now
 * (the same check the flow makes before its dialog and dice: no Injury to recover from, a Volt
 * character who cannot act cannot Recover). Permission is the sheet's: the buttons are the owner's.
 */
function healingButtons(kind: string, editable: boolean, actor: ActorDoc, rules: WorldRules): ActionButton[] {
  if (!editable) return [];
  return healingKinds(kind, rules).map((b) => {
    const why = b.action === "recover" ? canRecover(actor, rules) : canHeal(actor, String(b.data.heal), rules);
    return { ...b, blocked: why ? rulesErrorView(why) : null };
  });
}

function healingKinds(kind: string, rules: Pick<WorldRules, "volt">): Omit<ActionButton, "blocked">[] {
  switch (kind) {
    case "box":
    // Fudge §4.57 DC as the wound record heals as the boxes do (RULES §2.4 #4, §2.5): Scratches,
    // a healing roll, natural healing — never above the starting DC (the rules core's dc track).
    case "dc":
      return [
        { action: "heal", labelKey: "FUDGE.Heal.ClearScratches", data: { heal: "scratches" } },
        { action: "heal", labelKey: "FUDGE.Heal.HealingRoll", data: { heal: "roll" } },
        { action: "heal", labelKey: "FUDGE.Heal.Natural", data: { heal: "natural" } },
      ];
    case "fate":
      return [
        { action: "heal", labelKey: "FUDGE.Heal.ConsumeClipped", data: { heal: "consumeClipped" } },
        { action: "heal", labelKey: "FUDGE.Heal.EndScene", data: { heal: "endScene" } },
      ];
    case "volt":
      return [
        { action: "recover", labelKey: "FUDGE.Heal.Recover", data: {} },
        { action: "heal", labelKey: "FUDGE.Heal.Rest", data: { heal: "rest" } },
        // Volt: Recovery — "monthly by default; weekly or nightly per setting": the world's interval
        // on the button and its tooltip (informational; the system does not track calendar time).
        {
          action: "heal",
          labelKey: injuryRecoveryTitle(rules),
          data: { heal: "injuryRecovery" },
          tooltipKey: `FUDGE.Heal.InjuryRecoveryInterval.${rules.volt.recovery}`,
        },
      ];
    default:
      return [];
  }
}

function actorHeader(actor: ActorDoc) {
  return {
    id: actor._id,
    name: actor.name,
    img: actor.img ?? "",
    type: actor.type,
    typeLabelKey: `TYPES.Actor.${actor.type}`,
  };
}

/** The defence skill's picker: its default level stated (Fudge §4.22), then the actor's skills. */
function defenceView(actor: ActorDoc<"character" | "npc">, ladder: Ladder) {
  const d = actor.system as CharacterData;
  const { choices, missing } = skillChoices(
    itemsOf(actor, "skill").map((i) => i.name),
    d.defenseSkill,
    levelView(d.defenseDefault, ladder).label,
  );
  return { defenseChoices: choices, defenseMissing: missing };
}

/** Context of the character (and NPC) sheet. */
function characterBase(actor: ActorDoc<"character" | "npc">, rules: WorldRules, opts: SheetOptions): SheetBase {
  const d = actor.system as CharacterData;
  const ladder = ladderOf(rules, opts.ladderNames);
  const preset = rules.preset;
  const track = forCombat(
    trackView(() => trackFor(actor, rules), opts.editable, preset),
    opts.inCombat ?? false,
  );
  const canAct = track.canAct;
  const attrs: AttributeView[] =
    preset === "volt"
      ? []
      : // The world's attributes (Fudge §1.31), each with the wound-rule roles it plays.
        rules.attributeSet.attributes.map((a) => {
          const level = attributeLevel(d.attributes, a.key);
          return {
            key: a.key,
            labelKey: attributeLabelKey(a),
            label: a.name,
            // A role is named beside an attribute that plays it under another name (Health as Damage Capacity).
            roleKeys: ATTRIBUTE_ROLES.filter(
              (r) => rules.attributeSet.roles[r] === a.key && (a.name || r !== a.key),
            ).map((r) => `FUDGE.Attribute.${r}`),
            field: `system.attributes.${a.key}`,
            level: levelView(level, ladder),
            base: level,
            rollable: opts.owner,
          };
        });
  const weapons = weaponRows(actor, rules, ladder, opts.owner && canAct);
  const derived: ActorSheetContext["derived"] = [];
  let derivedError = weapons.error;
  if (preset === "fudge") {
    // Fudge §4.54: DDF against an ordinary (not heavy-blunt, not scale-piercing) weapon.
    const r = safe(() => {
      const c = parseCombatant(fudgeCombatant(actor, null, rules), "actor");
      return defensiveFactor(c, c.weapon, rules.fudge);
    });
    if (r.value)
      derived.push({
        key: "ddf",
        labelKey: "FUDGE.Sheet.Ddf",
        value: r.value.total,
        valueText: signed(r.value.total),
        steps: r.value.steps.map(stepView),
      });
    derivedError ??= r.error;
  }
  const isNpc = actor.type === "npc";
  return {
    actor: actorHeader(actor),
    editable: opts.editable,
    owner: opts.owner,
    preset,
    presetLabelKey: PRESET_LABEL(preset),
    cssClass: `fudge-wounds preset-${preset} actor-${actor.type}`,
    attributes: attrs,
    scale:
      preset === "fudge"
        ? {
            strength: d.scale.strength,
            mass: d.scale.mass,
            strengthText: signed(d.scale.strength),
            massText: signed(d.scale.mass),
          }
        : null,
    fudgePoints: preset === "fudge" || preset === "fate" ? d.fudgePoints : null,
    fudgePointWounds: track.error || !opts.owner ? null : fudgePointWoundsView(actor, rules, track),
    trackPreset:
      preset === "fudge"
        ? {
            value: d.woundTrack.preset,
            options: TRACK_PRESETS.map((p) => ({
              value: p,
              labelKey: `FUDGE.TrackPreset.${p}`,
              selected: p === d.woundTrack.preset,
            })),
            epic: d.woundTrack.preset === "epic",
            epicExtraHurt: d.woundTrack.epicExtraHurt,
            epicExtraVeryHurt: d.woundTrack.epicExtraVeryHurt,
            pawn: isNpc ? (d as NpcData).pawn : null,
            custom:
              d.woundTrack.preset === "custom" ? customLevelRows(d.woundTrack.customLevels ?? [], opts.editable) : null,
          }
        : null,
    trackLabel: d.woundTrack.label,
    track,
    killable: !track.error && canKill(actor, rules, opts.gm === true),
    killUndoable: !track.error && canUndoKill(actor, rules, opts.gm === true),
    healing: track.error ? [] : healingButtons(track.kind, opts.editable, actor, rules),
    derived,
    derivedError,
    volt: preset === "volt" ? { ...d.volt } : null,
    defense: preset === "volt" ? null : levelView(defenceLevel(actor), ladder),
    defenseSkill: d.defenseSkill,
    ...defenceView(actor, ladder),
    creation: creationView(actor, rules),
    experience: experienceView(actor, rules, ladder, { gm: opts.gm === true, owner: opts.owner }),
    creationMethods:
      opts.gm && actor.type === "character"
        ? CREATION_METHODS.map((m) => ({
            value: m,
            labelKey: `FUDGE.Settings.creation.method.Choice.${m}`,
            selected: m === rules.creation.method,
          }))
        : null,
    weapons: weapons.rows,
    armor: itemsOf(actor, "armor").map((i) => armorRow(i, preset)),
    shields: itemsOf(actor, "shield").map((i) => shieldRow(i, preset)),
    skills: skillRows(actor, ladder),
    gifts: itemsOf(actor, "gift").map((i) => traitRow(i, preset)),
    faults: itemsOf(actor, "fault").map((i) => traitRow(i, preset)),
    notes: notesView(d.notes, opts),
    miniature: null,
    presetNotice: preset === "miniatures" ? "FUDGE.Sheet.MiniaturesUseDatacards" : "",
  };
}

/** Context of the NPC sheet (the character sheet plus the pawn toggle). */
export function npcSheetContext(actor: ActorDoc<"npc">, rules: WorldRules, opts: SheetOptions): ActorSheetContext {
  return withTableView(characterBase(actor, rules, opts), actor, rules, opts);
}

export function characterSheetContext(
  actor: ActorDoc<"character" | "npc">,
  rules: WorldRules,
  opts: SheetOptions,
): ActorSheetContext {
  return withTableView(characterBase(actor, rules, opts), actor, rules, opts);
}

export function miniatureSheetContext(
  actor: ActorDoc<"miniature">,
  rules: WorldRules,
  opts: SheetOptions,
): ActorSheetContext {
  return withTableView(miniatureBase(actor, rules, opts), actor, rules, opts);
}

/** Context of the Miniatures datacard sheet: stats lowered by wounds, MODF/RODF/DDF/HDDF from the rules core. */
function miniatureBase(actor: ActorDoc<"miniature">, rules: WorldRules, opts: SheetOptions): SheetBase {
  const d = actor.system as MiniatureData;
  const ladder = ladderOf(rules, opts.ladderNames);
  const track = trackView(() => trackFor(actor, rules), opts.editable, rules.preset);
  // Miniatures: wound penalties lower the stats (and MODF/RODF/DDF/Movement), not the rolls.
  const card = safe(() => {
    const c = parseDatacard(miniatureDatacard(actor, rules), "actor");
    return datacard(c, trackStatus(c.track).penalty);
  });
  const dc = card.value;
  const statView = (k: "strength" | "dexterity" | "guts"): AttributeView => ({
    key: k,
    labelKey: `FUDGE.Attribute.${k}`,
    label: "",
    roleKeys: [],
    field: `system.${k}`,
    level: levelView(dc ? dc[k] : d[k], ladder),
    base: d[k],
    rollable: opts.owner,
  });
  const derived: ActorSheetContext["derived"] = dc
    ? [
        {
          key: "modf",
          labelKey: "FUDGE.Sheet.Modf",
          value: dc.modf,
          valueText: dc.modf === null ? "" : signed(dc.modf),
          steps: [],
        },
        {
          key: "rodf",
          labelKey: "FUDGE.Sheet.Rodf",
          value: dc.rodf,
          valueText: dc.rodf === null ? "" : signed(dc.rodf),
          steps: [],
        },
        {
          key: "ddf",
          labelKey: "FUDGE.Sheet.Ddf",
          value: dc.ddf,
          valueText: signed(dc.ddf),
          steps: dc.steps.map(stepView),
        },
        { key: "hddf", labelKey: "FUDGE.Sheet.Hddf", value: dc.hddf, valueText: signed(dc.hddf), steps: [] },
      ]
    : [];
  const equippedWeapons = itemsOf(actor, "weapon").filter((w) => w.system.equipped);
  const weapons: WeaponBase[] = itemsOf(actor, "weapon").map((w) => {
    const i = equippedWeapons.findIndex((e) => e._id === w._id);
    const dw = dc && i >= 0 ? dc.weapons[i] : null;
    return {
      ...baseItem(w),
      skillLevel: null,
      skillMissing: "",
      skillChoices: [],
      factor: dw ? dw.odf : null,
      factorText: dw ? signed(dw.odf) : "",
      factorLabelKey: w.system.ranged ? "FUDGE.Sheet.Rodf" : "FUDGE.Sheet.Modf",
      factorSteps: dw ? dw.steps.map(stepView) : [],
      ranged: w.system.ranged,
      canAttack: opts.owner && track.canAct && w.system.equipped,
    };
  });
  const movement = dc ? dc.movement : d.movement;
  return {
    actor: actorHeader(actor),
    editable: opts.editable,
    owner: opts.owner,
    preset: rules.preset,
    presetLabelKey: PRESET_LABEL(rules.preset),
    cssClass: `fudge-wounds preset-${rules.preset} actor-miniature`,
    attributes: (["strength", "dexterity", "guts"] as const).map(statView),
    scale: null,
    fudgePoints: null,
    fudgePointWounds: null,
    trackPreset: null,
    trackLabel: "",
    track,
    // Automatic death is offered on the character and NPC sheets (RULES §2.2, the fudge preset).
    killable: false,
    killUndoable: false,
    healing: track.error ? [] : healingButtons(track.kind, opts.editable, actor, rules),
    derived,
    derivedError: card.error,
    volt: null,
    defense: null,
    defenseSkill: "",
    defenseChoices: [],
    defenseMissing: "",
    creation: null,
    experience: null,
    creationMethods: null,
    weapons,
    armor: itemsOf(actor, "armor").map((i) => armorRow(i, "miniatures")),
    shields: itemsOf(actor, "shield").map((i) => shieldRow(i, "miniatures")),
    skills: [],
    gifts: miniTraitRows(actor, "gift"),
    faults: miniTraitRows(actor, "fault"),
    notes: notesView(d.notes, opts),
    miniature: {
      movement,
      movementText: String(movement),
      terrifying: d.terrifying,
      flying: d.flying,
      guts: {
        effect: d.gutsState.effect,
        effectKey: `FUDGE.Miniatures.Guts.Effect${d.gutsState.effect}`,
        // Miniatures: Wounds — Near Death rolls Guts from its next turn to recover or die.
        outOfActionKey: track.condition === "dead" ? "FUDGE.Condition.dead" : "FUDGE.Miniatures.Effect.nearDeath",
        pending: d.gutsState.pending.map((p) => ({
          reason: p.reason,
          reasonKey: `FUDGE.Guts.Reason.${p.reason}`,
          target: p.target,
          bonus: p.bonus,
        })),
      },
      gutsStanding: gutsStandingView(actor),
      attackActions:
        opts.owner && track.canAct
          ? (["melee", "ranged"] as const)
              .map((kind) => ({
                kind,
                labelKey: `FUDGE.Sheet.AttackAll.${kind}`,
                count: equippedWeapons.filter((w) => w.system.ranged === (kind === "ranged")).length,
              }))
              .filter((a) => a.count > 0)
          : [],
    },
    presetNotice: rules.preset === "miniatures" ? "" : "FUDGE.Sheet.MiniatureNeedsPreset",
  };
}

/**
 * Seed 004 "Sample characters": what the GM sets for a model's Guts checks. "Defending the King"
 * is offered to a Faithful model (it counts with that rule only), or while it is set so it can be
 * cleared; a peasant and a follower to every model (the King's Noble presence and Leader act on them).
 */
function gutsStandingView(actor: ActorDoc<"miniature">): NonNullable<ActorSheetContext["miniature"]>["gutsStanding"] {
  const stored = (actor.system as Partial<MiniatureData>).gutsStanding;
  const faithful = miniRules(actor).has("faithful");
  return GUTS_STANDING_KEYS.filter((k) => k !== "defendingKing" || faithful || stored?.defendingKing === true).map(
    (k) => ({
      key: k,
      field: `system.gutsStanding.${k}`,
      labelKey: `FUDGE.Sheet.GutsStanding.${k}`,
      hintKey: `FUDGE.Sheet.GutsStandingHint.${k}`,
      checked: stored?.[k] === true,
    }),
  );
}

/** Context of any actor sheet by type. */
export function actorSheetContext(actor: ActorDoc, rules: WorldRules, opts: SheetOptions): ActorSheetContext {
  if (actor.type === "miniature") return miniatureSheetContext(actor as ActorDoc<"miniature">, rules, opts);
  if (actor.type === "npc") return npcSheetContext(actor as ActorDoc<"npc">, rules, opts);
  if (actor.type === "character") return characterSheetContext(actor as ActorDoc<"character">, rules, opts);
  throw new RulesError(
    "actor.type",
    "FUDGE.Error.UnknownActorType",
    `unknown actor type ${JSON.stringify((actor as ActorDoc).type)}`,
  );
}

export const SHEET_TABS = [
  { id: "combat", labelKey: "FUDGE.Sheet.Tab.combat", icon: "fa-solid fa-swords" },
  { id: "traits", labelKey: "FUDGE.Sheet.Tab.traits", icon: "fa-solid fa-user" },
  { id: "gear", labelKey: "FUDGE.Sheet.Tab.gear", icon: "fa-solid fa-shield-halved" },
  { id: "notes", labelKey: "FUDGE.Sheet.Tab.notes", icon: "fa-solid fa-book" },
] as const;

/**
 * What every actor sheet adds for the table: tabs, the wound level in the header, ladder choices
 * for trait selects, and Attack shown disabled with its reason (never hidden) with the exact odds
 * against the user's targets as its tooltip.
 */
function withTableView(ctx: SheetBase, actor: ActorDoc, rules: WorldRules, opts: SheetOptions): ActorSheetContext {
  // The first screen is Combat; a character with no weapon yet (one being made) opens on its Traits.
  const first = actor.type !== "miniature" && !itemsOf(actor, "weapon").length ? "traits" : "combat";
  const active = SHEET_TABS.some((t) => t.id === opts.activeTab) ? (opts.activeTab as string) : first;
  const tabs = SHEET_TABS.map((t) => ({ ...t, active: t.id === active, cssClass: t.id === active ? "active" : "" }));
  const tab = Object.fromEntries(tabs.map((t) => [t.id, t.cssClass]));
  // Each target keeps its own measures (paired before the actor itself is left out).
  const targets = (opts.targets ?? [])
    .map((doc, i) => ({ doc, measures: opts.targetMeasures?.[i] }))
    .filter((t) => t.doc._id !== actor._id);
  const weapons = ctx.weapons.map((w) => {
    const item = (actor.items ?? []).find((i) => i._id === w.id) as ItemDoc<"weapon"> | undefined;
    const attackBlockedKey = w.canAttack
      ? ""
      : !ctx.owner
        ? ""
        : w.equipped === false
          ? "FUDGE.Sheet.AttackBlocked.unequipped"
          : !ctx.track.canAct
            ? "FUDGE.Sheet.AttackBlocked.cannotAct"
            : "FUDGE.Sheet.AttackBlocked.other";
    // The odds of the attack as it will be rolled: under what the table measures for that target (as the attack dialog's).
    const ranged = (item?.system as { ranged?: unknown } | undefined)?.ranged === true;
    const odds =
      w.canAttack && item
        ? targets.map((t) =>
            attackOdds(actor, item, t.doc, rules, (ranged ? t.measures?.ranged : t.measures?.melee) ?? {}),
          )
        : [];
    return { ...w, attackShown: ctx.owner, attackBlockedKey, odds };
  });
  const ladder = ladderOf(rules, opts.ladderNames);
  // Fudge §1.3: the rungs, worst first, plus any value beyond them a trait holds ("Superb +1").
  const values = new Set([
    ...ladder.rungs.map((r) => r.value),
    ...ctx.attributes.map((a) => a.level.value),
    ...ctx.skills.map((k) => k.level.value),
  ]);
  const ladderChoices =
    ctx.attributes.length && actor.type !== "miniature"
      ? [...values].sort((a, b) => a - b).map((value) => ({ value, label: levelView(value, ladder).label }))
      : null;
  const row = ctx.track.rows.find((r) => r.key === ctx.track.levelKey);
  const woundLevel = row
    ? { key: row.labelKey, params: row.labelParams }
    : { key: ctx.track.levelLabelKey || "FUDGE.Sheet.Unhurt", params: {} };
  const domId = opts.domId ?? `fudge-sheet-${actor._id}`;
  const header = headerStatus(ctx.track, actor, woundLevel);
  return { ...ctx, weapons, tabs, tab, domId, ladderChoices, woundLevel, header, woundBar: woundBar(ctx.track) };
}

/**
 * The header's wound status. A miniature Near Death or Dead is out of the fight: it says so, and
 * no penalty (Miniatures: Wounds). Volt names the worst Stun row and the worst Injury row (Volt:
 * Marking Wounds — a row holds one mark, Stun "−" or Injury "|"/"+"), and a level the condition
 * does not already say ("dying, can still act").
 */
function headerStatus(track: TrackView, actor: ActorDoc, level: HeaderStatus["levels"][number]): HeaderStatus {
  const outOfAction = actor.type === "miniature" && !track.error && !track.canAct;
  const status = { showPenalty: !outOfAction, conditionKey: track.conditionKey, outOfAction };
  if (track.kind !== "volt") return { ...status, levels: [level] };
  // Volt rows run highest first: the first row holding a mark of a type is its worst.
  const worst = (stun: boolean) => track.rows.find((r) => r.boxes.some((b) => b.marked && b.stun === stun));
  const rows = [
    { row: worst(true), key: "FUDGE.Volt.Header.stun" },
    { row: worst(false), key: "FUDGE.Volt.Header.injury" },
  ].flatMap(({ row, key }) => (row ? [{ key, params: { row: row.labelParams.row ?? row.key } }] : []));
  const special =
    track.levelKey && track.levelKey !== "wounded" && track.levelKey !== track.condition
      ? [{ key: track.levelLabelKey, params: {} }]
      : [];
  const levels = [...rows, ...special];
  return { ...status, levels: levels.length ? levels : [level] };
}

// ─── Items ─────────────────────────────────────────────────────────────────────────────

export interface ChoiceView {
  value: string | number;
  labelKey: string;
  selected: boolean;
  /** A stored value the world's preset does not offer: kept (and said so), so no edit loses it. */
  otherPreset?: boolean;
}

export interface ItemSheetContext {
  item: { id: string; name: string; img: string; type: string; typeLabelKey: string };
  editable: boolean;
  preset: PresetId;
  presetLabelKey: string;
  cssClass: string;
  system: unknown;
  choices: Record<string, ChoiceView[]>;
  level: LevelView | null;
  /** Which preset's fields to show: the world's only (the others stay stored, unseen). */
  show: { fudge: boolean; fate: boolean; miniatures: boolean; volt: boolean; effect: boolean };
  /** Rich-text description (templates/parts/rich-text.hbs). */
  description: RichTextView;
  /** Gifts and faults: what the chosen rules effect does at the table, where it has a one-line hint (the Miniatures rules). */
  effectHintKey: string | null;
  /** Skills: the ladder's rungs to pick the level from (Fudge §1.2), lowest first. */
  ladderChoices: { value: number; label: string; selected: boolean }[];
  /** Weapons: the skill picked from the owner's skills, the default stated; null = no owner (a world item). */
  skillChoices: SkillChoice[] | null;
  /** Weapons: the stored skill matches none of the owner's skills. */
  skillMissing: string;
  /** Gifts and faults: the name suggests a rule effect that is not set. */
  effectSuggested: boolean;
}

const choices = (values: readonly (string | number)[], current: unknown, prefix: string): ChoiceView[] =>
  values.map((v) => ({ value: v, labelKey: `${prefix}${v}`, selected: v === current }));

/**
 * A gift's (or fault's) effects in a world of `preset`: None and the kind's own (data.ts
 * TRAIT_EFFECT_RULE); a stored effect of another preset or kind stays, said so. None at all (FATE:
 * no gift or fault is a rule there) when the item holds none.
 */
function effectChoices(kind: "gift" | "fault", preset: PresetId, current: unknown): ChoiceView[] {
  const own = traitEffectsFor(kind, preset);
  const kept = typeof current === "string" && current !== "none" && !own.includes(current as TraitEffect);
  const values: TraitEffect[] = kept ? [...(own.length ? own : ["none" as const]), current as TraitEffect] : own;
  return values.map((v) => ({
    ...choices([v], current, "FUDGE.Effect.")[0],
    ...(kept && v === current ? { otherPreset: true } : {}),
  }));
}

export function itemSheetContext(
  item: ItemDoc,
  rules: WorldRules,
  opts: {
    editable: boolean;
    ladderNames?: Partial<Record<string, string>>;
    /** Foundry: TextEditor.enrichHTML of the cleaned description. */ enrichedDescription?: string;
    uuid?: string;
    /** The owning actor's skill names and its default level (a weapon picks its skill from them). */
    owner?: { skills: string[]; defaultLevel: number };
  } = { editable: true },
): ItemSheetContext {
  const ladder = ladderOf(rules, opts.ladderNames);
  const s = item.system as unknown as Record<string, unknown>;
  const c: Record<string, ChoiceView[]> = {};
  if (item.type === "weapon") {
    c.size = choices(["none", "martialArt", "small", "medium", "large", "twoHanded"], s.size, "FUDGE.WeaponSize.");
    c.power = choices(["muscle", "fixed"], s.power, "FUDGE.WeaponPower.");
    c.statBasis = choices(["strength", "dexterity", "none"], s.statBasis, "FUDGE.StatBasis.");
    c.hands = choices([1, 2], s.hands, "FUDGE.Hands.");
    c.scalePiercing = choices(["none", "halve", "ignore"], s.scalePiercing, "FUDGE.ScalePiercing.");
  } else if (item.type === "shield") {
    c.size = choices(["small", "medium", "large"], s.size, "FUDGE.Item.ShieldSize.");
  } else if (item.type === "gift" || item.type === "fault") {
    c.effect = effectChoices(item.type, rules.preset, s.effect);
  }
  const p = rules.preset;
  return {
    item: {
      id: item._id,
      name: item.name,
      img: item.img ?? "",
      type: item.type,
      typeLabelKey: `TYPES.Item.${item.type}`,
    },
    editable: opts.editable,
    preset: p,
    presetLabelKey: PRESET_LABEL(p),
    cssClass: `fudge-wounds preset-${p} item-${item.type}`,
    // A weapon stored before `magic` existed shows its bonus as 0 (Fudge §4.7).
    system: item.type === "weapon" ? { ...item.system, magic: (item.system as WeaponData).magic ?? 0 } : item.system,
    choices: c,
    level: item.type === "skill" ? levelView((item.system as SkillData).level, ladder) : null,
    show: {
      fudge: p === "fudge",
      fate: p === "fate",
      miniatures: p === "miniatures",
      volt: p === "volt",
      effect: (c.effect?.length ?? 0) > 0,
    },
    description: richTextView("system.description", s.description, {
      editable: opts.editable,
      labelKey: "FUDGE.Item.Description",
      enriched: opts.enrichedDescription,
      uuid: opts.uuid,
    }),
    effectHintKey:
      (item.type === "gift" || item.type === "fault") && isMiniTraitEffect((item.system as TraitData).effect)
        ? `FUDGE.Miniatures.TraitRule.${(item.system as TraitData).effect}`
        : null,
    ...itemPickers(item, ladder, p, opts.owner),
  };
}

/** The item sheet's pickers: a skill's level by ladder name, a weapon's skill from its owner's skills. */
function itemPickers(
  item: ItemDoc,
  ladder: Ladder,
  preset: PresetId,
  owner: { skills: string[]; defaultLevel: number } | undefined,
): Pick<ItemSheetContext, "ladderChoices" | "skillChoices" | "skillMissing" | "effectSuggested"> {
  const level = item.type === "skill" ? (item.system as SkillData).level : null;
  const values = new Set([...ladder.rungs.map((r) => r.value), ...(level === null ? [] : [level])]);
  const ladderChoices =
    level === null
      ? []
      : [...values]
          .sort((a, b) => a - b)
          .map((value) => ({ value, label: levelView(value, ladder).label, selected: value === level }));
  const picked =
    item.type === "weapon" && owner
      ? skillChoices(owner.skills, (item.system as WeaponData).skill ?? "", levelView(owner.defaultLevel, ladder).label)
      : null;
  const effectSuggested =
    (item.type === "gift" || item.type === "fault") &&
    (item.system as TraitData).effect === "none" &&
    suggestedEffect(item.name, item.type, preset) !== null;
  return {
    ladderChoices,
    skillChoices: picked?.choices ?? null,
    skillMissing: picked?.missing ?? "",
    effectSuggested,
  };
}

/** Fudge §1.36 on the sheet's track: each wounded level's offer, and the wound spends still in the log (newest first). */
export interface FudgePointWoundsView {
  levels: { key: string; labelKey: string; labelParams: Record<string, string | number> }[];
  spends: {
    id: string;
    fromKey: string;
    fromParams: Record<string, string | number>;
    toKey: string;
    toParams: Record<string, string | number>;
  }[];
}

function fudgePointWoundsView(actor: ActorDoc, rules: WorldRules, track: TrackView): FudgePointWoundsView | null {
  const wounds = safe(() => reducibleWounds(actor, rules)).value;
  const pool = safe(() => fudgePointPool(actor)).value;
  if (!wounds || !pool) return null;
  const rows = track.rows;
  const label = (i: number) =>
    rows[i] ? { key: rows[i].labelKey, params: rows[i].labelParams } : { key: "FUDGE.FudgePoint.NoWound", params: {} };
  const spends = pool.log
    .filter((s) => s.use === "reduceWound")
    .slice(-5)
    .reverse()
    .map((s) => {
      const from = label(s.change.from - 1);
      const to = label(s.change.to - 1);
      return { id: s.id, fromKey: from.key, fromParams: from.params, toKey: to.key, toParams: to.params };
    });
  const levels = wounds.map((w) => ({
    key: w.key,
    labelKey: rows[w.index]?.labelKey ?? w.key,
    labelParams: rows[w.index]?.labelParams ?? {},
  }));
  return levels.length || spends.length ? { levels, spends } : null;
}
