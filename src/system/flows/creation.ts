/**
 * Character creation's edits (issue 31), each written once for Foundry and the playground: an owned
 * item's field picked on the actor sheet (a skill's level by ladder name, a weapon's skill), the GM's
 * pick of the world's creation method, and, after the rules menu saves another attribute set, each
 * actor's levels carried to the new keys by role (Damage Capacity → Health), nothing deleted.
 */
import * as actions from "../actions";
import { remapAttributes } from "../attributes";
import type { WorldRules } from "../data";
import type { HostPort } from "./port";
import { liveActor } from "./read";

/** An owned item's field the actor sheet edits inline, checked by setItemField (refused for a non-owner). */
export async function editItemField(
  port: HostPort,
  actorRef: string,
  itemId: string,
  path: string,
  raw: unknown,
): Promise<void> {
  const { update } = actions.setItemField(liveActor(port, actorRef, port.rules()), itemId, path, raw, port.user);
  await port.items.update(actorRef, itemId, update);
}

/** The world's creation method (Fudge §1.5, §1.6, Five-Point Fudge), picked on a creation panel: GM only. */
export async function pickCreationMethod(port: HostPort, raw: unknown): Promise<void> {
  await port.setRule("creation", actions.setCreationMethod(port.rules().creation, raw, port.user.isGM));
}

/**
 * The GM saved another attribute set: each actor's levels follow their roles to the new keys,
 * written in the actor's turn only where something moves (src/system/attributes.ts remapAttributes).
 */
export async function carryAttributes(
  port: HostPort,
  actorRefs: readonly string[],
  before: WorldRules,
  after: WorldRules,
): Promise<void> {
  if (JSON.stringify(before.attributeSet) === JSON.stringify(after.attributeSet)) return;
  for (const ref of actorRefs)
    await port.writeActor(ref, async (turn) => {
      const actor = turn.read();
      if (actor.type === "miniature") return;
      const attributes = (actor.system as { attributes?: Record<string, unknown> }).attributes;
      const moved = remapAttributes(attributes, before.attributeSet, after.attributeSet);
      if (moved) await turn.write({ system: { attributes: moved } });
    });
}
