/**
 * The integrity rule as pure functions. A chat card, its system data and its flags are written
 * by the card's author (a player's client can run any code), so to whoever acts on them they
 * are claims. What the GM's client acts on:
 *  - the card's *shape*, checked against limits (checkCard) so a forged card neither breaks nor
 *    bloats anyone's chat log;
 *  - the target's result, re-derived here from the LIVE attacker and defender documents under
 *    the world's rules and the card's recorded dice, range-checked (rederiveTarget);
 *  - wound records written into the target actor's own flags by whoever applied the wound
 *    (woundLog): the only source of Undo, of "applied once" and of Fudge Point refunds.
 * A target actor's flags are writable by its owners and GMs only, and an owner may change his
 * actor's track and Fudge Points directly anyway, so a record there grants nobody more than the
 * writer already had.
 */
import {
  RulesError,
  isRulesError,
  checkRecordedDice,
  PRESETS,
  DICE_OPTION_IDS,
  type AttackResolution,
  pipelineFor,
  parseTrack,
} from "../rules";
import type { ActorDoc, AttackCardData, AttackCardTarget, ItemDoc, WorldRules } from "./data";
import {
  actorRef,
  attackRequest,
  defenderSituation,
  findItem,
  trackFor,
  type RoundStart,
  type Situation,
} from "./combatant";
import { asRolledOn } from "./clipped";
import { defenderWithChoice, situationWithChoice, type DefenceChoice } from "./defence";
import { GM_SLOT, isDefenderSlot } from "./card-target";
import { isOwner, type UserRef } from "./permissions";
import type { RollCardData } from "./actions/trait-roll";
import { attackSpendLevel } from "./fudge-point-spend";
// The logs on actors, read here and by the card actions (src/system/actor-logs.ts).
export {
  DEFENCE_LOG_FLAG,
  WOUND_LOG_FLAG,
  WOUND_LOG_LIMIT,
  defenceFacesOf,
  defenceLogOf,
  defenceLogUpdate,
  defenceRecordOf,
  liveRecord,
  logUpdate,
  woundLogOf,
  type DefenceRecord,
  type WoundRecord,
} from "./actor-logs";
import { woundLogOf } from "./actor-logs";
import { CARD_LIMITS } from "./card-limits";

// ─── Limits on what a card may carry ───────────────────────────────────────────────────

export { CARD_LIMITS };

const isRec = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function malformed(field: string, why: string): RulesError {
  return new RulesError(`card.${field}`, "FUDGE.Error.Card.Malformed", `malformed attack card: ${why}`);
}

const shortText = (v: unknown, field: string): string => {
  if (typeof v !== "string") throw malformed(field, "not text");
  if (v.length > CARD_LIMITS.text) throw malformed(field, `longer than ${CARD_LIMITS.text} characters`);
  return v;
};

function diceRecord(v: unknown, field: string): Record<string, number[]> {
  if (!isRec(v)) throw malformed(field, "dice must be a record");
  const entries = Object.entries(v);
  if (entries.length > CARD_LIMITS.diceSlots) throw malformed(field, "too many dice slots");
  for (const [k, faces] of entries) {
    if (k.length > 32) throw malformed(field, "dice slot name too long");
    if (
      !Array.isArray(faces) ||
      faces.length > CARD_LIMITS.faces ||
      !faces.every((f) => Number.isInteger(f) && Math.abs(f) <= 100)
    )
      throw malformed(`${field}.${k}`, "dice must be short lists of whole numbers");
  }
  return v as Record<string, number[]>;
}

/**
 * Keys that reach an object's prototype when some code merges them ("__proto__" is an own key of
 * what JSON.parse returns): refused anywhere in a card.
 */
const PROTO_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Every value in the card is plain JSON data of bounded depth, with bounded strings and no prototype keys. */
function plainTree(v: unknown, field: string, depth: number): void {
  if (depth > CARD_LIMITS.depth) throw malformed(field, "nested too deep");
  if (typeof v === "string") {
    if (v.length > CARD_LIMITS.longText) throw malformed(field, `text longer than ${CARD_LIMITS.longText} characters`);
  } else if (typeof v === "number") {
    if (!Number.isFinite(v)) throw malformed(field, "not a finite number");
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => plainTree(x, `${field}.${i}`, depth + 1));
  } else if (typeof v === "object" && v !== null) {
    for (const k of Object.keys(v)) {
      if (PROTO_KEYS.has(k)) throw malformed(`${field}.${k}`, "a prototype key");
      if (k.length > CARD_LIMITS.text) throw malformed(field, "a key too long");
      plainTree((v as Record<string, unknown>)[k], `${field}.${k}`, depth + 1);
    }
  } else if (v !== null && v !== undefined && typeof v !== "boolean") throw malformed(field, "not plain data");
}

const isInt = (v: unknown, max = 10_000): boolean => Number.isInteger(v) && Math.abs(v as number) <= max;
const optional = (v: unknown, ok: (x: unknown) => boolean): boolean => v === undefined || ok(v);

/** A record of short keys whose values all pass `ok`. */
function recordOf(
  v: unknown,
  field: string,
  ok: (x: unknown) => boolean,
  max: number = CARD_LIMITS.keys,
): Record<string, unknown> {
  if (!isRec(v)) throw malformed(field, "not a record");
  const entries = Object.entries(v);
  if (entries.length > max) throw malformed(field, "too many entries");
  for (const [k, x] of entries) if (!ok(x)) throw malformed(`${field}.${k}`, "a value of the wrong type");
  return v;
}

const paramValue = (x: unknown): boolean =>
  typeof x === "number" || typeof x === "boolean" || (typeof x === "string" && x.length <= CARD_LIMITS.text);

/** Explanation steps (src/rules/explain.ts Step) as a card shows them. */
function stepList(v: unknown, field: string): void {
  if (!Array.isArray(v) || v.length > CARD_LIMITS.steps) throw malformed(field, "steps must be a short list");
  v.forEach((s, i) => {
    const f = `${field}.${i}`;
    if (!isRec(s)) throw malformed(f, "not a step");
    shortText(s.key, `${f}.key`);
    if (!optional(s.rule, (x) => typeof x === "string" && x.length <= CARD_LIMITS.text))
      throw malformed(`${f}.rule`, "not text");
    if (!optional(s.value, (x) => typeof x === "number")) throw malformed(`${f}.value`, "not a number");
    if (s.params !== undefined) recordOf(s.params, `${f}.params`, paramValue);
  });
}

/** Characters of a GM-judgement level key a card may record (standard keys are ~13, custom `level12`). */
export const GM_LEVEL_CHARS = 64;

/** The outcomes the pipelines give (src/rules/pipeline.ts AttackResolution.outcome). */
export const CARD_OUTCOMES = ["miss", "standoff", "noDamage", "wound", "gmJudgement"] as const;

/**
 * A target's shown result, field by field as the card reads it (src/system/card.ts). The preview
 * track is parsed by the rules core, as a stored track is. It is only shown: Apply re-derives.
 */
function resolutionShape(res: unknown, preset: string, f: string): void {
  if (!isRec(res)) throw malformed(f, "not an object");
  if (res.preset !== undefined && res.preset !== preset) throw malformed(`${f}.preset`, "another preset's result");
  if (!(CARD_OUTCOMES as readonly string[]).includes(res.outcome as string))
    throw malformed(`${f}.outcome`, "unknown outcome");
  if (typeof res.hit !== "boolean") throw malformed(`${f}.hit`, "not yes/no");
  if (res.woundKey !== null) shortText(res.woundKey, `${f}.woundKey`);
  recordOf(res.numbers, `${f}.numbers`, (x) => typeof x === "number");
  diceRecord(res.dice, `${f}.dice`);
  stepList(res.steps, `${f}.steps`);
  if (!Array.isArray(res.followUps) || res.followUps.length > CARD_LIMITS.followUps)
    throw malformed(`${f}.followUps`, "too many follow-ups");
  res.followUps.forEach((u, i) => {
    if (!isRec(u)) throw malformed(`${f}.followUps.${i}`, "not an object");
    shortText(u.type, `${f}.followUps.${i}.type`);
    shortText(u.target, `${f}.followUps.${i}.target`);
    recordOf(u.params, `${f}.followUps.${i}.params`, paramValue);
    if (u.steps !== undefined) stepList(u.steps, `${f}.followUps.${i}.steps`);
  });
  const after = res.defenderAfter;
  if (after !== null) {
    if (!isRec(after)) throw malformed(`${f}.defenderAfter`, "not an object");
    try {
      parseTrack(after.track, `${f}.defenderAfter.track`);
    } catch (e) {
      if (isRulesError(e)) throw malformed(`${f}.defenderAfter.track`, e.message);
      throw e;
    }
    stepList(after.steps, `${f}.defenderAfter.steps`);
    if (typeof after.ended !== "boolean") throw malformed(`${f}.defenderAfter.ended`, "not yes/no");
  }
}

/**
 * Checks a card's shape and size before anything reads it (render, click, the GM's relay): every
 * field the card's render model or an action reads, at every depth, has its type and length, and
 * nothing anywhere is other than bounded plain data. This is the one boundary: what passes cannot
 * break the card's render. Unknown keys nothing reads are let be (older cards carry some).
 * Throws FUDGE.Error.Card.Malformed / TooLarge; returns the card unchanged.
 */
export function checkCard(raw: unknown): AttackCardData {
  if (!isRec(raw)) throw malformed("", "not an object");
  let chars: number;
  try {
    chars = JSON.stringify(raw).length;
  } catch {
    throw malformed("", "not plain data");
  }
  if (chars > CARD_LIMITS.chars)
    throw new RulesError(
      "card",
      "FUDGE.Error.Card.TooLarge",
      `attack card of ${chars} characters (limit ${CARD_LIMITS.chars})`,
    );
  plainTree(raw, "", 0);
  if (!(PRESETS as readonly string[]).includes(raw.preset as string)) throw malformed("preset", "unknown preset");
  for (const k of ["userId", "attackerId", "attackerName", "weaponId", "weaponName"]) shortText(raw[k], k);
  // Shown as "name value"; what an attack may claim is range-checked where it counts, on Apply (claimedSituation).
  recordOf(raw.situation, "situation", paramValue, CARD_LIMITS.situation);
  diceRecord(raw.attackDice, "attackDice");
  if (
    raw.diceOption !== undefined &&
    raw.diceOption !== "" &&
    !(DICE_OPTION_IDS as readonly string[]).includes(raw.diceOption as string)
  )
    throw malformed("diceOption", "not a dice option");
  if (!Array.isArray(raw.targets) || raw.targets.length > CARD_LIMITS.targets)
    throw malformed("targets", `a card lists 0–${CARD_LIMITS.targets} targets`);
  const seen = new Set<string>();
  raw.targets.forEach((t, i) => {
    const f = `targets.${i}`;
    if (!isRec(t)) throw malformed(f, "not an object");
    const id = shortText(t.actorId, `${f}.actorId`);
    if (seen.has(id)) throw malformed(`${f}.actorId`, "the same target twice");
    seen.add(id);
    shortText(t.name, `${f}.name`);
    if (t.tokenId !== undefined) shortText(t.tokenId, `${f}.tokenId`);
    if (t.situation !== undefined) recordOf(t.situation, `${f}.situation`, paramValue, CARD_LIMITS.situation);
    if (!["none", "pending", "rolled"].includes(t.defend as string))
      throw malformed(`${f}.defend`, "bad defence state");
    if (
      !optional(
        t.defendDice,
        (x) => x === null || (Array.isArray(x) && x.length <= CARD_LIMITS.faces && x.every((n) => isInt(n, 100))),
      )
    )
      throw malformed(`${f}.defendDice`, "not a roll");
    if (!optional(t.defendUserId, (x) => x === null || (typeof x === "string" && x.length <= CARD_LIMITS.text)))
      throw malformed(`${f}.defendUserId`, "not an id");
    if (!optional(t.differs, (x) => typeof x === "boolean")) throw malformed(`${f}.differs`, "not yes/no");
    // The defender's side as his Defend recorded it (defence.ts DefenceShown): shown only.
    if (t.defence !== undefined && t.defence !== null) {
      const d = recordOf(t.defence, `${f}.defence`, paramValue);
      shortText(d.skillName, `${f}.defence.skillName`);
      if (!isInt(d.level, 400) || !isInt(d.modifier, 10) || typeof d.allOutDefense !== "boolean")
        throw malformed(`${f}.defence`, "not a defence");
    }
    // GM judgement (Fudge §4.55): the GM's recorded pick, a level key ("none": no wound; "": none yet). Shown only.
    if (!optional(t.gmLevel, (x) => typeof x === "string" && x.length <= GM_LEVEL_CHARS && /^[A-Za-z0-9_-]*$/.test(x)))
      throw malformed(`${f}.gmLevel`, "not a wound level key");
    diceRecord(t.dice, `${f}.dice`);
    if (!Array.isArray(t.applied) || t.applied.length > CARD_LIMITS.applied)
      throw malformed(`${f}.applied`, "too long a history");
    t.applied.forEach((a, j) => {
      const g = `${f}.applied.${j}`;
      if (!isRec(a)) throw malformed(g, "not an object");
      shortText(a.userId, `${g}.userId`);
      for (const k of ["undone", "ended"]) if (typeof a[k] !== "boolean") throw malformed(`${g}.${k}`, "not yes/no");
      for (const k of ["fudgePointSpent"])
        if (!optional(a[k], (x) => typeof x === "boolean")) throw malformed(`${g}.${k}`, "not yes/no");
      if (!optional(a.at, (x) => typeof x === "number")) throw malformed(`${g}.at`, "not a time");
      if (!optional(a.undoneBy, (x) => typeof x === "string" && x.length <= CARD_LIMITS.text))
        throw malformed(`${g}.undoneBy`, "not an id");
      if (a.steps !== undefined) stepList(a.steps, `${g}.steps`);
    });
    if (t.resolution !== null && t.resolution !== undefined)
      resolutionShape(t.resolution, raw.preset as string, `${f}.resolution`);
  });
  return raw as unknown as AttackCardData;
}

/**
 * A trait roll card (src/system/actions/trait-roll.ts RollCardData), checked like an attack card before it
 * is drawn. Throws FUDGE.Error.Card.RollMalformed; returns the card unchanged.
 */
export function checkRollCard(raw: unknown): RollCardData {
  const bad = (field: string, why: string) =>
    new RulesError(`card.${field}`, "FUDGE.Error.Card.RollMalformed", `malformed roll card: ${why}`);
  const run = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (isRulesError(e) && e.key === "FUDGE.Error.Card.Malformed")
        throw bad(e.field.replace(/^card\.?/, ""), e.message.replace(/^malformed attack card: /, ""));
      throw e;
    }
  };
  if (!isRec(raw)) throw bad("", "not an object");
  run(() => plainTree(raw, "", 0));
  if (JSON.stringify(raw).length > CARD_LIMITS.chars) throw bad("", "too large");
  if (!(PRESETS as readonly string[]).includes(raw.preset as string)) throw bad("preset", "unknown preset");
  for (const k of ["actorId", "actorName", "traitKey", "traitLabelKey", "traitName", "resultName"])
    run(() => shortText(raw[k], k));
  for (const k of ["level", "penalty", "result", "difficulty"])
    if (!isInt(raw[k], 400)) throw bad(k, "not a whole number in range");
  if (typeof raw.success !== "boolean") throw bad("success", "not yes/no");
  if (!Array.isArray(raw.dice) || raw.dice.length > CARD_LIMITS.faces || !raw.dice.every((n) => isInt(n, 100)))
    throw bad("dice", "not a roll");
  // Fudge §4.51: the Willpower roll against the wound penalty, when one was made — four Fudge dice (absent or null: none).
  if (
    raw.willpowerDice !== undefined &&
    raw.willpowerDice !== null &&
    (!Array.isArray(raw.willpowerDice) ||
      raw.willpowerDice.length !== 4 ||
      !raw.willpowerDice.every((n) => isInt(n, 1)))
  )
    throw bad("willpowerDice", "not four Fudge dice");
  // Fudge §3.22: the world's dice option the roll was made with ("" or absent: 4dF, or the preset's own dice).
  if (
    raw.diceOption !== undefined &&
    raw.diceOption !== "" &&
    !(DICE_OPTION_IDS as readonly string[]).includes(raw.diceOption as string)
  )
    throw bad("diceOption", "not a dice option");
  run(() => stepList(raw.steps, "steps"));
  // Fudge §3.5: the opponent's side of an opposed roll (shown only: whoever writes it derives it).
  if (raw.opposed !== undefined && raw.opposed !== null) {
    const o = raw.opposed;
    if (!isRec(o)) throw bad("opposed", "not an object");
    for (const k of ["actorId", "actorName", "traitKey", "traitLabelKey", "traitName", "resultName", "by"])
      run(() => shortText(o[k], `opposed.${k}`));
    for (const k of ["level", "penalty", "result"])
      if (!isInt(o[k], 400)) throw bad(`opposed.${k}`, "not a whole number in range");
    if (
      o.dice !== null &&
      (!Array.isArray(o.dice) || o.dice.length > CARD_LIMITS.faces || !o.dice.every((n) => isInt(n, 100)))
    )
      throw bad("opposed.dice", "not a roll");
  }
  // Fudge §1.36: a Fudge Point spent on the roll (shown; the spend itself is the spender's actor's record).
  if (raw.fudgePoint !== undefined && raw.fudgePoint !== null) {
    const f = raw.fudgePoint;
    if (!isRec(f)) throw bad("fudgePoint", "not an object");
    for (const k of ["spendId", "actorName", "by"]) run(() => shortText(f[k], `fudgePoint.${k}`));
    for (const k of ["from", "to"]) if (!isInt(f[k], 400)) throw bad(`fudgePoint.${k}`, "not a whole number in range");
    if (f.use !== undefined && f.use !== "unopposedSuccess") throw bad("fudgePoint.use", "not a use on a roll");
  }
  return raw as unknown as RollCardData;
}

// ─── The situation an attacker may claim ───────────────────────────────────────────────

type SituationSpec =
  | { type: "int"; min: number; max: number }
  | { type: "num"; min: number; max: number }
  | { type: "bool" }
  | { type: "enum"; values: readonly string[] };
const MODIFIER: SituationSpec = { type: "int", min: -10, max: 10 };

/**
 * What the attack dialog and the table (token positions) put on a card, per preset, with
 * ranges — every option the dialog offers (a test checks), or the GM could not apply a card made
 * through it. The defender's modifier is in the same range as the attacker's own, which moves the
 * result as far. Anything else (a GM-judgement level, a Fudge Point) is not the attacker's to
 * claim and is refused.
 */
export const CLAIMABLE_SITUATION: Record<string, Record<string, SituationSpec>> = {
  fudge: {
    modifier: MODIFIER,
    defenderModifier: MODIFIER,
    allOutAttack: { type: "bool" },
    allOutDefense: { type: "bool" },
    stun: { type: "bool" },
    pullPunch: { type: "enum", values: ["scratch", "hurt", "veryHurt", "incapacitated"] },
    // Fudge §4.62: counts only where the world's option and a stun attack allow it (re-derived).
    headBlow: { type: "bool" },
  },
  fate: { modifier: MODIFIER, defenseModifier: MODIFIER },
  volt: { modifier: MODIFIER, distance: { type: "int", min: 0, max: 10_000 } },
  miniatures: {
    modifier: MODIFIER,
    gangUp: { type: "int", min: 0, max: 8 },
    rangeInches: { type: "num", min: 0, max: 10_000 },
    cover: { type: "bool" },
    helpless: { type: "bool" },
    inContact: { type: "bool" },
    surprised: { type: "bool" },
    friendShootsIntoMelee: { type: "bool" },
    // Where the models stand, as the attacker claims it (like surprised); the bonus each gives
    // comes from the live datacards (Skilled backstabber, Poor melee combatant).
    fromBehind: { type: "bool" },
    disengaging: { type: "bool" },
  },
};

function claimedSituation(preset: string, raw: Record<string, unknown>): Situation {
  const specs = CLAIMABLE_SITUATION[preset] ?? {};
  const out: Situation = {};
  for (const [k, v] of Object.entries(raw)) {
    const s = specs[k];
    const ok =
      s &&
      (s.type === "bool"
        ? typeof v === "boolean"
        : s.type === "enum"
          ? typeof v === "string" && s.values.includes(v)
          : typeof v === "number" &&
            Number.isFinite(v) &&
            (s.type === "num" || Number.isInteger(v)) &&
            v >= s.min &&
            v <= s.max);
    if (!ok)
      throw new RulesError(
        `card.situation.${k}`,
        "FUDGE.Error.Integrity.Situation",
        `the card claims a situation "${k}" an attack may not carry`,
        { field: k },
      );
    out[k] = v;
  }
  return out;
}

// ─── Re-deriving a target's result ─────────────────────────────────────────────────────

/**
 * Fudge §1.36 on an attack card: the Fudge Points each side spent on this card, each read from the
 * spender's own live log (src/system/fudge-point-spend.ts), never from the card; only the non-zero ones.
 */
function fudgePointsSpent(attacker: ActorDoc, defender: ActorDoc, messageId: string, rules: WorldRules): Situation {
  const out: Situation = {};
  const a = attackSpendLevel(attacker, messageId, "attacker", rules);
  const d = attackSpendLevel(defender, messageId, "defender", rules);
  if (a !== 0) out.attackerFudgePoint = a;
  if (d !== 0) out.defenderFudgePoint = d;
  return out;
}

export interface Rederived {
  resolution: AttackResolution;
  /** The live result differs from what the card showed (an actor changed in between, or a forgery). */
  differs: boolean;
}

export interface LiveSides {
  /** The live attacker document (looked up by the card's attacker id). */
  attacker: ActorDoc | null;
  /** The live target document. */
  defender: ActorDoc;
  /** The message's author, as the server vouches for it (not the card's `userId`). */
  author: UserRef | null;
  /**
   * The defence roll as recorded on the defender's own actor (defenceLog), which the attacker
   * cannot write; null: none recorded. Omitted (pure callers, the playground): the card's.
   */
  defenceFaces?: number[] | null;
  /**
   * The defender's own choices for his defence roll (skill, all-out defence, modifier), as his
   * defence record on his actor holds them (defence.ts); null or omitted: none (the card's situation stands).
   */
  defenceChoice?: DefenceChoice | null;
  /**
   * The card's message id: a side whose roll on this card used up its Clipped box (FATE; its own
   * record, src/system/clipped.ts) counts as Clipped, as it rolled. Omitted: the live tracks only.
   */
  messageId?: string;
  /**
   * When the card was posted (the message's timestamp): the attacker counts as he rolled,
   * without the wounds applied to him since (attackerAsPosted). Omitted: the live attacker.
   */
  postedAt?: number;
  /**
   * Fudge §4.64: what the table recorded when the defender's combat round began (the GM's client
   * reads it from the live combat, src/foundry/combat.ts). Omitted or null: the defender's
   * current track counts as how he began the round (no combat, the playground).
   */
  roundStart?: RoundStart | null;
  /**
   * GM judgement (Fudge §4.55): the wound level the GM picked ("none": no wound) and the
   * Situational 4dF his client rolled after the pick (when the world's option asks for it): the
   * GM's own input on the GM's own client, never read from the card. Given only by a GM's Apply;
   * the target must be a hit awaiting the GM's judgement.
   */
  gm?: GmPick;
}

/** The GM's pick on a GM-judgement card (Fudge §4.55). */
export interface GmPick {
  level: string;
  /** The Situational 4dF the GM's client rolled after the pick; absent when the world does not roll it. */
  situational?: number[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The attacker as he was when his card was posted at `postedAt`: the dice were rolled with the
 * wound penalty in force then, and he could act then (Fudge §4.51, Miniatures: Wounds, Volt: The
 * Immediate Effects), so a wound applied to him after it — his foe's counter-attack applied first —
 * neither changes nor voids his attack. Read from his own wound log (the track just before the
 * first wound applied after the card); his live document when none was, or when that record no
 * longer fits his track. The log is his owner's own actor, which that owner may edit anyway: no
 * claim of another's is read. A wound applied in the same millisecond as the card counts as earlier.
 */
export function attackerAsPosted(attacker: ActorDoc, postedAt: number, rules: WorldRules): ActorDoc {
  const first = woundLogOf(attacker).find((r) => !r.undone && r.at > postedAt);
  if (!first) return attacker;
  const system = attacker.system as unknown as { woundTrack: Record<string, unknown> };
  const then = {
    ...attacker,
    system: { ...system, woundTrack: { ...system.woundTrack, state: structuredClone(first.before) } },
  } as ActorDoc;
  try {
    trackFor(then, rules);
  } catch {
    return attacker; // a record from another preset or a reshaped track: the live state stands
  }
  return then;
}

/**
 * Fudge §3.21–3.22: a card's rolls are read as the dice they were thrown with — 4dF for a card
 * posted before the world's dice changed (or before the option), else the world's own option.
 * A card claiming other dice than these two is refused: its rolls are not the world's.
 */
function rulesOfCardDice(card: AttackCardData, rules: WorldRules, name: string): WorldRules {
  const dice = card.diceOption || "4dF";
  if (dice === rules.dice) return rules;
  if (dice === "4dF") return { ...rules, dice: "4dF" };
  throw new RulesError(
    "card.diceOption",
    "FUDGE.Error.Integrity.DiceChanged",
    "the world's dice changed since this attack; attack again",
    {
      name,
    },
  );
}

/**
 * The target's result as the GM's client derives it itself: the request is built from the live
 * attacker (owned by the message's author) and the live defender under the world's rules, the
 * situation is the attacker's range-checked claim, and the dice are the card's recorded faces,
 * which the preset's pipeline range-checks as it reads them. Nothing of the card's `request` or
 * `resolution` is used. Throws a RulesError naming the actor and what to do.
 */
export function rederiveTarget(
  card: AttackCardData,
  t: AttackCardTarget,
  live: LiveSides,
  rules: WorldRules,
): Rederived {
  if (live.postedAt !== undefined && live.attacker)
    live = { ...live, attacker: attackerAsPosted(live.attacker, live.postedAt, rules) };
  if (live.messageId !== undefined)
    live = { ...live, ...asRolledOn(live.attacker, live.defender, live.messageId, rules) };
  const name = live.defender.name;
  if (card.preset !== rules.preset)
    throw new RulesError(
      "card.preset",
      "FUDGE.Error.Integrity.PresetChanged",
      "the world's rules preset changed since this attack; attack again",
      { name },
    );
  const attacker = live.attacker;
  if (!attacker || actorRef(attacker) !== card.attackerId)
    throw new RulesError(
      "card.attackerId",
      "FUDGE.Error.Integrity.AttackerGone",
      "the attacker is no longer in this world",
      { name: card.attackerName },
    );
  if (!live.author || !isOwner(live.author, attacker))
    throw new RulesError(
      "card.attackerId",
      "FUDGE.Error.Integrity.NotAuthorsAttacker",
      `the card's author does not own ${attacker.name}`,
      { name: attacker.name },
    );
  if (actorRef(live.defender) !== t.actorId)
    throw new RulesError("target", "FUDGE.Error.NotATarget", `${name} is not a target of this attack`, { name });
  let weapon: ItemDoc<"weapon"> | null = null;
  if (card.weaponId) {
    const w = findItem(attacker, card.weaponId, "card.weaponId");
    if (w.type !== "weapon")
      throw new RulesError("card.weaponId", "FUDGE.Error.NotAWeapon", `${w.name} is not a weapon`, { name: w.name });
    weapon = w as ItemDoc<"weapon">;
  }
  // The card's situation with this target's own (the range, gang-up and contact the table measured for it)
  // over it, plus what only the table knows about this defender (Fudge §4.64).
  const claimed0 = claimedSituation(card.preset, { ...(card.situation ?? {}), ...(t.situation ?? {}) });
  // The defender's own choices, kept with his defence roll on his actor, replace what the card said of his side.
  const choice = live.defenceChoice ?? null;
  const situation = {
    ...defenderSituation(
      choice ? situationWithChoice(rules.preset, claimed0, choice) : claimed0,
      live.defender,
      rules,
      live.roundStart,
    ),
    ...(live.messageId !== undefined ? fudgePointsSpent(attacker, live.defender, live.messageId, rules) : {}),
  };
  const defender = choice ? defenderWithChoice(live.defender, choice) : live.defender;
  rules = rulesOfCardDice(card, rules, name);
  const pipeline = pipelineFor(rules.preset);
  const requestWith = (s: Situation) =>
    pipeline.parseRequest(JSON.parse(JSON.stringify(attackRequest(attacker, weapon, defender, rules, s))));
  const parsed = requestWith(situation);
  const slots = pipeline.slots(parsed);
  const ids = new Set(slots.map((s) => s.id));
  for (const k of Object.keys(t.dice))
    if (!ids.has(k))
      throw new RulesError(
        `card.dice.${k}`,
        "FUDGE.Error.Integrity.Dice",
        `the card carries dice "${k}" this attack does not roll`,
        { name },
      );
  // One attack roll is shared by every target of the card.
  for (const [k, faces] of Object.entries(card.attackDice ?? {}))
    if (t.dice[k] !== undefined && !same(t.dice[k], faces))
      throw new RulesError(`card.dice.${k}`, "FUDGE.Error.Integrity.Dice", "the targets' attack rolls differ", {
        name,
      });
  const opposed = slots.some((s) => isDefenderSlot(s.id)) && pipeline.exchange === "opposed";
  if (opposed && (live.defenceFaces === null || (live.defenceFaces === undefined && t.defend !== "rolled")))
    throw new RulesError(
      "resolution",
      "FUDGE.Error.NotResolved",
      "the attack is not resolved yet (waiting for the defence roll)",
      { name },
    );
  const read = (id: string) => {
    const v = isDefenderSlot(id) && live.defenceFaces ? live.defenceFaces : t.dice[id];
    if (v === undefined)
      throw new RulesError(`dice.${id}`, "FUDGE.Error.MissingDice", `missing dice "${id}"`, { slot: id });
    return v;
  };
  let resolution: AttackResolution;
  try {
    // Every recorded roll shows faces its dice can show, read or not (a forged unread roll is still a forgery).
    checkRecordedDice(t.dice, slots);
    resolution = pipeline.resolve(parsed, read);
  } catch (e) {
    // Dice the pipeline refuses (a face out of range, a missing roll after a rules change) are named as the card's.
    if (isRulesError(e) && e.field.startsWith("dice"))
      throw new RulesError(`card.${e.field}`, "FUDGE.Error.Integrity.Dice", e.message, { name });
    throw e;
  }
  // What the card showed is compared with the result before any GM pick (Apply never reads one from the card).
  const claimed = t.resolution as Partial<AttackResolution> | null;
  // GM judgement: the card showed the GM the RD and factors he judged (Fudge §4.55), or his earlier ruling (after an Undo).
  const shownFactors = (r: Partial<AttackResolution>) => [
    r.hit,
    r.numbers?.relativeDegree,
    r.numbers?.odf,
    r.numbers?.ddf,
  ];
  const differs = live.gm
    ? !claimed || !same(shownFactors(claimed), shownFactors(resolution))
    : !claimed ||
      claimed.outcome !== resolution.outcome ||
      (claimed.woundKey ?? null) !== resolution.woundKey ||
      !same(claimed.wound, resolution.wound);
  if (
    live.gm &&
    (typeof live.gm.level !== "string" || live.gm.level.length === 0 || live.gm.level.length > GM_LEVEL_CHARS)
  )
    throw new RulesError("gmLevel", "FUDGE.Error.GmJudgement.BadLevel", "pick a wound level", { name });
  if (live.gm)
    resolution = judged(
      pipeline,
      resolution,
      live.gm,
      requestWith({ ...situation, gmLevel: live.gm.level }),
      read,
      name,
    );
  return { resolution: JSON.parse(JSON.stringify(resolution)) as AttackResolution, differs };
}

/**
 * GM judgement (Fudge §4.55: "the GM assesses the factors and announces the wound", optionally
 * after "a Situational roll … -1 to +1 … no change … +3 or +4 adds a wound level or two"): the
 * same live request with the GM's level, resolved again; the Situational slot reads only the
 * faces the GM's client rolled, never a roll recorded on the card. Refused unless the target is a
 * hit that awaits the GM's judgement; an unknown level is refused by the rules core.
 */
function judged(
  pipeline: ReturnType<typeof pipelineFor>,
  pending: AttackResolution,
  gm: GmPick,
  parsed: ReturnType<ReturnType<typeof pipelineFor>["parseRequest"]>,
  read: (id: string) => number[],
  name: string,
): AttackResolution {
  if (pending.outcome !== "gmJudgement")
    throw new RulesError(
      "gmLevel",
      "FUDGE.Error.GmJudgement.NotPending",
      `${name}'s wound is not the GM's to judge on this card`,
      { name },
    );
  if (gm.situational) checkRecordedDice({ [GM_SLOT]: gm.situational }, pipeline.slots(parsed));
  return pipeline.resolve(parsed, (id) => {
    if (id !== GM_SLOT) return read(id);
    if (!gm.situational)
      throw new RulesError(`dice.${id}`, "FUDGE.Error.MissingDice", `missing dice "${id}"`, { slot: id });
    return gm.situational;
  });
}
