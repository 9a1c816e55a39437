/** Keeps token statuses and the combat tracker's defeated flag in step with the wound track. */
import type { TrackStatus } from "../rules/track";
import type { ActorType } from "../system/data";
import { worldRules } from "./bridge";
import { statusChanges, statusesFor, WOUND_STATUS_EFFECTS } from "./statuses-pure";

export function registerStatusEffects(): void {
  // v13: an array of {id, name, img}; v14: a record keyed by id (the array still works there
  // through a compatibility layer). Write the shape this core has.
  const list = CONFIG.statusEffects as unknown as { id: string; name: string; img: string }[] | Record<string, { id: string; name: string; img: string }>;
  for (const e of WOUND_STATUS_EFFECTS) {
    if (Array.isArray(list)) {
      if (!list.some((x) => x.id === e.id)) list.push({ ...e });
    } else list[e.id] ??= { ...e };
  }
  // Taken Out / Dead mark the combatant defeated (core uses "dead" by default).
  (CONFIG.specialStatusEffects as unknown as Record<string, string>).DEFEATED = "dead";
}

/** Called by the active GM after an actor's wound track changed. */
export async function syncStatuses(actor: Actor.Implementation): Promise<void> {
  const status = (actor.system as unknown as { derived?: { status?: TrackStatus } }).derived?.status;
  if (!status) return;
  const wanted = statusesFor(status, worldRules().preset, actor.type as ActorType);
  const { add, remove } = statusChanges(actor.statuses, wanted.statuses);
  for (const id of add) await actor.toggleStatusEffect(id, { active: true, overlay: id === wanted.overlay });
  for (const id of remove) await actor.toggleStatusEffect(id, { active: false });
  for (const c of game.combats?.contents ?? []) {
    for (const cb of c.combatants.contents) {
      if (cb.actor?.uuid === actor.uuid && cb.defeated !== wanted.defeated) await cb.update({ defeated: wanted.defeated });
    }
  }
}

