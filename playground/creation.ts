/**
 * Making characters in the playground, as Foundry's own document operations do: Create Actor
 * (the Actors directory's button), the compendium browser (Foundry's compendium windows) whose
 * items are dragged onto a sheet (ActorSheetV2's item drop: a copy of the item joins the actor),
 * and, after the rules menu saves another attribute set, the actors' levels carried by role. The
 * sheet's pickers (an owned item's field, the world's creation method) run their flows (main.ts).
 */
import { newId, type PlainDoc, type Store } from "./store";
import { i18n } from "./i18n";
import { packDocs } from "./packs";
import { ACTOR_DEFAULTS, type ActorType, type WorldRules } from "../src/system/data";
import { checkItemDrop } from "../src/system/creation";
import * as flows from "../src/system/flows";
import type { HostPort } from "../src/system/flows";
import { rulesOf } from "./world";

export const CREATABLE_ACTORS: readonly ActorType[] = ["character", "npc", "miniature"];

const esc = (s: unknown) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/** Create Actor: a new actor of the type with its defaults, its sheet opened. Returns its id. */
export function createActor(store: Store, name: string, type: string): string {
  if (!(CREATABLE_ACTORS as readonly string[]).includes(type)) throw new Error(`unknown actor type ${type}`);
  const t = type as ActorType;
  const label = i18n.localize(`TYPES.Actor.${t}`);
  const actor: PlainDoc = {
    _id: newId(),
    name: name.trim() || i18n.format("DOCUMENT.New", { type: label }),
    type: t,
    img: "icons/svg/mystery-man.svg",
    system: ACTOR_DEFAULTS[t]() as unknown as Record<string, unknown>,
    items: [],
    flags: {},
  };
  store.update((d) => {
    d.actors = [...d.actors, actor];
    d.open = [...d.open, actor._id];
  });
  return actor._id;
}

/** The items of the compendium packs, by pack, as the browser lists them. */
export function compendiumItems(): { pack: string; items: { ref: string; name: string; type: string }[] }[] {
  const byPack = new Map<string, { ref: string; name: string; type: string }[]>();
  for (const d of packDocs) {
    if (typeof d.doc._key !== "string" || !d.doc._key.startsWith("!items!")) continue;
    const list = byPack.get(d.pack) ?? [];
    list.push({ ref: `${d.pack}/${d.doc._id}`, name: d.doc.name, type: d.doc.type });
    byPack.set(d.pack, list);
  }
  return [...byPack.entries()].map(([pack, items]) => ({
    pack,
    items: items.sort((a, b) => a.name.localeCompare(b.name)),
  }));
}

/** The compendium browser's HTML: each item draggable, with Foundry's drag data (type and uuid). */
export function renderCompendium(filter = ""): string {
  const f = filter.trim().toLowerCase();
  return compendiumItems()
    .map(({ pack, items }) => {
      const shown = items.filter((i) => !f || i.name.toLowerCase().includes(f));
      if (!shown.length) return "";
      return (
        `<section class="pg-pack" data-pg-pack="${esc(pack)}"><h3>${esc(pack)}</h3><ul>` +
        shown
          .map(
            (i) =>
              `<li draggable="true" class="pg-pack-item" data-pg-pack-item="${esc(i.ref)}" data-type="${esc(i.type)}" title="${esc(i18n.localize(`TYPES.Item.${i.type}`))}">${esc(i.name)}<button type="button" class="pg-pack-add" data-pg-pack-add="${esc(i.ref)}" aria-label="Add ${esc(i.name)} to the open sheet"><i class="fa-solid fa-plus" inert></i></button></li>`,
          )
          .join("") +
        `</ul></section>`
      );
    })
    .join("");
}

/** Drag data as Foundry writes it for a compendium entry (TextEditor.getDragEventData reads it back). */
export function dragData(ref: string): string {
  const [pack, id] = ref.split("/");
  return JSON.stringify({ type: "Item", uuid: `Compendium.fudge-wounds.${pack}.Item.${id}` });
}

/**
 * The keyboard's way to what a drag does: the entry's Add button puts a copy on the sheet opened
 * last (the one a drag would most likely reach).
 */
export function addToOpenSheet(store: Store, ref: string): string {
  const actorId = [...store.state.open].reverse().find((id) => store.actor(id));
  if (!actorId) throw new Error("Open an actor's sheet first: the entry is added to the sheet opened last.");
  return dropItem(store, actorId, dragData(ref));
}

/** A compendium item dropped on an actor's sheet: a copy joins the actor (a new id), as ActorSheetV2#_onDropItem does. */
export function dropItem(store: Store, actorId: string, data: string): string {
  let uuid = "";
  try {
    uuid = String((JSON.parse(data) as { uuid?: unknown }).uuid ?? "");
  } catch {
    throw new Error("The dropped data is not a compendium entry.");
  }
  const m = /^Compendium\.fudge-wounds\.([^.]+)\.Item\.([A-Za-z0-9]+)$/.exec(uuid);
  const src = m ? packDocs.find((d) => d.pack === m[1] && d.doc._id === m[2]) : undefined;
  if (!src) throw new Error(`No compendium item ${uuid}.`);
  const actor = store.actor(actorId);
  if (!actor) throw new Error("No such actor.");
  checkItemDrop(actor.type, src.doc.type, actor.name);
  const id = newId();
  const { name, type, img, system } = structuredClone(src.doc);
  store.updateDocs({ actors: [actorId] }, (d) => {
    d.actors.find((a) => a._id === actorId)?.items?.push({ _id: id, name, type, img, system } as never);
  });
  return id;
}

/** After the rules menu saves another attribute set: every actor's levels follow their roles (the flow Foundry runs). */
export async function carryAttributes(store: Store, port: HostPort, before: WorldRules): Promise<void> {
  await flows.carryAttributes(
    port,
    store.state.actors.map((a) => a._id),
    before,
    rulesOf(store.state),
  );
}
