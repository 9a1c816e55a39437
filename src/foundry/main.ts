/**
 * Foundry entry point of Fudge Combat & Wounds. Thin: it registers the data models, sheets,
 * chat-card subtypes, settings, GM relay queries, token statuses and hooks; every rule and
 * every view model comes from src/rules and src/system.
 */
import { registerHelpers } from "../system/handlebars";
import { fill } from "../system/i18n";
import { ladderOf } from "../system/view";
import { ACTOR_MODELS, CHAT_MODELS, ITEM_MODELS } from "./data";
import { worldRules } from "./bridge";
import { FudgeChatMessage } from "./chat-message";
import { redrawRollCards } from "./chat";
import { endScene, registerCombatHooks } from "./combat";
import { ladderNames, reportError } from "./foundry-util";
import { addImportButton } from "./import-button";
import { registerQueries } from "./queries";
import { ACTOR_TYPES, ITEM_TYPES, MIGRATION_SETTING, MIGRATION_VERSION, SYSTEM_ID } from "../system/registry";
import { needsMigration } from "../system/migrate";
import { applyInitiative, registerSettings } from "./settings";
import { CharacterSheet, FudgeActorSheet, MiniatureSheet, NpcSheet } from "./sheets/actor-sheet";
import { onCombatTrackerContextOptions, onRenderTokenHUD, tableApi } from "./table-api";
import { addAwardButton, onActorContextOptions } from "./award-directory";
import { onActorChanged, onRenderCombatTracker } from "./tracker";
import { fudgeTokenClass } from "./token";
import { ITEM_SHEETS } from "./sheets/item-sheet";
import { registerStatusEffects, syncStatuses } from "./statuses";
import { loadSystemTemplates } from "./templates";
import type { QuenchLike } from "./quench/index";
import { registerDiceTerms } from "./dice-terms";
import { setWorkerBase } from "../system/forecast-queue";
import { loadWorldPreset } from "./presets";

// The forecast worker's file is beside this bundle (the code that starts it is in a chunk below it).
setWorkerBase(import.meta.url);

Hooks.once("init", () => {
  console.log(`${SYSTEM_ID} | init`);
  const C = CONFIG as unknown as {
    Actor: {
      dataModels: Record<string, unknown>;
      trackableAttributes: Record<string, { bar: string[]; value: string[] }>;
    };
    Item: { dataModels: Record<string, unknown> };
    ChatMessage: { dataModels: Record<string, unknown> };
  };
  for (const [type, model] of Object.entries(ACTOR_MODELS)) C.Actor.dataModels[type] = model;
  for (const [type, model] of Object.entries(ITEM_MODELS)) C.Item.dataModels[type] = model;
  for (const [type, model] of Object.entries(CHAT_MODELS)) C.ChatMessage.dataModels[type] = model;
  // Cards are filled inside renderHTML, which the chat log awaits (src/foundry/chat-message.ts).
  (CONFIG.ChatMessage as unknown as { documentClass: unknown }).documentClass = FudgeChatMessage;
  // Token bar: open wound boxes of the track.
  for (const type of ACTOR_TYPES) C.Actor.trackableAttributes[type] = { bar: ["openBoxes"], value: [] };

  const sheets = foundry.applications.apps.DocumentSheetConfig;
  // Core's AppV1 sheets stay registered unless unregistered (FOUNDRY-V13.md): only ours remain.
  // Guarded: a core without the AppV1 namespace has none to unregister.
  const v1 = (foundry as unknown as { appv1?: { sheets?: { ActorSheet?: unknown; ItemSheet?: unknown } } }).appv1
    ?.sheets;
  if (v1?.ActorSheet) sheets.unregisterSheet(Actor, "core", v1.ActorSheet as never);
  if (v1?.ItemSheet) sheets.unregisterSheet(Item, "core", v1.ItemSheet as never);
  const actorSheets = { character: CharacterSheet, npc: NpcSheet, miniature: MiniatureSheet } as const;
  for (const type of ACTOR_TYPES)
    sheets.registerSheet(
      Actor,
      SYSTEM_ID,
      actorSheets[type] as never,
      { types: [type], makeDefault: true, label: `FUDGE.Sheet.${type}` } as never,
    );
  for (const type of ITEM_TYPES)
    sheets.registerSheet(
      Item,
      SYSTEM_ID,
      ITEM_SHEETS[type] as never,
      { types: [type], makeDefault: true, label: `FUDGE.Sheet.${type}` } as never,
    );

  registerSettings();
  // The world's attack pipeline, its own chunk: not awaited (Foundry would not wait); what reads it awaits it.
  loadWorldPreset().catch((e) => console.error(e)); // loadWorldPreset reports its own failure; this is a bug
  // Fudge §3.21: the six-sided Fudge die of the dice option 4d6F (a world setting).
  registerDiceTerms();
  applyInitiative();
  registerStatusEffects();
  registerQueries();
  registerCombatHooks();

  registerHelpers(
    Handlebars as never,
    {
      localize: (k) => game.i18n!.localize(k),
      format: (k, params) => fill(game.i18n!.localize(k), params ?? {}, (v) => game.i18n!.localize(v)),
      has: (k) => game.i18n!.has(k),
    },
    { ladder: () => ladderOf(worldRules(), ladderNames()) },
  );
  // Not awaited here (Foundry would not wait): early renders await templatesReady().
  loadSystemTemplates().catch((e) => console.error(e)); // early renders await templatesReady(); a failed load is logged (no UI at init)

  (game.system as unknown as { api: unknown }).api = { endScene, worldRules, ...tableApi };
  // The segmented wound bar on every token (src/foundry/token.ts).
  (CONFIG.Token as unknown as { objectClass: unknown }).objectClass = fudgeTokenClass();
});

Hooks.once("ready", () => {
  // Settings are readable now: derive every actor again under the world's preset.
  for (const a of game.actors!.contents) a.reset();
  applyInitiative();
  // The world migration is its own chunk, loaded only when this world needs it (and by its active GM).
  if (
    game.user?.isActiveGM &&
    needsMigration(game.settings!.get(SYSTEM_ID as never, MIGRATION_SETTING as never), MIGRATION_VERSION)
  )
    import("./migration").then(({ migrateWorld }) => migrateWorld()).catch((e) => reportError(e)); // a hook cannot wait: a failed migration is reported
});

Hooks.on("renderTokenHUD" as never, ((hud: never, html: HTMLElement) => onRenderTokenHUD(hud, html)) as never);
// Each combatant's wound level, penalty and condition in words, as far as this user may see them.
Hooks.on(
  "renderCombatTracker" as never,
  ((app: never, html: HTMLElement) => {
    onRenderCombatTracker(app, html).catch((e) => reportError(e)); // a hook cannot wait: a failed line is reported
  }) as never,
);
Hooks.on("updateActor" as never, ((actor: Actor.Implementation) => onActorChanged(actor)) as never);
// A trait roll's card reads a Fudge Point spent on it from the spender's log: his cards follow it.
Hooks.on("updateActor", (actor, changed) => redrawRollCards(actor as Actor.Implementation, changed));
// The duel forecast on a combatant's menu: v13 fires get<Class>ContextOptions for the tracker's class
// chain; core's JSDoc names getCombatantContextOptions, so both are heard (the entries go in once).
for (const hook of ["getCombatTrackerContextOptions", "getCombatantContextOptions"])
  Hooks.on(hook as never, ((app: never, entries: unknown[]) => onCombatTrackerContextOptions(app, entries)) as never);
// The Attack tooltips give the odds against the user's targets: refresh this user's open sheets.
const refreshOpenSheets = () => {
  for (const app of foundry.applications.instances.values())
    if (app instanceof FudgeActorSheet && app.rendered) app.render().catch((e) => reportError(e)); // a hook cannot wait
};
Hooks.on(
  "targetToken" as never,
  ((user: { id: string }) => {
    if (user.id !== game.user?.id) return;
    refreshOpenSheets();
  }) as never,
);
// …under what the table measures for each target (range, contact, gang-up): a token that moves,
// changes size or side changes them, so the sheets of a user with targets refresh.
Hooks.on("updateToken", (_token, changed) => {
  const c = changed as Record<string, unknown>;
  if (!game.user?.targets?.size || !["x", "y", "width", "height", "disposition"].some((k) => k in c)) return;
  refreshOpenSheets();
});

// Token statuses and the tracker's defeated flag follow the wound track and, on a miniature, the
// Guts state (a failure by 4: terrified) (active GM only). "==gutsState" is a forced replacement's key.
Hooks.on("updateActor", (actor, changed) => {
  const sys = (changed as { system?: Record<string, unknown> }).system;
  if (!game.user?.isActiveGM || !sys || !("woundTrack" in sys || "gutsState" in sys || "==gutsState" in sys)) return;
  syncStatuses(actor as Actor.Implementation).catch((e) => reportError(e)); // a hook cannot wait: a failed status is reported
});

// In-world self-test: batches for the Quench module (docs/foundry.md "Testing in a live world"),
// their own chunk, loaded only in a world where Quench is active: from init on, so that it is there
// when Quench fires quenchReady (at setup; it may run the batches at ready).
let quenchBatches: Promise<typeof import("./quench/index")> | null = null;
const loadQuenchBatches = () =>
  (quenchBatches ??= import("./quench/index").catch((e: unknown) => {
    quenchBatches = null;
    throw e;
  }));
Hooks.once("init", () => {
  if (game.modules?.get("quench")?.active) loadQuenchBatches().catch((e) => reportError(e)); // reported; retried at quenchReady
});
Hooks.on(
  "quenchReady" as never,
  ((quench: QuenchLike) =>
    loadQuenchBatches()
      .then(({ registerQuenchBatches }) => registerQuenchBatches(quench))
      .catch((e) => reportError(e))) as never, // a hook cannot wait: a failed load is reported
);

// Actors directory: "Import from Fudge RPG" for the GM (src/foundry/import.ts).
Hooks.on("renderActorDirectory", (app, html) => addImportButton(app, html as HTMLElement));
Hooks.on("renderActorDirectory", (app, html) => addAwardButton(app, html as HTMLElement));
// v13 DocumentDirectory#_createContextMenus: the Actors directory's entry menu fires getActorContextOptions only.
Hooks.on(
  "getActorContextOptions" as never,
  ((app: never, entries: unknown[]) => onActorContextOptions(app, entries)) as never,
);
