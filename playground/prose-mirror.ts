/**
 * Stand-in for Foundry v13's `<prose-mirror>` element (HTMLProseMirrorElement), as the system's
 * templates use it: `<prose-mirror name value toggled>rendered HTML</prose-mirror>`.
 *
 * Like Foundry's toggled editor it shows the rendered HTML with an edit button; the button opens
 * an editable area with basic formatting (bold, italic, lists); saving sets the element's `value`
 * and fires `save` and a bubbling `change` (the host submits the field, as a sheet's form does).
 * What it saves is sanitised first — Foundry's server cleans every HTMLField write; here
 * src/system/rich-text.ts sanitizeHtml does — and what it shows was sanitised by the context.
 * Keyboard: every control is a button; Ctrl+B / Ctrl+I format, Ctrl+Enter saves, Esc cancels.
 */
import { sanitizeHtml } from "../src/system/rich-text";
import { i18n } from "./i18n";

const t = (k: string, p?: Record<string, string>) => (p ? i18n.format(k, p) : i18n.localize(k));

const FORMATS = [
  { command: "bold", icon: "fa-bold", key: "FUDGE.RichText.Bold" },
  { command: "italic", icon: "fa-italic", key: "FUDGE.RichText.Italic" },
  { command: "insertUnorderedList", icon: "fa-list-ul", key: "FUDGE.RichText.BulletList" },
  { command: "insertOrderedList", icon: "fa-list-ol", key: "FUDGE.RichText.NumberedList" },
] as const;

function iconButton(cls: string, icon: string, label: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `fudge-icon-button ${cls}`;
  b.setAttribute("aria-label", label);
  b.dataset.tooltip = label;
  const i = document.createElement("i");
  i.className = `fa-solid ${icon}`;
  i.setAttribute("inert", "");
  b.append(i);
  return b;
}

export class PlaygroundProseMirror extends HTMLElement {
  #value = "";
  #built = false;
  #editing = false;
  #display!: HTMLDivElement;
  #area: HTMLDivElement | null = null;
  #range: Range | null = null;

  get name(): string {
    return this.getAttribute("name") ?? "";
  }
  get value(): string {
    return this.#value;
  }
  set value(v: string) {
    this.#value = sanitizeHtml(v);
  }
  /** Is the editor open? (Foundry's `open`.) */
  get open(): boolean {
    return this.#editing;
  }

  /** The label the template gave the field (its heading). */
  get #label(): string {
    const id = this.getAttribute("aria-labelledby");
    return (id && document.getElementById(id)?.textContent?.trim()) || this.name;
  }

  connectedCallback(): void {
    if (this.#built) return;
    this.#built = true;
    this.#value = sanitizeHtml(this.getAttribute("value") ?? "");
    // The template's children are the rendered (already sanitised) HTML: shown as they are.
    this.#display = document.createElement("div");
    this.#display.className = "editor-content";
    this.#display.append(...this.childNodes);
    const edit = iconButton("toggle pg-pm-edit", "fa-edit", `${t("FUDGE.RichText.Edit")}: ${this.#label}`);
    edit.dataset.tooltip = t("FUDGE.RichText.Edit");
    edit.addEventListener("click", () => this.#openEditor());
    this.append(edit, this.#display);
  }

  #openEditor(): void {
    if (this.#editing) return;
    this.#editing = true;
    this.classList.add("active");
    const menu = document.createElement("menu");
    menu.className = "editor-menu";
    menu.setAttribute("role", "toolbar");
    menu.setAttribute("aria-label", t("FUDGE.RichText.Toolbar"));
    for (const f of FORMATS) {
      const b = iconButton(`pg-pm-format`, f.icon, t(f.key));
      b.dataset.command = f.command;
      // Keep the text selection when the button is pressed with the mouse.
      b.addEventListener("mousedown", (e) => e.preventDefault());
      b.addEventListener("click", () => this.#format(f.command));
      menu.append(b);
    }
    const save = iconButton("pg-pm-save", "fa-save", t("FUDGE.RichText.Save"));
    save.addEventListener("click", () => this.#save());
    const cancel = iconButton("pg-pm-cancel", "fa-xmark", t("FUDGE.RichText.Cancel"));
    cancel.addEventListener("click", () => this.#close());
    menu.append(save, cancel);

    const area = document.createElement("div");
    area.className = "editor-content pg-pm-area";
    area.contentEditable = "true";
    area.setAttribute("role", "textbox");
    area.setAttribute("aria-multiline", "true");
    area.setAttribute("aria-label", t("FUDGE.RichText.Editor", { label: this.#label }));
    area.innerHTML = this.#value || "<p><br></p>";
    area.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        this.#close();
      } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.#save();
      }
    });
    const keep = () => {
      const sel = document.getSelection();
      if (sel?.rangeCount && area.contains(sel.getRangeAt(0).commonAncestorContainer))
        this.#range = sel.getRangeAt(0).cloneRange();
    };
    area.addEventListener("keyup", keep);
    area.addEventListener("mouseup", keep);
    area.addEventListener("input", keep);
    this.#area = area;
    this.#display.hidden = true;
    this.querySelector<HTMLElement>(".pg-pm-edit")!.hidden = true;
    this.append(menu, area);
    area.focus();
  }

  #format(command: string): void {
    const area = this.#area;
    if (!area) return;
    area.focus();
    if (this.#range) {
      const sel = document.getSelection()!;
      sel.removeAllRanges();
      sel.addRange(this.#range);
    }
    // The browser's own editing commands (a stand-in; Foundry uses ProseMirror's schema).
    document.execCommand(command);
  }

  #close(): void {
    this.#editing = false;
    this.classList.remove("active");
    this.querySelector(".editor-menu")?.remove();
    this.#area?.remove();
    this.#area = null;
    this.#display.hidden = false;
    const edit = this.querySelector<HTMLElement>(".pg-pm-edit")!;
    edit.hidden = false;
    edit.focus();
  }

  #save(): void {
    if (!this.#area) return;
    const html = sanitizeHtml(this.#area.innerHTML).replace(/^<p><br><\/p>$/, "");
    this.#value = html;
    this.setAttribute("value", html);
    this.#display.innerHTML = html;
    this.#close();
    this.dispatchEvent(new Event("save"));
    this.dispatchEvent(new Event("change", { bubbles: true }));
  }
}

if (!customElements.get("prose-mirror")) customElements.define("prose-mirror", PlaygroundProseMirror);
