/**
 * How a sheet shows a rich-text field in Foundry v13: core's `foundry.utils.cleanHTML` (the same
 * cleaning the server applies to every write of a declared HTMLField, so HTML that reached the
 * database another way — a compendium, an old world — is cleaned too), then core's
 * `TextEditor.enrichHTML` (content links, inline rolls; secrets only for owners), as dnd5e and
 * Draw Steel do. The result is what templates/parts/rich-text.hbs puts through `{{{ }}}`.
 * Our own allowlist runs first: core's cleaning keeps `data-*` attributes and `<button>`, and a
 * note a player wrote must not carry a `data-action` that the sheet would run for whoever clicks it.
 * Content links and inline rolls are added after it, by enrichHTML, so they keep their data.
 */
import { sanitizeHtml } from "../system/rich-text";

type Enrichable = { isOwner: boolean };

export async function enrichRichText(html: unknown, doc: Enrichable): Promise<string> {
  const raw = typeof html === "string" ? html : "";
  if (!raw) return "";
  const utils = foundry.utils as unknown as { cleanHTML?: (raw: string) => string };
  const ours = sanitizeHtml(raw);
  const clean = typeof utils.cleanHTML === "function" ? utils.cleanHTML(ours) : ours;
  const TextEditor = foundry.applications.ux.TextEditor.implementation;
  return TextEditor.enrichHTML(clean, { secrets: doc.isOwner, relativeTo: doc } as never);
}
