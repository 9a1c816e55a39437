/**
 * The attack dialog and the odds on screen: which situational options the world's preset offers
 * (each with a one-line hint), how a submitted form reads back into a Situation, and the exact
 * outcome distribution of an attack against each target (the rules core's `exactOdds`), as the
 * dialog's bar, the Attack button's tooltip and `game.system.api.odds` show it.
 * Pure functions over plain documents: Foundry's DialogV2 and the playground render the same
 * template (templates/dialog/attack-dialog.hbs) from the same context.
 */
import {
  signed,
  exactOdds,
  type AttackOdds,
  duelForecast,
  type DuelForecast,
  isRulesError,
  type RulesError,
  renderTrack,
  trackStatus,
  type Track,
} from "../rules";
import { errorView } from "./error-text";
import type { PresetId } from "../rules";
import { attackRequest, miniRules, SITUATION_FIELDS, trackFor, type Situation } from "./combatant";
import type { ActorDoc, ItemDoc, WorldRules } from "./data";
import type { DuelGutsSituation } from "../rules/miniatures";
import { DEFENDER_ROLLS } from "./defence";
import { FUDGE_LEVELS, isDatacardStat, ladderOf, levelView, outcomeLabelKey } from "./view";

export interface SituationField {
  name: string;
  type: "number" | "checkbox" | "select";
  labelKey: string;
  hintKey: string;
  value: string | number;
  /** Number fields: the range the form accepts (the range the GM's client accepts on a card, src/system/integrity.ts). */
  min: number;
  max: number;
  checked: boolean;
  choices: { value: string; labelKey: string; selected: boolean }[];
  /**
   * The table measures this field for every target (Miniatures: range, gang-up, contact; Volt:
   * distance): shown per target as measured, with no input, since the measure is what the attack
   * uses. Empty: the player enters it.
   */
  measured: MeasuredValue[];
}

/** One target's measured value of a field, as the dialog shows it ("Knavely Knave: 12"; a yes/no field as its lang key). */
export interface MeasuredValue {
  name: string;
  text: string;
  textKey: string;
}

interface FieldSpec {
  type: SituationField["type"];
  /**
   * Offered only for ranged weapons / stun-capable weapons / stun-capable weapons when the world
   * allows head blows / an attacker whose datacard has the Skilled backstabber rule / a melee
   * attack on a target whose datacard has the Poor melee combatant rule.
   */
  only?: "ranged" | "stun" | "headBlow" | "backstabber" | "disengaging";
  choices?: string[];
  /** Number fields: accepted range (default ±10, a situational modifier's). */
  min?: number;
  max?: number;
  /** A measure, where 0 is a value (a Volt distance of 0), not "no modifier". */
  measure?: true;
}

/** The options each preset's attack takes (combatant.ts SITUATION_FIELDS), as form fields. */
const FIELDS: Record<PresetId, Record<string, FieldSpec>> = {
  // The defender's modifier and all-out defence are his to choose, in his Defend dialog (defence.ts).
  fudge: {
    modifier: { type: "number" },
    allOutAttack: { type: "checkbox" },
    stun: { type: "checkbox", only: "stun" },
    // Fudge §4.62 GM option (headBlowKnockout): a Good stun blow to the head knocks out.
    headBlow: { type: "checkbox", only: "headBlow" },
    pullPunch: { type: "select", choices: ["", "scratch", "hurt", "veryHurt", "incapacitated"] },
  },
  fate: { modifier: { type: "number" } },
  volt: { modifier: { type: "number" }, distance: { type: "number", only: "ranged", min: 0, max: 999, measure: true } },
  miniatures: {
    modifier: { type: "number" },
    gangUp: { type: "number", min: 0, max: 8 },
    rangeInches: { type: "number", only: "ranged", min: 0, max: 999, measure: true },
    cover: { type: "checkbox", only: "ranged" },
    friendShootsIntoMelee: { type: "checkbox", only: "ranged" },
    inContact: { type: "checkbox", only: "ranged" },
    helpless: { type: "checkbox" },
    surprised: { type: "checkbox" },
    // Miniatures: Skilled backstabber (+1 ODF attacking from behind), Poor melee combatant
    // (opponents +1 to the free disengagement attack): the sample datacards' rules.
    fromBehind: { type: "checkbox", only: "backstabber" },
    disengaging: { type: "checkbox", only: "disengaging" },
  },
};

type WeaponLike = Pick<ItemDoc<"weapon">, "system"> | null;

const isRanged = (w: WeaponLike) => !!(w?.system as { ranged?: boolean } | undefined)?.ranged;
const isStun = (w: WeaponLike) => !!(w?.system as { stunCapable?: boolean } | undefined)?.stunCapable;

/** Who attacks whom, where a field depends on the datacards (Miniatures gifts and faults with a rule). */
export interface AttackParties {
  attacker?: ActorDoc;
  targets?: ActorDoc[];
}

/** Whether the world's options, this weapon and the parties' datacards allow a field. */
function offered(
  only: FieldSpec["only"],
  weapon: WeaponLike,
  rules?: Pick<WorldRules, "fudge">,
  parties: AttackParties = {},
): boolean {
  if (only === "ranged") return isRanged(weapon);
  if (only === "backstabber") return !!parties.attacker && miniRules(parties.attacker).has("backstabber");
  if (only === "disengaging")
    return !isRanged(weapon) && (parties.targets ?? []).some((t) => miniRules(t).has("poorMelee"));
  if (only === "stun") return isStun(weapon);
  if (only === "headBlow") return isStun(weapon) && !!rules?.fudge?.headBlowKnockout;
  return true;
}

/** The preset's situational options for this weapon (and the world's options), filled from the user's last choice. */
export function situationFields(
  preset: PresetId,
  weapon: WeaponLike,
  last: Situation = {},
  rules?: Pick<WorldRules, "fudge">,
  parties: AttackParties = {},
): SituationField[] {
  const specs = FIELDS[preset] ?? {};
  return Object.entries(specs)
    .filter(([name, f]) => SITUATION_FIELDS[preset].includes(name) && offered(f.only, weapon, rules, parties))
    .map(([name, f]) => {
      const v = last[name];
      return {
        name,
        type: f.type,
        labelKey: `FUDGE.Situation.${name}`,
        hintKey: `FUDGE.Attack.Hint.${name}`,
        value: f.type === "number" ? (typeof v === "number" ? v : 0) : typeof v === "string" ? v : "",
        min: f.min ?? -MODIFIER_RANGE,
        max: f.max ?? MODIFIER_RANGE,
        checked: v === true,
        choices: (f.choices ?? []).map((c) => ({
          value: c,
          labelKey: c ? (FUDGE_LEVELS.includes(c) ? `FUDGE.Wound.${c}` : c) : "FUDGE.Attack.NoPull",
          selected: v === c,
        })),
        measured: [],
      };
    });
}

/** A situational modifier's range in the dialog, as the GM's client accepts it on a card (integrity.ts). */
const MODIFIER_RANGE = 10;

/**
 * A submitted (or changed) dialog form → the attack's Situation. Values are claims from a form:
 * numbers must be whole and within the field's range (±10 for modifiers), anything else is
 * dropped; only the preset's fields count.
 */
export function readSituation(preset: PresetId, form: Iterable<[string, unknown]>): Situation {
  const specs = FIELDS[preset] ?? {};
  const out: Situation = {};
  for (const [name, raw] of form) {
    const f = specs[name];
    if (!f) continue;
    if (f.type === "checkbox") {
      if (raw === true || raw === "on" || raw === "true") out[name] = true;
    } else if (f.type === "number") {
      const n = Number(raw);
      if (typeof raw === "string" && raw.trim() === "") continue;
      if (
        Number.isInteger(n) &&
        n >= (f.min ?? -MODIFIER_RANGE) &&
        n <= (f.max ?? MODIFIER_RANGE) &&
        (n !== 0 || f.measure)
      )
        out[name] = n;
    } else if (typeof raw === "string" && raw && (f.choices ?? []).includes(raw)) out[name] = raw;
  }
  return out;
}

export interface OddsSegment {
  key: string;
  /** Outcome label ("Miss", "Standoff") or a wound level's labels (Volt "stun+injury" has two). */
  labelKeys: string[];
  p: number;
  pctText: string;
  /** Width of the bar segment in percent (two decimals). */
  width: string;
  css: string;
}

export interface OddsView {
  targetId: string;
  name: string;
  /**
   * The name escaped once more for data-tooltip: Foundry's tooltip shows its text as HTML, so a
   * name the template escapes once would be markup again inside the tooltip.
   */
  tooltipName: string;
  segments: OddsSegment[];
  /** One line: "Wound 58% · Standoff 15% · Miss 26%". */
  summary: { label: string; pctText: string }[];
  error: { key: string; params: Record<string, string | number> } | null;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const pct = (p: number): string => {
  const v = p * 100;
  if (v > 0 && v < 1) return "<1%";
  if (v < 100 && v > 99) return ">99%";
  return `${Math.round(v)}%`;
};

/** Label of a wound level in the odds: the Fudge level names, else this layer's card labels. */
function woundLabel(key: string): string[] {
  return key.split("+").map((k) => (FUDGE_LEVELS.includes(k) ? `FUDGE.Wound.${k}` : `FUDGE.Card.Wound.${k}`));
}

/** The odds of an attack as the bar draws it: miss, standoff, no damage, then each wound level. */
export function oddsSegments(odds: AttackOdds, levelLabel: (key: string) => string[] = woundLabel): OddsSegment[] {
  const segs: OddsSegment[] = [];
  const push = (key: string, labelKeys: string[], p: number, css: string) => {
    if (p <= 0) return;
    segs.push({ key, labelKeys, p, pctText: pct(p), width: (p * 100).toFixed(2), css });
  };
  for (const o of ["miss", "standoff", "noDamage", "gmJudgement"])
    push(o, [outcomeLabelKey(odds.preset, o)], odds.outcomes[o] ?? 0, `odds-${o}`);
  Object.entries(odds.woundLevels)
    .filter(([k]) => k !== "none")
    .forEach(([k, p], i) => push(`wound.${k}`, levelLabel(k), p, `odds-wound odds-wound-${Math.min(i, 5)}`));
  return segs;
}

/** The odds of this attacker's attack with this weapon against one target, for the dialog. */
export function attackOdds(
  attacker: ActorDoc,
  weapon: ItemDoc<"weapon"> | null,
  target: ActorDoc,
  rules: WorldRules,
  situation: Situation = {},
): OddsView {
  const view: OddsView = {
    targetId: target.uuid ?? target._id,
    name: target.name,
    tooltipName: escapeHtml(target.name),
    segments: [],
    summary: [],
    error: null,
  };
  try {
    const odds = exactOdds(attackRequest(attacker, weapon, target, rules, situation));
    // A level's name as the defender's own track names it (FATE "Clipped", a custom level …).
    const rows = renderTrack(trackFor(target, rules)).rows;
    view.segments = oddsSegments(odds, (key) =>
      key.split("+").map((k) => rows.find((r) => r.key === k)?.labelKey ?? woundLabel(k)[0]),
    );
    const hit = odds.outcomes.wound ?? 0;
    view.summary = [
      { label: "FUDGE.Card.Outcome.wound", pctText: pct(hit) },
      ...["standoff", "noDamage", "miss"]
        .filter((o) => (odds.outcomes[o] ?? 0) > 0)
        .map((o) => ({ label: outcomeLabelKey(odds.preset, o), pctText: pct(odds.outcomes[o]) })),
    ];
  } catch (e) {
    if (!isRulesError(e)) throw e;
    view.error = errorView(e);
  }
  return view;
}

export interface AttackDialogContext {
  preset: PresetId;
  attackerName: string;
  weaponName: string;
  fields: SituationField[];
  odds: OddsView[];
  /** The defenders roll and choose their own defence (Fudge, FATE): the odds assume their usual defence, and say so. */
  defenderChooses: boolean;
  cssClass: string;
}

/**
 * The dialog's context. `measured`: per target, what the table measures for it (src/foundry
 * src/rules/miniatures/table.ts tableSituation: range, gang-up, contact), which the attack will use over the
 * form's values; the odds are those of the attack as it will be rolled, and a field the table
 * measures for every target shows the measures instead of an input.
 */
export function attackDialogContext(
  attacker: ActorDoc,
  weapon: ItemDoc<"weapon"> | null,
  targets: ActorDoc[],
  rules: WorldRules,
  situation: Situation = {},
  measured: readonly Situation[] = [],
): AttackDialogContext {
  const fields = situationFields(rules.preset, weapon, situation, rules, { attacker, targets }).map((f) =>
    targets.length > 0 && targets.every((_, i) => measured[i]?.[f.name] !== undefined)
      ? { ...f, measured: targets.map((t, i) => measuredValue(t.name, measured[i][f.name])) }
      : f,
  );
  return {
    preset: rules.preset,
    attackerName: attacker.name,
    weaponName: weapon?.name ?? "",
    fields,
    odds: targets.map((t, i) => attackOdds(attacker, weapon, t, rules, { ...situation, ...(measured[i] ?? {}) })),
    defenderChooses: DEFENDER_ROLLS.includes(rules.preset),
    cssClass: `fudge-wounds fudge-attack-dialog preset-${rules.preset}`,
  };
}

function measuredValue(name: string, v: unknown): MeasuredValue {
  if (typeof v === "boolean")
    return { name, text: "", textKey: v ? "FUDGE.Attack.MeasuredYes" : "FUDGE.Attack.MeasuredNo" };
  return { name, text: String(v), textKey: "" };
}

// ─── Duel forecast (two combatants attacking each other in turn) ─────────────────────────

/** The weapon a combatant fights with in a forecast: its first equipped weapon (else unarmed). */
export function mainWeapon(actor: ActorDoc): ItemDoc<"weapon"> | null {
  return (
    ((actor.items ?? []).find((i) => i.type === "weapon" && (i.system as { equipped?: boolean }).equipped) as
      ItemDoc<"weapon"> | undefined) ?? null
  );
}

/** A Miniatures datacard with no wound on its track and no failed Guts check in force. */
function untouched(card: unknown): boolean {
  const c = card as Record<string, unknown>;
  const guts = c.gutsState as { effect?: number; pending?: unknown[] } | undefined;
  return trackStatus(c.track as Track).levelKey === null && !guts?.pending?.length && !guts?.effect;
}

/**
 * The rules core's duel request for two actors, each with its main weapon (docs/rules-api.md
 * `forecast`). `gutsSituation`: Miniatures, each side's circumstances of its Guts checks for the
 * duel (the table derives them: src/system/guts.ts duelGutsSituation); none by default.
 */
export function duelRequest(
  a: ActorDoc,
  b: ActorDoc,
  rules: WorldRules,
  gutsSituation: { a?: DuelGutsSituation; b?: DuelGutsSituation } = {},
): Record<string, unknown> {
  const ab = attackRequest(a, mainWeapon(a), b, rules);
  const ba = attackRequest(b, mainWeapon(b), a, rules);
  const request: Record<string, unknown> = {
    preset: rules.preset,
    a: ab.attacker,
    b: ba.attacker,
    options: ab.options,
    situation: {},
  };
  // Miniatures: Guts — the world always plays its Guts checks (the tracker re-checks, Apply checks
  // new wound levels; no world setting turns them off), so the table's forecast counts them too,
  // from each model's failures in force (docs/rules-api.md, Guts in the forecast).
  if (rules.preset === "miniatures") {
    request.gutsChecks = true;
    // Miniatures: Guts — a duel between two models still untouched (no wound, no failed check in
    // force) opens with a charge by `a`, the combatant whose forecast is asked: a model facing a
    // Terrifying opponent checks Guts before the first blow. Once either has been hurt or has
    // failed a check, the fight is under way and its charge already made (docs/foundry.md).
    request.terrifyingCharge = untouched(ab.attacker) && untouched(ba.attacker);
    // Miniatures: Sample characters — Faithful, Noble presence, Leader: only the sides with a flag that holds.
    const sides = Object.fromEntries(
      (["a", "b"] as const)
        .filter((k) => Object.keys(gutsSituation[k] ?? {}).length > 0)
        .map((k) => [k, { ...gutsSituation[k] }]),
    );
    if (Object.keys(sides).length > 0) request.gutsSituation = sides;
  }
  // A duel no exact or bounded forecast reaches within its budget (Volt Leroy vs Leroy) is
  // estimated from simulated duels instead of refused; the line says it is an estimate.
  request.fallback = "sample";
  return request;
}

export interface ForecastView {
  aName: string;
  bName: string;
  /** P(a wins) = P(b is out first), and the other way round. */
  aWins: number;
  bWins: number;
  aWinsText: string;
  bWinsText: string;
  stalemateText: string;
  /** Expected exchanges ("3.6"), "" when a stalemate is possible. */
  exchangesText: string;
  /** Miniatures: how often each side leaves by flight (Mercenary, Self-interest), "" when it cannot or never does. */
  aFleesText: string;
  bFleesText: string;
  /** A sampled estimate (method "sample"): never shown as exact; null for exact or bounded forecasts. */
  estimate: ForecastEstimateView | null;
  /** What the screen says the answer is: exact, bounded (each chance within `boundText`), or an estimate. */
  kind: "exact" | "bounded" | "estimate";
  /** A bounded forecast's largest error of each chance ("0.01%"), "" otherwise. */
  boundText: string;
  error: { key: string; params: Record<string, string | number> } | null;
}

export interface ForecastEstimateView {
  /** "± 0.9%" half-widths of a's and b's win chances. */
  aHalfText: string;
  bHalfText: string;
  /** Duels simulated, in the user's number format ("20,000"). */
  duelsText: string;
  /** "99%". */
  confidenceText: string;
  /** Duels with no winner (stalemate, or still running at the cap), "" when none. */
  unendedText: string;
  /** "± 0.9%" half-widths of each side's flight, "" when it is not shown. */
  aFleesHalfText: string;
  bFleesHalfText: string;
}

/** The duel forecast as the GM reads it: win chances and expected exchanges (exact, rules core). */
export function forecastView(a: ActorDoc, b: ActorDoc, rules: WorldRules): ForecastView {
  let outcome: DuelForecast | RulesError;
  try {
    outcome = duelForecast(duelRequest(a, b, rules));
  } catch (e) {
    if (!isRulesError(e)) throw e;
    outcome = e;
  }
  return forecastViewOf(a.name, b.name, outcome);
}

/** The view of a forecast already computed (or refused), e.g. by the forecast worker at the table. */
export function forecastViewOf(
  aName: string,
  bName: string,
  outcome: DuelForecast | RulesError,
  lang = "en",
): ForecastView {
  const view: ForecastView = {
    aName,
    bName,
    aWins: 0,
    bWins: 0,
    aWinsText: "",
    bWinsText: "",
    stalemateText: "",
    exchangesText: "",
    aFleesText: "",
    bFleesText: "",
    estimate: null,
    kind: "exact",
    boundText: "",
    error: null,
  };
  if (isRulesError(outcome)) {
    view.error = errorView(outcome);
    return view;
  }
  const f = outcome;
  const e = f.method === "sample" ? f.estimate : undefined;
  // An estimate in whole percents (its interval is wider than a tenth), the interval beside each.
  const share = e ? (x: number): string => `${Math.round(x * 100)}%` : pct;
  const unended = e ? (e.counts.stalemate + e.counts.unfinished) / e.duels : 0;
  const kind = e ? "estimate" : f.exact ? "exact" : "bounded";
  return Object.assign(view, {
    kind,
    boundText: kind === "bounded" ? boundPct(f.errorBound) : "",
    aWins: f.bOut,
    bWins: f.aOut,
    aWinsText: share(f.bOut),
    bWinsText: share(f.aOut),
    stalemateText: f.stalemate > 0 ? share(f.stalemate) : "",
    exchangesText: f.expectedExchanges === null ? "" : f.expectedExchanges.toFixed(1),
    // Miniatures: the share of a side's "out" that is flight, said when it reads 1% or more.
    aFleesText: fleesText(f.aFled, share),
    bFleesText: fleesText(f.bFled, share),
    estimate: e
      ? {
          aHalfText: halfPct(e.halfWidth.bOut),
          bHalfText: halfPct(e.halfWidth.aOut),
          duelsText: e.duels.toLocaleString(lang),
          confidenceText: `${Math.round(e.confidence * 100)}%`,
          unendedText: unended > 0 ? share(unended) : "",
          aFleesHalfText: fleesText(f.aFled, share) ? halfPct(e.halfWidth.aFled ?? 0) : "",
          bFleesHalfText: fleesText(f.bFled, share) ? halfPct(e.halfWidth.bFled ?? 0) : "",
        }
      : null,
  });
}

/** A side's flight as the line says it: "" when it cannot flee or flees less than 0.5% of duels (a sentence for "<1%" would only distract). */
const fleesText = (p: number | undefined, share: (x: number) => string): string =>
  p !== undefined && p >= FLIGHT_SHOWN ? share(p) : "";
const FLIGHT_SHOWN = 0.005;

/** A bounded forecast's largest error in percent, to two significant digits ("0.01%"). */
const boundPct = (b: number): string => `${Number((b * 100).toPrecision(2))}%`;

/** The half-width of an estimate's interval in percent, to a tenth ("0.9%"). */
const halfPct = (h: number): string => (h < 0.0005 ? "<0.1%" : `${(h * 100).toFixed(1)}%`);

/** One localized sentence: its lang key and the data for it. */
export interface ForecastSentence {
  key: string;
  data: Record<string, string>;
}

/**
 * The forecast's sentence as the table shows it: its lang key (FUDGE.Forecast.Line…) and the
 * data for it, names escaped with `escape` (Foundry's escapeHTML at the table). An estimate has
 * its own sentences, which say so. `flight`: Miniatures, a short sentence after the win chances
 * for each side that leaves by flight ("Brutas flees 15%."), none otherwise (forecastTextOf joins them).
 * `kind`: what the answer is (exact, bounded, estimate) and, for a first answer (`interim`), that
 * the forecast goes on.
 */
export function forecastLineOf(
  f: ForecastView,
  escape: (s: string) => string,
  interim = false,
): ForecastSentence & { flight: ForecastSentence[]; kind: ForecastSentence } {
  const data: Record<string, string> = {
    a: escape(f.aName),
    b: escape(f.bName),
    aWins: f.aWinsText,
    bWins: f.bWinsText,
    exchanges: f.exchangesText,
    stalemate: f.stalemateText,
  };
  const e = f.estimate;
  const flight: ForecastSentence[] = [];
  for (const [name, chance, half] of [
    [f.aName, f.aFleesText, e?.aFleesHalfText ?? ""],
    [f.bName, f.bFleesText, e?.bFleesHalfText ?? ""],
  ] as const)
    if (chance)
      flight.push(
        e
          ? { key: "FUDGE.Forecast.FleesEstimate", data: { name: escape(name), chance, half } }
          : { key: "FUDGE.Forecast.Flees", data: { name: escape(name), chance } },
      );
  const kind: ForecastSentence = {
    key: `FUDGE.Forecast.Kind.${f.kind}${interim && f.kind !== "exact" ? "First" : ""}`,
    data: f.kind === "bounded" ? { bound: f.boundText } : {},
  };
  if (!e) return { key: f.exchangesText ? "FUDGE.Forecast.Line" : "FUDGE.Forecast.LineStalemate", data, flight, kind };
  Object.assign(data, {
    aHalf: e.aHalfText,
    bHalf: e.bHalfText,
    duels: e.duelsText,
    confidence: e.confidenceText,
    unended: e.unendedText,
  });
  return { key: e.unendedText ? "FUDGE.Forecast.EstimateUnended" : "FUDGE.Forecast.Estimate", data, flight, kind };
}

/** The forecast line as one text: its sentence, each flight sentence, then what kind of answer it is (`format`: game.i18n.format at the table). */
export function forecastTextOf(
  line: ForecastSentence & { flight: ForecastSentence[]; kind?: ForecastSentence },
  format: (key: string, data: Record<string, string>) => string,
): string {
  return [line, ...line.flight, ...(line.kind ? [line.kind] : [])].map((s) => format(s.key, s.data)).join(" ");
}

// ─── Trait roll dialog ───────────────────────────────────────────────────────────────────

/** The trait roll dialog (templates/dialog/roll-dialog.hbs): Difficulty by ladder name, and a modifier. */
export function rollDialogContext(
  actorName: string,
  traitKey: string,
  rules: WorldRules,
  ladderNames: Partial<Record<string, string>> = {},
  trait: { labelKey: string; name: string; level?: number } = { labelKey: "", name: "" },
  opponents: readonly string[] = [],
  autoSuccess = false,
) {
  const volt = traitKey.startsWith("volt.");
  const ladder = ladderOf(rules, ladderNames);
  // Miniatures: a datacard stat is a number, and so is what it must equal or beat.
  const numeric = isDatacardStat(traitKey);
  return {
    actorName,
    // The trait rolled, named as the sheet names it (a skill's own name, or an attribute's key).
    traitLabelKey: trait.labelKey,
    traitName: trait.name,
    traitLevel: typeof trait.level === "number" && !volt && !numeric ? levelView(trait.level, ladder).label : "",
    volt,
    // Fudge §3.5: an opposed roll against one of the user's targets (by their order), who rolls from the card.
    opponents: volt ? [] : opponents.map((name, i) => ({ value: String(i), name })),
    // Fudge §3.4: the GM sets a Difficulty Level on the ladder (default: the world's).
    difficulties: volt
      ? []
      : [...ladder.rungs].reverse().map((r) => ({
          value: r.value,
          label: numeric ? signed(r.value) : levelView(r.value, ladder).label,
          selected: r.value === rules.defaultDifficulty,
        })),
    difficultyHintKey: numeric ? "FUDGE.Roll.Hint.difficultyDatacard" : "FUDGE.Roll.Hint.difficulty",
    modifier: 0,
    // Fudge §1.36: a Fudge Point spent for an automatic success, in place of the roll (his own Fudge or FATE character).
    autoSuccess,
    cssClass: "fudge-wounds fudge-roll-dialog",
  };
}

/** A submitted roll form → rollTrait's options (claims checked: whole numbers in range). */
export function readRollOptions(form: Iterable<[string, unknown]>): {
  difficulty?: number;
  modifier?: number;
  opponent?: number;
  autoSuccess?: true;
} {
  const out: { difficulty?: number; modifier?: number; opponent?: number; autoSuccess?: true } = {};
  for (const [name, raw] of form) {
    // Fudge §1.36: the checkbox spending a Fudge Point for an automatic success (a form gives "on" or true).
    if (name === "fudgePointSuccess" && (raw === true || raw === "on" || raw === "true")) out.autoSuccess = true;
    const n = Number(raw);
    if (typeof raw !== "string" || raw.trim() === "" || !Number.isInteger(n) || Math.abs(n) > 30) continue;
    if (name === "difficulty") out.difficulty = n;
    if (name === "modifier" && n !== 0) out.modifier = n;
    if (name === "opponent" && n >= 0) out.opponent = n;
  }
  return out;
}
