/**
 * World settings: one hidden setting per WorldRules key, edited in one settings menu
 * (src/foundry/rules-menu.ts, loaded when the menu is first opened), plus the migration version.
 */
import { WORLD_RULE_SETTINGS, defaultWorldRules } from "../system/data";
import { worldRules } from "./bridge";
import { reportError } from "./foundry-util";
import { initiativeFormula } from "../system/initiative";
import { INITIATIVE_SETTING, MIGRATION_SETTING, SYSTEM_ID } from "../system/registry";
import { registerGmRecords } from "./gm-records";
import { loadWorldPreset } from "./presets";

const { ApplicationV2 } = foundry.applications.api;
const settings = () => game.settings!;

/**
 * What the settings window opens for our menu (core: `new menu.type().render(…)`): the menu and
 * its form code are their own chunk, loaded at the first opening, which renders the real menu.
 */
export class RulesMenuOpener extends ApplicationV2 {
  override render(...args: unknown[]): never {
    const opened = import("./rules-menu").then(({ RulesMenu }) => new RulesMenu().render(...(args as [never])));
    opened.catch((e) => reportError(e)); // the caller may not wait: a failure is reported
    return opened as never;
  }
}

export function registerSettings(): void {
  registerGmRecords(rerenderOpenSheets);
  const defaults = defaultWorldRules();
  for (const key of WORLD_RULE_SETTINGS) {
    const def = defaults[key];
    const type =
      typeof def === "boolean" ? Boolean : typeof def === "number" ? Number : typeof def === "string" ? String : Object;
    settings().register(
      SYSTEM_ID as never,
      key as never,
      {
        name: `FUDGE.Settings.${key}.Name`,
        scope: "world",
        config: false,
        type,
        default: structuredClone(def),
        onChange: () => rederiveAll(),
      } as never,
    );
  }
  settings().register(
    SYSTEM_ID as never,
    MIGRATION_SETTING as never,
    {
      name: "FUDGE.Settings.migrationVersion.Name",
      scope: "world",
      config: false,
      type: Number,
      default: 0,
    } as never,
  );
  // Initiative formula (empty: the preset's default, src/system/initiative.ts); CONFIG.Combat follows it.
  settings().register(
    SYSTEM_ID as never,
    INITIATIVE_SETTING as never,
    {
      name: "FUDGE.Settings.initiativeFormula.Name",
      hint: "FUDGE.Settings.initiativeFormula.Hint",
      scope: "world",
      config: true,
      type: String,
      default: "",
      onChange: () => applyInitiative(),
    } as never,
  );
  settings().registerMenu(
    SYSTEM_ID as never,
    "rulesMenu" as never,
    {
      name: "FUDGE.Settings.Menu.Name",
      label: "FUDGE.Settings.Menu.Label",
      hint: "FUDGE.Settings.Menu.Hint",
      icon: "fa-solid fa-scale-balanced",
      type: RulesMenuOpener as never,
      restricted: true,
    } as never,
  );
}

/** CONFIG.Combat.initiative from the preset and the initiative setting (core rolls it from the tracker). */
export function applyInitiative(): void {
  const formula = initiativeFormula(
    worldRules().preset,
    settings().get(SYSTEM_ID as never, INITIATIVE_SETTING as never),
  );
  (CONFIG.Combat as unknown as { initiative: { formula: string | null; decimals: number } }).initiative = {
    formula,
    decimals: 2,
  };
}

/**
 * The world rules changed: a new preset's pipeline starts loading (the sheets' odds await it), every
 * actor derives again (penalties, factors, token bar), then open sheets redraw.
 */
function rederiveAll(): void {
  loadWorldPreset().catch((e) => console.error(e)); // loadWorldPreset reports its own failure; this is a bug
  applyInitiative();
  for (const a of game.actors?.contents ?? []) a.reset();
  for (const t of canvas?.tokens?.placeables ?? []) if (t.document && !t.document.actorLink) t.actor?.reset();
  rerenderOpenSheets();
}

function rerenderOpenSheets(): void {
  for (const app of foundry.applications.instances.values()) {
    const doc = (app as { document?: { documentName?: string } }).document;
    if (doc?.documentName === "Actor" || doc?.documentName === "Item") app.render().catch((e) => reportError(e)); // a change handler cannot wait
  }
}
