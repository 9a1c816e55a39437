/**
 * The Miniatures datacard (seed 004 "The datacard", "Making a character"; RULES §3): stats,
 * weapons and armor, and the derived damage factors MODF, RODF, DDF and HDDF.
 */
import { RulesError } from "../errors";
import { signed, step, type Step } from "../explain";
import { parseTrack, type Track } from "../track";
import { array, at, bool, int, num, oneOf, optInt, record, str } from "../validate";

export const DATACARD_RULE = "Miniatures: The datacard";

/** Loose bound on stats and bonuses: the ladder runs −3..+4; monsters may go beyond. */
export const STAT_LIMIT = 20;

export interface MiniWeapon {
  name: string;
  /** "1h" / "2h" in the seed's weapon descriptions. */
  hands: 1 | 2;
  kind: "melee" | "ranged";
  /** The weapon's damage bonus (Longsword +2, Shortbow +3). */
  damage: number;
  /** Stat added to a melee weapon's damage ("Each weapon will state whether it is Strength or Dexterity based"). */
  stat: "strength" | "dexterity" | "none";
  /** Range in inches (ranged weapons; for a melee weapon, the reach that lets it attack out of base contact). */
  range?: number;
  /** Stat added to a ranged weapon's damage, only where the weapon says so. Default "none". */
  rangedStat?: "strength" | "dexterity" | "none";
  /** The weapon may be fired while in base contact with an enemy. Default false. */
  shootInContact?: boolean;
}

/**
 * The gifts and faults of the seed's sample datacards that the rules core applies (seed 004
 * "Sample characters"; docs/rules-api.md "Gifts and faults with a rule"). A trait without a rule
 * is text only: the GM applies it through situational modifiers.
 * - `steadfast`: "+1 to Guts check when being charged by Terrifying opponent" (+value).
 * - `mercenary`: "will flee the combat on any failed Guts check".
 * - `selfInterest`: "will flee combat if wounded".
 * - `chivalrous`: "Cannot strike a defenseless opponent" (Near Death or helpless).
 * - `backstabber`: "+1 ODF when attacking from behind" (+value).
 * - `poorMelee`: "opponents get +1 to 'free' disengagement attack" (+value).
 * - `faithful`: "+1 to Guts checks when defending the King" (+value).
 * - `noblePresence`: "peasants make Guts checks at -1 when in melee with the King" — acts on
 *   other models' checks: their Guts check's `nobleInMelee` flag (−value, default −1).
 * - `leader`: "all followers make Guts checks at -1 if the King has fallen" — the followers'
 *   `leaderFallen` flag (−1).
 */
export const MINI_TRAIT_RULES = [
  "steadfast",
  "mercenary",
  "selfInterest",
  "chivalrous",
  "backstabber",
  "poorMelee",
  "faithful",
  "noblePresence",
  "leader",
] as const;
export type MiniTraitRule = (typeof MINI_TRAIT_RULES)[number];

export interface MiniTrait {
  name: string;
  /** The tabletop effect, as text. */
  effect?: string;
  /** The rule the core applies for it (MINI_TRAIT_RULES); absent: text only. */
  rule?: MiniTraitRule;
  /** Size of the effect where it has one (Steadfast's +1); default 1. */
  value?: number;
}

/** Largest size of a trait's effect. */
export const TRAIT_VALUE_LIMIT = 10;

export interface MiniDatacard {
  name: string;
  strength: number;
  dexterity: number;
  guts: number;
  /** Inches; default 5 ("Movement, which starts out at 5"). */
  movement: number;
  weapons: MiniWeapon[];
  armor: number;
  shield: number;
  gift?: MiniTrait;
  fault?: MiniTrait;
  /** Number of Terrifying gifts (the Guts target of a charge against this model). */
  terrifying: number;
  flying: boolean;
  track: Track;
}

export interface DerivedWeapon {
  index: number;
  name: string;
  kind: "melee" | "ranged";
  hands: 1 | 2;
  /** This weapon's offensive damage factor after wound penalties. */
  odf: number;
  range: number | null;
  steps: Step[];
}

export interface DerivedDatacard {
  penalty: number;
  strength: number;
  dexterity: number;
  guts: number;
  movement: number;
  weapons: DerivedWeapon[];
  /** MODF of the first melee weapon (the number the card prints), null when none. */
  modf: number | null;
  /** RODF of the first ranged weapon; null is the card's "N/A". */
  rodf: number | null;
  ddf: number;
  hddf: number;
  steps: Step[];
}

export interface DatacardOptions {
  /** Wound penalties also lower HDDF. Default false: HDDF is armor only, and armor is not a stat. */
  penaltyLowersHddf?: boolean;
}

function parseWeapon(input: unknown, path: string): MiniWeapon {
  const o = record(input, path);
  const kind = oneOf(o.kind, at(path, "kind"), ["melee", "ranged"] as const);
  const w: MiniWeapon = {
    name: str(o.name, at(path, "name")),
    hands: int(o.hands, at(path, "hands"), 1, 2) as 1 | 2,
    kind,
    damage: int(o.damage, at(path, "damage"), -STAT_LIMIT, STAT_LIMIT),
    // Miniatures: ranged weapons add no stat unless they say so; melee weapons name theirs.
    stat: oneOf(
      o.stat,
      at(path, "stat"),
      ["strength", "dexterity", "none"] as const,
      kind === "ranged" ? "none" : undefined,
    ),
  };
  if (o.range !== undefined) w.range = num(o.range, at(path, "range"), 0.5, 10000);
  else if (kind === "ranged")
    throw new RulesError(
      at(path, "range"),
      "FUDGE.Error.Miniatures.RangeMissing",
      "a ranged weapon needs its Range in inches",
    );
  if (o.rangedStat !== undefined)
    w.rangedStat = oneOf(o.rangedStat, at(path, "rangedStat"), ["strength", "dexterity", "none"] as const);
  if (o.shootInContact !== undefined) w.shootInContact = bool(o.shootInContact, at(path, "shootInContact"));
  return w;
}

/** A gift or fault; `rule` must name one of MINI_TRAIT_RULES. */
export function parseTrait(input: unknown, path: string): MiniTrait | undefined {
  if (input === undefined || input === null) return undefined;
  const o = record(input, path);
  const t: MiniTrait = { name: str(o.name, at(path, "name")) };
  if (o.effect !== undefined) t.effect = str(o.effect, at(path, "effect"));
  if (o.rule !== undefined && o.rule !== null) {
    if (typeof o.rule !== "string" || !(MINI_TRAIT_RULES as readonly string[]).includes(o.rule))
      throw new RulesError(
        at(path, "rule"),
        "FUDGE.Error.Miniatures.TraitRule",
        `no gift or fault rule called ${JSON.stringify(String(o.rule).slice(0, 40))} (rules: ${MINI_TRAIT_RULES.join(", ")})`,
        {
          rule: String(o.rule).slice(0, 40),
          allowed: MINI_TRAIT_RULES.join(", "),
        },
      );
    t.rule = o.rule as MiniTraitRule;
  }
  if (o.value !== undefined && o.value !== null) t.value = int(o.value, at(path, "value"), 0, TRAIT_VALUE_LIMIT);
  return t;
}

/** The model's gift or fault that carries `rule` (the gift first), or undefined. */
export function traitWith(card: { gift?: MiniTrait; fault?: MiniTrait }, rule: MiniTraitRule): MiniTrait | undefined {
  if (card.gift?.rule === rule) return card.gift;
  if (card.fault?.rule === rule) return card.fault;
  return undefined;
}

/** The size of a trait's effect (default 1). */
export function traitValue(t: MiniTrait): number {
  return t.value ?? 1;
}

/** Validates a datacard (a Miniatures combatant). Unknown extra fields are kept. */
export function parseDatacard(input: unknown, path: string): MiniDatacard {
  const o = record(input, path);
  const card: MiniDatacard = {
    ...o,
    name: str(o.name, at(path, "name")),
    strength: int(o.strength, at(path, "strength"), -STAT_LIMIT, STAT_LIMIT),
    dexterity: int(o.dexterity, at(path, "dexterity"), -STAT_LIMIT, STAT_LIMIT),
    guts: int(o.guts, at(path, "guts"), -STAT_LIMIT, STAT_LIMIT),
    movement: o.movement === undefined ? 5 : num(o.movement, at(path, "movement"), 0, 1000),
    weapons: array(o.weapons ?? [], at(path, "weapons")).map((w, i) => parseWeapon(w, at(at(path, "weapons"), i))),
    armor: optInt(o.armor, at(path, "armor"), 0, -STAT_LIMIT, STAT_LIMIT),
    shield: optInt(o.shield, at(path, "shield"), 0, -STAT_LIMIT, STAT_LIMIT),
    terrifying: optInt(o.terrifying, at(path, "terrifying"), 0, 0, STAT_LIMIT),
    flying: bool(o.flying, at(path, "flying"), false),
    track: parseTrack(o.track, at(path, "track")),
  } as MiniDatacard;
  const gift = parseTrait(o.gift, at(path, "gift"));
  const fault = parseTrait(o.fault, at(path, "fault"));
  if (gift) card.gift = gift;
  else delete card.gift;
  if (fault) card.fault = fault;
  else delete card.fault;
  return card;
}

/** Stat value by name ("none" adds nothing). */
function statValue(card: { strength: number; dexterity: number }, stat: "strength" | "dexterity" | "none"): number {
  return stat === "none" ? 0 : card[stat];
}

/**
 * Derived datacard numbers. `penalty` (0 or negative, from the wound track) lowers the stats —
 * Strength, Dexterity, Guts, Movement — and every damage factor and DDF built on them, once each
 * ("increased wound levels carry penalties to all stats, not rolls"). HDDF is armor only and is
 * not lowered unless `penaltyLowersHddf`.
 */
export function datacard(card: MiniDatacard, penalty = 0, options: DatacardOptions = {}): DerivedDatacard {
  // A forecast's enumeration derives the same two cards at every leaf: each (card, penalty,
  // option) is derived once, frozen since it is shared.
  if (!Number.isInteger(penalty)) return deriveDatacard(card, penalty, options);
  const key = penalty * 2 - (options.penaltyLowersHddf ? 1 : 0);
  let byKey = DERIVED.get(card);
  if (!byKey) DERIVED.set(card, (byKey = new Map()));
  let d = byKey.get(key);
  if (!d) byKey.set(key, (d = freezeDerived(deriveDatacard(card, penalty, options))));
  return d;
}

const DERIVED = new WeakMap<MiniDatacard, Map<number, DerivedDatacard>>();

function freezeDerived(d: DerivedDatacard): DerivedDatacard {
  for (const w of d.weapons) Object.freeze(Object.freeze(w).steps);
  Object.freeze(d.weapons);
  Object.freeze(d.steps);
  return Object.freeze(d);
}

function deriveDatacard(card: MiniDatacard, penalty: number, options: DatacardOptions): DerivedDatacard {
  if (!Number.isInteger(penalty) || penalty > 0)
    throw new RulesError(
      "penalty",
      "FUDGE.Error.Miniatures.Penalty",
      `a wound penalty is a whole number ≤ 0 (got ${penalty})`,
    );
  const steps: Step[] = [];
  if (penalty !== 0) steps.push(step("FUDGE.Miniatures.Step.WoundPenaltyStats", "Miniatures: Wounds", penalty));
  const weapons: DerivedWeapon[] = card.weapons.map((w, index) => {
    const ws: Step[] = [];
    ws.push(
      step("FUDGE.Miniatures.Step.WeaponDamage", DATACARD_RULE, w.damage, { weapon: w.name, value: signed(w.damage) }),
    );
    // Miniatures: MODF = weapon + Strength (or Dexterity); RODF = weapon (+ a stat only where stated).
    const stat = w.kind === "melee" ? w.stat : (w.rangedStat ?? "none");
    const sv = statValue(card, stat);
    if (stat !== "none") ws.push(step(`FUDGE.Miniatures.Step.Stat.${stat}`, DATACARD_RULE, sv, { value: signed(sv) }));
    // Miniatures: "RODF is the weapon's damage. If any stat bonus is added, it will be stated" and
    // penalties apply "to all stats, not rolls": the penalty reaches a damage factor only through
    // the stat it adds (a Hurt archer with a bow of damage 3 still shoots at 3).
    const statPenalty = stat === "none" ? 0 : penalty;
    if (statPenalty !== 0)
      ws.push(
        step("FUDGE.Miniatures.Step.WoundPenalty", "Miniatures: Wounds", statPenalty, { value: signed(statPenalty) }),
      );
    const odf = w.damage + sv + statPenalty;
    ws.push(
      step(w.kind === "melee" ? "FUDGE.Miniatures.Step.Modf" : "FUDGE.Miniatures.Step.Rodf", DATACARD_RULE, odf, {
        value: signed(odf),
      }),
    );
    return { index, name: w.name, kind: w.kind, hands: w.hands, odf, range: w.range ?? null, steps: ws };
  });
  // Miniatures: DDF is Dexterity plus Armor (and the shield it can use).
  const ddf = card.dexterity + card.armor + card.shield + penalty;
  steps.push(
    step("FUDGE.Miniatures.Step.Ddf", DATACARD_RULE, ddf, {
      dexterity: signed(card.dexterity),
      armor: signed(card.armor),
      shield: signed(card.shield),
      penalty: signed(penalty),
      value: signed(ddf),
    }),
  );
  // Miniatures: HDDF is the Armor bonus without Dexterity or shield.
  const hddf = card.armor + (options.penaltyLowersHddf ? penalty : 0);
  steps.push(
    step("FUDGE.Miniatures.Step.Hddf", DATACARD_RULE, hddf, { armor: signed(card.armor), value: signed(hddf) }),
  );
  const firstOf = (kind: "melee" | "ranged"): number | null => weapons.find((w) => w.kind === kind)?.odf ?? null;
  return {
    penalty,
    strength: card.strength + penalty,
    dexterity: card.dexterity + penalty,
    guts: card.guts + penalty,
    movement: Math.max(0, card.movement + penalty),
    weapons,
    modf: firstOf("melee"),
    rodf: firstOf("ranged"),
    ddf,
    hddf,
    steps,
  };
}

/** The weapon a situation names: an index into `weapons`, or a name (case-insensitive). */
export function findWeapon(card: MiniDatacard, ref: unknown, path: string): number {
  if (typeof ref === "number") {
    int(ref, path, 0, Math.max(0, card.weapons.length - 1));
    if (card.weapons.length === 0)
      throw new RulesError(path, "FUDGE.Error.Miniatures.NoWeapon", `${card.name} carries no weapon`);
    return ref;
  }
  const name = str(ref, path).trim().toLowerCase();
  const i = card.weapons.findIndex((w) => w.name.toLowerCase() === name);
  if (i < 0)
    throw new RulesError(
      path,
      "FUDGE.Error.Miniatures.NoWeapon",
      `${card.name} carries no weapon called ${JSON.stringify(ref)} (has: ${card.weapons.map((w) => w.name).join(", ") || "none"})`,
      {
        weapon: String(ref),
      },
    );
  return i;
}

/**
 * The attacks of one action: "Melee attack with all wielded melee weapons" / "Shoot all wielded
 * ranged weapons", one attack per weapon. `wielded` names the weapons the model holds for this
 * action (index or name); a model "cannot wield more weapons than will fit in its available hands"
 * (`hands`, default 2). A weapon it only carries (Yanni's dagger while he shoots) is not listed.
 */
export function attacksOfAction(
  card: MiniDatacard,
  wielded: unknown,
  kind: "melee" | "ranged",
  hands = 2,
  path = "wielded",
): number[] {
  const list = array(wielded, path);
  const idx = list.map((w, i) => findWeapon(card, w, at(path, i)));
  if (new Set(idx).size !== idx.length)
    throw new RulesError(path, "FUDGE.Error.Miniatures.WeaponTwice", "a weapon is listed twice");
  const used = idx.reduce((n, i) => n + card.weapons[i].hands, 0);
  // Miniatures: Melee Combat — 1h and 2h weapons must fit in the model's hands.
  if (used > hands)
    throw new RulesError(
      path,
      "FUDGE.Error.Miniatures.TooManyHands",
      `${card.name} has ${hands} hands but these weapons need ${used}`,
      { hands, used },
    );
  return idx.filter((i) => card.weapons[i].kind === kind);
}
