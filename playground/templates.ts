/**
 * Handlebars for the stand-in host: the system's real templates (templates/**), its own helpers
 * (src/system/handlebars.ts registerHelpers), and stand-ins for the few Foundry core helpers the
 * templates may use (playground/foundry-core-helpers.ts).
 * Partials are registered under the path Foundry gives them: "systems/fudge-wounds/templates/…".
 */
import Handlebars from "handlebars";
import { i18n } from "./i18n";
import { registerHelpers, PARTIALS } from "../src/system/handlebars";
import { registerFoundryCoreHelpers } from "./foundry-core-helpers";
import { standardLadder, type Ladder } from "../src/rules";

export const SYSTEM_ID = "fudge-wounds";

const sources: Record<string, string> = import.meta.glob<string>("../templates/**/*.{hbs,html,handlebars}", {
  eager: true,
  query: "?raw",
  import: "default",
});

export const hbs = Handlebars.create();

/** Template path as Foundry knows it, e.g. "systems/fudge-wounds/templates/actor/character.hbs". */
export function foundryPath(file: string): string {
  return `systems/${SYSTEM_ID}/${file.replace(/^\.\.\//, "")}`;
}

export const templatePaths: string[] = Object.keys(sources).map(foundryPath).sort();

const compiled = new Map<string, Handlebars.TemplateDelegate>();

// Foundry's core helpers (stand-ins), then the system's own, all `fudge`-prefixed.
registerFoundryCoreHelpers(hbs, i18n);
// The ladder helper follows the world (Legendary on/off, localized rung names), as in Foundry's init.
let currentLadder: () => Ladder = () => standardLadder();
export function setLadder(f: () => Ladder): void {
  currentLadder = f;
}
registerHelpers(hbs, i18n, { ladder: () => currentLadder() });

for (const [file, src] of Object.entries(sources)) {
  const path = foundryPath(file);
  hbs.registerPartial(path, src);
  compiled.set(path, hbs.compile(src));
}
/** Partials by the names the system gives them (src/system/handlebars.ts PARTIALS). */
export const missingPartials: string[] = [];
for (const [name, rel] of Object.entries(PARTIALS)) {
  const src = sources[`../${rel}`];
  if (src === undefined) missingPartials.push(rel);
  else hbs.registerPartial(name, src);
}

export function templateExists(path: string): boolean {
  return compiled.has(path);
}

/** Renders a template by its Foundry path (or by a path relative to templates/). */
export function renderTemplate(path: string, context: unknown): string {
  const p = path.startsWith("systems/") ? path : foundryPath(`../templates/${path.replace(/^templates\//, "")}`);
  const t = compiled.get(p);
  if (!t) throw new Error(`template not found: ${p}`);
  return t(context, { allowProtoPropertiesByDefault: false });
}
