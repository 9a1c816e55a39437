/**
 * The integrity rule as pure functions. A chat card, its system data and its flags are written
 * by the card's author (a player's client can run any code), so to whoever acts on them they
 * are claims. What the GM's client acts on (the re-derivation is in ./rederive.ts, loaded with the clicks):
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
import { RulesError, isRulesError, PRESETS, DICE_OPTION_IDS, parseTrack } from "../rules";
import type { AttackCardData } from "./data";
import type { RollCardData } from "./actions/trait-roll";
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

// The re-derivation's types, for the modules that name them (its code: ./rederive.ts).
export type { GmPick, LiveSides, Rederived } from "./rederive";
