/**
 * Every outcome of one attack (or opposed round) between two sides in given statuses, by exact
 * enumeration of the preset pipeline's dice: the same resolve function as a chat card, its
 * outcomes merged by what they do to each side.
 */
import { RulesError } from "../errors";
import {
  enumerateDice,
  type AttackPipeline,
  type AttackRequest,
  type AttackResolution,
  type DiceReader,
  type DiceSlot,
} from "../pipeline";
import type { TrackStatus } from "../track";
import type { SideChanges, TurnOutcome } from "./changes";
import type { DiceFolding, OpposedRound } from "./rules";

/** The two rolls of an opposed exchange (the `defense` slot id is stored on chat cards: it keeps its spelling). */
const ATTACK_SLOT = "attack";
const DEFENCE_SLOT = "defense";

/** The engine reads the wound and applies it to the real state itself. */
const QUIET = { explain: false, preview: false } as const;

const BOTH_STRIKE: OpposedRound = { firstStrikes: true, secondStrikes: true, roundEnd: null };

export interface AttackEnumeration {
  pipeline: AttackPipeline;
  /** The side whose turn it is attacking the other, and the other attacking it (read in an opposed round). */
  attack: AttackRequest;
  counterAttack: AttackRequest;
  attackerStatus: TrackStatus;
  defenderStatus: TrackStatus;
  folding: DiceFolding | null;
  opposedRound: ((first: TrackStatus, second: TrackStatus) => OpposedRound) | undefined;
  changes: SideChanges;
  /** The attack is the free attack the defender owed: its change ends that debt. */
  free: boolean;
}

/**
 * The outcomes of one attack: `attack` strikes; in an opposed exchange the loser of the roll is
 * wounded (the winner of a negative relative degree strikes back with the same dice).
 */
export function enumerateAttack(e: AttackEnumeration): TurnOutcome[] {
  const { pipeline: p, attack, counterAttack, folding, changes } = e;
  const opposed = p.exchange === "opposed";
  let slots = p.slots(attack);
  const folded = (s: DiceSlot): boolean => folding !== null && (s.id === folding.slots[0] || s.id === folding.slots[1]);
  if (folding) slots = [folding.slot, ...slots.filter((s) => !folded(s))];
  const counter: DiceSlot[] = opposed
    ? p
        .slots(counterAttack)
        .filter((s) => !folded(s))
        .map((s) => ({ ...s, id: counterId(s.id) }))
    : [];
  const round = opposed && e.opposedRound ? e.opposedRound(e.attackerStatus, e.defenderStatus) : BOTH_STRIKE;
  // The readers of one leaf, made once: `dice` is the enumeration's reader (the same object for every leaf).
  let dice: DiceReader = () => [];
  const direct: DiceReader = folding
    ? (id) =>
        id === folding.slots[0]
          ? folding.halves(dice(folding.slot.id))[0]
          : id === folding.slots[1]
            ? folding.halves(dice(folding.slot.id))[1]
            : dice(id)
    : (id) => dice(id);
  // The other side's view of the same two rolls (Fudge §4.3).
  const swapped: DiceReader = (id) =>
    id === ATTACK_SLOT ? direct(DEFENCE_SLOT) : id === DEFENCE_SLOT ? direct(ATTACK_SLOT) : dice(counterId(id));
  // When the folded rolls are the only dice, the relative degree is the class's difference plus a
  // constant of the request: once a resolution has shown it, a class where the attacker loses the
  // roll is known to be its miss, which deals and heals nothing, and only the strike back is
  // resolved (a third of the resolutions).
  const onlyPair =
    folding !== null && folding.relativeDegreeIsDifference && opposed && slots.length === 1 && counter.length === 0;
  let degreeBase: number | null = null;
  const merged = new Map<number, TurnOutcome>();
  const leaf = (reader: DiceReader): number => {
    dice = reader;
    let first: AttackResolution | null = null;
    let second: AttackResolution | null = null;
    if (round.firstStrikes) {
      const diff = onlyPair ? folding.difference(dice(folding.slot.id)) : 0;
      let degree: number;
      if (degreeBase !== null && degreeBase + diff < 0) degree = degreeBase + diff;
      else {
        first = p.resolve(attack, direct, QUIET);
        degree = first.numbers.relativeDegree ?? 0;
        if (onlyPair && first.numbers.relativeDegree !== undefined) degreeBase = degree - diff;
      }
      // The defender won the opposed roll and strikes back, if he may.
      if (opposed && round.secondStrikes && degree < 0) second = p.resolve(counterAttack, swapped, QUIET);
    } else if (round.secondStrikes) {
      // The first side may not strike: it only defends, and the other strikes if it wins the roll.
      second = p.resolve(counterAttack, swapped, QUIET);
    }
    const end = round.roundEnd;
    const self = changes.ofResolution(
      second,
      end !== null ? end : (followHeal(first, "attacker") ?? followHeal(second, "defender")),
      false,
    );
    const foe = changes.ofResolution(
      first,
      end !== null ? end : (followHeal(first, "defender") ?? followHeal(second, "attacker")),
      e.free,
    );
    return self * 2 ** 20 + foe;
  };
  const add = (k: number, prob: number): void => {
    const m = merged.get(k);
    if (m) m.p += prob;
    else merged.set(k, { self: Math.floor(k / 2 ** 20), foe: k % 2 ** 20, p: prob });
  };
  if (onlyPair && round.roundEnd === null) {
    // The folded classes one by one, in enumerateDice's order and with its probabilities (every
    // leaf reads them: no search for the slots it reads), so the same sums.
    let current: number[] = [];
    const foldId = folding.slot.id;
    const reader: DiceReader = (id) => {
      if (id === foldId) return current;
      throw new RulesError(`dice.${id}`, "FUDGE.Error.UnknownDice", `no dice slot "${id}" in this pipeline`);
    };
    for (const o of slots[0].outcomes()) {
      if (o.p === 0) continue;
      current = o.dice;
      add(leaf(reader), 1 * o.p);
    }
  } else enumerateDice([...slots, ...counter], leaf, add);
  return [...merged.values()];
}

/** The healing a resolution's follow-up asks of one side (FATE Clipped consumed), or null. */
function followHeal(r: AttackResolution | null, side: "attacker" | "defender"): unknown {
  // Nearly every resolution has no follow-up: no search (and no closure) for those.
  if (r === null || r.followUps.length === 0) return null;
  const f = r.followUps.find((x) => x.target === side && typeof x.params.healing === "string");
  return f ? { type: String(f.params.healing) } : null;
}

/** `counter:<slot>`, the other side's slots in an opposed round, built once per slot id. */
const COUNTER_IDS = new Map<string, string>();
const counterId = (id: string): string => {
  let c = COUNTER_IDS.get(id);
  if (c === undefined) COUNTER_IDS.set(id, (c = `counter:${id}`));
  return c;
};
