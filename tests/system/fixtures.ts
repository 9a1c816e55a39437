/** Shared fixtures of the UI-layer tests: Leroy and Theodora (seed 000), miniatures, lang. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  defaultCharacterData,
  defaultMiniatureData,
  defaultNpcData,
  defaultWorldRules,
  ITEM_DEFAULTS,
  type ActorDoc,
  type ItemDoc,
  type ItemSystemMap,
  type ItemType,
  type WorldRules,
} from "../../src/system/data";
import type { PresetId } from "../../src/rules";

export const ROOT = join(__dirname, "..", "..");

let n = 0;
export function item<T extends ItemType>(
  type: T,
  name: string,
  system: Partial<ItemSystemMap[T]> = {},
  id?: string,
): ItemDoc<T> {
  return { _id: id ?? `item${++n}`, name, type, system: { ...ITEM_DEFAULTS[type](), ...system } as ItemSystemMap[T] };
}

/** Leroy: Str Good +1, DC Good +1, broadsword (+3 with sharpness), scale mail +3 (seed 000). */
export function leroy(): ActorDoc<"character"> {
  const system = defaultCharacterData();
  system.attributes = { strength: 1, damageCapacity: 1, willpower: 0, mass: 0 };
  system.defenseSkill = "Sword";
  return {
    _id: "leroy",
    name: "Leroy",
    type: "character",
    system,
    ownership: { default: 0, player1: 3 },
    items: [
      item("skill", "Sword", { level: 1 }, "leroySword"),
      item(
        "weapon",
        "Broadsword",
        {
          size: "large",
          sharp: true,
          skill: "Sword",
          miniaturesDamage: 2,
          volt: { attack: 16, pierce: 2, damage: 12, stun: false },
        },
        "broadsword",
      ),
      item("armor", "Scale mail", { value: 3 }, "scalemail"),
    ],
  };
}

/** Theodora: Str Superb +3, poleaxe +4 (two-handed, sharp), DC Fair, boiled leather +2 (seed 000). */
export function theodora(): ActorDoc<"character"> {
  const system = defaultCharacterData();
  system.attributes = { strength: 3, damageCapacity: 0, willpower: 1, mass: 0 };
  system.defenseSkill = "Polearm";
  return {
    _id: "theodora",
    name: "Theodora",
    type: "character",
    system,
    ownership: { default: 0, player2: 3 },
    items: [
      item("skill", "Polearm", { level: 1 }, "theoPolearm"),
      item(
        "weapon",
        "Poleaxe",
        {
          size: "twoHanded",
          sharp: true,
          hands: 2,
          skill: "Polearm",
          volt: { attack: 15, pierce: 3, damage: 14, stun: true },
        },
        "poleaxe",
      ),
      item("armor", "Boiled leather", { value: 2 }, "leather"),
      item("gift", "High Pain Threshold", { effect: "highPainThreshold" }, "hpt"),
    ],
  };
}

export function goblin(): ActorDoc<"npc"> {
  const system = defaultNpcData();
  system.pawn = true;
  return {
    _id: "goblin",
    name: "Goblin",
    type: "npc",
    system,
    ownership: { default: 0 },
    items: [item("weapon", "Club", { size: "medium" }, "club")],
  };
}

/** Sir Knightly-like miniature (seed 004 style). */
export function knight(id = "knight", name = "Sir Knightly"): ActorDoc<"miniature"> {
  const system = defaultMiniatureData();
  Object.assign(system, { strength: 1, dexterity: 1, guts: 2 });
  return {
    _id: id,
    name,
    type: "miniature",
    system,
    ownership: { default: 0, player1: 3 },
    items: [
      item("weapon", "Longsword", { miniaturesDamage: 2, statBasis: "strength", hands: 1 }, `${id}Sword`),
      item(
        "weapon",
        "Shortbow",
        { miniaturesDamage: 3, statBasis: "none", ranged: true, range: 12, hands: 2, equipped: false },
        `${id}Bow`,
      ),
      item("armor", "Chain", { value: 2 }, `${id}Armor`),
      item("shield", "Shield", { size: "medium", miniaturesBonus: 1 }, `${id}Shield`),
    ],
  };
}

export function rulesFor(preset: PresetId, patch: Partial<WorldRules> = {}): WorldRules {
  return { ...defaultWorldRules(), preset, ...patch };
}

export const PRESET_IDS: PresetId[] = ["fudge", "miniatures", "fate", "volt"];

/** lang/en.json, flat. */
export function loadLang(): Record<string, string> {
  return JSON.parse(readFileSync(join(ROOT, "lang", "en.json"), "utf8"));
}

export const GM = { id: "gm", isGM: true };
export const PLAYER1 = { id: "player1", isGM: false };
export const PLAYER2 = { id: "player2", isGM: false };
export const STRANGER = { id: "player3", isGM: false };
