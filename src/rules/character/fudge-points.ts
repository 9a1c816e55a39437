/**
 * Fudge Points (Fudge §1.36; the uses as the Fudge SRD words them): a player spends one to
 *  - alter a die roll one level, up or down — his own roll or one the GM makes that directly
 *    concerns his character;
 *  - accomplish an Unopposed action automatically — the GM may veto it for a Difficulty Level
 *    beyond Superb, or more than 3 levels above the trait rolled against;
 *  - declare a wound not as bad as it looked: one wound one level less (a Hurt becomes a Scratch);
 *  - survive a deadly blow (§4.64 PC Death: the box track's `spendFudgePoint` safeguard turns it).
 * Each spend is a record on the spender's own pool (who, use, cost, what it changed); a refund
 * gives its points back. Pure: the caller supplies ids and times.
 */
import { RulesError } from "../errors";
import { array, at, bool, int, oneOf, optInt, record, str, type Path } from "../validate";

export const FUDGE_POINT_USES = ["alterRoll", "unopposedSuccess", "reduceWound", "deathSave"] as const;
export type FudgePointUse = (typeof FUDGE_POINT_USES)[number];

/** The source of each use. */
export const FUDGE_POINT_RULES: Readonly<Record<FudgePointUse, string>> = Object.freeze({
  alterRoll: "Fudge §1.36",
  unopposedSuccess: "Fudge §1.36",
  reduceWound: "Fudge §1.36",
  deathSave: "Fudge §4.64",
});

/** Most points a pool holds and most spends its log keeps (older spends are evicted: no refund). */
export const MAX_FUDGE_POINTS = 999;
export const MAX_FUDGE_POINT_LOG = 200;
const MAX_ID = 64;

/** The text's limits on an automatic success (§1.36): past them only with the GM's leave. */
export const AUTO_SUCCESS_MAX_DIFFICULTY = 3; // Superb
export const AUTO_SUCCESS_MAX_ABOVE_TRAIT = 3;

/** What a spend changed: a roll's result, an action's outcome, a wound's level. */
export interface FudgePointChange {
  /** What the change applies to: a chat card's roll, a wound on the track (opaque to the rules). */
  target: string;
  from: number;
  to: number;
}

export interface FudgePointSpend {
  id: string;
  at: string;
  /** The actor whose points paid: always the pool's owner. */
  who: string;
  use: FudgePointUse;
  cost: number;
  change: FudgePointChange;
}

export interface FudgePointPool {
  /** The actor owning these points. */
  actor: string;
  points: number;
  log: FudgePointSpend[];
}

const id = (v: unknown, path: Path): string => {
  const s = str(v, path);
  if (s.length === 0 || s.length > MAX_ID)
    throw new RulesError(path, "FUDGE.Error.FudgePoints.BadId", `must be 1 to ${MAX_ID} characters`, { max: MAX_ID });
  return s;
};

function parseSpend(v: unknown, path: Path): FudgePointSpend {
  const o = record(v, path);
  const c = record(o.change, at(path, "change"));
  return {
    id: id(o.id, at(path, "id")),
    at: id(o.at, at(path, "at")),
    who: id(o.who, at(path, "who")),
    use: oneOf(o.use, at(path, "use"), FUDGE_POINT_USES),
    cost: int(o.cost, at(path, "cost"), 0, MAX_FUDGE_POINTS),
    change: {
      target: id(c.target, at(at(path, "change"), "target")),
      from: int(c.from, at(at(path, "change"), "from"), -100, 100),
      to: int(c.to, at(at(path, "change"), "to"), -100, 100),
    },
  };
}

/** Validates a stored pool (a claim from the actor's data); every spend must be the owner's own. */
export function parseFudgePointPool(input: unknown, path: Path = "fudgePoints"): FudgePointPool {
  const o = record(input, path);
  const actor = id(o.actor, at(path, "actor"));
  const log =
    o.log === undefined
      ? []
      : array(o.log, at(path, "log"), 0, MAX_FUDGE_POINT_LOG).map((s, i) => parseSpend(s, at(at(path, "log"), i)));
  log.forEach((s, i) => {
    if (s.who !== actor)
      throw new RulesError(
        at(at(at(path, "log"), i), "who"),
        "FUDGE.Error.FudgePoints.NotYours",
        "a spend on this pool must be its owner's",
        { who: s.who },
      );
  });
  return { actor, points: optInt(o.points, at(path, "points"), 0, 0, MAX_FUDGE_POINTS), log };
}

/** A request to spend: the use's own inputs, validated by `fudgePointChange`. */
export interface FudgePointRequest {
  id: string;
  at: string;
  /** The actor asking to spend: must own the pool. */
  by: string;
  use: FudgePointUse;
  /** What the spend applies to (a card's roll id, a wound's place on the track). */
  target: string;
  /** alterRoll and unopposedSuccess (when rolled): the roll's result; reduceWound: the wound's level (1 = the track's first level); deathSave: the level dealt. */
  from?: number;
  /** alterRoll: +1 or −1. */
  direction?: number;
  /** unopposedSuccess: the trait rolled against and the Difficulty Level. */
  trait?: number;
  difficulty?: number;
  /** unopposedSuccess: the GM allows it past the text's limits. deathSave: the level the save leaves. */
  gmAllows?: boolean;
  to?: number;
}

/** What the use changes, by the text's rule for it; refuses what the text does not allow. */
export function fudgePointChange(r: FudgePointRequest): FudgePointChange {
  const target = id(r.target, "target");
  switch (oneOf(r.use, "use", FUDGE_POINT_USES)) {
    case "alterRoll": {
      // "Alter a die roll one level, up or down as desired."
      const from = int(r.from, "from", -100, 100);
      const d = int(r.direction, "direction", -1, 1);
      if (d === 0)
        throw new RulesError("direction", "FUDGE.Error.FudgePoints.Direction", "one level up (+1) or down (−1)");
      return { target, from, to: from + d };
    }
    case "unopposedSuccess": {
      const trait = int(r.trait, "trait", -100, 100);
      const difficulty = int(r.difficulty, "difficulty", -100, 100);
      const beyond = difficulty > AUTO_SUCCESS_MAX_DIFFICULTY || difficulty - trait > AUTO_SUCCESS_MAX_ABOVE_TRAIT;
      if (beyond && !bool(r.gmAllows, "gmAllows", false))
        throw new RulesError(
          "difficulty",
          "FUDGE.Error.FudgePoints.BeyondLimit",
          "past Superb, or more than 3 levels above the trait: only if the GM allows",
          {
            trait,
            difficulty,
          },
        );
      // The action succeeds: its result is the Difficulty Level met. `from`: the rolled result when
      // the dice were thrown (a roll that already met the Difficulty needs no point), else the trait.
      if (r.from === undefined) return { target, from: trait, to: Math.max(trait, difficulty) };
      const rolled = int(r.from, "from", -100, 100);
      if (rolled >= difficulty)
        throw new RulesError("from", "FUDGE.Error.FudgePoints.AlreadySuccess", "the roll already succeeds", {
          difficulty,
        });
      return { target, from: rolled, to: difficulty };
    }
    case "reduceWound": {
      // "This reduces one wound by one level (a Hurt becomes a Scratch, etc.)": level 1 goes to none (0).
      const from = int(r.from, "from", 1, 20);
      return { target, from, to: from - 1 };
    }
    case "deathSave": {
      // §4.64: the wound a Fudge Point turns; the box track computes `to` (`spendFudgePoint`).
      const from = int(r.from, "from", 1, 20);
      const to = int(r.to, "to", 0, from - 1);
      return { target, from, to };
    }
  }
}

/** Fudge Points each use costs: one, as the text has it; a world may price a use higher. */
export function fudgePointCost(use: FudgePointUse, costs: Partial<Record<FudgePointUse, number>> = {}): number {
  return optInt(costs[use], `costs.${use}`, 1, 1, MAX_FUDGE_POINTS);
}

/**
 * Spends Fudge Points from the spender's own pool. Refused when the spender is not the pool's
 * owner, when he has fewer points than the use costs, or when the use's rule refuses it.
 */
export function spendFudgePoint(
  pool: FudgePointPool,
  request: FudgePointRequest,
  costs: Partial<Record<FudgePointUse, number>> = {},
): { pool: FudgePointPool; spend: FudgePointSpend; rule: string } {
  const by = id(request.by, "by");
  if (by !== pool.actor)
    throw new RulesError("by", "FUDGE.Error.FudgePoints.NotYours", "one spends only one's own Fudge Points", {
      who: by,
    });
  const spendId = id(request.id, "id");
  if (pool.log.some((s) => s.id === spendId))
    throw new RulesError("id", "FUDGE.Error.FudgePoints.DuplicateId", `the id ${spendId} is used twice`, {
      id: spendId,
    });
  const use = oneOf(request.use, "use", FUDGE_POINT_USES);
  const change = fudgePointChange(request);
  const cost = fudgePointCost(use, costs);
  if (cost > pool.points)
    throw new RulesError(
      "points",
      "FUDGE.Error.FudgePoints.NotEnough",
      `costs ${cost} Fudge Point(s), ${pool.points} left`,
      {
        cost,
        points: pool.points,
      },
    );
  const spend: FudgePointSpend = { id: spendId, at: id(request.at, "at"), who: by, use, cost, change };
  const log = [...pool.log, spend];
  return {
    pool: {
      ...pool,
      points: pool.points - cost,
      log: log.length > MAX_FUDGE_POINT_LOG ? log.slice(log.length - MAX_FUDGE_POINT_LOG) : log,
    },
    spend,
    rule: FUDGE_POINT_RULES[use],
  };
}

/** Gives back a spend's points (its card undone). Refused for a spend the pool does not hold (never made, or evicted). */
export function refundFudgePoint(
  pool: FudgePointPool,
  spendId: string,
): { pool: FudgePointPool; spend: FudgePointSpend } {
  const i = pool.log.findIndex((s) => s.id === spendId);
  if (i < 0)
    throw new RulesError(
      "spend",
      "FUDGE.Error.FudgePoints.UnknownSpend",
      `no spend ${spendId} on this pool (it may have been evicted)`,
      { spend: spendId },
    );
  const spend = pool.log[i];
  return {
    pool: {
      ...pool,
      points: Math.min(MAX_FUDGE_POINTS, pool.points + spend.cost),
      log: pool.log.filter((_, j) => j !== i),
    },
    spend,
  };
}

/** The GM awards Fudge Points (§1.36: she sets the starting number and gives more in play). */
export function awardFudgePoints(pool: FudgePointPool, amount: number): FudgePointPool {
  const n = int(amount, "amount", 1, MAX_FUDGE_POINTS);
  if (pool.points + n > MAX_FUDGE_POINTS)
    throw new RulesError("amount", "FUDGE.Error.FudgePoints.TooMany", `a pool holds at most ${MAX_FUDGE_POINTS}`, {
      max: MAX_FUDGE_POINTS,
    });
  return { ...pool, points: pool.points + n };
}
