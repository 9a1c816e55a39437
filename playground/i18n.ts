/**
 * Localization for the stand-in host: the system's real lang/en.json, through the UI layer's own
 * `dictionaryI18n` (the same seam Foundry fills with game.i18n). Keys the UI asks for that are
 * missing are collected, so the browser tests can fail on them.
 */
import { dictionaryI18n, flattenLang } from "../src/system/i18n";

const main = import.meta.glob<Record<string, unknown>>("../lang/en.json", { eager: true, import: "default" });

export const translations: Record<string, string> = {};
for (const file of Object.keys(main)) Object.assign(translations, flattenLang(main[file]));

export const langSources = { main: Object.keys(main) };

/** Keys asked for that are not in the language files (tests check this list stays empty). */
export const missingKeys = new Set<string>();

export const i18n = dictionaryI18n(translations, (key) => {
  if (/^(FUDGE|TYPES)\./.test(key)) missingKeys.add(key);
});
export const localize = (key: string) => i18n.localize(key);
export const format = (key: string, data: Record<string, unknown> = {}) => i18n.format(key, data);
