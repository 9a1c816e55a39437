/**
 * Experience on the sheet (Fudge §5.2, objective character development). The EP a character has
 * are the awards the GM recorded (her own record, `gmRecords.experience`: a hidden world setting
 * only a GM writes, src/foundry/gm-records.ts) less the spends of the actor's log
 * (`system.experience`), each priced again from its levels; an award entry in the actor's own data
 * is a claim and counts for nothing. The traits an advance changes are read from the live actor —
 * the world's attributes and the actor's skill items — so the rules core
 * (src/rules/character/experience.ts) prices and checks each change. The GM awards EP and undoes
 * log entries; an owner spends EP to raise a trait.
 */
import { RulesError, type Ladder } from "../rules";
import {
  MAX_ADVANCEMENT_LOG,
  MAX_EP,
  awardExperience,
  dependentsOf,
  parseExperience,
  quoteRaise,
  raiseTrait,
  spendPrice,
  undoAdvancement,
  DEFAULT_EXPERIENCE_OPTIONS,
  type AdvancementEntry,
  type Experience,
  type LevelledTrait,
  type RaiseQuote,
} from "../rules/character";
import { attributeLabelKey, attributeLevel } from "./attributes";
import { itemsOf } from "./combatant";
import type { ActorDoc, CharacterData, StoredExperience, WorldRules } from "./data";
import { canEdit, refuseUnless } from "./actions";
import { errorView } from "./error-text";
import type { UserRef } from "./permissions";
import { ladderOf, levelView, type LevelView } from "./view";

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

const isRec = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const stored = (actor: ActorDoc): Record<string, unknown> => {
  const raw = (actor.system as { experience?: unknown }).experience;
  return isRec(raw) ? raw : {};
};
const whole = (v: unknown, max = MAX_EP): number =>
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

const NO_AWARDS: AwardRecord = Object.freeze({ next: 0, awards: [], earlier: 0 }) as AwardRecord;

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
function recordWith(record: AwardRecord, awards: AwardEntry[], next: number): AwardRecord {
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
const priced = (e: SpendEntry): number =>
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
function spendsUpdate(xp: ActorExperience, spends: SpendEntry[], next: number): { experience: StoredExperience } {
  const over = Math.max(0, spends.length - MAX_ADVANCEMENT_LOG);
  const gone = spends.slice(0, over).reduce((n, e) => n + priced(e), 0);
  return { experience: { next, log: spends.slice(over), spentEarlier: Math.min(MAX_EP, xp.spentEarlier + gone) } };
}

const gmOnly = (what: "award" | "undo", name: string): RulesError =>
  new RulesError(
    "user",
    what === "award" ? "FUDGE.Experience.Error.AwardGmOnly" : "FUDGE.Experience.Error.UndoGmOnly",
    `only a GM may ${what} experience for ${name}`,
    { name },
  );

/** The actor gains experience in this world's rules (Fudge §5.2: characters and NPCs; not Volt's or Miniatures' presets). */
export const gainsExperience = (actor: ActorDoc, rules: WorldRules): boolean =>
  hasExperience(actor) && rules.preset !== "volt" && rules.preset !== "miniatures";

function needExperience(actor: ActorDoc, rules: WorldRules): void {
  if (!gainsExperience(actor, rules))
    throw new RulesError("actor", "FUDGE.Experience.Error.NoExperience", `${actor.name} gains no experience here`, {
      name: actor.name,
    });
}

/** Reads the award dialog's amount: a whole number of EP, 1 … MAX_EP (bad input: a sentence, nothing written). */
export function readAmount(raw: unknown): number {
  const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_EP)
    throw new RulesError("amount", "FUDGE.Experience.Error.BadAmount", `EP must be a whole number 1 to ${MAX_EP}`, {
      max: MAX_EP,
    });
  return n;
}

/**
 * The GM awards `amount` EP (§5.2) to the actor as it is now: a new entry of her own record (the
 * GM's store, never the actor, whose owner writes it).
 */
export function awardUpdate(
  actor: ActorDoc,
  rules: WorldRules,
  award: { amount: number; note?: string },
  user: UserRef,
  at: string,
): { gmRecords: { [AWARD_RECORD_KEY]: AwardRecord } } {
  if (!user.isGM) throw gmOnly("award", actor.name);
  needExperience(actor, rules);
  const xp = experienceOf(actor, rules);
  const note = award.note?.trim();
  // A fresh id, past any an owner planted in his own log.
  const used = new Set(xp.log.map((e) => e.id));
  let n = xp.record.next;
  while (used.has(`aw${n}`)) n++;
  const after = awardExperience(xp, {
    id: `aw${n}`,
    at,
    amount: readAmount(award.amount),
    by: user.id,
    ...(note ? { note: note.slice(0, 200) } : {}),
  });
  const entry = after.log[after.log.length - 1] as AwardEntry;
  return { gmRecords: { [AWARD_RECORD_KEY]: recordWith(xp.record, [...xp.record.awards, entry], n + 1) } };
}

/**
 * Data version 8: the award entries of an actor's log (version 7 kept them there, and its `ep`
 * count) become the GM's record, once, in the GM's world migration — the data as it stood is
 * the best record there is; from then on only the GM's record awards EP. The EP the actor held
 * are kept: more than its listed awards less its spends (entries evicted from the log) carried as
 * the record's `earlier` EP, less as `spentEarlier`. `existing`: the GM's record already there
 * (an earlier, interrupted run), whose entries are kept. null: nothing to move, or a log that
 * does not check (left as it is: the sheet shows its sentence, nothing is lost).
 */
export function adoptedAwards(
  storedXp: unknown,
  existing: unknown,
): { record: AwardRecord; experience: Record<string, unknown> } | null {
  if (!isRec(storedXp) || (!("ep" in storedXp) && !Array.isArray(storedXp.log))) return null;
  let log: AdvancementEntry[];
  try {
    log = parseExperience({ log: storedXp.log ?? [] }, "system.experience").log;
  } catch {
    return null;
  }
  const awards = log.filter((e): e is AwardEntry => e.type === "award");
  const spends = log.filter((e): e is SpendEntry => e.type !== "award");
  if (!awards.length && !("ep" in storedXp)) return null;
  const before = parseAwardRecord(existing) ?? NO_AWARDS;
  const known = new Set(before.awards.map((e) => e.id));
  const listed = awards.reduce((n, e) => n + e.amount, 0) - spends.reduce((n, e) => n + priced(e), 0);
  const held = whole(storedXp.ep);
  const record = recordWith(
    { ...before, earlier: Math.min(MAX_EP, before.earlier + Math.max(0, held - listed)) },
    [...before.awards, ...awards.filter((e) => !known.has(e.id))],
    before.next,
  );
  const experience = {
    "-=ep": null,
    next: whole(storedXp.next, Number.MAX_SAFE_INTEGER),
    log: spends,
    spentEarlier: Math.min(MAX_EP, whole(storedXp.spentEarlier) + Math.max(0, listed - held)),
  };
  return { record, experience };
}

/** The GM's record of an imported character's unspent EP (fudge-rpg import, §5.2): one award, by the importing GM. */
export function importedAward(amount: number, user: UserRef, at: string): { [AWARD_RECORD_KEY]: AwardRecord } {
  if (!user.isGM)
    throw new RulesError("user", "FUDGE.Experience.Error.AwardGmOnly", "only a GM may award experience", { name: "" });
  const award: AwardEntry = {
    id: "aw0",
    at,
    type: "award",
    amount: readAmount(amount),
    by: user.id,
    note: "fudge-rpg",
  };
  return { [AWARD_RECORD_KEY]: { next: 1, awards: [award], earlier: 0 } };
}

/** The level write of a raised (or restored) trait: an attribute in the actor's data, a skill on its item. */
export interface TraitWrite {
  system?: { attributes: Record<string, number> };
  item?: { id: string; update: { system: { level: number } } };
}

function traitWrite(traitId: string, level: number): TraitWrite {
  if (traitId.startsWith("attr.")) return { system: { attributes: { [traitId.slice(5)]: level } } };
  return { item: { id: traitId.slice(6), update: { system: { level } } } };
}

/** What an advance writes: the spends (and an attribute) on the actor or the GM's record of awards, a skill's level on its item. */
export interface AdvanceWrite {
  actor: { system?: Record<string, unknown>; gmRecords?: Record<string, unknown> };
  item?: TraitWrite["item"];
}

function advanceWrite(xp: ActorExperience, spends: SpendEntry[], next: number, trait: TraitWrite): AdvanceWrite {
  const system = { ...spendsUpdate(xp, spends, next), ...(trait.system ?? {}) };
  return { actor: { system }, ...(trait.item ? { item: trait.item } : {}) };
}

/** The price of raising each trait one level (§5.2), or the reason it cannot rise. */
export function raiseQuotes(actor: ActorDoc, rules: WorldRules): { trait: string; quote: RaiseQuote | null }[] {
  const xp = experienceOf(actor, rules);
  return Object.keys(xp.traits).map((trait) => {
    try {
      return { trait, quote: quoteRaise(xp, trait, DEFAULT_EXPERIENCE_OPTIONS) };
    } catch {
      return { trait, quote: null };
    }
  });
}

/**
 * An owner spends EP to raise `trait` one level (§5.2): refused when he lacks the EP, when the
 * trait was not used significantly (the text's requirement), past Superb without the GM (a GM's
 * own click is her approval).
 */
export function raiseUpdate(
  actor: ActorDoc,
  rules: WorldRules,
  request: { trait: string; used: boolean },
  user: UserRef,
  at: string,
): AdvanceWrite {
  refuseUnless(canEdit(actor, user));
  needExperience(actor, rules);
  const xp = experienceOf(actor, rules);
  try {
    const r = raiseTrait(
      xp,
      { id: `ep${xp.next}`, at, trait: request.trait, used: request.used, gmApproval: user.isGM },
      DEFAULT_EXPERIENCE_OPTIONS,
    );
    return advanceWrite(xp, [...xp.spends, r.entry as SpendEntry], xp.next + 1, traitWrite(request.trait, r.quote.to));
  } catch (e) {
    throw named(e, actor, rules);
  }
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

/** A rules-core refusal naming a trait id, reworded with the trait's name. */
function named(e: unknown, actor: ActorDoc, rules: WorldRules): unknown {
  if (!(e instanceof RulesError) || typeof e.params?.trait !== "string") return e;
  const n = traitName(actor, rules, e.params.trait);
  const said = e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message;
  return new RulesError(e.field, e.key, said, { ...e.params, trait: n.label || n.labelKey });
}

/**
 * The GM undoes one log entry: its EP back, the trait as it was. Refused with the advance that
 * rests on it when a later one does (undo that first), and when the EP of an award are spent.
 */
export function undoUpdate(actor: ActorDoc, rules: WorldRules, entryId: string, user: UserRef): AdvanceWrite {
  if (!user.isGM) throw gmOnly("undo", actor.name);
  needExperience(actor, rules);
  const xp = experienceOf(actor, rules);
  const later = dependentsOf(xp, entryId);
  if (later.length > 0) {
    const last = later[later.length - 1] as Extract<AdvancementEntry, { type: "raise" }>;
    const n = traitName(actor, rules, last.trait);
    throw new RulesError(
      "entry",
      "FUDGE.Experience.Error.HasDependents",
      `a later advance (${last.trait} ${last.from} → ${last.to}) depends on this one: undo it first`,
      {
        trait: n.label || n.labelKey,
        from: levelView(last.from, ladderOf(rules)).name,
        to: levelView(last.to, ladderOf(rules)).name,
      },
    );
  }
  try {
    const e = undoAdvancement(xp, entryId).entry;
    if (e.type === "award") {
      const awards = xp.record.awards.filter((a) => a.id !== e.id);
      return { actor: { gmRecords: { [AWARD_RECORD_KEY]: { ...xp.record, awards } } } };
    }
    const trait = e.type === "raise" ? traitWrite(e.trait, e.from) : {};
    return advanceWrite(
      xp,
      xp.spends.filter((x) => x.id !== e.id),
      xp.next,
      trait,
    );
  } catch (err) {
    throw named(err, actor, rules);
  }
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

// ─── Dialogs ──────────────────────────────────────────────────────────────────────────

/** One actor the award dialog offers: the sheet's own, then each selected token's. */
export interface AwardCandidate {
  ref: string;
  name: string;
  /** Checked when the dialog opens (default: checked). */
  checked?: boolean;
}

/** The award dialog (templates/dialog/award-dialog.hbs): EP, a note, the actors to award. */
export function awardDialogContext(candidates: readonly AwardCandidate[]) {
  return {
    cssClass: "fudge-wounds fudge-award-dialog",
    amount: 1,
    max: MAX_EP,
    actors: candidates.map((c, i) => ({ index: i, name: c.name, checked: c.checked !== false })),
  };
}

/** The submitted award: its EP (checked: a whole number in range), its note, the chosen candidates. */
export function readAward(
  entries: Iterable<readonly [string, unknown]>,
  candidates: readonly AwardCandidate[],
): { amount: number; note: string; refs: string[] } {
  const form = new Map(entries);
  const amount = readAmount(form.get("amount"));
  const note = typeof form.get("note") === "string" ? (form.get("note") as string).trim().slice(0, 200) : "";
  // A box the form does not report stays as the dialog opened it.
  const chosen = (c: AwardCandidate, i: number) => {
    const v = form.get(`actor.${i}`);
    return v === undefined ? c.checked !== false : v === true || v === "true" || v === "on";
  };
  const refs = candidates.filter(chosen).map((c) => c.ref);
  if (refs.length === 0)
    throw new RulesError("actors", "FUDGE.Experience.Error.NoActors", "no actor was chosen for the award");
  return { amount, note, refs };
}

/** The spend dialog (templates/dialog/raise-dialog.hbs): each trait with its price, the chosen one's cost and the EP left. */
export function raiseDialogContext(
  actor: ActorDoc,
  rules: WorldRules,
  ladder: Ladder,
  entries: readonly (readonly [string, unknown])[] | null,
) {
  const xp = experienceOf(actor, rules);
  const quotes = raiseQuotes(actor, rules).filter((q): q is { trait: string; quote: RaiseQuote } => !!q.quote);
  const form = new Map(entries ?? []);
  const picked = typeof form.get("trait") === "string" ? (form.get("trait") as string) : quotes[0]?.trait;
  const chosen = quotes.find((q) => q.trait === picked) ?? quotes[0];
  return {
    cssClass: "fudge-wounds fudge-raise-dialog",
    actorName: actor.name,
    ep: xp.ep,
    traits: quotes.map(({ trait, quote }) => {
      const n = traitName(actor, rules, trait);
      return {
        value: trait,
        label: n.label,
        labelKey: n.labelKey,
        from: levelView(quote.from, ladder),
        to: levelView(quote.to, ladder),
        cost: quote.cost,
        selected: trait === chosen?.trait,
      };
    }),
    used: form.get("used") === true,
    cost: chosen?.quote.cost ?? 0,
    left: xp.ep - (chosen?.quote.cost ?? 0),
    short: (chosen?.quote.cost ?? 0) > xp.ep,
    needsGm: !!chosen?.quote.needsGm,
  };
}

/** The submitted spend: the trait (checked by the rules core when it is raised) and whether it was used. */
export function readRaise(entries: Iterable<readonly [string, unknown]>): { trait: string; used: boolean } {
  const form = new Map(entries);
  const trait = form.get("trait");
  if (typeof trait !== "string" || trait === "")
    throw new RulesError("trait", "FUDGE.Experience.Error.NoTrait", "no trait was chosen");
  return { trait, used: form.get("used") === true || form.get("used") === "true" || form.get("used") === "on" };
}

/** The Undo's question: what the entry was, in the sheet's words. */
export function undoSummary(actor: ActorDoc, rules: WorldRules, ladder: Ladder, entryId: string): ExperienceRow | null {
  const v = experienceView(actor, rules, ladder, { gm: true, owner: true });
  return v?.rows.find((r) => r.id === entryId) ?? null;
}
