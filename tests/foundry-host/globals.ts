/**
 * Installs Foundry's globals on globalThis. Per-client globals (`game`, `CONFIG`, `ui`,
 * `canvas`, `Handlebars`) are getters that resolve to the client running the code
 * (context.ts); `foundry.*`, `Hooks`, the document classes and `Roll` are shared, as the same
 * code runs on every client.
 */
import { current, maybeCurrent } from "./context";
import {
  ActorSheet,
  ActorSheetV2,
  ApplicationV2,
  CombatTracker,
  DialogV2,
  DocumentSheetConfig,
  DocumentSheetV2,
  FilePicker,
  HandlebarsApplicationMixin,
  ItemSheet,
  ItemSheetV2,
  getTemplate,
  loadTemplates,
  renderTemplate,
} from "./apps";
import { DiceTerm, Die, FateDie, Roll } from "./dice";
import {
  ActiveEffect,
  Actor,
  ChatMessage,
  Combat,
  Combatant,
  Item,
  OWNERSHIP,
  ROLES,
  Scene,
  TokenDocument,
} from "./documents";
import { DataModel, TypeDataModel, fields } from "./fields";
import { HostToken, TOKEN_DISPLAY_MODES } from "./canvas";
import { _del, _replace, utils } from "./utils";
import { HostUser, type World } from "./world";
import { defineProseMirror } from "./prose-mirror";

let installedFor: World | null = null;

const perClient = (name: string, get: () => unknown) =>
  Object.defineProperty(globalThis, name, { get, configurable: true });

export function installGlobals(world: World): void {
  if (typeof document === "undefined")
    throw new Error("foundry-host: run host tests in happy-dom (// @vitest-environment happy-dom)");
  installedFor = world;
  defineProseMirror();
  const g = globalThis as Record<string, unknown>;
  perClient("game", () => maybeCurrent()?.game);
  perClient("CONFIG", () => current().CONFIG);
  perClient("ui", () => current().ui);
  perClient("canvas", () => maybeCurrent()?.canvas);
  perClient("Handlebars", () => current().handlebars);
  perClient("Hooks", () => installedFor!.hooks);
  g.CONST = {
    DOCUMENT_OWNERSHIP_LEVELS: OWNERSHIP,
    USER_ROLES: ROLES,
    TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 },
    TOKEN_DISPLAY_MODES,
    DICE_ROLL_MODES: { PUBLIC: "publicroll", PRIVATE: "gmroll", BLIND: "blindroll", SELF: "selfroll" },
    CHAT_MESSAGE_STYLES: { OTHER: 0, OOC: 1, IC: 2, EMOTE: 3 },
  };
  Object.assign(g, {
    Actor,
    Item,
    ChatMessage,
    Combat,
    Combatant,
    Scene,
    TokenDocument,
    ActiveEffect,
    User: HostUser,
    Roll,
  });
  // v14: the ForcedDeletion / ForcedReplacement operators as globals.
  if (world.generation >= 14) Object.assign(g, { _del, _replace });
  else {
    delete g._del;
    delete g._replace;
  }
  g.fromUuidSync = (uuid: string) => current().resolveUuid(uuid);
  g.fromUuid = async (uuid: string) => current().resolveUuid(uuid);
  g.foundry = {
    utils,
    abstract: { DataModel, TypeDataModel },
    data: { fields },
    dice: { Roll, terms: { DiceTerm, Die, FateDie } },
    documents: { Actor, Item, ChatMessage, Combat, Combatant, Scene, TokenDocument, ActiveEffect, User: HostUser },
    applications: {
      api: { ApplicationV2, HandlebarsApplicationMixin, DialogV2, DocumentSheetV2 },
      sheets: { ActorSheetV2, ItemSheetV2, ActorSheet, ItemSheet },
      apps: { DocumentSheetConfig, FilePicker },
      sidebar: { tabs: { CombatTracker } },
      handlebars: { loadTemplates, renderTemplate, getTemplate },
      // v13 TextEditor: enrichHTML turns @UUID links and inline rolls into HTML; notes without them come back as they are.
      ux: { TextEditor: { implementation: { enrichHTML: async (content: string) => String(content ?? "") } } },
      get instances() {
        return current().apps;
      },
    },
    appv1: { sheets: { ActorSheet, ItemSheet } },
    // The canvas classes exist (systems subclass Token in `init`); the host draws nothing (canvas.ts).
    canvas: { placeables: { Token: HostToken } },
  };
}
