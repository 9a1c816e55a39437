/**
 * An opposed trait roll (Fudge §3.5 opposed actions: "each side rolls … the relative degree"): two
 * actors, one card. The first rolls from his sheet, naming his opponent (one of his targets); the
 * card waits for the opponent, whose owner rolls the same trait from the card. The opponent's result
 * is derived by the client that writes it (his owner's, or the GM's for a relayed click) from the
 * live opponent and the dice it rolled itself, never from the card.
 */
import { RulesError, signed } from "../rules";
import type { ActorDoc, WorldRules } from "./data";
import { actorRef, itemsOf } from "./combatant";
import { rollTrait, traitLevel, type OpposedSide, type RollCardData } from "./actions/trait-roll";
export type { OpposedSide };
import type { UserRef } from "./permissions";

/** The opponent's key for the same trait: an attribute as it is; a skill by the same name among his own skills. */
function opponentKey(first: ActorDoc, opponent: ActorDoc, traitKey: string): string {
  if (!traitKey.startsWith("skill:")) return traitKey;
  const name =
    (first.items ?? [])
      .find((i) => i._id === traitKey.slice(6))
      ?.name.trim()
      .toLowerCase() ?? "";
  const his = itemsOf(opponent, "skill").find((s) => s.name.trim().toLowerCase() === name);
  if (!his)
    throw new RulesError("opponent", "FUDGE.Error.Opposed.NoTrait", `${opponent.name} has no such skill`, {
      name: opponent.name,
    });
  return `skill:${his._id}`;
}

/** The opponent's pending side (refused before any die when he has no such trait, or it is a Volt roll). */
export function opposedSide(first: ActorDoc, opponent: ActorDoc, traitKey: string, rules: WorldRules): OpposedSide {
  if (traitKey.startsWith("volt."))
    throw new RulesError("opponent", "FUDGE.Error.Opposed.NotVolt", "a Volt roll is not opposed on the card", {
      name: opponent.name,
    });
  const key = opponentKey(first, opponent, traitKey);
  const t = traitLevel(opponent, key, rules);
  return {
    actorId: actorRef(opponent),
    actorName: opponent.name,
    traitKey: key,
    traitLabelKey: t.labelKey,
    traitName: t.name,
    level: t.level,
    dice: null,
    penalty: 0,
    result: 0,
    resultName: "",
    by: "",
  };
}

/** The opponent's roll: his trait, his wound penalty, the faces rolled (and his Willpower roll's, when his world asks). */
export function opposedRoll(
  card: RollCardData,
  opponent: ActorDoc,
  faces: number[],
  rules: WorldRules,
  opts: { user: UserRef; inCombat: boolean; willpowerDice?: number[]; throws?: number[][] },
): OpposedSide {
  const side = card.opposed;
  if (!side || side.actorId !== actorRef(opponent))
    throw new RulesError("opponent", "FUDGE.Error.Opposed.NotOpponent", `${opponent.name} is not the opponent`, {
      name: opponent.name,
    });
  if (side.dice)
    throw new RulesError("opponent", "FUDGE.Error.Opposed.Rolled", `${opponent.name} has already rolled`, {
      name: opponent.name,
    });
  const r = rollTrait(opponent, side.traitKey, faces, rules, {
    difficulty: card.difficulty,
    user: opts.user,
    inCombat: opts.inCombat,
    ...(opts.willpowerDice ? { willpowerDice: opts.willpowerDice } : {}),
    ...(opts.throws ? { throws: opts.throws } : {}),
  });
  return {
    ...side,
    traitLabelKey: r.traitLabelKey,
    traitName: r.traitName,
    level: r.level,
    dice: [...r.dice],
    penalty: r.penalty,
    result: r.result,
    resultName: r.resultName,
    by: opts.user.id,
  };
}

/** Fudge §3.5: the higher result wins by the relative degree; equal results are a tie. Null while pending. */
export function opposedOutcome(card: RollCardData): { key: string; params: Record<string, string> } | null {
  const o = card.opposed;
  if (!o || !o.dice) return null;
  const rd = card.result - o.result;
  if (rd === 0) return { key: "FUDGE.Opposed.Tie", params: { a: card.actorName, b: o.actorName } };
  const [winner, loser] = rd > 0 ? [card.actorName, o.actorName] : [o.actorName, card.actorName];
  return { key: "FUDGE.Opposed.Wins", params: { winner, loser, rd: signed(Math.abs(rd)) } };
}
