/**
 * "Import from Fudge RPG" on the Actors directory, for the GM. Only the button loads with the
 * system: the converter (src/system/import-fudge-rpg.ts) and its dialog (src/foundry/import.ts)
 * are loaded when it is clicked.
 */
import { reportError } from "./foundry-util";

const loc = (k: string) => game.i18n!.localize(k);
const esc = (s: string) => foundry.utils.escapeHTML(s);

/** renderActorDirectory hook: adds the import button for GMs (once per render). */
export function addImportButton(_app: unknown, html: HTMLElement): void {
  if (!game.user?.isGM || !(html instanceof HTMLElement) || html.querySelector("[data-fudge-import]")) return;
  const host = html.querySelector(".header-actions") ?? html.querySelector(".directory-footer");
  if (!host) return;
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.fudgeImport = "";
  button.innerHTML = `<i class="fa-solid fa-file-import" inert></i> <span>${esc(loc("FUDGE.Import.Action"))}</span>`;
  button.addEventListener("click", () => {
    // The converter and its dialog are their own chunk, loaded at the first click.
    import("./import").then(({ importFromFudgeRpg }) => importFromFudgeRpg()).catch((e) => reportError(e)); // a listener cannot wait: a failure is reported
  });
  host.append(button);
}
