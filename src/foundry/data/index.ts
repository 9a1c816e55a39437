/**
 * Every data model by document type and subtype. main.ts loops over these maps to register
 * them; the `satisfies` clauses make a missing subtype a type error.
 */
import type { ActorType, ItemType } from "../../system/data";
import type { ChatType } from "../../system/registry";
import { ArmorModel } from "./armor";
import { AttackCardModel } from "./attack-card";
import { CharacterModel } from "./character";
import { FaultModel } from "./fault";
import { GiftModel } from "./gift";
import { MiniatureModel } from "./miniature";
import { NpcModel } from "./npc";
import { RollCardModel } from "./roll-card";
import { ShieldModel } from "./shield";
import { SkillModel } from "./skill";
import { WeaponModel } from "./weapon";

export const ACTOR_MODELS = {
  character: CharacterModel,
  npc: NpcModel,
  miniature: MiniatureModel,
} as const satisfies Record<ActorType, { type: string }>;

export const ITEM_MODELS = {
  weapon: WeaponModel,
  armor: ArmorModel,
  shield: ShieldModel,
  gift: GiftModel,
  fault: FaultModel,
  skill: SkillModel,
} as const satisfies Record<ItemType, { type: string }>;

export const CHAT_MODELS = {
  attackCard: AttackCardModel,
  rollCard: RollCardModel,
} as const satisfies Record<ChatType, { type: string }>;

export {
  ArmorModel,
  AttackCardModel,
  CharacterModel,
  FaultModel,
  GiftModel,
  MiniatureModel,
  NpcModel,
  RollCardModel,
  ShieldModel,
  SkillModel,
  WeaponModel,
};

declare module "fvtt-types/configuration" {
  interface DataModelConfig {
    Actor: {
      character: typeof CharacterModel;
      npc: typeof NpcModel;
      miniature: typeof MiniatureModel;
    };
    Item: {
      weapon: typeof WeaponModel;
      armor: typeof ArmorModel;
      shield: typeof ShieldModel;
      gift: typeof GiftModel;
      fault: typeof FaultModel;
      skill: typeof SkillModel;
    };
    ChatMessage: {
      attackCard: typeof AttackCardModel;
      rollCard: typeof RollCardModel;
    };
  }
}
