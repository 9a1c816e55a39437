/**
 * Converter from lupestro's "fudge-rpg" Foundry system (github.com/lupestro/fvtt-fudge) to this
 * system: Foundry's exported actor JSON (Actor → Export Data) in, this system's actor source out,
 * with a report of every choice made. Pure: no Foundry, no I/O — the Foundry import action, the
 * CLI (`fudge-rules convert-fudge-rpg`) and the playground all call it.
 *
 * The source shape (that system's data models; legacy forms its own migrateData accepts):
 *   actor  { name, type: "character" (legacy "major"), img, system: { fp, ep, notes (HTML),
 *            wounds: { scratch|hurt|veryhurt|incapacitated|neardeath: { value, max } | number },
 *            unspent: { attrlevels, skilllevels, gifts, faults }, fivepoint: { … } },
 *            items: [...], effects: [...], _stats: { systemId: "fudge-rpg", … } }
 *   items  attributeset { attributes: [{ name, level }], muscleweapon, damagecap, description }
 *          traitladder  { traits: [{ name, value }], description }
 *          skill        { level, groups: [string], description }
 *          gift / fault { description }
 *          equipment    { odf, ddf, quantity, description }
 *
 * Rule: nothing is dropped silently. What maps, maps (and the report says how); what does not is
 * written into the actor's notes under an "Imported from Fudge RPG" heading and listed in the
 * report as kept in the notes. A malformed or partial export throws a RulesError (localized key
 * under FUDGE.Import.Error.*) before anything is built, so callers create all or nothing.
 */
import { attributeLabelKey, type AttributeRole } from "./attributes";
import { RulesError, levelWithNumber } from "../rules";
import { MAX_EP } from "../rules/character";
import { boxTrackConfig, type BoxMark } from "../rules/fudge";
import { CUSTOM_FIELDS } from "./actions";
import { trackFor } from "./combatant";
import { fill } from "./i18n";
import { escapeText, htmlToText, sanitizeHtml, storedRichText, textToHtml } from "./rich-text";
import {
  defaultArmorData,
  defaultCharacterData,
  defaultShieldData,
  defaultSkillData,
  defaultTraitData,
  defaultWeaponData,
  defaultWorldRules,
  type ActorDoc,
  type CharacterData,
  type CustomWoundLevel,
  type ItemDoc,
  type ItemType,
  type TraitEffect,
  type WeaponSize,
  type WorldRules,
} from "./data";

export const FUDGE_RPG_SYSTEM_ID = "fudge-rpg";
/** Largest export accepted (characters are a few KiB; a world export is not an actor). */
export const FUDGE_RPG_MAX_BYTES = 5 * 1024 * 1024;

/** One line of the import report: an i18n key under FUDGE.Import.Report.* and its params. */
export interface ImportReportLine {
  key: string;
  params: Record<string, string | number>;
  /** true when the thing could not be mapped and was kept in the notes instead. */
  kept: boolean;
}

/** The actor to create (no _id: Foundry or the playground gives one) and the report. */
export interface FudgeRpgConversion {
  actor: Omit<ActorDoc<"character">, "_id"> & {
    flags: Record<string, unknown>;
    prototypeToken: { name: string; actorLink: boolean };
  };
  report: ImportReportLine[];
  /** Unspent EP the export held (§5.2), 0 for none: the GM's import records them as her award (experience.ts importedAward). */
  award: number;
}

export interface ConvertOptions {
  /** The world's rules: the wound marks become a box-track state only where the world uses box tracks. */
  rules?: WorldRules;
  /** Makes item ids (default: random 16-character Foundry-style ids). */
  newId?: () => string;
  /** Wall time of the whole batch in ms (default and largest FUDGE_RPG_BUDGET.timeMs; 0 refuses at the first check: tests). */
  budgetMs?: number;
  /** The clock the budget reads (default Date.now; tests pass their own, so no verdict depends on wall time). */
  now?: () => number;
}

/**
 * The budget of one conversion batch (docs/import-fudge-rpg.md, docs/rules-api.md "Budgets"): no
 * batch runs unbounded (issue #10). Converting is linear in the text (about 1 s for a 4 MB export),
 * so a deadline checked between files and between the steps of each actor stops a batch at most
 * one step past it; it then throws FUDGE.Error.TimeBudget for the whole batch (all or nothing:
 * nothing is created or written). 20 s, the CLI's budget for every other command (CLI_BUDGET).
 */
export const FUDGE_RPG_BUDGET = { timeMs: 20_000 };

/** A deadline checked as a batch converts: `check()` throws FUDGE.Error.TimeBudget once it has passed. */
export function conversionDeadline(options: ConvertOptions = {}): () => void {
  const now = options.now ?? Date.now;
  const budgetMs = Math.min(options.budgetMs ?? FUDGE_RPG_BUDGET.timeMs, FUDGE_RPG_BUDGET.timeMs);
  const end = now() + budgetMs;
  return () => {
    if (budgetMs === 0 || now() > end)
      throw new RulesError(
        "",
        "FUDGE.Error.TimeBudget",
        `the conversion ran longer than its budget of ${budgetMs} ms`,
        { max: budgetMs },
      );
  };
}

/** fudge-rpg's wound levels, mildest first, with ours; their defaults when a max is unset (their migrateData). */
const WOUND_LEVELS = [
  { from: "scratch", to: "scratch", defaultMax: 3 },
  { from: "hurt", to: "hurt", defaultMax: 2 },
  { from: "veryhurt", to: "veryHurt", defaultMax: 1 },
  { from: "incapacitated", to: "incapacitated", defaultMax: 1 },
  { from: "neardeath", to: "nearDeath", defaultMax: 1 },
] as const;

const KNOWN_ITEM_TYPES = ["attributeset", "traitladder", "skill", "gift", "fault", "equipment"];

/** Gifts and faults this system gives a rules effect, by name (Fudge §4.51 ff.; our gifts-faults pack). */
const TRAIT_EFFECT_BY_NAME: Record<string, { effect: TraitEffect; value: number }> = {
  "high pain threshold": { effect: "highPainThreshold", value: 0 },
  "low pain threshold": { effect: "lowPainThreshold", value: 0 },
  "pain tolerance": { effect: "painTolerance", value: 0 },
  "pain intolerant": { effect: "painIntolerant", value: 0 },
  "damage resistant": { effect: "damageResistant", value: 0 },
  fragile: { effect: "fragile", value: 0 },
  "tough hide": { effect: "toughHide", value: 1 },
  "rapid healing": { effect: "rapidHealing", value: 0 },
  terrifying: { effect: "terrifying", value: 1 },
  "terrifying appearance": { effect: "terrifying", value: 1 },
  // Miniatures: Sample characters — the gifts and faults with a rule, by the seed's names (value 0: the rule's own +1).
  steadfast: { effect: "steadfast", value: 0 },
  mercenary: { effect: "mercenary", value: 0 },
  "self-interest": { effect: "selfInterest", value: 0 },
  chivalrous: { effect: "chivalrous", value: 0 },
  "skilled backstabber": { effect: "backstabber", value: 0 },
  "poor melee combatant": { effect: "poorMelee", value: 0 },
  faithful: { effect: "faithful", value: 0 },
  "noble presence": { effect: "noblePresence", value: 0 },
  leader: { effect: "leader", value: 0 },
};

// ─── Reading the export ────────────────────────────────────────────────────────────────

/** An attribute key's English name ("damageCapacity" → "damage capacity"), as fudge-rpg names it. */
const englishName = (key: string): string => key.replace(/([A-Z])/g, " $1").toLowerCase();

const fail = (field: string, key: string, message: string, params: Record<string, string | number> = {}): never => {
  throw new RulesError(field, `FUDGE.Import.Error.${key}`, message, params);
};

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function obj(v: unknown, field: string): Record<string, unknown> {
  if (!isObj(v)) fail(field, "NotObject", "must be an object", {});
  return v as Record<string, unknown>;
}

/** An optional whole number (their NumberFields may hold null). */
function whole(v: unknown, field: string, fallback: number): number {
  if (v === undefined || v === null || v === "") return fallback;
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n))
    fail(field, "NotInteger", `must be a whole number (got ${JSON.stringify(v)})`, { value: String(v) });
  return n as number;
}

function textOf(v: unknown, field: string, fallback = ""): string {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== "string") fail(field, "NotText", "must be text", {});
  return v as string;
}

/** Parses the text of an export file; a truncated or non-JSON file is a clear error. */
export function parseFudgeRpgExport(text: string, file = ""): unknown {
  if (text.length > FUDGE_RPG_MAX_BYTES)
    fail("", "TooLarge", `the file is larger than ${FUDGE_RPG_MAX_BYTES} bytes`, { file, max: FUDGE_RPG_MAX_BYTES });
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    return fail("", "NotJson", `not a JSON file (${(e as Error).message})`, { file, reason: (e as Error).message });
  }
}

// ─── Rich text: their notes and descriptions are HTMLFields, and so are ours ──────────────
export { htmlToText } from "./rich-text";

/** Their HTML (or text), sanitised, followed by our own lines as escaped paragraphs. */
function richOf(theirs: string, ...ours: string[]): string {
  return [sanitizeHtml(storedRichText(theirs)), ...ours.filter(Boolean).map(textToHtml)].join("");
}

// ─── Conversion ────────────────────────────────────────────────────────────────────────

function randomId(): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let id = "";
  for (let i = 0; i < 16; i++) id += chars[Math.floor(Math.random() * chars.length)];
  return id;
}

/** Most boxes a level of a custom track may have (the sheet's and the data model's limit). */
const MAX_BOXES = (CUSTOM_FIELDS.boxes as { max: number }).max;

const LADDER_MIN = -10;
const LADDER_MAX = 10;

/** The fudge-rpg weapon damage factor (ODF, Fudge §4.54) as one of our size classes (+ sharp). */
export function weaponShapeForOdf(odf: number): { size: WeaponSize; sharp: boolean; factor: number } {
  // Fudge §4.54: small 0, medium +1, large +2; sharp +1; two-handed +3 (+1 sharp = +4).
  if (odf <= 0) return { size: "small", sharp: false, factor: 0 };
  if (odf === 1) return { size: "medium", sharp: false, factor: 1 };
  if (odf === 2) return { size: "large", sharp: false, factor: 2 };
  if (odf === 3) return { size: "large", sharp: true, factor: 3 };
  return { size: "twoHanded", sharp: true, factor: 4 };
}

/** Shape of a wound track from fudge-rpg's maxima: one of our presets when it matches, else custom levels. */
export function trackShapeFor(
  maxima: number[],
): Pick<CharacterData["woundTrack"], "preset" | "epicExtraHurt" | "epicExtraVeryHurt" | "customLevels"> {
  const same = (xs: number[]) => xs.every((x, i) => x === maxima[i]);
  if (same([3, 1, 1, 1, 1])) return { preset: "standard", epicExtraHurt: 0, epicExtraVeryHurt: 0 };
  // Fudge §4.57: the cinematic sheet is nine circles, 4/2/1/1/1; epic adds 0–2 to Hurt and Very Hurt.
  if (same([4, 2, 1, 1, 1])) return { preset: "cinematic", epicExtraHurt: 0, epicExtraVeryHurt: 0 };
  const [s, h, v, i, n] = maxima;
  if (s === 4 && i === 1 && n === 1 && h >= 2 && h <= 4 && v >= 1 && v <= 3)
    return { preset: "epic", epicExtraHurt: h - 2, epicExtraVeryHurt: v - 1 };
  // Fudge §4.57: any number of boxes per level; penalties, thresholds and effects stay the standard ones.
  const std = boxTrackConfig("standard").levels;
  const customLevels: CustomWoundLevel[] = std.map((l, k) => ({
    key: l.key,
    label: "",
    boxes: maxima[k],
    penalty: l.penalty,
    threshold: l.min ?? 1,
    effect: l.effect === "cannotAct" || l.effect === "dying" ? l.effect : "",
  }));
  return { preset: "custom", epicExtraHurt: 0, epicExtraVeryHurt: 0, customLevels };
}

/** An item of the export, as step 1 read it. */
interface ExportItem {
  path: string;
  name: string;
  type: string;
  system: Record<string, unknown>;
  effects: unknown;
}

/** What the steps of one conversion share: the world's rules, the report, the notes, the actor's data and items. */
interface Conversion {
  rules: WorldRules;
  report: ImportReportLine[];
  info(key: string, params?: Record<string, string | number>): void;
  kept(key: string, params?: Record<string, string | number>): void;
  notes: string[];
  system: CharacterData;
  items: ItemDoc[];
  award: number;
  add<T extends ItemType>(type: T, name: string, system: ItemDoc<T>["system"], img?: string): void;
  tick(): void;
}

/**
 * Converts one exported fudge-rpg actor. Throws a RulesError (FUDGE.Import.Error.*) for anything
 * that is not a complete fudge-rpg character export; never returns a partial actor.
 */
export function convertFudgeRpgActor(
  input: unknown,
  options: ConvertOptions = {},
  tick: () => void = conversionDeadline(options),
): FudgeRpgConversion {
  const newId = options.newId ?? randomId;
  const report: ImportReportLine[] = [];
  const out: ItemDoc[] = [];
  const c: Conversion = {
    rules: options.rules ?? defaultWorldRules(),
    report,
    info: (key, params = {}) => report.push({ key: `FUDGE.Import.Report.${key}`, params, kept: false }),
    kept: (key, params = {}) => report.push({ key: `FUDGE.Import.Report.${key}`, params, kept: true }),
    notes: [],
    system: defaultCharacterData(),
    items: out,
    award: 0,
    add: (type, iname, s, img) =>
      out.push({ _id: newId(), name: iname, type, ...(img ? { img } : {}), system: s } as ItemDoc),
    tick,
  };
  const exported = readExport(input);
  tick(); // the batch's time budget, between steps (FUDGE_RPG_BUDGET)
  const wounds = readWounds(exported.woundsIn);
  c.system.fudgePoints = 0;
  const { sys, items } = exported;
  tick();
  fudgePointsAndExperience(c, sys);
  tick();
  traitLadders(c, items);
  tick();
  attributes(c, items);
  tick();
  const skills = skillItems(c, items);
  tick();
  giftsAndFaults(c, items);
  tick();
  equipment(c, items, skills);
  tick();
  unknownItemsAndEffects(c, exported.src, items);
  tick();
  buildPoints(c, sys);
  tick();
  woundTrack(c, wounds);
  tick();
  const actor = actorOf(c, exported);
  // 13. The result must be a working character under the world's rules (the rules core parses its track).
  tick();
  trackFor({ ...actor, _id: "import" } as ActorDoc, c.rules);
  return { actor, report, award: c.award };
}

/** 1. Is it a fudge-rpg actor export at all? Its parts, checked before anything is built. */
function readExport(input: unknown): {
  src: Record<string, unknown>;
  stats: Record<string, unknown>;
  name: string;
  sys: Record<string, unknown>;
  woundsIn: Record<string, unknown>;
  items: ExportItem[];
} {
  if (Array.isArray(input))
    fail("", "NotOneActor", "holds a list, not one exported actor (export each actor on its own)", {});
  const src = obj(input, "");
  const stats = src._stats === undefined || src._stats === null ? {} : obj(src._stats, "_stats");
  const systemId = stats.systemId;
  if (systemId !== undefined && systemId !== null && systemId !== FUDGE_RPG_SYSTEM_ID)
    fail(
      "_stats.systemId",
      "WrongSystem",
      `exported from the system ${JSON.stringify(systemId)}, not ${FUDGE_RPG_SYSTEM_ID}`,
      { system: String(systemId) },
    );
  const type = src.type;
  if (type !== "character" && type !== "major")
    fail("type", "WrongType", `is a ${JSON.stringify(type)}, not a fudge-rpg character`, { type: String(type) });
  const name = textOf(src.name, "name").trim();
  if (!name) fail("name", "Missing", "missing: the actor has no name", {});
  // Exports from Foundry before v10 carry `data` where later ones carry `system`.
  const sysIn = src.system !== undefined ? src.system : src.data;
  if (sysIn === undefined) fail("system", "Missing", "missing: the export has no system data (a partial export?)", {});
  const sys = obj(sysIn, "system");
  if (sys.wounds === undefined)
    fail("system.wounds", "Missing", "missing: the export has no wounds (a partial export?)", {});
  const woundsIn = obj(sys.wounds, "system.wounds");
  const itemsIn = src.items === undefined ? [] : src.items;
  if (!Array.isArray(itemsIn)) fail("items", "NotList", "must be a list", {});
  const items = (itemsIn as unknown[]).map((it, i) => {
    const o = obj(it, `items.${i}`);
    const iname = textOf(o.name, `items.${i}.name`).trim();
    if (!iname) fail(`items.${i}.name`, "Missing", "missing: an item has no name", {});
    if (typeof o.type !== "string" || !o.type) fail(`items.${i}.type`, "Missing", "missing: an item has no type", {});
    const isysIn = o.system !== undefined ? o.system : o.data;
    const isys = isysIn === undefined || isysIn === null ? {} : obj(isysIn, `items.${i}.system`);
    return { path: `items.${i}`, name: iname, type: o.type as string, system: isys, effects: o.effects };
  });

  return { src, stats, name, sys, woundsIn, items };
}

/** 2. Wounds: every level read before anything is built. */
function readWounds(woundsIn: Record<string, unknown>) {
  return WOUND_LEVELS.map((l) => {
    const raw = woundsIn[l.from];
    const field = `system.wounds.${l.from}`;
    if (raw === undefined) fail(field, "Missing", `missing: the wound level ${l.from}`, { level: l.from });
    // Legacy exports store a bare count (their migrateData turns it into { value, max }).
    const r = typeof raw === "number" ? { value: raw, max: 0 } : obj(raw, field);
    const value = whole(r.value, `${field}.value`, 0);
    const max = whole(r.max, `${field}.max`, 0);
    if (value < 0 || max < 0) fail(field, "Negative", "must not be negative", { value: Math.min(value, max) });
    return { ...l, value, max };
  });
}

/** 3. Fudge Points (Fudge §4.64) and unspent Experience Points (§5.2: an award for the GM to record, an empty log). */
function fudgePointsAndExperience(c: Conversion, sys: Record<string, unknown>): void {
  const { system, info, kept, notes } = c;
  const fp = whole(sys.fp, "system.fp", 0);
  system.fudgePoints = Math.min(Math.max(fp, 0), 999);
  info("FudgePoints", { value: system.fudgePoints });
  const ep = whole(sys.ep, "system.ep", 0);
  if (ep > 0) {
    const held = Math.min(ep, MAX_EP);
    // The EP are an award only the GM's record holds: the actor gets an empty log.
    system.experience = { next: 0, log: [] };
    c.award = held;
    info("Experience", { value: held });
    // More than a character may hold: the rest is kept in the notes, said in the report.
    if (held < ep) {
      notes.push(`Experience points beyond ${MAX_EP}: ${ep - held}`);
      kept("ExperienceOver", { value: ep - held, max: MAX_EP });
    }
  }
}

/** 4. Trait ladder (a custom ladder only renames the rungs; our sheets use the world's ladder). */
function traitLadders(c: Conversion, items: ExportItem[]): void {
  const { kept, notes } = c;
  const ladderItems = items.filter((i) => i.type === "traitladder");
  for (const l of ladderItems) {
    const traits = l.system.traits === undefined ? [] : l.system.traits;
    if (!Array.isArray(traits)) fail(`${l.path}.system.traits`, "NotList", "must be a list", {});
    const rungs = (traits as unknown[]).map((t, k) => {
      const o = obj(t, `${l.path}.system.traits.${k}`);
      return `${textOf(o.name, `${l.path}.system.traits.${k}.name`)} ${whole(o.value, `${l.path}.system.traits.${k}.value`, 0)}`;
    });
    notes.push(`Trait ladder "${l.name}": ${rungs.join(", ")}`);
    kept("TraitLadder", { name: l.name });
  }
}

/**
 * 5. Attributes onto the world's set (Fudge §1.31): an attribute of the same name takes the level;
 * else the set's muscle-weapon attribute plays Strength, its damage-capacity attribute Damage
 * Capacity (Fudge §4.55 uses exactly these two), Willpower and Mass by name — each into the world
 * attribute that plays that role; the rest → notes.
 */
function attributes(c: Conversion, items: ExportItem[]): void {
  const { system, info, kept, notes, rules } = c;
  const sets = items.filter((i) => i.type === "attributeset");
  const used = new Set<string>();
  const world = rules.attributeSet;
  const byName = new Map(world.attributes.map((a) => [(a.name || englishName(a.key)).toLowerCase(), a.key]));
  const roleKey = (r: AttributeRole): string | null => world.roles[r] || null;
  const targetLabel = (key: string): string => {
    const a = world.attributes.find((x) => x.key === key);
    return a ? a.name || attributeLabelKey(a) || key : key;
  };
  sets.forEach((set, k) => {
    const attrs = set.system.attributes === undefined ? [] : set.system.attributes;
    if (!Array.isArray(attrs)) fail(`${set.path}.system.attributes`, "NotList", "must be a list", {});
    const list = (attrs as unknown[]).map((a, j) => {
      const o = obj(a, `${set.path}.system.attributes.${j}`);
      return {
        name: textOf(o.name, `${set.path}.system.attributes.${j}.name`).trim(),
        level: whole(o.level, `${set.path}.system.attributes.${j}.level`, 0),
      };
    });
    const muscle = textOf(set.system.muscleweapon, `${set.path}.system.muscleweapon`).trim().toLowerCase();
    const damagecap = textOf(set.system.damagecap, `${set.path}.system.damagecap`).trim().toLowerCase();
    const rest: string[] = [];
    for (const a of list) {
      const n = a.name.toLowerCase();
      const target =
        k > 0
          ? null
          : (byName.get(n) ??
            ((muscle ? n === muscle : n === "strength")
              ? roleKey("strength")
              : (damagecap ? n === damagecap : ["damage capacity", "health", "constitution"].includes(n))
                ? roleKey("damageCapacity")
                : ["willpower", "will"].includes(n)
                  ? roleKey("willpower")
                  : n === "mass" // Fudge §4.54: Mass other than Fair is a defensive factor
                    ? roleKey("mass")
                    : null));
      if (target && !used.has(target)) {
        used.add(target);
        const level = Math.min(Math.max(a.level, LADDER_MIN), LADDER_MAX);
        system.attributes[target] = level;
        info("Attribute", { name: a.name, level: levelWithNumber(level), target: targetLabel(target) });
        if (level !== a.level) kept("Clamped", { name: a.name, value: a.level });
      } else rest.push(`${a.name}: ${levelWithNumber(a.level)}`);
    }
    if (rest.length) {
      notes.push(`Attributes (${set.name}): ${rest.join(", ")}`);
      kept("Attributes", {
        names: list
          .filter((a) => rest.some((r) => r.startsWith(`${a.name}:`)))
          .map((a) => a.name)
          .join(", "),
      });
    }
  });

  // The attributes the wound rules read, where nothing matched them: they stay Fair.
  for (const role of ["strength", "damageCapacity", "willpower"] as const) {
    const key = roleKey(role);
    if (key && !used.has(key))
      info("AttributeDefault", { target: targetLabel(key), level: levelWithNumber(system.attributes[key] ?? 0) });
  }
}

/** 6. Skills (Fudge §1.3 ladder values). */
function skillItems(c: Conversion, items: ExportItem[]): ExportItem[] {
  const { info, kept, add, tick } = c;
  const skills = items.filter((i) => i.type === "skill");
  for (const s of skills) {
    const level = whole(s.system.level, `${s.path}.system.level`, 0);
    const groups = s.system.groups === undefined || s.system.groups === null ? [] : s.system.groups;
    if (!Array.isArray(groups)) fail(`${s.path}.system.groups`, "NotList", "must be a list", {});
    const desc = textOf(s.system.description, `${s.path}.system.description`);
    const groupText = (groups as unknown[]).filter((g) => typeof g === "string" && g).join(", ");
    const clamped = Math.min(Math.max(level, LADDER_MIN), LADDER_MAX);
    if (clamped !== level) kept("Clamped", { name: s.name, value: level });
    tick();
    add("skill", s.name, {
      ...defaultSkillData(),
      level: clamped,
      description: richOf(desc, groupText ? `Groups: ${groupText}` : ""),
    });
  }
  if (skills.length) info("Skills", { count: skills.length });

  return skills;
}

/** 7. Gifts and faults with their notes; a rules effect where the name is one we know. */
function giftsAndFaults(c: Conversion, items: ExportItem[]): void {
  const { info, add, tick } = c;
  for (const t of items.filter((i) => i.type === "gift" || i.type === "fault")) {
    tick();
    const description = richOf(textOf(t.system.description, `${t.path}.system.description`));
    const known = TRAIT_EFFECT_BY_NAME[t.name.trim().toLowerCase()];
    add(t.type as "gift" | "fault", t.name, { ...defaultTraitData(), ...(known ?? {}), description });
    if (known) info("TraitEffect", { name: t.name, effect: `FUDGE.Effect.${known.effect}` });
  }
  const giftCount = items.filter((i) => i.type === "gift").length;
  const faultCount = items.filter((i) => i.type === "fault").length;
  if (giftCount || faultCount) info("GiftsFaults", { gifts: giftCount, faults: faultCount });
}

/** 8. Equipment: a damage factor (ODF) makes a weapon, a defence factor (DDF) armour or a shield. */
function equipment(c: Conversion, items: ExportItem[], skills: ExportItem[]): void {
  const { info, kept, notes, add, tick } = c;
  const gear: string[] = [];
  for (const e of items.filter((i) => i.type === "equipment")) {
    tick();
    const odf = whole(e.system.odf, `${e.path}.system.odf`, 0);
    const ddf = whole(e.system.ddf, `${e.path}.system.ddf`, 0);
    const quantity = whole(e.system.quantity, `${e.path}.system.quantity`, 0);
    const description = textOf(e.system.description, `${e.path}.system.description`);
    const extra = quantity > 1 ? `Quantity: ${quantity}` : "";
    if (odf > 0) {
      const shape = weaponShapeForOdf(odf);
      const skill = skillFor(
        e.name,
        skills.map((s) => s.name),
      );
      const both = ddf > 0 ? `Defensive damage factor in fudge-rpg: +${ddf}` : "";
      add("weapon", e.name, {
        ...defaultWeaponData(),
        size: shape.size,
        sharp: shape.sharp,
        skill: skill ?? "",
        description: richOf(description, extra, both),
      });
      info("Weapon", { name: e.name, odf, size: `FUDGE.Fudge.Size.${shape.size}`, factor: shape.factor });
      if (shape.factor !== odf) kept("WeaponCapped", { name: e.name, odf, factor: shape.factor });
      if (skill) info("WeaponSkill", { name: e.name, skill });
      else info("WeaponNoSkill", { name: e.name });
      if (ddf > 0) kept("WeaponDdf", { name: e.name, ddf });
    } else if (ddf > 0 && /\b(shield|buckler)\b/i.test(e.name)) {
      const size = ddf >= 3 ? "large" : ddf === 2 ? "medium" : "small";
      add("shield", e.name, {
        ...defaultShieldData(),
        size,
        description: richOf(description, extra, `Defensive damage factor in fudge-rpg: +${ddf}`),
      });
      info("Shield", { name: e.name, size: `FUDGE.Item.ShieldSize.${size}` });
    } else if (ddf > 0) {
      add("armor", e.name, {
        ...defaultArmorData(),
        value: Math.min(ddf, 50),
        description: richOf(description, extra),
      });
      info("Armor", { name: e.name, value: Math.min(ddf, 50) });
    } else {
      gear.push(quantity > 1 ? `${e.name} ×${quantity}` : e.name);
    }
  }
  if (gear.length) {
    notes.push(`Equipment: ${gear.join(", ")}`);
    kept("Equipment", { names: gear.join(", ") });
  }
}

/** 9. Items of types this converter does not know, and active effects: names into the notes. */
function unknownItemsAndEffects(c: Conversion, src: Record<string, unknown>, items: ExportItem[]): void {
  const { kept, notes, tick } = c;
  for (const u of items.filter((i) => !KNOWN_ITEM_TYPES.includes(i.type))) {
    tick();
    const d = htmlToText(typeof u.system.description === "string" ? u.system.description : "");
    notes.push(`${u.name} (${u.type})${d ? `: ${d}` : ""}`);
    kept("UnknownItem", { name: u.name, type: u.type });
  }
  const effectNames: string[] = [];
  const collectEffects = (effects: unknown, owner: string) => {
    if (!Array.isArray(effects)) return;
    for (const fx of effects)
      if (isObj(fx))
        effectNames.push(
          `${typeof fx.name === "string" && fx.name ? fx.name : typeof fx.label === "string" ? fx.label : "?"}${owner ? ` (${owner})` : ""}`,
        );
  };
  collectEffects(src.effects, "");
  for (const i of items) collectEffects(i.effects, i.name);
  if (effectNames.length) {
    notes.push(`Active effects (not imported): ${effectNames.join(", ")}`);
    kept("Effects", { names: effectNames.join(", ") });
  }
}

/** 10. Unspent build points and five-point skill groups: character-building data only. */
function buildPoints(c: Conversion, sys: Record<string, unknown>): void {
  const { kept, notes } = c;
  if (isObj(sys.unspent)) {
    const u = sys.unspent;
    const parts = (["attrlevels", "skilllevels", "gifts", "faults"] as const)
      .map((k) => [k, whole(u[k], `system.unspent.${k}`, 0)] as const)
      .filter(([, v]) => v !== 0)
      .map(([k, v]) => `${k} ${v}`);
    if (parts.length) {
      notes.push(`Unspent build points: ${parts.join(", ")}`);
      kept("Unspent", { values: parts.join(", ") });
    }
  }
  if (isObj(sys.fivepoint) && Array.isArray(sys.fivepoint.groups) && sys.fivepoint.groups.length) {
    const groups = sys.fivepoint.groups
      .filter(isObj)
      .map((g) => `${typeof g.name === "string" ? g.name : "?"} (${typeof g.points === "number" ? g.points : 0})`);
    notes.push(`Five-point skill groups: ${groups.join(", ")}`);
    kept("FivePoint", { count: groups.length });
  }
}

/** 11. The wound track: maxima choose the shape, counts become marks (Fudge §4.57 overflow). */
function woundTrack(c: Conversion, wounds: ReturnType<typeof readWounds>): void {
  const { system, info, kept, notes, rules } = c;
  const maxima = wounds.map((w) => Math.min(w.max === 0 ? w.defaultMax : w.max, MAX_BOXES));
  for (const w of wounds)
    if (w.max > MAX_BOXES) kept("TooManyBoxes", { level: `FUDGE.Wound.${w.to}`, boxes: w.max, max: MAX_BOXES });
  if (wounds.some((w) => w.max === 0)) info("DefaultMaxima");
  Object.assign(system.woundTrack, trackShapeFor(maxima));
  info(system.woundTrack.preset === "custom" ? "TrackCustom" : "TrackPreset", {
    preset: `FUDGE.TrackPreset.${system.woundTrack.preset}`,
    boxes: maxima.join("/"),
  });
  const marked = wounds.filter((w) => w.value > 0);
  const boxWorld = rules.preset === "fudge" && rules.fudge.dcVariant !== "track";
  if (marked.length && !boxWorld) {
    notes.push(`Wounds in fudge-rpg: ${marked.map((w) => `${w.from} ${w.value}`).join(", ")}`);
    kept("WoundsNotBoxTrack", { wounds: marked.map((w) => `${w.from} ${w.value}`).join(", ") });
  } else if (marked.length) {
    const marks: Record<string, (BoxMark | null)[]> = {};
    wounds.forEach((w, k) => (marks[w.to] = Array.from({ length: maxima[k] }, () => null)));
    const unplaced: string[] = [];
    // Each level's own wounds first; then the excess, mildest first, goes to the next more severe
    // open box and keeps its real level (Fudge §4.57 overflow, the "H" in a Very Hurt box).
    const excess = wounds.map((w, k) => {
      const own = Math.min(w.value, maxima[k]);
      for (let b = 0; b < own; b++) marks[w.to][b] = { level: w.to };
      return w.value - own;
    });
    wounds.forEach((w, k) => {
      for (let n = 0; n < excess[k]; n++) {
        const j = wounds.findIndex((o, jj) => jj > k && marks[o.to].includes(null));
        if (j < 0) {
          unplaced.push(w.from);
          continue;
        }
        marks[wounds[j].to][marks[wounds[j].to].indexOf(null)] = { level: w.to };
        info("Overflow", { level: `FUDGE.Wound.${w.to}`, into: `FUDGE.Wound.${wounds[j].to}` });
      }
    });
    system.woundTrack.state = { marks, stun: null, dead: false };
    info("Wounds", { wounds: marked.map((w) => `${w.from} ${w.value}`).join(", ") });
    if (unplaced.length) {
      notes.push(`Wounds with no box left: ${unplaced.join(", ")}`);
      kept("WoundsUnplaced", { wounds: unplaced.join(", ") });
    }
  }
}

/** 12. Notes (theirs first, then what could not be mapped) and the actor. */
function actorOf(c: Conversion, exported: ReturnType<typeof readExport>): FudgeRpgConversion["actor"] {
  const { system, info, notes } = c;
  const { src, stats, name, sys } = exported;
  // Our lines are text, escaped into a heading and a list (HTMLField, like theirs).
  const unmapped = notes.length
    ? `<h3>${escapeText("— Imported from Fudge RPG —")}</h3><ul>${notes.map((n) => `<li>${escapeText(n)}</li>`).join("")}</ul>`
    : "";
  system.notes = richOf(textOf(sys.notes, "system.notes")) + unmapped;

  const img =
    typeof src.img === "string" && src.img && !src.img.startsWith(`systems/${FUDGE_RPG_SYSTEM_ID}/`)
      ? src.img
      : undefined;
  if (typeof src.img === "string" && src.img && !img) info("Image", { img: src.img });
  return {
    name,
    type: "character",
    ...(img ? { img } : {}),
    system,
    items: c.items,
    flags: {
      "fudge-wounds": {
        importedFrom: {
          system: FUDGE_RPG_SYSTEM_ID,
          id: typeof src._id === "string" ? src._id : "",
          systemVersion: typeof stats.systemVersion === "string" ? stats.systemVersion : "",
        },
      },
    },
    prototypeToken: { name, actorLink: true },
  };
}

/** The skill a weapon is used with: a skill whose name (or a "/"-separated part of it) is in the weapon's name. */
export function skillFor(weapon: string, skills: string[]): string | null {
  const w = weapon.toLowerCase();
  for (const s of skills) {
    const parts = s
      .toLowerCase()
      .split(/[/,]/)
      .map((p) => p.trim())
      .filter((p) => p.length >= 3);
    if (parts.some((p) => w.includes(p) || p.includes(w))) return s;
  }
  return null;
}

/** A report line as text (`localize` looks keys up: lang/en.json in the CLI, game.i18n in Foundry). */
export function reportText(line: ImportReportLine, localize: (key: string) => string = (k) => k): string {
  return fill(localize(line.key), line.params, localize);
}

/**
 * The part of an export an error's field path names, in words ("items.2.name" → "the name of
 * item 3", "system.wounds.hurt.value" → "the number of marked hurt wounds"), never the path.
 */
export function importFieldText(field: string, localize: (key: string) => string = (k) => k): string {
  const say = (key: string, params: Record<string, string | number> = {}) =>
    fill(localize(`FUDGE.Import.Field.${key}`), params, localize);
  const parts = field.split(".").filter(Boolean);
  const last = parts[parts.length - 1] ?? "";
  if (parts[0] === "items" && parts.length >= 2 && /^\d+$/.test(parts[1])) {
    const n = Number(parts[1]) + 1;
    if (parts.length === 2) return say("item", { n });
    if (parts.length === 3 && (last === "name" || last === "type"))
      return say(last === "name" ? "itemName" : "itemType", { n });
    // The nearest named segment: "traits.2.value" → "value".
    return say("itemField", { n, name: [...parts].reverse().find((p) => !/^\d+$/.test(p)) ?? last });
  }
  if (parts[0] === "system" && parts[1] === "wounds") {
    if (parts.length === 2) return say("wounds");
    if (parts.length === 3) return say("woundLevel", { level: parts[2] });
    return say(last === "max" ? "woundBoxes" : "woundMarks", { level: parts[2] });
  }
  if (field === "_stats.systemId") return say("systemId");
  if (parts.length === 1 && ["name", "type", "system", "items"].includes(last)) return say(last);
  if (parts.length === 0) return say("actor");
  return say("systemField", { name: last });
}

/** One import error as a sentence naming its file, the part of the export and what to do. */
export function importErrorText(error: RulesError, file: string, localize: (key: string) => string = (k) => k): string {
  return fill(localize(error.key), { ...error.params, file, what: importFieldText(error.field, localize) }, localize);
}

export interface ImportFileOutcome {
  converted: { file: string; result: FudgeRpgConversion }[];
  errors: { file: string; error: RulesError }[];
}

/**
 * Converts several export files. All or nothing is the caller's rule: create the actors only
 * when `errors` is empty (the Foundry action, the playground and the CLI all do).
 */
export function convertFudgeRpgFiles(
  inputs: Iterable<{ file: string; text: string }>,
  options: ConvertOptions = {},
  tick: () => void = conversionDeadline(options),
): ImportFileOutcome {
  const out: ImportFileOutcome = { converted: [], errors: [] };
  for (const { file, text } of inputs) {
    tick(); // over the batch's budget: the whole batch is refused (thrown), not this file
    try {
      const parsed = parseFudgeRpgExport(text, file);
      tick();
      out.converted.push({ file, result: convertFudgeRpgActor(parsed, options, tick) });
    } catch (e) {
      if (!(e instanceof RulesError)) throw e;
      if (e.key === "FUDGE.Error.TimeBudget") throw e;
      out.errors.push({ file, error: e });
    }
  }
  return out;
}

/**
 * A batch as the importers take it (Foundry's Import from Fudge RPG, the playground): as
 * convertFudgeRpgFiles, but a batch over its time budget is one error of the outcome
 * (FUDGE.Import.Error.TimeBudget: import fewer or smaller files at a time), never thrown — the
 * whole batch refused, nothing created. The CLI words its own (src/cli/convert-fudge-rpg.ts).
 */
export function importFudgeRpgBatch(
  inputs: Iterable<{ file: string; text: string }>,
  options: ConvertOptions = {},
): ImportFileOutcome {
  try {
    return convertFudgeRpgFiles(inputs, options);
  } catch (e) {
    if (!(e instanceof RulesError && e.key === "FUDGE.Error.TimeBudget")) throw e;
    return {
      converted: [],
      errors: [{ file: "", error: new RulesError("", "FUDGE.Import.Error.TimeBudget", e.message, e.params) }],
    };
  }
}

/** Render model of the import report card (templates/chat/import-report.hbs). */
export interface ImportReportContext {
  titleParams: { name: string };
  file: string;
  lines: ImportReportLine[];
  keptCount: number;
}

export function importReportContext(file: string, result: FudgeRpgConversion): ImportReportContext {
  return {
    titleParams: { name: result.actor.name },
    file,
    lines: result.report,
    keptCount: result.report.filter((l) => l.kept).length,
  };
}
