// @vitest-environment happy-dom
/**
 * Issue 31 on the v13 host: actors stored by older versions (attributes at the top level, a
 * defence skill typed by hand, a weapon naming a skill since deleted, skills with no group) load
 * into the world's attributes and pickers; nothing is rewritten, and a name that matches no skill
 * is a warning on the sheet, never a silent Fair.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM_ID } from "../../src/system/registry";
import { ATTRIBUTE_SET_PRESETS } from "../../src/system/attributes";
import { ROLES, startWorld } from "./index";
import { actorOn } from "./table";

type App = { element: HTMLElement };

async function oldWorld() {
  const world = await startWorld();
  const gmId = world.addUser("GM", ROLES.GAMEMASTER);
  const id = world.server.seed("Actor", {
    _id: "oldHero000000001",
    name: "Old Hero",
    type: "character",
    // 0.0.x: attributes at the top level; the defence skill typed in lower case.
    system: { strength: "Good", dc: 1, willpower: -1, defenseSkill: "sword " },
    items: [
      { _id: "oldSkill00000001", name: "Sword", type: "skill", system: { value: "Great" } },
      { _id: "oldWeapon0000001", name: "Axe", type: "weapon", system: { size: "medium", skill: "Axe" } },
    ],
    ownership: { default: 0 },
  });
  return { world, gmId, id };
}

describe("existing worlds: stored old-shape actors under the new creation and pickers", () => {
  it("loads the attributes into the default set, the skill's level and an empty group; the pickers select what was typed", async () => {
    const { world, gmId, id } = await oldWorld();
    const gm = await world.connect(gmId);
    await world.settle();
    const hero = actorOn(gm, id);
    const sys = hero.toObject().system as Record<string, any>;
    expect(sys.attributes).toMatchObject({ strength: 1, damageCapacity: 1, willpower: -1 });
    expect(sys.defenseSkill).toBe("sword");
    const skill = hero.items.get("oldSkill00000001")!.toObject().system as Record<string, unknown>;
    expect(skill).toMatchObject({ level: 2, group: "" });

    const app = (await gm.run(() =>
      (hero.sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }),
    )) as App;
    const el = app.element;
    // Attributes by ladder name, from the world's set.
    const picked = (sel: string) => el.querySelector(`${sel} option[selected]`)?.getAttribute("value");
    expect(picked('select[name="system.attributes.strength"]')).toBe("1");
    // The defence typed as "sword " is the skill Sword in the picker (no warning), at Great.
    expect(el.querySelector('select[name="system.defenseSkill"] option[selected]')?.textContent).toBe("Sword");
    expect(el.querySelector('[data-warning="defense-skill"]')).toBeNull();
    // The Axe names a skill the hero does not have: a warning, and the stored name is kept.
    expect(el.querySelector('[data-warning="weapon-skill"]')?.textContent).toContain("Axe");
    expect((hero.items.get("oldWeapon0000001")!.toObject().system as Record<string, unknown>).skill).toBe("Axe");
    // The skill's level is picked by name on the sheet.
    expect(picked('select[data-item-field="system.level"]')).toBe("2");
  });

  it("a GM's Five-Point attribute set shows the six attributes; the old levels stay stored", async () => {
    const { world, gmId, id } = await oldWorld();
    const gm = await world.connect(gmId);
    await world.settle();
    await gm.run(() =>
      game.settings!.set(SYSTEM_ID as never, "attributeSet" as never, ATTRIBUTE_SET_PRESETS.fivePoint() as never),
    );
    await world.settle();
    const hero = actorOn(gm, id);
    const app = (await gm.run(() =>
      (hero.sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }),
    )) as App;
    const names = [...app.element.querySelectorAll<HTMLSelectElement>('select[name^="system.attributes."]')].map((s) =>
      s.name.slice("system.attributes.".length),
    );
    expect(names).toEqual(["reasoning", "perception", "willpower", "strength", "agility", "health"]);
    expect((hero.toObject().system as Record<string, any>).attributes.damageCapacity).toBe(1);
  });

  it("a weapon's skill is picked from its owner's skills in the presets that read it (Fudge, FATE), and only there is a stale name a warning", async () => {
    const { world, gmId, id } = await oldWorld();
    const gm = await world.connect(gmId);
    await world.settle();
    const hero = actorOn(gm, id);
    const render = async (doc: unknown) =>
      (await gm.run(() => (doc as { render(o: object): Promise<App> }).render({ force: true }))) as App;
    for (const preset of ["fudge", "fate"]) {
      await gm.run(() => game.settings!.set(SYSTEM_ID as never, "preset" as never, preset as never));
      await world.settle();
      const sheet = await render(hero.items.get("oldWeapon0000001")!.sheet);
      const options = [...sheet.element.querySelectorAll('select[name="system.skill"] option')];
      // The default first, then the owner's skills; the stored Axe stays selected, named as missing.
      expect(
        options.map((o) => o.getAttribute("value")),
        preset,
      ).toEqual(["", "Sword", "Axe"]);
      expect(sheet.element.querySelector('select[name="system.skill"] option[selected]')?.getAttribute("value")).toBe(
        "Axe",
      );
      expect(sheet.element.querySelector('input[name="system.skill"]'), preset).toBeNull();
      expect(sheet.element.querySelector('[data-warning="weapon-skill"]')?.textContent, preset).toContain("Axe");
    }
    // Volt reads no weapon skill: no picker on the actor sheet and no warning about the Axe.
    await gm.run(() => game.settings!.set(SYSTEM_ID as never, "preset" as never, "volt" as never));
    await world.settle();
    const app = await render(hero.sheet);
    expect(app.element.querySelector('[data-warning="weapon-skill"]')).toBeNull();
    expect(app.element.querySelector('select[data-item-field="system.skill"]')).toBeNull();
  });
});

describe("the GM saves another attribute set in the rules menu", () => {
  it("each character's levels follow their roles to the new keys (Damage Capacity → Health); nothing is deleted", async () => {
    const { world, gmId, id } = await oldWorld();
    const gm = await world.connect(gmId);
    await world.settle();
    const { remapWorldAttributes } = await import("../../src/foundry/rules-menu");
    const { worldRules } = await import("../../src/foundry/bridge");
    await gm.run(async () => {
      const before = worldRules();
      const after = { ...before, attributeSet: ATTRIBUTE_SET_PRESETS.fivePoint() };
      await game.settings!.set(SYSTEM_ID as never, "attributeSet" as never, after.attributeSet as never);
      await remapWorldAttributes(before, after);
    });
    await world.settle();
    const attrs = (actorOn(gm, id).toObject().system as Record<string, any>).attributes;
    expect(attrs.health).toBe(1);
    expect(attrs.strength).toBe(1);
    expect(attrs.damageCapacity).toBe(1);
  });
});

describe("compendium entries dropped on a sheet (ActorSheetV2's item drop)", () => {
  it("a skill from the Skills compendium joins a character as a copy; on a miniature it is refused with a sentence", async () => {
    const world = await startWorld();
    const gmId = world.addUser("GM", ROLES.GAMEMASTER);
    const hero = world.server.seed("Actor", { name: "Hero", type: "character", items: [], ownership: { default: 0 } });
    const mini = world.server.seed("Actor", { name: "Yanni", type: "miniature", items: [], ownership: { default: 0 } });
    const gm = await world.connect(gmId);
    await world.settle();
    const drop = async (actorId: string, uuid: string) => {
      const actor = actorOn(gm, actorId);
      const app = (await gm.run(() =>
        (actor.sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }),
      )) as App;
      const dt = new DataTransfer();
      dt.setData("text/plain", JSON.stringify({ type: "Item", uuid }));
      // happy-dom's DragEvent drops its dataTransfer init (a browser keeps it): set as a browser has it.
      const ev = new DragEvent("drop", { bubbles: true, cancelable: true });
      Object.defineProperty(ev, "dataTransfer", { value: dt });
      gm.run(() => app.element.dispatchEvent(ev));
      await world.settle();
      return actor.items.contents.map((i) => [i.name, i.type]);
    };
    const climbing = "Compendium.fudge-wounds.skills.Item.uDhjLIia3lk7fg8L";
    expect(await drop(hero, climbing)).toEqual([["Climbing", "skill"]]);
    expect((actorOn(gm, hero).items.contents[0].toObject().system as Record<string, unknown>).group).toBe("athletic");
    const from = gm.notifications.length;
    expect(await drop(mini, climbing)).toEqual([]);
    expect(gm.notifications.slice(from)).toEqual([
      { type: "warn", message: "Yanni is a miniature: its datacard has no skills, so the skill was not added." },
    ]);
  });
});
