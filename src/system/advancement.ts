/**
 * What changes an actor's experience (Fudge §5.2): the GM's award into her own record, an owner's
 * raise of a trait, the GM's undo of a log entry, and their dialogs; the migration's and the
 * import's award records. The sheet's view of experience is ./experience.ts; this module loads
 * with the clicks that change it (src/system/flows/clicks.ts), not at start-up.
 */
import { RulesError, type Ladder } from "../rules";
import {
  MAX_EP,
  awardExperience,
  dependentsOf,
  parseExperience,
  quoteRaise,
  raiseTrait,
  undoAdvancement,
  DEFAULT_EXPERIENCE_OPTIONS,
  type AdvancementEntry,
  type RaiseQuote,
} from "../rules/character";
import type { ActorDoc, WorldRules } from "./data";
import { canEdit, refuseUnless } from "./actions";
import type { UserRef } from "./permissions";
import { ladderOf, levelView } from "./view";
import {
  AWARD_RECORD_KEY,
  NO_AWARDS,
  experienceOf,
  experienceView,
  gmOnly,
  isRec,
  needExperience,
  parseAwardRecord,
  priced,
  recordWith,
  spendsUpdate,
  traitName,
  whole,
  type ActorExperience,
  type AwardEntry,
  type AwardRecord,
  type ExperienceRow,
  type SpendEntry,
} from "./experience";

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
