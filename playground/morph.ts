/**
 * Brings a live element's content in line with freshly rendered HTML by changing only the nodes
 * that differ, instead of replacing the whole subtree (`innerHTML`). A wound-box click then
 * touches a few attributes instead of rebuilding a sheet of ~1,000 nodes, and the focused control,
 * scroll positions and the elements tests hold on to survive. Form controls take the rendered
 * value, as a fresh render would show them (a refused edit shows the stored value again).
 *
 * Custom elements (a tag with a dash, e.g. `<prose-mirror>` or a stand-in for it) own their inner
 * DOM: one is kept while its rendered HTML is unchanged and replaced whole when it changes.
 */
const parser = document.createElement("template");
/** The HTML each live custom element was rendered from. */
const customSource = new WeakMap<Element, string>();

/**
 * `el` shows `previous` (the HTML last rendered into it); make it show `html`. The two strings are
 * compared element by element first, so only the parts that differ are parsed and morphed; when
 * the strings' structure cannot be matched to the live nodes, the whole HTML is parsed and morphed.
 */
export function morphHTML(el: Element, html: string, previous?: string): void {
  const next = chunkTree(html);
  const cached = trees.get(el);
  const before = previous === undefined ? null : cached?.html === previous ? cached.tree : chunkTree(previous);
  trees.set(el, { html, tree: next });
  if (previous !== undefined && before && next && diffInto(el, previous, before, html, next, 0)) return;
  parser.innerHTML = html;
  morphChildren(el, parser.content);
}

// ─── String-level diff: parse only what changed ─────────────────────────────────────────

/** The last HTML morphed into an element and its chunk tree (the next call's "previous"). */
const trees = new WeakMap<Element, { html: string; tree: Chunk[] | null }>();

const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
/** A comment, or a start/end tag whose quoted attribute values may hold ">". */
const TOKEN =
  /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*(\/?)>/g;

/** A node of rendered HTML: an element (its tag, where its start tag ends and its end tag starts, its children), text or a comment. */
interface Chunk {
  kind: "element" | "text" | "comment";
  tag: string;
  start: number;
  end: number;
  openEnd: number;
  closeStart: number;
  children: Chunk[];
}

/** The node tree of well-formed HTML in one pass, or null when it is not simple well-formed HTML. */
function chunkTree(html: string): Chunk[] | null {
  const top: Chunk[] = [];
  const stack: Chunk[] = [];
  const into = () => (stack.length ? stack[stack.length - 1].children : top);
  let last = 0;
  const text = (a: number, b: number) =>
    b > a && into().push({ kind: "text", tag: "", start: a, end: b, openEnd: a, closeStart: b, children: [] });
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(html); m; m = TOKEN.exec(html)) {
    const end = TOKEN.lastIndex;
    text(last, m.index);
    last = end;
    if (m[0].startsWith("<!--")) {
      into().push({ kind: "comment", tag: "", start: m.index, end, openEnd: end, closeStart: end, children: [] });
      continue;
    }
    const name = m[2].toLowerCase();
    if (m[1] !== "/") {
      const el: Chunk = {
        kind: "element",
        tag: name,
        start: m.index,
        end,
        openEnd: end,
        closeStart: end,
        children: [],
      };
      into().push(el);
      if (!VOID.has(name) && m[3] !== "/") stack.push(el);
    } else {
      const el = stack.pop();
      if (!el || el.tag !== name) return null;
      el.closeStart = m.index;
      el.end = end;
    }
  }
  if (stack.length) return null;
  text(last, html.length);
  return top;
}

const NODE_KIND: Record<Chunk["kind"], number> = {
  element: Node.ELEMENT_NODE,
  text: Node.TEXT_NODE,
  comment: Node.COMMENT_NODE,
};

/**
 * Morphs `live`'s children (showing the chunks `oc` of `old`) to show the chunks `nc` of `neu`:
 * equal parts are left alone, an element whose start tag is unchanged is compared the same way
 * one level down, and any other changed part is parsed on its own and morphed. False (nothing
 * changed yet) when the chunks and the live nodes do not line up one to one — where the browser's
 * parser fixed the HTML up (an implied <tbody>, …).
 */
function diffInto(live: Node, old: string, oc: Chunk[], neu: string, nc: Chunk[], depth: number): boolean {
  const nodes = live.childNodes;
  if (oc.length !== nc.length || nodes.length !== oc.length) return false;
  for (let i = 0; i < oc.length; i++) {
    const node = nodes[i];
    if (oc[i].kind !== nc[i].kind || oc[i].tag !== nc[i].tag || node.nodeType !== NODE_KIND[oc[i].kind]) return false;
    if (oc[i].kind === "element" && (node as Element).localName !== oc[i].tag) return false;
  }
  // Last to first: a part replaced by several nodes does not shift the ones still to do.
  for (let i = oc.length - 1; i >= 0; i--) {
    const o = oc[i];
    const n = nc[i];
    if (o.end - o.start === n.end - n.start && old.startsWith(neu.slice(n.start, n.end), o.start)) continue;
    const node = nodes[i];
    const recurse =
      o.kind === "element" &&
      depth < 64 &&
      !o.tag.includes("-") &&
      o.tag !== "textarea" &&
      o.tag !== "select" &&
      old.slice(o.start, o.openEnd) === neu.slice(n.start, n.openEnd);
    if (recurse && diffInto(node, old, o.children, neu, n.children, depth + 1)) continue;
    parser.innerHTML = neu.slice(n.start, n.end);
    const fresh = parser.content;
    if (fresh.childNodes.length === 1 && sameKind(node, fresh.firstChild!)) morphNode(node, fresh.firstChild!);
    else {
      remember(fresh);
      (node as ChildNode).replaceWith(...Array.from(fresh.childNodes));
    }
  }
  return true;
}

const isCustom = (n: Node): n is Element => n.nodeType === Node.ELEMENT_NODE && (n as Element).localName.includes("-");

function remember(n: Node): void {
  if (isCustom(n)) customSource.set(n, n.outerHTML);
  else if (n instanceof Element || n instanceof DocumentFragment)
    for (const c of n.querySelectorAll("*")) if (c.localName.includes("-")) customSource.set(c, c.outerHTML);
}

function sameKind(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  if ((a as Element).localName !== (b as Element).localName) return false;
  return !isCustom(a) || customSource.get(a) === (b as Element).outerHTML;
}

function morphChildren(from: Node, to: Node): void {
  let a = from.firstChild;
  let b = to.firstChild;
  while (b) {
    const nextB = b.nextSibling;
    if (!a) {
      remember(b);
      from.appendChild(b);
    } else if (sameKind(a, b)) {
      morphNode(a, b);
      a = a.nextSibling;
    } else {
      const nextA = a.nextSibling;
      remember(b);
      from.replaceChild(b, a);
      a = nextA;
    }
    b = nextB;
  }
  while (a) {
    const next = a.nextSibling;
    from.removeChild(a);
    a = next;
  }
}

function morphNode(a: Node, b: Node): void {
  if (a.nodeType !== Node.ELEMENT_NODE) {
    if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
    return;
  }
  if (isCustom(a)) return; // unchanged (sameKind compared its whole HTML)
  const ea = a as Element;
  const eb = b as Element;
  // Most of a sheet is unchanged: the browser's own comparison skips a whole equal subtree (form
  // controls still take the rendered value below, in case the user typed into one).
  if (ea.isEqualNode(eb)) return syncControls(ea, eb);
  for (const { name } of Array.from(ea.attributes)) if (!eb.hasAttribute(name)) ea.removeAttribute(name);
  for (const { name, value } of Array.from(eb.attributes))
    if (ea.getAttribute(name) !== value) ea.setAttribute(name, value);
  if (!(ea instanceof HTMLTextAreaElement)) morphChildren(ea, eb);
  formValue(ea, eb);
}

function formValue(ea: Element, eb: Element): void {
  if (ea instanceof HTMLTextAreaElement) {
    const text = eb.textContent ?? "";
    if (ea.defaultValue !== text) ea.defaultValue = text;
    if (ea.value !== text) ea.value = text;
  } else if (ea instanceof HTMLInputElement) {
    if (ea.type === "checkbox" || ea.type === "radio") {
      const checked = eb.hasAttribute("checked");
      if (ea.checked !== checked) ea.checked = checked;
    } else if (ea.type !== "file") {
      const value = eb.getAttribute("value") ?? "";
      if (ea.value !== value) ea.value = value;
    }
  } else if (ea instanceof HTMLSelectElement) {
    const options = Array.from(eb.querySelectorAll("option"));
    const chosen = options.find((o) => o.hasAttribute("selected")) ?? options[0];
    const value = chosen ? (chosen.getAttribute("value") ?? chosen.textContent ?? "") : "";
    if (!ea.multiple && ea.value !== value) ea.value = value;
  }
}

/** Form controls inside an equal subtree: the rendered value wins over a value typed and not stored. */
function syncControls(a: Element, b: Element): void {
  if (!a.firstElementChild) return formValue(a, b);
  const live = a.querySelectorAll("input, select, textarea");
  if (!live.length) return;
  const fresh = b.querySelectorAll("input, select, textarea");
  live.forEach((el, i) => formValue(el, fresh[i]));
}
