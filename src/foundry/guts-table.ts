/**
 * Gathers what a Guts check needs from the live table (the viewed scene's tokens, the current
 * combat's combatants) as plain data for src/system/guts.ts; the checks themselves are flows
 * (src/system/flows/guts.ts), which read it through the port (HostPort.table.gutsCircumstances).
 */
import { plainActor, worldRules } from "./bridge";
import type { ActorDoc, WorldRules } from "../system/data";
import { readActor } from "../system/combatant";
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
export function gutsTableOf(
  actor: Actor.Implementation,
  self: ActorDoc = plainActor(actor),
  rules: WorldRules = worldRules(),
): GutsTable {
  // Each model on the table read once (its track parsed once, however often the rules read it).
  const read = (a: Actor.Implementation) => (a === actor ? self : readActor(plainActor(a), rules));
  const models = new Map<string, TableModel>();
  for (const t of (canvas?.scene?.tokens?.contents ?? []) as unknown as TokenLike[]) {
    if (!t.actor || !t.id) continue;
    models.set(t.id, {
      id: t.id,
      actor: read(t.actor),
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
        actor: read(c.actor),
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

/**
 * The circumstances of `actor`'s Guts checks now: its standing and what the live table shows.
 * `doc`: the actor as a flow read it (its track parsed once), used for each of its own tokens too.
 */
export function liveGutsCircumstances(
  actor: Actor.Implementation,
  doc: ActorDoc = plainActor(actor),
  rules: WorldRules = worldRules(),
): GutsCircumstances {
  return gutsCircumstances(doc, gutsTableOf(actor, doc, rules), rules);
}
