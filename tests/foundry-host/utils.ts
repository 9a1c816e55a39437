/**
 * foundry.utils, as documented in the v13 API (mergeObject with `-=key` deletions and
 * `recursive`, expandObject, diffObject, getProperty, escapeHTML …).
 */
import { deepClone, isRec } from "./fields";

type Rec = Record<string, unknown>;

export function getType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "Array";
  if (isRec(v))
    return Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null
      ? "Object"
      : (v.constructor?.name ?? "Object");
  return typeof v;
}

export function expandObject(obj: Rec): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(obj)) {
    const value = isRec(v) && getType(v) === "Object" ? expandObject(v) : v;
    if (k.includes(".")) setProperty(out, k, value);
    else if (isRec(out[k]) && isRec(value)) mergeObject(out[k] as Rec, value);
    else out[k] = value;
  }
  return out;
}

export function getProperty(obj: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((o, k) => (o == null ? undefined : (o as Rec)[k]), obj);
}

export function setProperty(obj: Rec, path: string, value: unknown): boolean {
  const parts = path.split(".");
  let o = obj;
  for (const p of parts.slice(0, -1)) {
    if (!isRec(o[p])) o[p] = {};
    o = o[p] as Rec;
  }
  o[parts.at(-1)!] = value;
  return true;
}

/** v14's update operators (globals `_del`, `_replace(value)`; FOUNDRY-V13.md "v14"). */
export class ForcedDeletion {}
export class ForcedReplacement {
  constructor(readonly value: unknown) {}
}
export const _del = new ForcedDeletion();
export const _replace = (value: unknown) => new ForcedReplacement(value);

/**
 * mergeObject(original, other, {performDeletions, recursive, inplace}) as core: `-=key` deletes
 * the key, `==key` replaces it whole; recursive: false replaces inner objects whole.
 */
export function mergeObject<T extends Rec>(
  original: T,
  other: Rec = {},
  opts: { inplace?: boolean; recursive?: boolean; performDeletions?: boolean; insertKeys?: boolean } = {},
): T {
  const { inplace = true, recursive = true, performDeletions = true } = opts;
  const target = (inplace ? original : deepClone(original)) as Rec;
  for (const [k, v] of Object.entries(other)) {
    if (performDeletions && k.startsWith("-=")) {
      delete target[k.slice(2)];
      continue;
    }
    if (k.startsWith("==")) {
      target[k.slice(2)] = deepClone(v);
      continue;
    }
    if (v instanceof ForcedDeletion) {
      delete target[k];
      continue;
    }
    if (v instanceof ForcedReplacement) {
      target[k] = deepClone(v.value);
      continue;
    }
    if (recursive && isRec(v) && getType(v) === "Object" && isRec(target[k]))
      mergeObject(target[k] as Rec, v, { ...opts, inplace: true });
    else if (recursive && isRec(v) && getType(v) === "Object") {
      const fresh: Rec = {};
      mergeObject(fresh, v, { ...opts, inplace: true });
      target[k] = fresh;
    } else target[k] = deepClone(v);
  }
  return target as T;
}

/** diffObject(original, other): what in `other` differs from `original` (arrays compared whole). */
export function diffObject(original: Rec, other: Rec): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(other)) {
    const o = original[k];
    if (isRec(v) && isRec(o)) {
      const d = diffObject(o, v);
      if (Object.keys(d).length) out[k] = d;
    } else if (JSON.stringify(o) !== JSON.stringify(v)) out[k] = deepClone(v);
  }
  return out;
}

export function flattenObject(obj: Rec, prefix = ""): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isRec(v) && Object.keys(v).length) Object.assign(out, flattenObject(v, key));
    else out[key] = v;
  }
  return out;
}

export function escapeHTML(s: unknown): string {
  return String(s ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]!,
  );
}

/**
 * v13 `foundry.utils.cleanHTML` (API docs: "Clean a provided HTML fragment, closing unbalanced
 * tags and stripping some undesirable properties"; the allowlists are CONST.ALLOWED_HTML_TAGS /
 * ATTRIBUTES / URL_SCHEMES). The host's version parses with the DOM (happy-dom) and drops what
 * those lists leave out that could run script: script-like elements, `on*` attributes, and
 * href/src/cite URLs whose scheme is not http(s)/data/mailto. Independent of the system's own
 * sanitiser (src/system/rich-text.ts), so host tests do not check that code against itself.
 */
export function cleanHTML(raw: string): string {
  const tpl = document.createElement("template");
  tpl.innerHTML = String(raw ?? "");
  tpl.content
    .querySelectorAll("script, style, iframe, object, embed, link, meta, base, form, frame, frameset")
    .forEach((e) => e.remove());
  for (const el of tpl.content.querySelectorAll("*")) {
    for (const a of [...el.attributes]) {
      const name = a.name.toLowerCase();
      if (name.startsWith("on")) el.removeAttribute(a.name);
      else if (["href", "src", "cite", "action", "formaction", "xlink:href"].includes(name)) {
        const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(a.value.replace(/[\u0000-\u0020]/g, ""))?.[1]?.toLowerCase();
        if (scheme && !["http", "https", "data", "mailto"].includes(scheme)) el.removeAttribute(a.name);
      }
    }
  }
  return tpl.innerHTML;
}

let counter = 0;
export function randomID(length = 16): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  counter++;
  let s = "";
  for (let i = 0; i < length; i++) s += chars[Math.floor(Math.random() * chars.length)];
  return s.slice(0, length - 3) + String(counter % 1000).padStart(3, "0");
}

export function isNewerVersion(v1: unknown, v0: unknown): boolean {
  const a = String(v1).split(".").map(Number);
  const b = String(v0).split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return false;
}

export const utils = {
  cleanHTML,
  getType,
  expandObject,
  getProperty,
  setProperty,
  mergeObject,
  diffObject,
  flattenObject,
  escapeHTML,
  randomID,
  isNewerVersion,
  deepClone,
  duplicate: deepClone,
};
