/** Renders the real templates with handlebars, the system's helpers and the real lang files. */
import Handlebars from "handlebars";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { registerHelpers, PARTIALS, TEMPLATES } from "../../src/system/handlebars";
import { dictionaryI18n } from "../../src/system/i18n";
import { registerFoundryCoreHelpers } from "../../playground/foundry-core-helpers";
import { loadLang, ROOT } from "./fixtures";

export interface Renderer {
  render(name: keyof typeof TEMPLATES, context: unknown): string;
  /** i18n keys looked up during rendering that the lang files do not hold. */
  missing: Set<string>;
}

export function makeRenderer(): Renderer {
  const hb = Handlebars.create();
  const missing = new Set<string>();
  const lang = loadLang();
  const i18n = dictionaryI18n(lang, (k) => missing.add(k));
  registerFoundryCoreHelpers(hb, i18n);
  registerHelpers(hb, i18n);
  for (const [name, path] of Object.entries(PARTIALS)) hb.registerPartial(name, readFileSync(join(ROOT, path), "utf8"));
  const cache = new Map<string, HandlebarsTemplateDelegate>();
  return {
    missing,
    render(name, context) {
      let t = cache.get(name);
      if (!t) {
        t = hb.compile(readFileSync(join(ROOT, TEMPLATES[name]), "utf8"), { strict: false });
        cache.set(name, t);
      }
      return t(context);
    },
  };
}
