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

export function morphHTML(el: Element, html: string): void {
  parser.innerHTML = html;
  morphChildren(el, parser.content);
}

const isCustom = (n: Node): n is Element => n.nodeType === Node.ELEMENT_NODE && (n as Element).localName.includes("-");

function remember(n: Node): void {
  if (isCustom(n)) customSource.set(n, n.outerHTML);
  else if (n.nodeType === Node.ELEMENT_NODE) for (const c of (n as Element).querySelectorAll("*")) if (c.localName.includes("-")) customSource.set(c, c.outerHTML);
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
  for (const { name, value } of Array.from(eb.attributes)) if (ea.getAttribute(name) !== value) ea.setAttribute(name, value);
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
