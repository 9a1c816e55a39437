/**
 * Stand-ins for the Handlebars helpers Foundry v13 core registers itself (written from its public
 * API docs), for the hosts that are not Foundry: the playground and the tests. The system never
 * registers these names in Foundry (src/system/handlebars.ts registers only `fudge*` helpers).
 */
import Handlebars from "handlebars";
import type { SystemI18n } from "../src/system/i18n";

export function registerFoundryCoreHelpers(h: typeof Handlebars, i18n: SystemI18n): void {
  const esc = Handlebars.Utils.escapeExpression;
  const hashOf = (o: unknown): Record<string, unknown> => (o as { hash?: Record<string, unknown> })?.hash ?? {};
  // {{localize "KEY"}} and {{localize "KEY" n=1}} (format with the hash), as core's.
  h.registerHelper("localize", (key: unknown, options: unknown) => {
    const hash = hashOf(options);
    return Object.keys(hash).length ? i18n.format(String(key ?? ""), hash) : i18n.localize(String(key ?? ""));
  });
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
      ? choices.map((c) =>
          typeof c === "object" && c
            ? [String((c as Record<string, unknown>)[valueAttr]), String((c as Record<string, unknown>)[labelAttr])]
            : [String(c), String(c)],
        )
      : Object.entries((choices ?? {}) as Record<string, unknown>).map(([k, v]) => [
          k,
          typeof v === "object" && v ? String((v as Record<string, unknown>)[labelAttr]) : String(v),
        ]);
    let html = "";
    if (hash.blank !== undefined)
      html += `<option value="">${esc(loc ? i18n.localize(String(hash.blank)) : String(hash.blank))}</option>`;
    for (const [value, label] of entries) {
      html += `<option value="${esc(value)}"${sel.includes(value) ? " selected" : ""}>${esc(loc ? i18n.localize(label) : label)}</option>`;
    }
    return new Handlebars.SafeString(html);
  });
}
