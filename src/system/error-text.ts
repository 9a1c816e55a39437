/**
 * What a user reads when an action is refused: one plain sentence, naming the actor where there
 * is one ("Leroy: the number of weeks must be a whole number."), never a field path or a key.
 * The rules core's RulesError keeps its key, field and params (the CLI prints them as JSON); this
 * is the one place that turns them into words, for the Foundry notifications and the playground.
 */
import { isRulesError } from "../rules";
import { KEY_PATTERN, type SystemI18n } from "./i18n";

/** The parts of a RulesError (or of a plain error that carries a key) this needs. */
export interface KeyedError {
  key?: string;
  field?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** A custom wound level's field: `system.woundTrack.customLevels.2.boxes`. */
const CUSTOM_LEVEL = /(?:^|\.)customLevels\.(\d+)\.([A-Za-z]+)$/;

/** A cell of a rules-menu table: `fudge.graze.table[1].min` (src/system/settings-menu.ts readTable, the rules core's checks). */
const TABLE_CELL = /(?:^|\.)(graze\.table|minMidMax\.table|thresholds)\[(\d+)\]\.([A-Za-z]+)$/;
const TABLES: Record<string, string> = {
  "graze.table": "grazeTable",
  "minMidMax.table": "minMidMaxTable",
  thresholds: "thresholds",
};

/**
 * The field a dotted path names, in words ("healing.weeks" → "the number of weeks"): the last
 * named segment with a FUDGE.Field.* (or FUDGE.Situation.*) entry; a custom level's field also names its level.
 * A path with no known name reads "this value" — never the path itself.
 */
export function fieldLabel(path: string, i18n: SystemI18n): string {
  const cell = TABLE_CELL.exec(path);
  if (cell && i18n.has(`FUDGE.Field.${cell[3]}`))
    return i18n.format("FUDGE.Field.TableCell", {
      what: i18n.localize(`FUDGE.Field.${cell[3]}`),
      row: Number(cell[2]) + 1,
      table: i18n.localize(`FUDGE.Field.${TABLES[cell[1]]}`),
    });
  const custom = CUSTOM_LEVEL.exec(path);
  if (custom && i18n.has(`FUDGE.Field.${custom[2]}`))
    return i18n.format("FUDGE.Field.CustomLevel", {
      what: i18n.localize(`FUDGE.Field.${custom[2]}`),
      level: Number(custom[1]) + 1,
    });
  // A world rule of the settings menu has its own label there (FUDGE.Settings.<path>.Name).
  if (i18n.has(`FUDGE.Settings.${path}.Name`)) return i18n.localize(`FUDGE.Settings.${path}.Name`);
  const segments = path.split(/[.[\]]+/).filter((s) => s && !/^\d+$/.test(s));
  // An attack's situation options already have names on the dialog (FUDGE.Situation.*); a
  // refusal relayed by the GM's client carries only the option's key.
  const groups = ["Field", "Situation"];
  for (let i = segments.length - 1; i >= 0; i--) {
    if (!/^[A-Za-z]+$/.test(segments[i])) continue;
    for (const g of groups)
      if (i18n.has(`FUDGE.${g}.${segments[i]}`)) return i18n.localize(`FUDGE.${g}.${segments[i]}`);
  }
  return i18n.localize("FUDGE.Field.value");
}

const capitalize = (s: string): string => (s ? s[0].toLocaleUpperCase() + s.slice(1) : s);

/**
 * The sentence for a refused action. `actorName` names the actor acted on; it leads the sentence
 * unless the sentence already names them ("Leroy cannot act." stays as it is).
 */
export function errorText(e: unknown, i18n: SystemI18n, actorName?: string): string {
  const err = (e ?? {}) as KeyedError;
  let sentence: string;
  if (typeof err.key === "string" && i18n.has(err.key)) {
    const params: Record<string, unknown> = { ...(err.params ?? {}) };
    // A param that is a key (an attribute's name by its FUDGE.Attribute.* key) is read in words, as fill() does.
    for (const [k, v] of Object.entries(params))
      if (k !== "field" && typeof v === "string" && KEY_PATTERN.test(v)) params[k] = i18n.localize(v);
    // params.field is the field the message speaks of (a relayed refusal has only that);
    // the error's own field is where it was raised: the first of the two with a name wins.
    const paths = [params.field, err.field].filter((p): p is string => typeof p === "string");
    const labels = paths.map((p) => fieldLabel(p, i18n));
    params.field = labels.find((l) => l !== i18n.localize("FUDGE.Field.value")) ?? i18n.localize("FUDGE.Field.value");
    if (actorName !== undefined && params.name === undefined) params.name = actorName;
    sentence = i18n.format(err.key, params).trim();
  } else sentence = i18n.localize("FUDGE.Error.Unexpected");
  if (actorName && !sentence.includes(actorName))
    return i18n.format("FUDGE.Error.ForActor", { name: actorName, message: sentence });
  return capitalize(sentence);
}

/** Every field with a name in words (FUDGE.Field.<name>; a test checks each has its key). */
export const FIELD_NAMES = [
  "afterCombatPenalty",
  "boxes",
  "constitution",
  "damageCapacity",
  "defenseDefault",
  "defenseSkill",
  "dexterity",
  "effect",
  "epicExtraHurt",
  "epicExtraVeryHurt",
  "fudgePoints",
  "guard",
  "guts",
  "label",
  "marks",
  "mass",
  "medical",
  "medicalValue",
  "movement",
  "penalty",
  "preset",
  "rapid",
  "ref",
  "result",
  "skill",
  "strength",
  "terrifying",
  "threshold",
  "tough",
  "weeks",
  "willpower",
] as const;
const NAMED = new Set<string>(FIELD_NAMES);

/** The FUDGE.Field.* key naming a path's field ("healing.weeks" → FUDGE.Field.weeks), for templates. */
export function fieldKey(path: string): string {
  const segments = path.split(/[.[\]]+/).filter(Boolean);
  for (let i = segments.length - 1; i >= 0; i--) if (NAMED.has(segments[i])) return `FUDGE.Field.${segments[i]}`;
  return "FUDGE.Field.value";
}

/**
 * A RulesError as a template's { key, params } (shown with fudgeFormat): its field is a
 * FUDGE.Field.* key, which the formatter localizes like any key-valued param, never a path.
 */
export function errorView(e: unknown): { key: string; params: Record<string, string | number> } {
  if (!isRulesError(e)) throw e;
  return { key: e.key, params: { ...e.params, field: fieldKey(String(e.params.field ?? e.field)) } };
}
