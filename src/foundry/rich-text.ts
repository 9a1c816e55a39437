/**
 * How a sheet shows a rich-text field in Foundry v13: core's `foundry.utils.cleanHTML` (the same
 * cleaning the server applies to every write of a declared HTMLField, so HTML that reached the
 * database another way — a compendium, an old world — is cleaned too), then core's
 * `TextEditor.enrichHTML` (content links, inline rolls; secrets only for owners), as dnd5e and
 * Draw Steel do. The result is what templates/parts/rich-text.hbs puts through `{{{ }}}`.
 */
type Enrichable = { isOwner: boolean };

export async function enrichRichText(html: unknown, doc: Enrichable): Promise<string> {
  const raw = typeof html === "string" ? html : "";
  if (!raw) return "";
  const utils = foundry.utils as unknown as { cleanHTML?: (raw: string) => string };
  const clean = typeof utils.cleanHTML === "function" ? utils.cleanHTML(raw) : raw;
  const TextEditor = foundry.applications.ux.TextEditor.implementation;
  return TextEditor.enrichHTML(clean, { secrets: doc.isOwner, relativeTo: doc } as never);
}
