/** The sheet's plain document operations on items (Foundry's createEmbeddedDocuments, update, delete, sheets). */
import { RulesError } from "../../rules";
import type { HostPort } from "./port";
import { liveActor } from "./read";

export async function createItem(port: HostPort, actorRef: string, type: string): Promise<void> {
  const i18n = port.i18n;
  const name = i18n.has("DOCUMENT.New")
    ? i18n.format("DOCUMENT.New", { type: i18n.localize(`TYPES.Item.${type}`) })
    : `New ${type}`;
  await port.items.create(actorRef, type, name);
}

/** Equips or unequips an item that can be equipped. */
export async function toggleEquipped(port: HostPort, actorRef: string, itemId: string): Promise<void> {
  const item = (liveActor(port, actorRef, port.rules()).items ?? []).find((i) => i._id === itemId);
  const equipped = (item?.system as { equipped?: unknown } | undefined)?.equipped;
  if (typeof equipped !== "boolean") return;
  await port.items.update(actorRef, itemId, { system: { equipped: !equipped } });
}

/** The item's id a button names, or a RulesError. */
export function needItem(itemId: string | undefined): string {
  if (!itemId) throw new RulesError("itemId", "FUDGE.Error.NoSuchItem", "this button names no item", { id: "" });
  return itemId;
}
