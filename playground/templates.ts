/**
 * Handlebars for the stand-in host: the system's real templates (templates/**), its own helpers
 * (src/system/handlebars.ts registerHelpers), and stand-ins for the few Foundry core helpers the
 * templates may use (localize, checked, selectOptions …), written from Foundry's public docs.
 * Partials are registered under the path Foundry gives them: "systems/fudge-wounds/templates/…".
 */
import Handlebars from "handlebars";
import { i18n, localize } from "./i18n";
import { registerHelpers, PARTIALS } from "../src/system/handlebars";
import { standardLadder, type Ladder } from "../src/rules/ladder";

export const SYSTEM_ID = "fudge-wounds";

const sources: Record<string, string> = import.meta.glob<string>("../templates/**/*.{hbs,html,handlebars}", { eager: true, query: "?raw", import: "default" });

export const hbs = Handlebars.create();

/** Template path as Foundry knows it, e.g. "systems/fudge-wounds/templates/actor/character.hbs". */
export function foundryPath(file: string): string {
  return `systems/${SYSTEM_ID}/${file.replace(/^\.\.\//, "")}`;
}

export const templatePaths: string[] = Object.keys(sources).map(foundryPath).sort();

const compiled = new Map<string, Handlebars.TemplateDelegate>();

function registerFoundryCoreHelpers(h: typeof Handlebars): void {
  const esc = Handlebars.Utils.escapeExpression;
  const hashOf = (o: unknown): Record<string, unknown> => ((o as { hash?: Record<string, unknown> })?.hash ?? {});
  h.registerHelper("checked", (v: unknown) => (v ? "checked" : ""));
  h.registerHelper("disabled", (v: unknown) => (v ? "disabled" : ""));
  h.registerHelper("ifThen", (c: unknown, a: unknown, b: unknown) => (c ? a : b));
  h.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  h.registerHelper("ne", (a: unknown, b: unknown) => a !== b);
  h.registerHelper("lt", (a: number, b: number) => a < b);
  h.registerHelper("gt", (a: number, b: number) => a > b);
  h.registerHelper("lte", (a: number, b: number) => a <= b);
  h.registerHelper("gte", (a: number, b: number) => a >= b);
  h.registerHelper("not", (a: unknown) => !a);
  h.registerHelper("and", (...args: unknown[]) => args.slice(0, -1).every(Boolean));
  h.registerHelper("or", (...args: unknown[]) => args.slice(0, -1).some(Boolean));
  h.registerHelper("concat", (...args: unknown[]) => args.slice(0, -1).map(String).join(""));
  h.registerHelper("object", (options: unknown) => hashOf(options));
  h.registerHelper("json", (v: unknown) => JSON.stringify(v));
  h.registerHelper("numberFormat", (v: unknown, options: unknown) => {
    const hash = hashOf(options);
    const n = Number(v);
    const decimals = Number(hash.decimals ?? 0);
    let s = n.toFixed(decimals);
    if (hash.sign && n > 0) s = `+${s}`;
    return s;
  });
  h.registerHelper("selectOptions", (choices: unknown, options: unknown) => {
    const hash = hashOf(options);
    const selected = hash.selected;
    const sel = Array.isArray(selected) ? selected.map(String) : [String(selected)];
    const loc = Boolean(hash.localize);
    const valueAttr = (hash.valueAttr as string) ?? "value";
    const labelAttr = (hash.labelAttr as string) ?? "label";
    const entries: [string, string][] = Array.isArray(choices)
      ? choices.map((c) => (typeof c === "object" && c ? [String((c as Record<string, unknown>)[valueAttr]), String((c as Record<string, unknown>)[labelAttr])] : [String(c), String(c)]))
      : Object.entries((choices ?? {}) as Record<string, unknown>).map(([k, v]) => [k, typeof v === "object" && v ? String((v as Record<string, unknown>)[labelAttr]) : String(v)]);
    let html = "";
    if (hash.blank !== undefined) html += `<option value="">${esc(loc ? localize(String(hash.blank)) : String(hash.blank))}</option>`;
    for (const [value, label] of entries) {
      html += `<option value="${esc(value)}"${sel.includes(value) ? " selected" : ""}>${esc(loc ? localize(label) : label)}</option>`;
    }
    return new Handlebars.SafeString(html);
  });
}

// Foundry's core helpers first, then the system's own (which may replace eq/and/… and adds localize).
registerFoundryCoreHelpers(hbs);
// The ladder helper follows the world (Legendary on/off, localized rung names), as in Foundry's init.
let currentLadder: () => Ladder = () => standardLadder();
export function setLadder(f: () => Ladder): void {
  currentLadder = f;
}
registerHelpers(hbs, i18n, { localize: true, ladder: () => currentLadder() });

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
