/**
 * `<prose-mirror>`, v13's HTMLProseMirrorElement (client/applications/elements/prose-mirror.mjs),
 * reduced to what a sheet sees: a form element with a `name` and a `value` (the stored HTML, from
 * its `value` attribute), and the editor's save. The host has no editor: a test types into it with
 * `edit(html)`, and `save()` does what core's `#save` does — a bubbling, cancelable `save` event
 * (while it runs, `value` is the editor's new content, as core's `_getValue` reads the active
 * editor), then, only if the HTML changed, the new value and a bubbling `change` event.
 */
export class HostProseMirror extends HTMLElement {
  #value: string | null = null;
  #editing: string | null = null;

  get name(): string {
    return this.getAttribute("name") ?? "";
  }
  get value(): string {
    if (this.#editing !== null) return this.#editing;
    return this.#value ?? this.getAttribute("value") ?? "";
  }
  set value(v: string) {
    this.#value = String(v);
  }
  get disabled(): boolean {
    return this.hasAttribute("disabled");
  }
  /** Opens the editor with this HTML as its content (the user's typing). */
  edit(html: string): void {
    this.#editing = html;
  }
  /** core `#save`: "save", then the new value and "change" when it differs. */
  save(): void {
    if (this.#editing === null) return;
    const next = this.#editing;
    const save = new Event("save", { bubbles: true, cancelable: true });
    this.dispatchEvent(save);
    if (save.defaultPrevented) return;
    this.#editing = null;
    if (next !== (this.#value ?? this.getAttribute("value") ?? "")) {
      this.#value = next;
      this.dispatchEvent(new Event("change", { bubbles: true, cancelable: true }));
    }
  }
}

/** Registers the element once per DOM (happy-dom: one window per test file). */
export function defineProseMirror(): void {
  if (!customElements.get("prose-mirror")) customElements.define("prose-mirror", HostProseMirror);
}
