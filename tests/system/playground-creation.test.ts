// @vitest-environment happy-dom
/**
 * Character creation's edits in the playground run the flows Foundry's sheet and rules menu run
 * (src/system/flows/creation.ts) through the playground's port: a skill's level picked by name,
 * the GM's pick of the creation method (a player's refused), and the attribute set saved in the
 * rules menu carrying each character's levels by role (Damage Capacity → Health), nothing deleted.
 */
import { describe, expect, it } from "vitest";
import type { Store } from "../../playground/store";
import { playgroundPort } from "../../playground/port";
import { parseDice } from "../../playground/dice";
import { carryAttributes, compendiumItems, dragData, dropItem } from "../../playground/creation";
import { i18n } from "../../playground/i18n";
import { errorText } from "../../src/system/error-text";
import { rulesOf } from "../../playground/world";
import { ATTRIBUTE_SET_PRESETS } from "../../src/system/attributes";
import * as flows from "../../src/system/flows";
import { leroyWorld, testPage } from "./playground-page";

function world(isGM: boolean) {
  const { store, id } = leroyWorld(isGM);
  return { store, id, port: playgroundPort(store, parseDice(""), testPage()) };
}
const attributesOf = (store: Store, id: string) =>
  (store.actor(id)!.system as { attributes: Record<string, number> }).attributes;

describe("character creation's edits in the playground, through the flows", () => {
  it("a skill's level picked on the actor sheet is written to the owned item; an unknown field is refused", async () => {
    const { store, id, port } = world(true);
    const skill = store.actor(id)!.items!.find((i) => i.type === "skill")!;
    await flows.editItemField(port, id, skill._id, "system.level", "2");
    expect((store.actor(id)!.items!.find((i) => i._id === skill._id)!.system as { level: number }).level).toBe(2);
    await expect(flows.editItemField(port, id, skill._id, "system.name", "x")).rejects.toThrow(
      /no editable item field/,
    );
  });

  it("the GM picks the world's creation method; a player's pick is refused and nothing changes", async () => {
    const gm = world(true);
    await flows.pickCreationMethod(gm.port, "objective");
    expect(rulesOf(gm.store.state).creation.method).toBe("objective");
    const player = world(false);
    await expect(flows.pickCreationMethod(player.port, "objective")).rejects.toThrow(/only a GM/);
    expect(rulesOf(player.store.state).creation.method).toBe("subjective");
  });

  it("saving another attribute set carries each character's levels to the new keys by role, nothing deleted", async () => {
    const { store, id, port } = world(true);
    await flows.editField(port, id, "attributes.damageCapacity", "2");
    const before = rulesOf(store.state);
    await port.setRule("attributeSet", ATTRIBUTE_SET_PRESETS.fivePoint());
    await carryAttributes(store, port, before);
    const attrs = attributesOf(store, id);
    expect(attrs.health).toBe(2);
    expect(attrs.damageCapacity).toBe(2);
    expect(attrs.strength).toBe(1);
  });

  it("a compendium skill dropped on a miniature is refused with the sentence Foundry's sheet gives; on Leroy it joins", () => {
    const { store, id } = leroyWorld(true);
    const mini = store.state.actors.find((a) => a.type === "miniature")!;
    const skills = compendiumItems().find((p) => p.pack === "skills")!.items;
    const before = store.actor(id)!.items!.length;
    dropItem(store, id, dragData(skills[0].ref));
    expect(store.actor(id)!.items!.length).toBe(before + 1);
    const held = mini.items?.length ?? 0;
    let said = "";
    try {
      dropItem(store, mini._id, dragData(skills[0].ref));
    } catch (e) {
      said = errorText(e, i18n, mini.name);
    }
    expect(said).toBe(`${mini.name} is a miniature: its datacard has no skills, so the skill was not added.`);
    expect(store.actor(mini._id)!.items?.length ?? 0).toBe(held);
  });
});
