/**
 * Rich text (actor notes, item descriptions) as pure string functions, shared by the data
 * migration, the Fudge RPG importer, the sheet context builders and the playground.
 *
 * In Foundry these fields are HTMLFields declared in system.json (`documentTypes.*.htmlFields`):
 * Foundry's server cleans them on every write, and the sheets show them through
 * `foundry.utils.cleanHTML` + `TextEditor.enrichHTML` (src/foundry/rich-text.ts). Where Foundry
 * is not there — the playground, the importer's CLI output, the sheet context when no enriched
 * HTML is given — `sanitizeHtml` does the same job with a stricter allowlist: the output is
 * rebuilt from tokens (allowlisted tags and attributes only, every text and attribute value
 * re-escaped, URLs limited to http(s)/mailto/relative), so no input can make it run script.
 */

/** Escapes text for HTML (element content and quoted attribute values alike). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Escapes text for element content: `&`, `<`, `>` (quotes need no escape there, and a browser or Foundry's server writes them back bare). */
export function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
}

/**
 * Plain text → HTML, losing nothing: every character escaped, a blank line starts a new
 * paragraph, a single line break stays a line break (`<br>`). Empty text stays empty.
 */
export function textToHtml(text: string): string {
  const t = text.replace(/\r\n?/g, "\n");
  if (!t.trim()) return "";
  return t
    .trim()
    .split(/\n[ \t]*\n\s*/)
    .map((p) => `<p>${escapeText(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** Block and inline tags a note may hold (a subset of Foundry's CONST.ALLOWED_HTML_TAGS, without forms, media or frames). */
const ALLOWED_TAGS = new Set([
  "p",
  "br",
  "hr",
  "div",
  "span",
  "section",
  "blockquote",
  "pre",
  "code",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "del",
  "ins",
  "sub",
  "sup",
  "small",
  "mark",
  "abbr",
  "q",
  "cite",
  "kbd",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "caption",
  "colgroup",
  "col",
  "a",
  "img",
  "figure",
  "figcaption",
]);
const VOID_TAGS = new Set(["br", "hr", "img", "col"]);
const BLOCK_TAGS = new Set([
  "p",
  "div",
  "section",
  "blockquote",
  "pre",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "dl",
  "table",
  "hr",
  "figure",
]);
/** Elements dropped with everything inside them (their content is code or a foreign document). */
const DROP_WITH_CONTENT = new Set([
  "script",
  "style",
  "iframe",
  "object",
  "embed",
  "noscript",
  "template",
  "textarea",
  "title",
  "xmp",
  "noembed",
  "noframes",
  "plaintext",
  "svg",
  "math",
  "select",
  "frameset",
  "frame",
  "head",
]);
const GLOBAL_ATTRS = new Set(["class", "title", "lang", "dir"]);
const TAG_ATTRS: Record<string, Set<string>> = {
  a: new Set(["href", "target", "rel"]),
  img: new Set(["src", "alt", "width", "height"]),
  ol: new Set(["start", "type"]),
  td: new Set(["colspan", "rowspan"]),
  th: new Set(["colspan", "rowspan", "scope"]),
  col: new Set(["span"]),
  colgroup: new Set(["span"]),
  // Foundry's secret blocks (`<section class="secret">`) keep their class; ids are dropped (DOM clobbering).
};
const URL_ATTRS = new Set(["href", "src"]);

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Decodes the character references an attribute value may use (numeric and the common named ones). */
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (m, ref: string) => {
    if (ref[0] === "#") {
      const code =
        ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? m;
  });
}

/**
 * A URL is kept when it is relative or http(s)/mailto (an image may also be `data:image/…`).
 * Browsers ignore whitespace and control characters inside a scheme, and decode references
 * first, so the check runs on the decoded value with those removed; a leftover `&` before the
 * first `/?#` could be a reference we did not decode (`&colon;`), so it is refused.
 */
export function safeUrl(raw: string, attr: "href" | "src"): string | null {
  const v = decodeEntities(raw).trim();
  const compact = v.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  const head = compact.split(/[/?#]/, 1)[0];
  if (head.includes("&")) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(head)?.[1]?.toLowerCase();
  if (scheme === undefined) return head.includes(":") ? null : v;
  if (scheme === "http" || scheme === "https") return v;
  if (scheme === "mailto" && attr === "href") return v;
  if (scheme === "data" && attr === "src" && /^data:image\/(png|gif|jpe?g|webp);/i.test(compact)) return v;
  return null;
}

interface Tag {
  name: string;
  closing: boolean;
  attrs: [string, string][];
  selfClosing: boolean;
}

/** Reads a tag starting at `i` (s[i] === "<"); null when it is not one (then "<" is text). */
function readTag(s: string, i: number): { tag: Tag | null; end: number } | null {
  // Comments, doctype, processing instructions and CDATA: dropped.
  if (s.startsWith("<!--", i)) {
    const e = s.indexOf("-->", i + 4);
    return { tag: null, end: e < 0 ? s.length : e + 3 };
  }
  if (s[i + 1] === "!" || s[i + 1] === "?") {
    const e = s.indexOf(">", i);
    return { tag: null, end: e < 0 ? s.length : e + 1 };
  }
  const m = /^<(\/?)([a-z][a-z0-9-]*)/i.exec(s.slice(i, i + 64));
  if (!m) return null;
  let j = i + m[0].length;
  const attrs: [string, string][] = [];
  let selfClosing = false;
  while (j < s.length) {
    while (j < s.length && /[\s/]/.test(s[j])) {
      if (s[j] === "/" && s[j + 1] === ">") selfClosing = true;
      j++;
    }
    if (j >= s.length) break;
    if (s[j] === ">")
      return { tag: { name: m[2].toLowerCase(), closing: m[1] === "/", attrs, selfClosing }, end: j + 1 };
    const an = /^[^\s/>="'<]+/.exec(s.slice(j))?.[0] ?? s[j];
    j += an.length;
    while (j < s.length && /\s/.test(s[j])) j++;
    let value = "";
    if (s[j] === "=") {
      j++;
      while (j < s.length && /\s/.test(s[j])) j++;
      const q = s[j];
      if (q === '"' || q === "'") {
        const e = s.indexOf(q, j + 1);
        value = s.slice(j + 1, e < 0 ? s.length : e);
        j = e < 0 ? s.length : e + 1;
      } else {
        const v = /^[^\s>]*/.exec(s.slice(j))![0];
        value = v;
        j += v.length;
      }
    }
    attrs.push([an.toLowerCase(), value]);
  }
  // An unterminated tag runs to the end of the input: nothing of it is kept.
  return { tag: null, end: s.length };
}

/** Text between tags: character references kept, every bare `&`, `<`, `>` escaped. */
function cleanText(t: string): string {
  return t
    .replace(/&(?!(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);)/gi, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/**
 * User HTML → HTML that cannot run script: allowlisted tags and attributes only (no `on*`,
 * no `style`, no `id`, no `data-*`), URLs checked by `safeUrl`, script-like elements dropped
 * with their content, everything re-escaped, unbalanced tags closed. Idempotent.
 */
export function sanitizeHtml(input: unknown): string {
  if (typeof input !== "string" || !input) return "";
  const s = input;
  let out = "";
  const open: string[] = [];
  // How many of each tag are open: a closing tag or a block that closes a `<p>` searches `open`
  // only when one is there, so 100,000 nested tags cost linear time, not quadratic (issue #10).
  const openCount = new Map<string, number>();
  const pop = (): string => {
    const name = open.pop()!;
    openCount.set(name, openCount.get(name)! - 1);
    return name;
  };
  let i = 0;
  let dropping: string | null = null;
  while (i < s.length) {
    const lt = s.indexOf("<", i);
    const textEnd = lt < 0 ? s.length : lt;
    if (textEnd > i) {
      if (!dropping) out += cleanText(s.slice(i, textEnd));
      i = textEnd;
      continue;
    }
    const r = readTag(s, i);
    if (!r) {
      if (!dropping) out += "&lt;";
      i++;
      continue;
    }
    i = r.end;
    const t = r.tag;
    if (!t) continue;
    if (dropping) {
      if (t.closing && t.name === dropping) dropping = null;
      continue;
    }
    if (DROP_WITH_CONTENT.has(t.name)) {
      if (!t.closing && !t.selfClosing) dropping = t.name;
      continue;
    }
    if (!ALLOWED_TAGS.has(t.name)) continue;
    if (t.closing) {
      if (!openCount.get(t.name)) continue;
      const at = open.lastIndexOf(t.name);
      while (open.length > at) out += `</${pop()}>`;
      continue;
    }
    // As an HTML parser does: a block element closes an open paragraph (`<p><ul>` → `<p></p><ul>`).
    if (BLOCK_TAGS.has(t.name) && openCount.get("p")) {
      const at = open.lastIndexOf("p");
      while (open.length > at) out += `</${pop()}>`;
    }
    let attrs = "";
    const allowed = TAG_ATTRS[t.name];
    const seen = new Set<string>();
    for (const [name, raw] of t.attrs) {
      if (seen.has(name) || !(GLOBAL_ATTRS.has(name) || allowed?.has(name))) continue;
      seen.add(name);
      let value: string | null = decodeEntities(raw);
      if (URL_ATTRS.has(name)) value = safeUrl(raw, name as "href" | "src");
      else if (name === "target") value = value === "_blank" ? "_blank" : null;
      else if (
        name === "width" ||
        name === "height" ||
        name === "start" ||
        name === "colspan" ||
        name === "rowspan" ||
        name === "span"
      )
        value = /^\d{1,5}$/.test(value.trim()) ? value.trim() : null;
      if (value === null) continue;
      attrs += ` ${name}="${escapeHtml(value)}"`;
    }
    if (t.name === "a" && seen.has("target")) attrs = attrs.replace(/ rel="[^"]*"/, "") + ' rel="noopener noreferrer"';
    if (t.name === "img" && !/ src="/.test(attrs)) continue;
    out += `<${t.name}${attrs}>`;
    if (!VOID_TAGS.has(t.name)) {
      open.push(t.name);
      openCount.set(t.name, (openCount.get(t.name) ?? 0) + 1);
    }
  }
  while (open.length) out += `</${open.pop()}>`;
  return out;
}

/**
 * True when a stored string is HTML already: it holds a tag a note may hold (`<p>`, `<em>`, …).
 * Text that only mentions other tags (`<script>`, `<rats>`) is text, and is escaped.
 */
export function looksLikeHtml(v: string): boolean {
  return [...v.matchAll(/<\/?([a-z][a-z0-9]*)\b[^<>]*>/gi)].some((m) => ALLOWED_TAGS.has(m[1].toLowerCase()));
}

/**
 * A stored note or description in the current shape (HTML): plain text (MIGRATION_VERSION 3
 * stored text) becomes escaped paragraphs; HTML is kept as it is (Foundry cleans it on write
 * and on display). Idempotent: what it returns is HTML.
 */
export function storedRichText(v: unknown): unknown {
  if (typeof v !== "string" || !v || looksLikeHtml(v)) return v;
  return textToHtml(v);
}

const TEXT_ENTITIES: Record<string, string> = {
  ...NAMED_ENTITIES,
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
};

/**
 * HTML → plain text, for where only text fits (the rules core's Miniatures datacards, the import
 * report): paragraphs and list items on their own lines, entities decoded, script dropped.
 */
export function htmlToText(html: string): string {
  return trimLineEnds(
    tagsReplaced(withoutScripts(html), [
      [/<br\s*\/?>/gi, "\n"],
      [/<li\b[^>]*>/gi, "• "],
      [/<\/(li|tr)\s*>/gi, "\n"],
      [/<\/(p|div|h[1-6]|ul|ol|blockquote)\s*>/gi, "\n\n"],
      [/<[^>]*>/g, ""],
    ]).replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      }
      return TEXT_ENTITIES[e.toLowerCase()] ?? m;
    }),
  )
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/*
 * htmlToText's passes, each linear in the text's length (issue #10: a 500 KB description of bare
 * `<` took minutes through the plain regular expressions, each failing match scanning to the end).
 */

/** `<script>…</script>` and `<style>…</style>` removed with their content (an unclosed one stays, as text for the next passes). */
function withoutScripts(html: string): string {
  const opening = /<(script|style)\b/gi;
  // Where the search for each closing tag last failed: no closing tag lies after it.
  const noCloseFrom: Record<string, number> = {};
  let out = "";
  let from = 0;
  for (let m = opening.exec(html); m; m = opening.exec(html)) {
    const name = m[1].toLowerCase();
    if (m.index >= (noCloseFrom[name] ?? Infinity)) continue;
    const closing = new RegExp(`<\\/${name}\\s*>`, "gi");
    closing.lastIndex = opening.lastIndex;
    const c = closing.exec(html);
    if (!c) {
      noCloseFrom[name] = m.index;
      continue;
    }
    out += html.slice(from, m.index);
    from = closing.lastIndex;
    opening.lastIndex = from;
  }
  return out + html.slice(from);
}

/**
 * The replacements, in order, on the text up to its last `>`: every match ends with `>`, so the
 * rest holds none, and leaving it out spares each `<` there a scan to the end.
 */
function tagsReplaced(html: string, passes: [RegExp, string][]): string {
  let s = html;
  for (const [re, to] of passes) {
    const end = s.lastIndexOf(">") + 1;
    s = s.slice(0, end).replace(re, to) + s.slice(end);
  }
  return s;
}

/** Spaces and tabs before each line break removed (a regular expression rescans a long run of spaces from each of them). */
function trimLineEnds(s: string): string {
  const lines = s.split("\n");
  for (let k = 0; k < lines.length - 1; k++) {
    const l = lines[k];
    let e = l.length;
    while (e > 0 && (l[e - 1] === " " || l[e - 1] === "\t")) e--;
    if (e < l.length) lines[k] = l.slice(0, e);
  }
  return lines.join("\n");
}

/** What a sheet shows of a rich-text field and how it edits it (templates/parts/rich-text.hbs). */
export interface RichTextView {
  /** The form field name (`system.notes`). */
  name: string;
  /** The stored HTML, the editor's starting value (shown escaped in the attribute). */
  value: string;
  /** HTML to show: Foundry's enriched HTML, or `sanitizeHtml` of the stored value. */
  html: string;
  /** Owners edit (`<prose-mirror>`), everyone else reads. */
  editable: boolean;
  labelKey: string;
  /** `true` when there is nothing to show. */
  empty: boolean;
  /** Foundry: the document's uuid (the editor's `document-uuid`, for content links dropped in); "" elsewhere. */
  uuid: string;
}

/**
 * The view of one rich-text field. `enriched` is what Foundry's TextEditor made of the (cleaned)
 * value; without it the stored value is sanitised here, so the HTML a template puts through
 * `{{{ }}}` is always safe.
 */
export function richTextView(
  name: string,
  stored: unknown,
  opts: { editable: boolean; labelKey: string; enriched?: string; uuid?: string },
): RichTextView {
  const value = typeof stored === "string" ? stored : "";
  const html = opts.enriched !== undefined ? opts.enriched : sanitizeHtml(value);
  return {
    name,
    value,
    html,
    editable: opts.editable,
    labelKey: opts.labelKey,
    empty: !html.replace(/<[^>]*>|\s|&nbsp;/g, ""),
    uuid: opts.uuid ?? "",
  };
}
