/**
 * Gathers what a Guts check needs from the live table (the viewed scene's tokens, the current
 * combat's combatants) as plain data for src/system/guts.ts, and the Guts checks the table runs itself:
 * after a wound, at turn start, and for the friends in a melee a friend shot into. Every roll is a
 * Foundry Roll; every rule is the rules core's.
 */
import { gutsRecheck, gutsTrigger, type GutsReason, traitWith, type MiniDatacard } from "../rules/miniatures";
import { gutsRules, miniGuts } from "../system/actions";
import { gutsTraitLines } from "../system/guts-dialog";
import { fill } from "../system/i18n";
import { GUTS_ROLL, rollSlot, type SlotRoll } from "../system/rolling";
import { plainActor, worldRules } from "./bridge";
import { foundryRoller, postRollNote } from "./dice";
import { gutsCircumstances, type GutsCircumstances, type GutsTable, type TableModel } from "../system/guts";
import type { TokenBox } from "../rules/miniatures";

/** A token document as this code reads it. */
export type TokenLike = {
  id: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
  disposition: number;
  actor: Actor.Implementation | null;
  center?: { x: number; y: number };
};

/** A token's base in grid squares (src/rules/miniatures/table.ts). */
export function tokenBox(t: TokenLike): TokenBox {
  const size = canvas?.grid?.size ?? 100;
  return { id: String(t.id), x: t.x / size, y: t.y / size, w: t.width, h: t.height, disposition: t.disposition };
}

type CombatantLike = {
  id: string | null;
  tokenId: string | null;
  actor: Actor.Implementation | null;
  token: TokenLike | null;
  isDefeated: boolean;
};

/**
 * The table around `actor`: every token of the viewed scene and every combatant of the current
 * combat (one entry per token), and the actor's own — its token when it is a token's actor,
 * else its combatant's, else its first token on the scene.
 */
export function gutsTableOf(actor: Actor.Implementation): GutsTable {
  const models = new Map<string, TableModel>();
  for (const t of (canvas?.scene?.tokens?.contents ?? []) as unknown as TokenLike[]) {
    if (!t.actor || !t.id) continue;
    models.set(t.id, {
      id: t.id,
      actor: plainActor(t.actor),
      disposition: t.disposition,
      box: tokenBox(t),
      inCombat: false,
      defeated: false,
    });
  }
  const combatants = (game.combat?.combatants?.contents ?? []) as unknown as CombatantLike[];
  for (const c of combatants) {
    const id = String(c.token?.id ?? c.tokenId ?? c.id);
    const m = models.get(id);
    if (m) Object.assign(m, { inCombat: true, defeated: c.isDefeated === true });
    else if (c.actor)
      models.set(id, {
        id,
        actor: plainActor(c.actor),
        disposition: c.token?.disposition ?? 0,
        box: null,
        inCombat: true,
        defeated: c.isDefeated === true,
      });
  }
  const mine = combatants.find((c) => !!c.actor && c.actor.uuid === actor.uuid);
  const own =
    (actor as unknown as { token?: { id: string | null } | null }).token?.id ??
    (mine ? (mine.token?.id ?? mine.tokenId) : null) ??
    (actor.getActiveTokens(false, true) as unknown as TokenLike[])[0]?.id ??
    null;
  return { self: own ? (models.get(own) ?? null) : null, others: [...models.values()] };
}

/** The circumstances of `actor`'s Guts checks now: its standing and what the live table shows. */
export function liveGutsCircumstances(actor: Actor.Implementation): GutsCircumstances {
  return gutsCircumstances(plainActor(actor), gutsTableOf(actor), worldRules());
}

const format = (k: string, p: Record<string, string | number>) =>
  fill(game.i18n!.localize(k), p, (v) => game.i18n!.localize(v));

/** The model's Guts (lowered by its wounds), datacard and stored failures: the sheet's Guts actions read the same (src/system/actions/miniature-guts.ts). */
const gutsOf = (actor: Actor.Implementation) => miniGuts(plainActor(actor), worldRules());

/** The situation flags of a check from the circumstances (each counts only where a datacard gives it a rule). */
const flagsOf = (c: GutsCircumstances) => ({
  defendingKing: c.defendingKing,
  nobleInMelee: c.nobleInMelee,
  leaderFallen: c.leaderFallen,
});

/**
 * Miniatures: Sample characters — Mercenary "will flee the combat on any failed Guts check": the
 * note says so in the game's words; the GM takes the model from the table (no core status means
 * "fled", and nothing else on the model changes).
 */
function fleesLine(name: string | null, card: MiniDatacard): string {
  const trait = traitWith(card, "mercenary");
  return game.i18n!.format("FUDGE.Miniatures.FleesCombat", { name: name ?? "", trait: trait?.name ?? "" });
}

/**
 * Immediate Guts checks of one model (Miniatures: Guts), each with its own Roll, under its standing
 * and the live table's circumstances; the failures are stored for the re-checks and one note says
 * each result and what counted. `lead` opens the note (why the model checks), when given.
 */
export async function runGutsChecks(
  actor: Actor.Implementation,
  checks: readonly { target: number; reason: GutsReason }[],
  turn: number,
  opts: { lead?: string; update?: Record<string, unknown> } = {},
): Promise<void> {
  if (!checks.length) return;
  const { guts, card, state: stored } = gutsOf(actor);
  const flags = flagsOf(liveGutsCircumstances(actor));
  let state = stored;
  const lines: string[] = opts.lead ? [opts.lead] : [];
  const rolled: SlotRoll<Roll>[] = [];
  for (const c of checks) {
    const roll = await rollSlot(GUTS_ROLL, foundryRoller);
    rolled.push(roll);
    // The datacard's gift and fault and the circumstances go with the check.
    const r = gutsTrigger(
      state,
      {
        ...flags,
        guts,
        faces: roll.faces,
        target: c.target,
        turn,
        reason: c.reason,
        gift: card.gift,
        fault: card.fault,
      },
      gutsRules(worldRules()),
    );
    state = r.state;
    lines.push(
      game.i18n!.format(r.check.passed ? "FUDGE.Miniatures.GutsPassed" : "FUDGE.Miniatures.GutsFailed", {
        total: String(r.check.total),
        target: String(r.check.target),
        effect: game.i18n!.localize(`FUDGE.Miniatures.Guts.Effect${r.check.effect}`),
      }),
    );
    // What counted (gifts, faults, circumstances, the −1 of a failure by 1 in force); the Mercenary's flight has its own line.
    lines.push(
      ...gutsTraitLines(
        r.steps.filter((s) => s.key !== "FUDGE.Miniatures.Step.Trait.mercenary"),
        format,
      ),
    );
    if (r.fleesCombat) lines.push(fleesLine(actor.name, card));
  }
  await actor.update({ ...(opts.update ?? {}), system: { gutsState: state } } as never);
  await postRollNote(actor, "FUDGE.Miniatures.GutsCheck", lines, rolled);
}

/**
 * Miniatures: Guts — each failed check still in force is re-checked on the model's later turns
 * with the cumulative bonus (src/rules/miniatures/guts.ts gutsRecheck), under the circumstances
 * of the table now; a pass ends it.
 */
export async function runGutsRechecks(actor: Actor.Implementation, turn: number): Promise<void> {
  const { guts, card, state: stored } = gutsOf(actor);
  const flags = flagsOf(liveGutsCircumstances(actor));
  let state = stored;
  const lines: string[] = [];
  const rolled: SlotRoll<Roll>[] = [];
  let i = 0;
  while (i < state.pending.length) {
    if (state.pending[i].lastTurn >= turn) {
      i++;
      continue;
    }
    const roll = await rollSlot(GUTS_ROLL, foundryRoller);
    rolled.push(roll);
    const r = gutsRecheck(
      state,
      roll.faces,
      turn,
      guts,
      0,
      i,
      { ...flags, gift: card.gift, fault: card.fault },
      gutsRules(worldRules()),
    );
    lines.push(
      game.i18n!.format(r.check.passed ? "FUDGE.Miniatures.GutsRecheckPassed" : "FUDGE.Miniatures.GutsRecheckFailed", {
        total: String(r.check.total),
        target: String(r.check.target),
      }),
    );
    // What counted (gifts, faults, circumstances, the −1 of a failure by 1 in force); the Mercenary's flight has its own line.
    lines.push(
      ...gutsTraitLines(
        r.steps.filter((s) => s.key !== "FUDGE.Miniatures.Step.Trait.mercenary"),
        format,
      ),
    );
    if (r.fleesCombat) lines.push(fleesLine(actor.name, card));
    state = r.state;
    if (!r.check.passed) i++;
  }
  if (!lines.length) return;
  await actor.update({ system: { gutsState: state } } as never);
  await postRollNote(actor, "FUDGE.Miniatures.GutsCheck", lines, rolled);
}
