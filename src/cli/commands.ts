/**
 * The commands of `fudge-rules`, one entry each: adding a command is one entry in COMMAND_TABLE
 * (and a line in docs/rules-api.md). Every command takes one JSON request and returns JSON.
 */
import {
  RulesError,
  duelForecast,
  diceDistribution,
  exactOdds,
  opposedDistribution,
  unopposedChance,
  pipelineFor,
  resolveAttack,
  rollAttack,
  seededRng,
  applyWound,
  endBattle,
  healTrack,
  parseTrack,
  renderTrack,
  trackStatus,
  type BattleLapse,
  type Track,
  array,
  at,
  int,
  isRecord,
  oneOf,
  optInt,
  record,
  type Path,
} from "../rules";
import {
  GUTS_REASONS,
  gutsRecheck,
  gutsRollPenaltyRule,
  gutsTrigger,
  nearDeathGuts,
  parseGutsState,
  terrifyingTarget,
  type GutsReason,
  type GutsRules,
  type GutsSituation,
  parseTrait,
} from "../rules/miniatures";
import { recoverAction } from "../rules/volt";
import { resolveSamples } from "./samples";

export interface CommandSpec {
  /** One line for the usage text. */
  summary: string;
  /** How the input is read: parsed JSON (default), or the raw text for a command that reads another format. */
  input?: "json" | "text";
  /** Request fields the command line may set (`--samples 5000`), and how their text is read. */
  options?: Record<string, "text" | "number">;
  run(request: unknown): unknown;
}

const object = (request: unknown): Record<string, unknown> => {
  if (!isRecord(request)) throw new RulesError("", "FUDGE.Error.NotObject", "the request must be a JSON object");
  return request;
};

/** An attack request with sample names replaced (the preset is named before anything else). */
function attackRequest(request: unknown): Record<string, unknown> {
  const o = object(request);
  pipelineFor(o.preset);
  return resolveSamples(o);
}

/**
 * `--dice` (Fudge §3.21–3.22) for `odds` and `forecast`: the world's dice option, into a Fudge or
 * FATE request's options (the presets whose four-dice rolls it throws). Absent: the request as given.
 */
function withDiceOption(request: unknown): Record<string, unknown> {
  const { dice, ...o } = attackRequest(request);
  if (dice === undefined) return o;
  if (o.preset !== "fudge" && o.preset !== "fate")
    throw new RulesError(
      "dice",
      "FUDGE.Error.Dice.FudgeOnly",
      `the dice options are the Fudge and FATE presets' (got ${JSON.stringify(o.preset)})`,
      {
        preset: String(o.preset),
      },
    );
  const options = o.options === undefined ? {} : object(o.options);
  return { ...o, options: { ...options, dice } };
}

/** A track and its status: what every track command answers. */
function trackAnswer(track: Track, steps: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...extra, track, status: trackStatus(track), steps };
}

/** Miniatures: Guts — the target number of a check by its reason (RULES §3). */
function gutsTarget(o: Record<string, unknown>, reason: GutsReason, path: Path): number {
  if (o.target !== undefined) return int(o.target, at(path, "target"), -50, 50);
  switch (reason) {
    case "newWoundLevel":
      return 1; // Miniatures: Guts — "Take a new wound level: 1"
    case "twoWoundLevels":
      return 2; // Miniatures: Guts — "Take two wound levels from a single attack: 2"
    case "friendShoots":
      return 0; // Miniatures: Guts — a friend shoots into a melee the model is in: 0
    case "terrifying":
      return terrifyingTarget(optInt(o.terrifying, at(path, "terrifying"), 1, 0, 20)); // 0 + the number of Terrifying gifts
    default:
      throw new RulesError(
        at(path, "target"),
        "FUDGE.Error.Miniatures.GutsTargetNeeded",
        'a Guts check for "other" reasons needs its "target"',
      );
  }
}

/**
 * The checking model's gift and fault and its situation (seed 004 "Sample characters": Steadfast,
 * Mercenary, Faithful; the King's Noble presence and Leader). Flags are checked by the Guts functions.
 */
function gutsSituation(o: Record<string, unknown>): GutsSituation {
  const s: GutsSituation = {};
  const gift = parseTrait(o.gift, "gift");
  const fault = parseTrait(o.fault, "fault");
  if (gift) s.gift = gift;
  if (fault) s.fault = fault;
  for (const k of ["beingCharged", "defendingKing", "nobleInMelee", "leaderFallen"] as const)
    if (o[k] !== undefined) s[k] = o[k] as boolean;
  return s;
}

export const COMMAND_TABLE: Record<string, CommandSpec> = {
  resolve: {
    summary: 'one attack from recorded "dice" (or roll them from a "seed")',
    run(request) {
      // "dice" and "seed" belong to the command, not to the attack request.
      const { dice, seed, ...attack } = attackRequest(request);
      if (dice !== undefined) {
        if (!isRecord(dice))
          throw new RulesError("dice", "FUDGE.Error.NotObject", "must be an object of recorded dice by slot");
        return resolveAttack(attack, dice);
      }
      if (typeof seed !== "number" || !Number.isInteger(seed))
        throw new RulesError(
          "dice",
          "FUDGE.Error.MissingDice",
          'give the recorded "dice", or a whole-number "seed" to roll them',
        );
      return rollAttack(attack, seededRng(seed));
    },
  },
  odds: {
    summary: 'exact probability of every outcome of one attack ("dice": the Fudge dice option, §3.21–3.22)',
    options: { dice: "text" },
    run: (request) => exactOdds(withDiceOption(request)),
  },
  trait: {
    summary:
      'exact odds of a trait roll with a dice option (Fudge §3.21–3.22): "dice", "trait", "difficulty"?, "opponent"?',
    options: { dice: "text" },
    run(request) {
      const o = object(request);
      const dice = o.dice ?? "4dF";
      const distribution = diceDistribution(dice);
      const trait = int(o.trait, "trait", -50, 50);
      const difficulty = optInt(o.difficulty, "difficulty", 0, -50, 50);
      return {
        dice: distribution.option,
        distribution,
        // Fudge §3.4: an Unopposed action succeeds when the result meets the Difficulty Level.
        unopposed: { difficulty, chance: unopposedChance(dice, trait, difficulty) },
        // Fudge §3.5: an Opposed action's relative degree, when an opponent's trait is given.
        ...(o.opponent === undefined
          ? {}
          : { opposed: opposedDistribution(dice, trait, int(o.opponent, "opponent", -50, 50)) }),
      };
    },
  },
  forecast: {
    summary: "duel forecast between two combatants (exact, with a stated error bound, or a sampled estimate)",
    options: { method: "text", samples: "number", seed: "number", fallback: "text", dice: "text" },
    run: (request) => duelForecast(withDiceOption(request)),
  },
  status: {
    summary: "a wound track's status and the sheet's render model",
    run(request) {
      const track = parseTrack(object(request).track, "track");
      return { status: trackStatus(track), render: renderTrack(track) };
    },
  },
  heal: {
    summary:
      'heal a wound track ("healing": scratches, roll, natural, box, endRound; Volt: recover, rest, injuryRecovery)',
    run(request) {
      const o = object(request);
      const track = parseTrack(o.track, "track");
      const r = healTrack(track, o.healing);
      return trackAnswer(r.track, r.steps);
    },
  },
  endBattle: {
    summary:
      'the battle is over: wounds whose level held only until then ("lapses", Fudge §4.52 (4)) go to their level',
    run(request) {
      const o = object(request);
      const track = parseTrack(o.track, "track");
      const r = endBattle(track, array(o.lapses, "lapses", 0, 100) as BattleLapse[]);
      return trackAnswer(r.track, r.steps);
    },
  },
  kill: {
    summary: "automatic death: a GM action, no roll (Fudge §4.51; box and Damage Capacity tracks)",
    run(request) {
      const track = parseTrack(object(request).track, "track");
      if (track.config.kind !== "box" && track.config.kind !== "dc")
        throw new RulesError(
          "track.config.kind",
          "FUDGE.Error.KillTrackKind",
          `automatic death needs a "box" or "dc" track (got ${JSON.stringify(track.config.kind)})`,
          { kind: String(track.config.kind) },
        );
      const r = applyWound(track, { kill: true });
      return trackAnswer(r.track, [...r.steps], { ended: r.ended });
    },
  },
  guts: {
    summary:
      'Miniatures Guts: a "check" (new wound, Terrifying …), a "recheck" on a later turn, or the "nearDeath" turn roll',
    run(request) {
      const o = object(request);
      const kind = oneOf(o.check, "check", ["check", "recheck", "nearDeath"] as const, "check");
      const guts = int(o.guts, "guts", -50, 50);
      const modifiers = optInt(o.modifiers, "modifiers", 0, -50, 50);
      // The world's rules, as in a Miniatures attack request: `options.gutsRollPenalty` (a failure by 1 lowers every roll, or attack rolls only).
      const options = o.options === undefined ? {} : record(o.options, "options");
      const rules = { gutsRollPenalty: gutsRollPenaltyRule(options as GutsRules) };
      const state = parseGutsState(o.state, "state");
      if (kind === "nearDeath") {
        const track = parseTrack(o.track, "track");
        const r = nearDeathGuts(track, guts, o.dice, modifiers, state, rules);
        return trackAnswer(r.track, r.steps, { result: r.result, total: r.total });
      }
      if (kind === "recheck") {
        const r = gutsRecheck(
          state,
          o.dice,
          int(o.turn, "turn", 0, 100_000),
          guts,
          modifiers,
          optInt(o.index, "index", 0, 0, 100),
          gutsSituation(o),
          rules,
        );
        return { state: r.state, check: { ...r.check, steps: undefined }, fleesCombat: r.fleesCombat, steps: r.steps };
      }
      const reason = oneOf(o.reason, "reason", GUTS_REASONS);
      const r = gutsTrigger(
        state,
        {
          ...gutsSituation(o),
          guts,
          modifiers,
          faces: o.dice,
          target: gutsTarget(o, reason, ""),
          turn: optInt(o.turn, "turn", 0, 0, 100_000),
          reason,
        },
        rules,
      );
      return { state: r.state, check: { ...r.check, steps: undefined }, fleesCombat: r.fleesCombat, steps: r.steps };
    },
  },
  recover: {
    summary:
      'Volt recovery: the Recover action (Willpower roll, "dice": [black, white]), "rest", or the "injury" recovery roll',
    run(request) {
      const o = object(request);
      const track = parseTrack(o.track, "track");
      if (track.config.kind !== "volt")
        throw new RulesError(
          "track.config.kind",
          "FUDGE.Volt.Error.NotVoltTrack",
          `recovery needs a "volt" track (got "${track.config.kind}")`,
        );
      const kind = oneOf(o.recover, "recover", ["action", "rest", "injury"] as const, "action");
      if (kind === "rest") {
        const r = healTrack(track, { type: "rest" });
        return trackAnswer(r.track, r.steps);
      }
      const dice = record(o, "").dice;
      if (!Array.isArray(dice) || dice.length !== 2)
        throw new RulesError("dice", "FUDGE.Error.MissingDice", "give the two d20 as [black, white]");
      const [black, white] = [int(dice[0], at("dice", 0), 1, 20), int(dice[1], at("dice", 1), 1, 20)];
      if (kind === "action") {
        const r = recoverAction(track, int(o.willpower, "willpower", 0, 99), black, white);
        return trackAnswer(r.track, r.steps, { roll: r.roll });
      }
      const r = healTrack(track, {
        type: "injuryRecovery",
        black,
        white,
        strength: int(o.strength, "strength", 0, 99),
        medical: optInt(o.medical, "medical", 0, 0, 99),
      });
      return trackAnswer(r.track, r.steps);
    },
  },
};
