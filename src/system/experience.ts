/**
 * Experience on the sheet (Fudge §5.2, objective character development). The EP a character has
 * are the awards the GM recorded (her own record, `gmRecords.experience`: a hidden world setting
 * only a GM writes, src/foundry/gm-records.ts) less the spends of the actor's log
 * (`system.experience`), each priced again from its levels; an award entry in the actor's own data
 * is a claim and counts for nothing. The traits an advance changes are read from the live actor —
 * the world's attributes and the actor's skill items — so the rules core
 * (src/rules/character/experience.ts) prices and checks each change. The GM awards EP and undoes
 * log entries; an owner spends EP to raise a trait (those changes and their dialogs: ./advancement.ts).
 */
import { RulesError, type Ladder } from "../rules";
import {
  MAX_ADVANCEMENT_LOG,
  MAX_EP,
  dependentsOf,
  parseExperience,
  spendPrice,
  type AdvancementEntry,
  type Experience,
  type LevelledTrait,
} from "../rules/character";
import { attributeLabelKey, attributeLevel } from "./attributes";
import { itemsOf } from "./combatant";
import type { ActorDoc, CharacterData, StoredExperience, WorldRules } from "./data";
import { errorView } from "./error-text";
import { levelView, type LevelView } from "./view";

/** A trait's id in the log: `attr.<key>` for an attribute of the world's set, `skill.<item id>` for a skill. */
export const attributeTraitId = (key: string) => `attr.${key}`;
export const skillTraitId = (itemId: string) => `skill.${itemId}`;

/** Actor types that gain experience (Fudge §5: characters; a GM may grow an NPC the same way). */
export const hasExperience = (actor: ActorDoc): actor is ActorDoc<"character" | "npc"> =>
  actor.type === "character" || actor.type === "npc";

/** The traits an advance can raise, from the live actor: the world's attributes, then the skills. */
export function liveTraits(actor: ActorDoc, rules: WorldRules): Record<string, LevelledTrait> {
  const out: Record<string, LevelledTrait> = {};
  if (!hasExperience(actor) || rules.preset === "volt") return out;
  const d = actor.system as CharacterData;
  for (const a of rules.attributeSet.attributes)
    out[attributeTraitId(a.key)] = { kind: "attribute", level: attributeLevel(d.attributes, a.key) };
  for (const s of itemsOf(actor, "skill"))
    out[skillTraitId(s._id)] = { kind: "skill", level: Math.trunc(Number(s.system.level) || 0) };
  return out;
}

export const isRec = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const stored = (actor: ActorDoc): Record<string, unknown> => {
  const raw = (actor.system as { experience?: unknown }).experience;
  return isRec(raw) ? raw : {};
};
export const whole = (v: unknown, max = MAX_EP): number =>
  Number.isInteger(v) && (v as number) >= 0 ? Math.min(v as number, max) : 0;

// ─── The GM's record of awards ─────────────────────────────────────────────────────────

export type AwardEntry = Extract<AdvancementEntry, { type: "award" }>;
export type SpendEntry = Exclude<AdvancementEntry, { type: "award" }>;

/** The key of an actor's awards in the GM's records (ActorDoc.gmRecords). */
export const AWARD_RECORD_KEY = "experience";

/**
 * The GM's record of an actor's EP awards: the newest MAX_ADVANCEMENT_LOG entries, the EP of
 * older ones no longer listed (`earlier`), the number of the next award's id (`aw<n>`).
 */
export interface AwardRecord {
  next: number;
  awards: AwardEntry[];
  earlier: number;
}

export const NO_AWARDS: AwardRecord = Object.freeze({ next: 0, awards: [], earlier: 0 }) as AwardRecord;

/** A stored award record, checked by the rules core (null: malformed, dropped by the store). */
export function parseAwardRecord(raw: unknown): AwardRecord | null {
  if (!isRec(raw)) return null;
  try {
    const log = parseExperience({ log: raw.awards ?? [] }, "awards").log;
    if (log.some((e) => e.type !== "award")) return null;
    return { next: whole(raw.next, Number.MAX_SAFE_INTEGER), awards: log as AwardEntry[], earlier: whole(raw.earlier) };
  } catch {
    return null;
  }
}

const awardRecordOf = (actor: ActorDoc): AwardRecord =>
  parseAwardRecord(actor.gmRecords?.[AWARD_RECORD_KEY]) ?? NO_AWARDS;

/** The record with `awards` kept within MAX_ADVANCEMENT_LOG: the EP of the oldest, dropped, counted in `earlier`. */
export function recordWith(record: AwardRecord, awards: AwardEntry[], next: number): AwardRecord {
  const over = Math.max(0, awards.length - MAX_ADVANCEMENT_LOG);
  const gone = awards.slice(0, over).reduce((n, e) => n + e.amount, 0);
  return { next, awards: awards.slice(over), earlier: Math.min(MAX_EP, record.earlier + gone) };
}

/** The two logs as one, by time, each keeping its own order (the spends' order is what later advances rest on). */
function merged(awards: readonly AwardEntry[], spends: readonly SpendEntry[]): AdvancementEntry[] {
  const out: AdvancementEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < awards.length || j < spends.length)
    out.push(j >= spends.length || (i < awards.length && awards[i].at <= spends[j].at) ? awards[i++] : spends[j++]);
  return out;
}

/** The kind a spend's trait id says (an attribute costs three times a skill, §5.2): not the entry's claim. */
export const priced = (e: SpendEntry): number =>
  spendPrice(e.type === "raise" ? { ...e, kind: e.trait.startsWith("attr.") ? "attribute" : "skill" } : e);

/** An actor's experience as the rules core reads it, with where each part is kept. */
export interface ActorExperience extends Experience {
  next: number;
  /** The GM's record of awards. */
  record: AwardRecord;
  /** The spends of the actor's own log, in its order. */
  spends: SpendEntry[];
  /** EP of spends no longer in the actor's log (evicted past its bound, or carried over by the migration). */
  spentEarlier: number;
  /** Award entries in the actor's own data: not the GM's, they count for nothing. */
  ignored: number;
  /** EP the spends exceed the awards by (the sheet says so; the character has 0). */
  over: number;
}

/**
 * The actor's experience: the GM's awards less the spends of its log, each priced again (§5.2),
 * with its live traits. The actor's log is a claim, checked by the rules core.
 */
export function experienceOf(actor: ActorDoc, rules: WorldRules): ActorExperience {
  const s = stored(actor);
  const own = parseExperience({ log: s.log, traits: liveTraits(actor, rules) }, "system.experience");
  const spends = own.log.filter((e): e is SpendEntry => e.type !== "award");
  const record = awardRecordOf(actor);
  const awardIds = new Set(record.awards.map((e) => e.id));
  const clash = spends.find((e) => awardIds.has(e.id));
  if (clash)
    throw new RulesError(
      "system.experience.log",
      "FUDGE.Error.Advance.DuplicateId",
      `the id ${clash.id} is used twice`,
      {
        id: clash.id,
      },
    );
  const spentEarlier = whole(s.spentEarlier);
  const awarded = record.earlier + record.awards.reduce((n, e) => n + e.amount, 0);
  const spent = spentEarlier + spends.reduce((n, e) => n + priced(e), 0);
  const log = merged(record.awards, spends);
  // The next id is past every id in both logs, whatever `next` says.
  const highest = log.reduce((m, e) => Math.max(m, Number(/^ep(\d+)$/.exec(e.id)?.[1] ?? -1)), -1);
  return {
    ep: Math.min(MAX_EP, Math.max(0, awarded - spent)),
    traits: own.traits,
    gifts: [],
    powers: [],
    log,
    next: Math.max(whole(s.next, Number.MAX_SAFE_INTEGER), highest + 1),
    record,
    spends,
    spentEarlier,
    ignored: own.log.length - spends.length,
    over: Math.max(0, spent - awarded),
  };
}

/** The write of the actor's changed spends (the whole log: it is replaced, not merged); the oldest past the bound counted in `spentEarlier`. */
export function spendsUpdate(
  xp: ActorExperience,
  spends: SpendEntry[],
  next: number,
): { experience: StoredExperience } {
  const over = Math.max(0, spends.length - MAX_ADVANCEMENT_LOG);
  const gone = spends.slice(0, over).reduce((n, e) => n + priced(e), 0);
  return { experience: { next, log: spends.slice(over), spentEarlier: Math.min(MAX_EP, xp.spentEarlier + gone) } };
}

export const gmOnly = (what: "award" | "undo", name: string): RulesError =>
  new RulesError(
    "user",
    what === "award" ? "FUDGE.Experience.Error.AwardGmOnly" : "FUDGE.Experience.Error.UndoGmOnly",
    `only a GM may ${what} experience for ${name}`,
    { name },
  );

/** The actor gains experience in this world's rules (Fudge §5.2: characters and NPCs; not Volt's or Miniatures' presets). */
export const gainsExperience = (actor: ActorDoc, rules: WorldRules): boolean =>
  hasExperience(actor) && rules.preset !== "volt" && rules.preset !== "miniatures";

export function needExperience(actor: ActorDoc, rules: WorldRules): void {
  if (!gainsExperience(actor, rules))
    throw new RulesError("actor", "FUDGE.Experience.Error.NoExperience", `${actor.name} gains no experience here`, {
      name: actor.name,
    });
}

/** The trait's name as the sheet shows it: the world's attribute name (or its key), the skill item's name. */
export function traitName(actor: ActorDoc, rules: WorldRules, traitId: string): { label: string; labelKey: string } {
  if (traitId.startsWith("attr.")) {
    const a = rules.attributeSet.attributes.find((x) => attributeTraitId(x.key) === traitId);
    return a ? { label: a.name, labelKey: attributeLabelKey(a) } : { label: traitId.slice(5), labelKey: "" };
  }
  const skill = itemsOf(actor, "skill").find((s) => skillTraitId(s._id) === traitId);
  return skill ? { label: skill.name, labelKey: "" } : { label: "", labelKey: "FUDGE.Experience.GoneSkill" };
}

/** One log row on the sheet: when, what, the EP it cost or brought, and whether the GM may undo it now. */
export interface ExperienceRow {
  id: string;
  at: string;
  /** When, as this client's locale writes it. */
  atText: string;
  type: AdvancementEntry["type"];
  amount: number;
  /** An award's or a cost's EP, signed as the sheet shows it ("+3", "−6"). */
  epText: string;
  traitLabel: string;
  traitKey: string;
  from: LevelView | null;
  to: LevelView | null;
  note: string;
  by: string;
  undoable: boolean;
}

export interface ExperienceView {
  ep: number;
  rows: ExperienceRow[];
  /** The GM: Award and Undo are offered. */
  gm: boolean;
  /** An owner may spend EP (some trait can rise). */
  canSpend: boolean;
  /** Award entries in the actor's own data, which count for nothing (only the GM's record awards EP). */
  ignored: number;
  /** EP the log's spends exceed the GM's recorded awards by. */
  over: number;
  error: { key: string; params: Record<string, string | number> } | null;
}

/** The sheet's Experience section; null for actors without experience. */
export function experienceView(
  actor: ActorDoc,
  rules: WorldRules,
  ladder: Ladder,
  opts: { gm: boolean; owner: boolean },
): ExperienceView | null {
  if (!hasExperience(actor) || rules.preset === "volt" || rules.preset === "miniatures") return null;
  let xp: ActorExperience;
  try {
    xp = experienceOf(actor, rules);
  } catch (e) {
    // A stored record that does not check: its sentence on the sheet (errorView rethrows anything else).
    return { ep: 0, rows: [], gm: opts.gm, canSpend: false, ignored: 0, over: 0, error: errorView(e) };
  }
  const rows = [...xp.log].reverse().map((e): ExperienceRow => {
    const name = e.type === "award" ? { label: "", labelKey: "" } : traitName(actor, rules, e.trait);
    const raise = e.type === "raise" ? e : null;
    return {
      id: e.id,
      at: e.at,
      atText: Number.isNaN(Date.parse(e.at)) ? e.at : new Date(e.at).toLocaleString(),
      type: e.type,
      amount: e.type === "award" ? e.amount : e.cost,
      epText: e.type === "award" ? `+${e.amount}` : e.cost === 0 ? "0" : `−${e.cost}`,
      traitLabel: name.label,
      traitKey: name.labelKey,
      from: raise ? levelView(raise.from, ladder) : null,
      to: raise ? levelView(raise.to, ladder) : null,
      note: e.type === "award" ? (e.note ?? "") : "",
      by: e.type === "award" ? e.by : "",
      // An award whose EP are spent waits for the spends' undo (undoAdvancement refuses it too).
      undoable: opts.gm && dependentsOf(xp, e.id).length === 0 && (e.type !== "award" || e.amount <= xp.ep),
    };
  });
  return {
    ep: xp.ep,
    rows,
    gm: opts.gm,
    canSpend: opts.owner && Object.keys(xp.traits).length > 0,
    ignored: xp.ignored,
    over: xp.over,
    error: null,
  };
}
