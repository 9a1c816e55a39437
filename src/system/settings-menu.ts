/**
 * The world-rules settings as data. One Foundry setting per top-level
 * WorldRules key (src/system/data.ts WORLD_RULE_SETTINGS); the settings menu edits every leaf
 * listed here, grouped, with a short hint each. Form values come back as flat dotted names.
 */
import { DICE_OPTION_IDS, PRESETS } from "../rules";
import {
  DAMAGE_ROLLS,
  DC_ADJUSTS,
  DC_VARIANTS,
  GRAZE_SCALE_RAISES,
  MMM_DICE,
  WILLPOWER_ADJUSTMENTS,
  WOUND_MODES,
  parseFudgeOptions,
  parseFivePointRows,
  FIVE_POINT_COLUMNS,
  FOCI,
} from "../rules/fudge";
import { APPLY_TARGETS, CREATION_METHODS, VOLT_RECOVERY, defaultWorldRules, type WorldRules } from "./data";
import {
  ATTRIBUTE_ROLES,
  attributeLabelKey,
  checkAttributeSet,
  newAttributeKey,
  type AttributeSet,
} from "./attributes";
import { isRulesError } from "../rules";
import { GUTS_ROLL_PENALTY_RULES } from "../rules/miniatures";

export type RuleFieldType = "boolean" | "number" | "choice" | "text" | "table";

/** One column of a table field: a select (choices) or a whole number; its form name is `<path>.<row>.<key>`. */
export interface TableColumn {
  key: string;
  type: "number" | "choice" | "text";
  choices?: readonly string[];
  /** i18n key of a choice's label. */
  choiceLabel?: (choice: string) => string;
  /** The stored value `null` shows (and is read back) as this choice. */
  nullAs?: string;
}

/** Wound levels a table row may name (FUDGE.Wound.*, Fudge §4.56–4.57). */
export const TABLE_LEVELS = ["scratch", "hurt", "veryHurt", "incapacitated", "nearDeath"] as const;

export interface RuleField {
  /** Dotted path in WorldRules, also the form input name. */
  path: string;
  type: RuleFieldType;
  choices?: readonly string[];
  min?: number;
  max?: number;
  /** Tables that may have no rows (stored as null = the rules' default table). */
  nullable?: boolean;
  /** Table fields: the columns of a row. */
  columns?: readonly TableColumn[];
  /** A number read as a level on the ladder (a Difficulty Level, Fudge §1.3): picked by name where the preset names levels. */
  ladder?: boolean;
  /** Choices that depend on the rules being edited (a role's attribute: the set's own keys), "" first. */
  dynamicChoices?: (rules: WorldRules) => readonly string[];
  group: "general" | "characters" | "dice" | "fudgePoints" | "fudge" | "fudgeTrack" | "miniatures" | "fate" | "volt";
}

const f = (
  path: string,
  type: RuleFieldType,
  group: RuleField["group"],
  extra: Partial<RuleField> = {},
): RuleField => ({ path, type, group, ...extra });

export const RULE_FIELDS: readonly RuleField[] = [
  f("preset", "choice", "general", { choices: PRESETS }),
  f("legendary", "boolean", "general"),
  f("lowerEnd", "boolean", "general"),
  f("applyTo", "choice", "general", { choices: APPLY_TARGETS }),
  f("defaultDifficulty", "number", "general", { min: -4, max: 6, ladder: true }),
  f("clearScratchesAtCombatEnd", "boolean", "general"),
  f("forecastForPlayers", "boolean", "general"),
  // Character creation (Fudge §1.5, §1.6; SRD Five-Point Fudge) and the world's attributes (§1.31)
  f("creation.method", "choice", "characters", { choices: CREATION_METHODS }),
  f("creation.freeAttributeLevels", "number", "characters", { min: 0, max: 48, nullable: true }),
  f("creation.freeSkillLevels", "number", "characters", { min: 0, max: 500 }),
  f("creation.freeGifts", "number", "characters", { min: 0, max: 20 }),
  f("creation.fivePointPoints", "number", "characters", { min: 1, max: 40 }),
  f("creation.fivePointRows", "table", "characters", {
    columns: [
      { key: "points", type: "number" },
      { key: "focus", type: "choice", choices: FOCI, choiceLabel: (c) => `FUDGE.Creation.Focus.${c}` },
      ...FIVE_POINT_COLUMNS.map(([key]): TableColumn => ({ key, type: "number" })),
    ],
  }),
  f("attributeSet.attributes", "table", "characters", {
    columns: [
      { key: "key", type: "text" },
      { key: "name", type: "text" },
    ],
  }),
  ...ATTRIBUTE_ROLES.map((r) =>
    f(`attributeSet.roles.${r}`, "choice", "characters", {
      dynamicChoices: (rules: WorldRules) => ["", ...rules.attributeSet.attributes.map((a) => a.key)],
    }),
  ),
  // Fudge §3.21–3.22: the dice a trait is rolled with (FATE, a Fudge derivative, offers the same text's dice)
  f("dice", "choice", "dice", { choices: DICE_OPTION_IDS }),
  // Fudge §1.36: the GM's calls on a Fudge Point's automatic success
  f("fudgePoints.autoSuccessAfterRoll", "boolean", "fudgePoints"),
  f("fudgePoints.autoSuccessPastLimits", "boolean", "fudgePoints"),
  // Fudge §4.53–4.64
  f("fudge.woundMode", "choice", "fudge", { choices: WOUND_MODES }),
  f("fudge.lessLethal", "boolean", "fudge"),
  f("fudge.doubleRd", "boolean", "fudge"),
  f("fudge.damageRoll", "choice", "fudge", { choices: DAMAGE_ROLLS }),
  f("fudge.grazeDamageRoll", "boolean", "fudge"),
  f("fudge.graze.scaleRaise", "choice", "fudge", { choices: GRAZE_SCALE_RAISES }),
  f("fudge.graze.table", "table", "fudge", {
    columns: [
      { key: "min", type: "number" },
      {
        key: "level",
        type: "choice",
        choices: ["undamaged", ...TABLE_LEVELS],
        choiceLabel: (c) => `FUDGE.Wound.${c}`,
        nullAs: "undamaged",
      },
    ],
  }),
  f("fudge.minMidMax.severeNegative", "boolean", "fudge"),
  f("fudge.minMidMax.table", "table", "fudge", {
    columns: [
      { key: "min", type: "number" },
      { key: "die", type: "choice", choices: MMM_DICE, choiceLabel: (c) => `FUDGE.Settings.TableDie.${c}` },
      { key: "add", type: "number" },
    ],
  }),
  f("fudge.gmSituationalRoll", "boolean", "fudge"),
  f("fudge.dcVariant", "choice", "fudge", { choices: DC_VARIANTS }),
  f("fudge.dcAdjust", "choice", "fudge", { choices: DC_ADJUSTS }),
  f("fudge.willpowerAdjustment", "choice", "fudge", { choices: WILLPOWER_ADJUSTMENTS }),
  f("fudge.weaponShieldMismatch", "boolean", "fudge"),
  f("fudge.scaleDamageRoll", "boolean", "fudge"),
  f("fudge.criticalLetsPointThrough", "boolean", "fudge"),
  f("fudge.headBlowKnockout", "boolean", "fudge"),
  // Fudge §4.52, §4.57, §4.64, §4.8
  f("fudgeTrack.thresholds", "table", "fudgeTrack", {
    nullable: true,
    columns: [
      { key: "key", type: "choice", choices: TABLE_LEVELS, choiceLabel: (c) => `FUDGE.Wound.${c}` },
      { key: "min", type: "number" },
    ],
  }),
  f("fudgeTrack.scratchesCapAtVeryHurt", "boolean", "fudgeTrack"),
  f("fudgeTrack.dcTrackScratchesPerHit", "number", "fudgeTrack", { min: 1, max: 10 }),
  f("fudgeTrack.dcTrackTerrible", "choice", "fudgeTrack", { choices: ["penalty", "incapacitated"] }),
  f("fudgeTrack.willpowerVsPenalty", "boolean", "fudgeTrack"),
  f("fudgeTrack.willpowerDifficulty", "number", "fudgeTrack", { min: -4, max: 6, ladder: true }),
  f("fudgeTrack.safeguardThreeLevels", "boolean", "fudgeTrack"),
  f("fudgeTrack.safeguardNearDeathFromIncapacitated", "boolean", "fudgeTrack"),
  f("fudgeTrack.safeguardFudgePoint", "boolean", "fudgeTrack"),
  f("fudgeTrack.healingConstitutionRoll", "boolean", "fudgeTrack"),
  f("fudgeTrack.allowPawns", "boolean", "fudgeTrack"),
  // Miniatures
  f("miniatures.gangUp", "boolean", "miniatures"),
  f("miniatures.rangeFromDistance", "boolean", "miniatures"),
  f("miniatures.penaltyLowersHddf", "boolean", "miniatures"),
  f("miniatures.gutsRollPenalty", "choice", "miniatures", { choices: GUTS_ROLL_PENALTY_RULES }),
  // FATE wound ladder
  f("fate.defaultLabel", "text", "fate"),
  // Volt 4.0
  f("volt.recovery", "choice", "volt", { choices: VOLT_RECOVERY }),
];

export const RULE_GROUPS = [
  "general",
  "characters",
  "dice",
  "fudgePoints",
  "fudge",
  "fudgeTrack",
  "miniatures",
  "fate",
  "volt",
] as const;

/** The settings menu shows the general options and the active preset's own (issue #9). */
export const PRESET_GROUPS: Record<string, readonly RuleField["group"][]> = {
  fudge: ["general", "characters", "dice", "fudgePoints", "fudge", "fudgeTrack"],
  miniatures: ["general", "miniatures"],
  fate: ["general", "characters", "dice", "fudgePoints", "fate"],
  volt: ["general", "volt"],
};

export interface MenuField {
  path: string;
  id: string;
  type: RuleFieldType;
  labelKey: string;
  hintKey: string;
  value: string | number | boolean;
  checked: boolean;
  min: number | null;
  max: number | null;
  choices: { value: string; labelKey: string; selected: boolean }[];
  /** Ladder fields where the preset names levels: the levels min…max, highest first, shown as "Great (+2)". */
  ladderLevels: { value: number; selected: boolean }[] | null;
  /** Table fields: column headers and one entry per stored row (plus a blank row for "add row"). */
  table: MenuTable | null;
}

export interface MenuCell {
  key: string;
  name: string;
  labelKey: string;
  type: "number" | "choice" | "text";
  value: string;
  choices: { value: string; labelKey: string; selected: boolean }[];
}

export interface MenuTable {
  columns: { key: string; labelKey: string }[];
  rows: { index: number; cells: MenuCell[] }[];
  /** The row "add row" clones, its index written as `__index__`. */
  blank: MenuCell[];
}

/** i18n key of a table column's header: FUDGE.Settings.TableColumn.<key>. */
export const columnKey = (key: string) => `FUDGE.Settings.TableColumn.${key}`;

function tableCells(
  path: string,
  columns: readonly TableColumn[],
  index: string,
  row: Record<string, unknown> | null,
): MenuCell[] {
  return columns.map((c) => {
    const raw = row ? row[c.key] : c.type === "number" ? 0 : c.type === "text" ? "" : c.choices![0];
    const value = raw === null && c.nullAs ? c.nullAs : String(raw ?? "");
    // A stored key outside the list (an older custom level) stays selectable, named as stored.
    const choices =
      c.type === "choice" ? [...c.choices!, ...(c.choices!.includes(value) ? [] : [value])] : ([] as string[]);
    return {
      key: c.key,
      name: `${path}.${index}.${c.key}`,
      labelKey: columnKey(c.key),
      type: c.type,
      value,
      choices: choices.map((v) => ({
        value: v,
        labelKey: c.choices!.includes(v) ? c.choiceLabel!(v) : v,
        selected: v === value,
      })),
    };
  });
}

function menuTable(rules: WorldRules, field: RuleField): MenuTable {
  const rows = (getPath(rules, field.path) as Record<string, unknown>[] | null) ?? [];
  const columns = field.columns!;
  return {
    columns: columns.map((c) => ({ key: c.key, labelKey: columnKey(c.key) })),
    rows: rows.map((r, i) => ({ index: i, cells: tableCells(field.path, columns, String(i), r) })),
    blank: tableCells(field.path, columns, "__index__", null),
  };
}

/** Presets whose Difficulty Levels are named on the ladder (Miniatures rolls against numbers; Volt has no Difficulty roll). */
const LADDER_PRESETS: readonly string[] = ["fudge", "fate"];

/** The settings menu's context (templates/settings/rules-menu.hbs): the active preset's groups only. */
export function rulesMenuContext(rules: WorldRules) {
  const groups = PRESET_GROUPS[rules.preset] ?? RULE_GROUPS;
  return {
    preset: rules.preset,
    groups: groups.map((g) => ({
      key: g,
      labelKey: `FUDGE.Settings.Group.${g}`,
      fields: RULE_FIELDS.filter((x) => x.group === g).map((x): MenuField => {
        const v = formValue(rules, x);
        return {
          path: x.path,
          id: `fudge-rule-${x.path.replaceAll(".", "-")}`,
          type: x.type,
          labelKey: labelKey(x.path),
          hintKey: hintKey(x.path),
          value: v,
          checked: v === true,
          min: x.min ?? null,
          max: x.max ?? null,
          choices: x.dynamicChoices
            ? roleChoices(rules, x.dynamicChoices(rules), v)
            : (x.choices ?? []).map((c) => ({ value: c, labelKey: choiceKey(x.path, c), selected: c === v })),
          ladderLevels:
            x.ladder && LADDER_PRESETS.includes(rules.preset)
              ? Array.from({ length: x.max! - x.min! + 1 }, (_, i) => x.max! - i).map((n) => ({
                  value: n,
                  selected: n === v,
                }))
              : null,
          table: x.type === "table" ? menuTable(rules, x) : null,
        };
      }),
    })),
    cssClass: "fudge-wounds fudge-rules-menu-body standard-form",
  };
}

/** A role's choices: "none (Fair)" and each attribute of the set, by its name. */
function roleChoices(rules: WorldRules, keys: readonly string[], v: unknown): MenuField["choices"] {
  return keys.map((k) => {
    const a = rules.attributeSet.attributes.find((x) => x.key === k);
    const label = !k ? "FUDGE.Settings.RoleNone" : a ? attributeLabelKey(a) || a.name : k;
    return { value: k, labelKey: label, selected: k === v };
  });
}

/** i18n keys of a field's label and hint: FUDGE.Settings.<path>.Name / .Hint. */
export const labelKey = (path: string) => `FUDGE.Settings.${path}.Name`;
export const hintKey = (path: string) => `FUDGE.Settings.${path}.Hint`;
export const choiceKey = (path: string, choice: string) => `FUDGE.Settings.${path}.Choice.${choice}`;

export function getPath(obj: unknown, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), obj);
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let o = obj;
  for (const k of keys.slice(0, -1)) {
    if (typeof o[k] !== "object" || o[k] === null) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  o[keys[keys.length - 1]] = value;
}

export class SettingsFormError extends Error {
  constructor(
    readonly field: string,
    readonly key: string,
    message: string,
    /** The localized message's parameters ({min}, {max}, {allowed} …). */
    readonly params: Record<string, unknown> = {},
  ) {
    super(`${field}: ${message}`);
  }
}

/**
 * Applies flat form data (input name → value as the form gives it: string, boolean or number)
 * over the current rules. Bad input throws SettingsFormError naming the field; the Fudge options
 * are then validated by the rules core (parseFudgeOptions) so a bad table never reaches a card.
 */
export function applyRulesForm(
  current: WorldRules,
  form: Record<string, unknown>,
  groups: readonly string[] = RULE_GROUPS,
  table: { combatRunning?: boolean } = {},
): WorldRules {
  const next = structuredClone(current) as unknown as Record<string, unknown>;
  // Only the groups the menu showed: the other presets' options keep their values.
  for (const field of RULE_FIELDS.filter((x) => groups.includes(x.group))) {
    if (field.type === "table") {
      setPath(next, field.path, readTable(field, form));
      continue;
    }
    if (!(field.path in form)) {
      // An unchecked checkbox is absent from submitted form data.
      if (field.type === "boolean") setPath(next, field.path, false);
      continue;
    }
    const raw = form[field.path];
    let value: unknown;
    switch (field.type) {
      case "boolean":
        value = raw === true || raw === "true" || raw === "on";
        break;
      case "number": {
        // A number that may be left blank (the free attribute levels: blank = the text's own count).
        if (field.nullable && String(raw ?? "").trim() === "") {
          value = null;
          break;
        }
        const n = typeof raw === "number" ? raw : Number(String(raw).trim());
        if (!Number.isInteger(n))
          throw new SettingsFormError(field.path, "FUDGE.Error.NotInteger", "must be a whole number");
        if ((field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max))
          throw new SettingsFormError(
            field.path,
            "FUDGE.Error.OutOfRange",
            `must be between ${field.min} and ${field.max}`,
            { min: field.min, max: field.max },
          );
        value = n;
        break;
      }
      case "choice":
        if (field.dynamicChoices) {
          value = String(raw ?? "");
          break;
        }
        if (!field.choices!.includes(String(raw)))
          throw new SettingsFormError(
            field.path,
            "FUDGE.Error.NotOneOf",
            `must be one of ${field.choices!.join(", ")}`,
            { allowed: field.choices!.join(", ") },
          );
        value = String(raw);
        break;
      case "text":
        value = String(raw ?? "").trim();
        break;
    }
    setPath(next, field.path, value);
  }
  const rules = next as unknown as WorldRules;
  // The dice stay as they are while a combat runs: its rolls so far and its forecasts were made with them.
  if (table.combatRunning && rules.dice !== current.dice)
    throw new SettingsFormError(
      "dice",
      "FUDGE.Error.Settings.DiceInCombat",
      "the dice cannot change while a combat is running: end it first",
      { from: current.dice, to: rules.dice },
    );
  if (groups.includes("characters")) {
    rules.attributeSet = checkedSet(current.attributeSet, rules.attributeSet);
    try {
      parseFivePointRows(rules.creation.fivePointRows, "creation.fivePointRows");
    } catch (e) {
      if (!isRulesError(e)) throw e;
      throw new SettingsFormError(e.field, e.key, e.message, e.params);
    }
  }
  try {
    parseFudgeOptions(rules.fudge, "fudge");
  } catch (e) {
    const err = e as { field?: string; key?: string; message: string; params?: Record<string, unknown> };
    throw new SettingsFormError(err.field ?? "fudge", err.key ?? "FUDGE.Error.Invalid", err.message, err.params);
  }
  if (rules.fudgeTrack.thresholds !== null) {
    const t = rules.fudgeTrack.thresholds;
    if (
      !Array.isArray(t) ||
      !t.every((r, i) => r && typeof r.key === "string" && Number.isInteger(r.min) && (i === 0 || r.min > t[i - 1].min))
    )
      throw new SettingsFormError(
        "fudgeTrack.thresholds",
        "FUDGE.Error.Settings.Thresholds",
        'must be a list of {"key", "min"} rows by ascending min',
      );
  }
  return rules;
}

/**
 * The attribute set as edited: a new row without a key gets one; a row that drops an attribute
 * still playing a role in the wound rules is refused (the GM moves the role first: Fudge §4.5x
 * reads it), so nothing is saved and every actor keeps its levels.
 */
function checkedSet(before: AttributeSet, after: AttributeSet): AttributeSet {
  const set: AttributeSet = { attributes: [], roles: { ...after.roles } };
  for (const a of after.attributes ?? []) {
    const name = String(a.name ?? "").trim();
    let key = String(a.key ?? "").trim();
    if (!key && !name) continue;
    if (!key) key = newAttributeKey(set);
    set.attributes.push({ key, name });
  }
  for (const role of ATTRIBUTE_ROLES) {
    const key = set.roles[role];
    if (key && !set.attributes.some((a) => a.key === key)) {
      const was = before.attributes.find((a) => a.key === key);
      throw new SettingsFormError(
        `attributeSet.roles.${role}`,
        "FUDGE.Error.AttributeHasRole",
        `${key} plays ${role}: move the role before removing it`,
        { name: was?.name || key, role },
      );
    }
  }
  try {
    return checkAttributeSet(set);
  } catch (e) {
    if (!isRulesError(e)) throw e;
    throw new SettingsFormError(e.field, e.key, e.message, e.params);
  }
}

/**
 * A table field's rows from the form (`<path>.<row>.<column>`, rows in index order; gaps left by
 * "remove row" close up). Numbers stay strings when they are not numbers, so the rules core's own
 * checks refuse them with their message. No rows: null where the table may be empty.
 */
function readTable(field: RuleField, form: Record<string, unknown>): Record<string, unknown>[] | null {
  const prefix = `${field.path}.`;
  const indices = new Set<number>();
  for (const k of Object.keys(form)) {
    const m = k.startsWith(prefix) ? /^(\d+)\./.exec(k.slice(prefix.length)) : null;
    if (m) indices.add(Number(m[1]));
  }
  const rows = [...indices]
    .sort((a, b) => a - b)
    .map((i) =>
      Object.fromEntries(
        field.columns!.map((c) => {
          const raw = String(form[`${prefix}${i}.${c.key}`] ?? "").trim();
          if (c.type === "choice") return [c.key, c.nullAs !== undefined && raw === c.nullAs ? null : raw];
          if (c.type === "text") return [c.key, raw];
          const n = raw === "" ? NaN : Number(raw);
          if (!Number.isInteger(n))
            throw new SettingsFormError(
              `${field.path}[${i}].${c.key}`,
              "FUDGE.Error.NotInteger",
              "must be a whole number",
            );
          return [c.key, n];
        }),
      ),
    );
  return rows.length === 0 && field.nullable ? null : rows;
}

/** Current value of a field as the form shows it (tables: see formEntries). */
export function formValue(rules: WorldRules, field: RuleField): string | number | boolean {
  const v = getPath(rules, field.path) as string | number | boolean | null;
  return v === null ? "" : v;
}

/** The form's entries for a field as the menu renders them (a table: one entry per cell). */
export function formEntries(rules: WorldRules, field: RuleField): [string, unknown][] {
  if (field.type !== "table") return [[field.path, formValue(rules, field)]];
  return menuTable(rules, field).rows.flatMap((r) => r.cells.map((c): [string, unknown] => [c.name, c.value]));
}

/** "Add row" in a table field (the menu app and the playground): a copy of the blank row, numbered next. */
export function addTableRow(button: HTMLElement): void {
  const table = button.closest("[data-rule-table]");
  const tpl = table?.querySelector<HTMLTemplateElement>("template[data-blank-row]");
  const body = table?.querySelector("tbody");
  if (!tpl || !body) return;
  const next =
    Math.max(-1, ...Array.from(body.querySelectorAll<HTMLElement>("tr[data-row]"), (tr) => Number(tr.dataset.row))) + 1;
  const row = tpl.content.firstElementChild!.cloneNode(true) as HTMLElement;
  row.dataset.row = String(next);
  for (const el of row.querySelectorAll<HTMLInputElement>("[name]"))
    el.name = el.name.replace("__index__", String(next));
  body.append(row);
  row.querySelector<HTMLElement>("input, select")?.focus();
}

/** "Remove row" in a table field: the row goes; applyRulesForm reads the others in order. */
export function removeTableRow(button: HTMLElement): void {
  button.closest("tr[data-row]")?.remove();
}

/** Which top-level settings changed (the ones to write). */
export function changedSettings(before: WorldRules, after: WorldRules): (keyof WorldRules)[] {
  return (Object.keys(defaultWorldRules()) as (keyof WorldRules)[]).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
}

/** Actors whose wound track holds marks: changing the preset on them asks first. */
export function woundedActors<A extends { name: string; system: { woundTrack?: { state?: unknown } } }>(
  actors: readonly A[],
): A[] {
  return actors.filter((a) => {
    const st = a.system.woundTrack?.state;
    return st !== null && st !== undefined;
  });
}
