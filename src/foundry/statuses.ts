/** Keeps token statuses and the combat tracker's defeated flag in step with the wound track. */
import type { TrackStatus } from "../rules";
import type { ActorType } from "../system/data";
import { worldRules } from "./bridge";
import { writeQueue } from "./write-queue";
import { SYSTEM_ID } from "../system/registry";
import { isRulesError } from "../rules";
import { parseGutsState } from "../rules/miniatures";
import { defeatedPlan, statusesFor, statusPlan, WOUND_STATUS_EFFECTS } from "../system/statuses";

export function registerStatusEffects(): void {
  // v13: an array of {id, name, img}; v14: a record keyed by id (the array still works there
  // through a compatibility layer). Write the shape this core has.
  const list = CONFIG.statusEffects as unknown as
    { id: string; name: string; img: string }[] | Record<string, { id: string; name: string; img: string }>;
  for (const e of WOUND_STATUS_EFFECTS) {
    if (Array.isArray(list)) {
      if (!list.some((x) => x.id === e.id)) list.push({ ...e });
    } else list[e.id] ??= { ...e };
  }
  // Taken Out / Dead mark the combatant defeated (core uses "dead" by default).
  (CONFIG.specialStatusEffects as unknown as Record<string, string>).DEFEATED = "dead";
}

const FLAG_MINE = "setBySystem";
const FLAG_DEFEATED = "defeatedSet";

type EffectLike = {
  statuses: Set<string>;
  getFlag(scope: string, key: string): unknown;
  setFlag(scope: string, key: string, v: unknown): Promise<unknown>;
};
const isOwnStatus = (id: string) => WOUND_STATUS_EFFECTS.some((e) => e.id === id);

/**
 * The statuses this system set on the actor: its own namespaced ones, and core ones (dead,
 * prone) whose effect it marked when it added them. Nothing is written to the actor itself.
 */
function statusesSetBySystem(actor: Actor.Implementation): string[] {
  const out = new Set<string>();
  for (const e of actor.effects.contents as unknown as EffectLike[])
    for (const id of e.statuses) if (isOwnStatus(id) || e.getFlag(SYSTEM_ID, FLAG_MINE) === true) out.add(id);
  return [...out];
}

/**
 * Called by the active GM after an actor's wound track or Guts state changed: the token statuses and the
 * tracker's defeated flag follow the track, but only those this system set itself change: a
 * `dead`, `prone` or defeated flag the GM set by hand survives any wound change. Runs in the
 * actor's status lane, one at a time.
 */
export function syncStatuses(actor: Actor.Implementation): Promise<void> {
  return writeQueue(`status:${actor.uuid}`, () => syncNow(actor));
}

/** The worst Guts failure in force on a miniature, read from its stored state (0 when none or unreadable). */
function gutsEffectOf(actor: Actor.Implementation): number {
  if (actor.type !== "miniature") return 0;
  try {
    return parseGutsState((actor.system as unknown as { gutsState?: unknown }).gutsState, "system.gutsState").effect;
  } catch (e) {
    if (isRulesError(e)) return 0;
    throw e;
  }
}

async function syncNow(actor: Actor.Implementation): Promise<void> {
  const status = (actor.system as unknown as { derived?: { status?: TrackStatus } }).derived?.status;
  if (!status) return;
  const wanted = statusesFor(status, worldRules().preset, actor.type as ActorType, gutsEffectOf(actor));
  const plan = statusPlan(actor.statuses, statusesSetBySystem(actor), wanted.statuses);
  for (const id of plan.add) {
    await actor.toggleStatusEffect(id, { active: true, overlay: id === wanted.overlay });
    // A core status (dead, prone) is marked on its effect, so that only this system takes it off again.
    if (!isOwnStatus(id)) {
      const effect = (actor.effects.contents as unknown as EffectLike[]).find((e) => e.statuses.has(id));
      await effect?.setFlag(SYSTEM_ID, FLAG_MINE, true);
    }
  }
  for (const id of plan.remove) await actor.toggleStatusEffect(id, { active: false });
  for (const c of game.combats?.contents ?? []) {
    for (const cb of c.combatants.contents) {
      if (cb.actor?.uuid !== actor.uuid) continue;
      const mine = cb.getFlag(SYSTEM_ID as never, FLAG_DEFEATED as never) === true;
      const d = defeatedPlan(cb.defeated, mine, wanted.defeated);
      if (d.set !== null)
        await cb.update({ defeated: d.set, flags: { [SYSTEM_ID]: { [FLAG_DEFEATED]: d.mine } } } as never);
      else if (mine !== d.mine) await cb.setFlag(SYSTEM_ID as never, FLAG_DEFEATED as never, d.mine as never);
    }
  }
}
