/**
 * "Import from Fudge RPG" in the playground: a toolbar button and a file input. The chosen files
 * (actors exported from the fudge-rpg Foundry system) go through the same converter the Foundry
 * action uses (src/system/import-fudge-rpg.ts), all or nothing; the new characters join the
 * store with their sheets open, and the report card (the system's real template) is shown in a
 * dialog. Installed by one call from main.ts.
 */
import { importErrorText, importFudgeRpgBatch, importReportContext } from "../src/system/import-fudge-rpg";
import { importedAward } from "../src/system/advancement";
import { i18n } from "./i18n";
import type { Store } from "./store";
import { renderTemplate } from "./templates";
import { rulesOf } from "./ui";

const REPORT_TEMPLATE = "chat/import-report.hbs";

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function newId(): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length: 16 }, () => chars[Math.floor(Math.random() * chars.length)]).join("");
}

function showDialog(html: string): void {
  let dialog = document.querySelector<HTMLDialogElement>("dialog[data-pg-import-dialog]");
  if (!dialog) {
    dialog = document.createElement("dialog");
    dialog.dataset.pgImportDialog = "";
    dialog.className = "pg-import-dialog fudge-wounds";
    dialog.addEventListener("click", (ev) => {
      if ((ev.target as HTMLElement).closest("[data-pg-import-close]")) dialog!.close();
    });
    document.body.append(dialog);
  }
  dialog.innerHTML = `<div class="pg-import-body">${html}</div><button type="button" data-pg-import-close>Close</button>`;
  if (!dialog.open) dialog.showModal();
}

/** Converts the files; adds the actors (all or none) and shows the reports or the errors. */
export async function importFiles(
  store: Store,
  files: { name: string; text: () => Promise<string> }[],
  toast: (text: string, error?: boolean) => void,
): Promise<void> {
  const inputs = await Promise.all(files.map(async (f) => ({ file: f.name, text: await f.text() })));
  const outcome = importFudgeRpgBatch(inputs, { rules: rulesOf(store.state), newId });
  const localize = (k: string) => i18n.localize(k);
  if (outcome.errors.length) {
    const list = outcome.errors
      .map(({ file, error }) => `<li data-pg-import-error>${esc(importErrorText(error, file, localize))}</li>`)
      .join("");
    showDialog(`<p>${esc(localize("FUDGE.Import.Failed"))}</p><ul>${list}</ul>`);
    toast(localize("FUDGE.Import.Failed"), true);
    return;
  }
  const ids = outcome.converted.map(() => newId());
  const at = new Date().toISOString();
  // New actors, created whole: the export's unspent EP are the page's GM's award, in the GM's
  // records (the store keeps them with the actor).
  const actors = outcome.converted.map(({ result }, i) => ({
    ...result.actor,
    _id: ids[i],
    ...(result.award > 0 ? { gmRecords: importedAward(result.award, store.state.user, at) } : {}),
  }));
  store.update((d) => {
    actors.forEach((actor) => {
      d.actors.push(structuredClone(actor) as unknown as (typeof d.actors)[number]);
      if (!d.open.includes(actor._id)) d.open.push(actor._id);
    });
  });
  const cards = outcome.converted.map(
    ({ file, result }) =>
      `<div class="chat-message message"><div class="message-content fudge-card">${renderTemplate(REPORT_TEMPLATE, importReportContext(file, result))}</div></div>`,
  );
  showDialog(cards.join(""));
  toast(i18n.format("FUDGE.Import.Created", { count: outcome.converted.length }));
}

/** Adds the toolbar button and its file input (once). */
export function installImport(store: Store, toast: (text: string, error?: boolean) => void): void {
  const toolbar = document.querySelector(".pg-toolbar");
  if (!toolbar || toolbar.querySelector("[data-pg-import]")) return;
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.pgImport = "";
  button.dataset.testid = "import";
  button.textContent = i18n.localize("FUDGE.Import.Action");
  button.title = i18n.localize("FUDGE.Import.Hint");
  const input = document.createElement("input");
  input.type = "file";
  input.accept = ".json,application/json";
  input.multiple = true;
  input.hidden = true;
  input.dataset.pgImportFile = "";
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const files = [...(input.files ?? [])];
    input.value = "";
    if (!files.length) return;
    importFiles(store, files, toast).catch((e: unknown) => toast(String((e as Error)?.message ?? e), true));
  });
  toolbar.querySelector("#pg-reset")?.before(button, input) ?? toolbar.append(button, input);
}
