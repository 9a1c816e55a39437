/**
 * Objective character development (Fudge §5.2): Experience Points awarded by the GM and spent at
 * the text's rates to raise a trait one level, to add a gift or a supernormal power. Every award
 * and every advance is an entry of the character's log; an entry can be undone (its EP returned)
 * unless a later entry depends on it. Pure functions over plain data: the caller supplies ids and
 * times, nothing here reads a clock.
 */
import { RulesError } from "../errors";
import { array, at, bool, int, oneOf, optInt, record, str, type Path } from "../validate";

/** Traits raised a level at a time (§5.2); gifts and powers are added whole. */
export const LEVELLED_KINDS = ["attribute", "skill"] as const;
export type LevelledKind = (typeof LEVELLED_KINDS)[number];

export interface LevelledTrait {
  kind: LevelledKind;
  level: number;
  /** A skill's governing attribute (trait id), read only by the attribute surcharge of §5.2. */
  attribute?: string;
}

/** What the world's GM set for §5.2 (defaults: the text's own rates). */
export interface ExperienceOptions {
  /** "If a long campaign is planned, these EP costs could be doubled" (§5.2): 1 or more. */
  costMultiplier: number;
  /** §5.2 optional realism: "+2 EP (or more) when a skill is raised above an appropriate attribute"; 0 = off. */
  attributeSurcharge: number;
  /** §5.2: the GM "should require that the player may only raise traits that were used significantly during an adventure". */
  requireUse: boolean;
  /** Adding a gift: "6 EP (or more) + GM approval" (§5.2) — the least it costs. */
  giftCost: number;
  /** Adding a supernormal power: "12 EP (or more) + GM approval" (§5.2). */
  powerCost: number;
}

export const DEFAULT_EXPERIENCE_OPTIONS: Readonly<ExperienceOptions> = Object.freeze({
  costMultiplier: 1,
  attributeSurcharge: 0,
  requireUse: true,
  giftCost: 6,
  powerCost: 12,
});

/** Most EP one award, one advance or one character holds (everything a player stores is bounded). */
export const MAX_EP = 100_000;
/** Entries kept in the log; older ones are evicted (they can no longer be undone, nothing depends on them). */
export const MAX_ADVANCEMENT_LOG = 500;
const MAX_ID = 64;
const MAX_TEXT = 200;
/** Trait levels a character may hold: far past Legendary 2nd and below Terrible (extended ladders). */
export const TRAIT_LEVEL_MIN = -10;
export const TRAIT_LEVEL_MAX = 20;

export type AdvancementEntry =
  | { id: string; at: string; type: "award"; amount: number; by: string; note?: string }
  | {
      id: string;
      at: string;
      type: "raise";
      trait: string;
      kind: LevelledKind;
      from: number;
      to: number;
      cost: number;
      /** The attribute whose level priced a surcharge, and that level (an undo of its raise must wait). */
      basis?: { attribute: string; level: number };
      /** §5.1: the GM awarded the level outright (no EP). */
      subjective?: boolean;
    }
  | { id: string; at: string; type: "gift" | "power"; trait: string; cost: number };

/** A character's experience: unspent EP, the traits advances change, gifts and powers held, the log. */
export interface Experience {
  ep: number;
  traits: Record<string, LevelledTrait>;
  gifts: string[];
  powers: string[];
  log: AdvancementEntry[];
}

export function parseExperienceOptions(input: unknown, path: Path = "options"): ExperienceOptions {
  const o = input === undefined ? {} : record(input, path);
  const d = DEFAULT_EXPERIENCE_OPTIONS;
  return {
    costMultiplier: optInt(o.costMultiplier, at(path, "costMultiplier"), d.costMultiplier, 1, 10),
    attributeSurcharge: optInt(o.attributeSurcharge, at(path, "attributeSurcharge"), d.attributeSurcharge, 0, 100),
    requireUse: bool(o.requireUse, at(path, "requireUse"), d.requireUse),
    giftCost: optInt(o.giftCost, at(path, "giftCost"), d.giftCost, 1, 1000),
    powerCost: optInt(o.powerCost, at(path, "powerCost"), d.powerCost, 1, 1000),
  };
}

const text = (v: unknown, path: Path, max = MAX_TEXT): string => {
  const s = str(v, path);
  if (s.length === 0 || s.length > max)
    throw new RulesError(path, "FUDGE.Error.Advance.BadText", `must be 1 to ${max} characters`, { max });
  return s;
};

function parseTrait(v: unknown, path: Path): LevelledTrait {
  const o = record(v, path);
  const t: LevelledTrait = {
    kind: oneOf(o.kind, at(path, "kind"), LEVELLED_KINDS),
    level: int(o.level, at(path, "level"), TRAIT_LEVEL_MIN, TRAIT_LEVEL_MAX),
  };
  if (o.attribute !== undefined) t.attribute = text(o.attribute, at(path, "attribute"), MAX_ID);
  return t;
}

function parseEntry(v: unknown, path: Path): AdvancementEntry {
  const o = record(v, path);
  const id = text(o.id, at(path, "id"), MAX_ID);
  const when = text(o.at, at(path, "at"), MAX_ID);
  const type = oneOf(o.type, at(path, "type"), ["award", "raise", "gift", "power"] as const);
  if (type === "award") {
    const e: AdvancementEntry = {
      id,
      at: when,
      type,
      amount: int(o.amount, at(path, "amount"), 1, MAX_EP),
      by: text(o.by, at(path, "by"), MAX_ID),
    };
    if (o.note !== undefined) e.note = text(o.note, at(path, "note"));
    return e;
  }
  const trait = text(o.trait, at(path, "trait"), MAX_ID);
  const cost = int(o.cost, at(path, "cost"), 0, MAX_EP);
  if (type !== "raise") return { id, at: when, type, trait, cost };
  const from = int(o.from, at(path, "from"), TRAIT_LEVEL_MIN, TRAIT_LEVEL_MAX - 1);
  const e: AdvancementEntry = {
    id,
    at: when,
    type,
    trait,
    kind: oneOf(o.kind, at(path, "kind"), LEVELLED_KINDS),
    from,
    to: int(o.to, at(path, "to"), from + 1, from + 1),
    cost,
  };
  if (o.subjective === true) e.subjective = true;
  if (o.basis !== undefined) {
    const b = record(o.basis, at(path, "basis"));
    e.basis = {
      attribute: text(b.attribute, at(at(path, "basis"), "attribute"), MAX_ID),
      level: int(b.level, at(at(path, "basis"), "level"), TRAIT_LEVEL_MIN, TRAIT_LEVEL_MAX),
    };
  }
  return e;
}

const names = (v: unknown, path: Path): string[] =>
  v === undefined ? [] : array(v, path, 0, MAX_ADVANCEMENT_LOG).map((n, i) => text(n, at(path, i), MAX_ID));

/** Validates a stored experience record (a claim from the actor's data) and returns a fresh copy. */
export function parseExperience(input: unknown, path: Path = "experience"): Experience {
  const o = record(input, path);
  const traitsIn = o.traits === undefined ? {} : record(o.traits, at(path, "traits"));
  const traits: Record<string, LevelledTrait> = {};
  for (const [k, v] of Object.entries(traitsIn))
    traits[text(k, at(path, "traits"), MAX_ID)] = parseTrait(v, at(at(path, "traits"), k));
  const log =
    o.log === undefined
      ? []
      : array(o.log, at(path, "log"), 0, MAX_ADVANCEMENT_LOG).map((e, i) => parseEntry(e, at(at(path, "log"), i)));
  const seen = new Set<string>();
  log.forEach((e, i) => {
    if (seen.has(e.id))
      throw new RulesError(
        at(at(at(path, "log"), i), "id"),
        "FUDGE.Error.Advance.DuplicateId",
        `the id ${e.id} is used twice`,
        { id: e.id },
      );
    seen.add(e.id);
  });
  return {
    ep: optInt(o.ep, at(path, "ep"), 0, 0, MAX_EP),
    traits,
    gifts: names(o.gifts, at(path, "gifts")),
    powers: names(o.powers, at(path, "powers")),
    log,
  };
}

/**
 * EP to raise a skill one level, from `from` to `from + 1` (Fudge §5.2's table): 1 EP a level up to
 * Fair (Terrible → Poor → Mediocre → Fair, and below Terrible on an extended ladder), Fair → Good 2,
 * Good → Great 4, Great → Superb 8, Superb → Legendary 16, Legendary → Legendary 2nd 30, each further
 * level of Legendary 50. `gm`: the text asks GM permission from Superb up.
 */
export function skillStepCost(from: number): { cost: number; gm: boolean } {
  int(from, "from", TRAIT_LEVEL_MIN, TRAIT_LEVEL_MAX - 1);
  if (from < 0) return { cost: 1, gm: false };
  const table = [2, 4, 8, 16, 30];
  return from < table.length ? { cost: table[from], gm: from >= 3 } : { cost: 50, gm: true };
}

export interface RaiseQuote {
  trait: string;
  kind: LevelledKind;
  from: number;
  to: number;
  /** Table cost (× 3 for an attribute, × the campaign multiplier) plus any surcharge. */
  cost: number;
  base: number;
  surcharge: number;
  /** The text asks the GM's permission for this advance. */
  needsGm: boolean;
  basis?: { attribute: string; level: number };
  rule: string;
}

/** Prices raising `traitId` one level (§5.2); refuses a trait the character does not have. */
export function quoteRaise(
  xp: Experience,
  traitId: string,
  options: ExperienceOptions = DEFAULT_EXPERIENCE_OPTIONS,
): RaiseQuote {
  const t = xp.traits[traitId];
  if (!t)
    throw new RulesError("trait", "FUDGE.Error.Advance.UnknownTrait", `the character has no trait ${traitId}`, {
      trait: traitId,
    });
  if (t.level >= TRAIT_LEVEL_MAX)
    throw new RulesError("trait", "FUDGE.Error.Advance.TopLevel", `${traitId} cannot rise past ${TRAIT_LEVEL_MAX}`, {
      trait: traitId,
    });
  const step = skillStepCost(t.level);
  // §5.2: "Raising an attribute: triple the cost for skills of the same level."
  const base = step.cost * (t.kind === "attribute" ? 3 : 1) * options.costMultiplier;
  let surcharge = 0;
  let basis: RaiseQuote["basis"];
  const attr = t.kind === "skill" && t.attribute !== undefined ? xp.traits[t.attribute] : undefined;
  if (attr && options.attributeSurcharge > 0 && t.level + 1 > attr.level) {
    // §5.2: "+2 EP (or more) when a skill is raised above an appropriate attribute".
    surcharge = options.attributeSurcharge;
    basis = { attribute: t.attribute!, level: attr.level };
  }
  const q: RaiseQuote = {
    trait: traitId,
    kind: t.kind,
    from: t.level,
    to: t.level + 1,
    cost: base + surcharge,
    base,
    surcharge,
    needsGm: step.gm,
    rule: "Fudge §5.2",
  };
  if (basis) q.basis = basis;
  return q;
}

/**
 * The EP a logged spend counts for, priced again from its own levels (§5.2's table, × 3 for an
 * attribute, × the campaign multiplier; a gift or power at least its minimum): a stored cost
 * below its price is a claim that does not count. A GM's outright award (§5.1) was written with
 * cost 0 by her; where the log is its owner's to write, it is priced like any raise.
 */
export function spendPrice(
  e: Exclude<AdvancementEntry, { type: "award" }>,
  options: ExperienceOptions = DEFAULT_EXPERIENCE_OPTIONS,
): number {
  if (e.type !== "raise") {
    const least = (e.type === "gift" ? options.giftCost : options.powerCost) * options.costMultiplier;
    return Math.min(MAX_EP, Math.max(e.cost, least));
  }
  const base = skillStepCost(e.from).cost * (e.kind === "attribute" ? 3 : 1) * options.costMultiplier;
  return Math.min(MAX_EP, Math.max(e.cost, base));
}

/** Keeps the log within MAX_ADVANCEMENT_LOG by dropping its oldest entries. */
const capped = (log: AdvancementEntry[]): AdvancementEntry[] =>
  log.length > MAX_ADVANCEMENT_LOG ? log.slice(log.length - MAX_ADVANCEMENT_LOG) : log;

function checkNewId(xp: Experience, id: unknown, when: unknown): { id: string; at: string } {
  const i = text(id, "id", MAX_ID);
  if (xp.log.some((e) => e.id === i))
    throw new RulesError("id", "FUDGE.Error.Advance.DuplicateId", `the id ${i} is used twice`, { id: i });
  return { id: i, at: text(when, "at", MAX_ID) };
}

/** The GM awards EP (§5.2: "the GM can award experience points"; 1 to 3 a session is the text's guideline). */
export function awardExperience(
  xp: Experience,
  award: { id: string; at: string; amount: number; by: string; note?: string },
): Experience {
  const { id, at: when } = checkNewId(xp, award.id, award.at);
  const amount = int(award.amount, "amount", 1, MAX_EP);
  if (xp.ep + amount > MAX_EP)
    throw new RulesError("amount", "FUDGE.Error.Advance.TooMuchEp", `a character holds at most ${MAX_EP} EP`, {
      max: MAX_EP,
    });
  const entry: AdvancementEntry = { id, at: when, type: "award", amount, by: text(award.by, "by", MAX_ID) };
  if (award.note !== undefined) entry.note = text(award.note, "note");
  return { ...xp, ep: xp.ep + amount, log: capped([...xp.log, entry]) };
}

function needEp(xp: Experience, cost: number): void {
  if (cost > xp.ep)
    throw new RulesError("ep", "FUDGE.Error.Advance.NotEnoughEp", `costs ${cost} EP, the character has ${xp.ep}`, {
      cost,
      ep: xp.ep,
    });
}

/**
 * Raises a trait one level, paying its EP (§5.2: "A trait can only be raised one level at a time").
 * `to`, when given, must be the next level; `gmApproval` is needed where the text asks for it;
 * `used`: the trait was used significantly in the adventure (asked while `requireUse` is on).
 * `subjective`: the GM awards the level outright, no EP paid (§5.1, "the GM can simply award an
 * improvement"; her approval is that award).
 */
export function raiseTrait(
  xp: Experience,
  request: {
    id: string;
    at: string;
    trait: string;
    to?: number;
    gmApproval?: boolean;
    used?: boolean;
    subjective?: boolean;
  },
  options: ExperienceOptions = DEFAULT_EXPERIENCE_OPTIONS,
): { experience: Experience; entry: AdvancementEntry; quote: RaiseQuote } {
  const { id, at: when } = checkNewId(xp, request.id, request.at);
  const q = quoteRaise(xp, text(request.trait, "trait", MAX_ID), options);
  if (request.to !== undefined && int(request.to, "to", TRAIT_LEVEL_MIN, TRAIT_LEVEL_MAX) !== q.to)
    throw new RulesError(
      "to",
      "FUDGE.Error.Advance.OneLevel",
      `a trait rises one level at a time: from ${q.from} only to ${q.to}`,
      { from: q.from, to: q.to },
    );
  const subjective = bool(request.subjective, "subjective", false);
  if (subjective && !bool(request.gmApproval, "gmApproval", false))
    throw new RulesError("gmApproval", "FUDGE.Error.Advance.NeedsGm", "only the GM awards a level outright", {
      trait: q.trait,
    });
  if (options.requireUse && !subjective && !bool(request.used, "used", false))
    throw new RulesError(
      "used",
      "FUDGE.Error.Advance.NotUsed",
      "only a trait used significantly in the adventure may be raised",
      {
        trait: q.trait,
      },
    );
  if (q.needsGm && !bool(request.gmApproval, "gmApproval", false))
    throw new RulesError(
      "gmApproval",
      "FUDGE.Error.Advance.NeedsGm",
      "raising a trait past Superb needs the GM's permission",
      { trait: q.trait },
    );
  const cost = subjective ? 0 : q.cost;
  needEp(xp, cost);
  const entry: AdvancementEntry = {
    id,
    at: when,
    type: "raise",
    trait: q.trait,
    kind: q.kind,
    from: q.from,
    to: q.to,
    cost,
  };
  if (q.basis && !subjective) entry.basis = q.basis;
  if (subjective) entry.subjective = true;
  const traits = { ...xp.traits, [q.trait]: { ...xp.traits[q.trait], level: q.to } };
  return { experience: { ...xp, ep: xp.ep - cost, traits, log: capped([...xp.log, entry]) }, entry, quote: q };
}

/** Adds a gift or a supernormal power: its EP "(or more)" as the GM prices it, and always her approval (§5.2). */
export function addGift(
  xp: Experience,
  request: { id: string; at: string; type: "gift" | "power"; name: string; cost?: number; gmApproval?: boolean },
  options: ExperienceOptions = DEFAULT_EXPERIENCE_OPTIONS,
): { experience: Experience; entry: AdvancementEntry } {
  const { id, at: when } = checkNewId(xp, request.id, request.at);
  const type = oneOf(request.type, "type", ["gift", "power"] as const);
  const name = text(request.name, "name", MAX_ID);
  const least = (type === "gift" ? options.giftCost : options.powerCost) * options.costMultiplier;
  const cost = optInt(request.cost, "cost", least, least, MAX_EP);
  if (!bool(request.gmApproval, "gmApproval", false))
    throw new RulesError("gmApproval", "FUDGE.Error.Advance.NeedsGm", `adding a ${type} needs the GM's approval`, {
      trait: name,
    });
  const held = type === "gift" ? xp.gifts : xp.powers;
  if (held.includes(name))
    throw new RulesError("name", "FUDGE.Error.Advance.AlreadyHeld", `the character already has ${name}`, {
      trait: name,
    });
  if (held.length >= MAX_ADVANCEMENT_LOG)
    throw new RulesError("name", "FUDGE.Error.Advance.TooMany", `at most ${MAX_ADVANCEMENT_LOG}`, {
      max: MAX_ADVANCEMENT_LOG,
    });
  needEp(xp, cost);
  const entry: AdvancementEntry = { id, at: when, type, trait: name, cost };
  const next = [...held, name];
  return {
    experience: {
      ...xp,
      ep: xp.ep - cost,
      ...(type === "gift" ? { gifts: next } : { powers: next }),
      log: capped([...xp.log, entry]),
    },
    entry,
  };
}

/** The later entries that rest on `entry`: a later raise of the same trait, or one priced from this attribute's level. */
export function dependentsOf(xp: Experience, entryId: string): AdvancementEntry[] {
  const i = xp.log.findIndex((e) => e.id === entryId);
  if (i < 0) return [];
  const e = xp.log[i];
  if (e.type !== "raise") return [];
  return xp.log
    .slice(i + 1)
    .filter((l) => l.type === "raise" && (l.trait === e.trait || l.basis?.attribute === e.trait));
}

/**
 * Undoes one log entry: an award takes its EP back, an advance returns its EP and the trait (or gift)
 * as it was. Refused, with the reason, when a later advance depends on it, when the EP of an award
 * are already spent, or when the character no longer matches the entry.
 */
export function undoAdvancement(xp: Experience, entryId: string): { experience: Experience; entry: AdvancementEntry } {
  const i = xp.log.findIndex((e) => e.id === entryId);
  if (i < 0)
    throw new RulesError(
      "entry",
      "FUDGE.Error.Advance.UnknownEntry",
      `no log entry ${entryId} (it may have been evicted)`,
      { entry: entryId },
    );
  const e = xp.log[i];
  const log = xp.log.filter((_, j) => j !== i);
  if (e.type === "award") {
    if (e.amount > xp.ep)
      throw new RulesError("entry", "FUDGE.Error.Advance.AwardSpent", `${e.amount} EP awarded, only ${xp.ep} unspent`, {
        amount: e.amount,
        ep: xp.ep,
      });
    return { experience: { ...xp, ep: xp.ep - e.amount, log }, entry: e };
  }
  const ep = Math.min(MAX_EP, xp.ep + e.cost);
  if (e.type !== "raise") {
    const key = e.type === "gift" ? "gifts" : "powers";
    if (!xp[key].includes(e.trait))
      throw new RulesError("entry", "FUDGE.Error.Advance.Stale", `the character no longer has ${e.trait}`, {
        entry: e.id,
        trait: e.trait,
      });
    return { experience: { ...xp, ep, [key]: xp[key].filter((n) => n !== e.trait), log }, entry: e };
  }
  const later = dependentsOf(xp, entryId);
  if (later.length > 0)
    throw new RulesError(
      "entry",
      "FUDGE.Error.Advance.HasDependents",
      `later advances depend on it: undo ${later[later.length - 1].id} first`,
      {
        entry: e.id,
        dependent: later[later.length - 1].id,
        count: later.length,
      },
    );
  const t = xp.traits[e.trait];
  if (!t || t.level !== e.to)
    throw new RulesError("entry", "FUDGE.Error.Advance.Stale", `${e.trait} is no longer at ${e.to}`, {
      entry: e.id,
      trait: e.trait,
    });
  return { experience: { ...xp, ep, traits: { ...xp.traits, [e.trait]: { ...t, level: e.from } }, log }, entry: e };
}
