/**
 * The integrity rule's re-derivation (./integrity.ts checks a card's shape): what an attacker may
 * claim of his situation, and a card target's result derived again by the GM's client from the
 * live attacker and defender, the world's rules and the card's recorded dice (rederiveTarget).
 * Only the flows of a click use it: it loads with them (src/system/flows/clicks.ts).
 */
import { RulesError, isRulesError, checkRecordedDice, type AttackResolution, pipelineFor } from "../rules";
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
import { attackSpendLevel } from "./fudge-point-spend";
import { woundLogOf } from "./actor-logs";
import { GM_LEVEL_CHARS } from "./integrity";

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
