/** Keeps token statuses and the combat tracker's defeated flag in step with the wound track. */
import type { TrackStatus } from "../rules/track";
import type { ActorType } from "../system/data";
import { worldRules, writeQueue } from "./bridge";
import { SYSTEM_ID } from "./registry";
import { defeatedPlan, statusesFor, statusPlan, WOUND_STATUS_EFFECTS } from "./statuses-pure";

export function registerStatusEffects(): void {
  const list = CONFIG.statusEffects as unknown as { id: string; name: string; img: string }[];
  for (const e of WOUND_STATUS_EFFECTS) if (!list.some((x) => x.id === e.id)) list.push({ ...e });
  // Taken Out / Dead mark the combatant defeated (core uses "dead" by default).
  (CONFIG.specialStatusEffects as unknown as Record<string, string>).DEFEATED = "dead";
}

const FLAG_MINE = "statusesSet";
const FLAG_DEFEATED = "defeatedSet";

/**
 * Called by the active GM after an actor's wound track changed: the token statuses and the
 * tracker's defeated flag follow the track, but only those this system set itself change (the
 * list is kept in the actor's and the combatant's flags): a `dead`, `prone` or defeated flag
 * the GM set by hand survives any wound change. Runs in the actor's status lane, one at a time.
 */
export function syncStatuses(actor: Actor.Implementation): Promise<void> {
  return writeQueue(`status:${actor.uuid}`, () => syncNow(actor));
}

async function syncNow(actor: Actor.Implementation): Promise<void> {
  const status = (actor.system as unknown as { derived?: { status?: TrackStatus } }).derived?.status;
  if (!status) return;
  const wanted = statusesFor(status, worldRules().preset, actor.type as ActorType);
  const stored = actor.getFlag(SYSTEM_ID as never, FLAG_MINE as never) as unknown;
  // Before this flag existed the system set only its own namespaced statuses.
  const mine = Array.isArray(stored) ? stored.filter((x): x is string => typeof x === "string") : [...actor.statuses].filter((id) => WOUND_STATUS_EFFECTS.some((e) => e.id === id));
  const plan = statusPlan(actor.statuses, mine, wanted.statuses);
  for (const id of plan.add) await actor.toggleStatusEffect(id, { active: true, overlay: id === wanted.overlay });
  for (const id of plan.remove) await actor.toggleStatusEffect(id, { active: false });
  if (!Array.isArray(stored) || stored.join() !== plan.mine.join()) await actor.setFlag(SYSTEM_ID as never, FLAG_MINE as never, plan.mine as never);
  for (const c of game.combats?.contents ?? []) {
    for (const cb of c.combatants.contents) {
      if (cb.actor?.uuid !== actor.uuid) continue;
      const d = defeatedPlan(cb.defeated, cb.getFlag(SYSTEM_ID as never, FLAG_DEFEATED as never) === true, wanted.defeated);
      if (d.set !== null) await cb.update({ defeated: d.set, flags: { [SYSTEM_ID]: { [FLAG_DEFEATED]: d.mine } } } as never);
      else if ((cb.getFlag(SYSTEM_ID as never, FLAG_DEFEATED as never) === true) !== d.mine) await cb.setFlag(SYSTEM_ID as never, FLAG_DEFEATED as never, d.mine as never);
    }
  }
}
