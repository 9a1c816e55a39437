/**
 * Localization seam of the UI layer. In Foundry `game.i18n` provides localize/format/has; in
 * tests and the playground `dictionaryI18n` does the same over the flat dictionary of
 * lang/en.json. Placeholders use Foundry's `{name}` format.
 */
export interface SystemI18n {
  localize(key: string): string;
  format(key: string, params: Record<string, unknown>): string;
  has(key: string): boolean;
}

/** Param values that are themselves i18n keys (e.g. a level label) are localized before use. */
export const KEY_PATTERN = /^(FUDGE|TYPES)\.[A-Za-z0-9_.-]+$/;

export function fill(template: string, params: Record<string, unknown>, lookup: (v: string) => string): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (m, name: string) => {
    if (!(name in params)) return m;
    const v = params[name];
    if (typeof v === "string" && KEY_PATTERN.test(v)) return lookup(v);
    return String(v);
  });
}

/**
 * A dictionary-backed i18n. `onMissing` is called for every key not in the dictionary (the
 * i18n test fails on it); the key itself is returned, as Foundry does.
 */
export function dictionaryI18n(dict: Record<string, string>, onMissing?: (key: string) => void): SystemI18n {
  const localize = (key: string): string => {
    if (Object.prototype.hasOwnProperty.call(dict, key)) return dict[key];
    onMissing?.(key);
    return key;
  };
  return {
    localize,
    format: (key, params) => fill(localize(key), params ?? {}, localize),
    has: (key) => Object.prototype.hasOwnProperty.call(dict, key),
  };
}

/** Flattens nested lang JSON ({"FUDGE": {"Sheet": {...}}}) into dotted keys; flat files pass through. */
export function flattenLang(
  obj: Record<string, unknown>,
  prefix = "",
  out: Record<string, string> = {},
): Record<string, string> {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") out[key] = v;
    else if (v && typeof v === "object") flattenLang(v as Record<string, unknown>, key, out);
  }
  return out;
}
