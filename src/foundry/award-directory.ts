/**
 * Awarding EP from the Actors directory, for the GM (Fudge §5.2; the flow is
 * src/system/flows/experience.ts awardExperienceToActors): a header button opening the award
 * dialog with a checklist of the world's actors that gain experience, and an "Award EP" entry on an
 * actor's context menu, opening it with that actor checked. The menu: v13's DocumentDirectory
 * (client/applications/sidebar/document-directory.mjs, _createContextMenus) builds the entries'
 * menu on `.directory-item[data-entry-id]` with `hookName: "get" + documentName + "ContextOptions",
 * parentClassHooks: false`, so `getActorContextOptions(app, entries)` is the one hook; v14 keeps it
 * and reads `{label, icon, visible, onClick}` entries (v13: `{name, icon, condition, callback}`).
 */
import { loadClicks } from "../system/flows";
import { foundryPort } from "./port";
import { reportError } from "./foundry-util";
import type { V14ContextMenuEntry } from "./v14";

const AWARD_ENTRY = "fudgeAwardEp";
const loc = (k: string) => game.i18n!.localize(k);
const esc = (s: string) => foundry.utils.escapeHTML(s);

function award(chosen?: string): void {
  // A click cannot wait: a refusal or failure is reported.
  loadClicks()
    .then((f) => f.awardExperienceToActors(foundryPort(), chosen))
    .catch((e) => reportError(e));
}

/** renderActorDirectory hook: adds "Award EP to actors" for GMs (once per render), beside the import button. */
export function addAwardButton(_app: unknown, html: HTMLElement): void {
  if (!game.user?.isGM || !(html instanceof HTMLElement) || html.querySelector("[data-fudge-award]")) return;
  const host = html.querySelector(".header-actions") ?? html.querySelector(".directory-footer");
  if (!host) return;
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.fudgeAward = "";
  button.innerHTML = `<i class="fa-solid fa-star" inert></i> <span>${esc(loc("FUDGE.Experience.AwardToActors"))}</span>`;
  button.addEventListener("click", () => award());
  host.append(button);
}

/** getActorContextOptions hook: "Award EP" on an actor's entry, for the GM, where the actor gains experience. */
export function onActorContextOptions(_app: unknown, entries: unknown[]): void {
  if (!Array.isArray(entries) || entries.some((e) => (e as Record<string, unknown>)?.[AWARD_ENTRY])) return;
  const actorOf = (li: HTMLElement) => {
    const id = li.closest<HTMLElement>("[data-entry-id]")?.dataset.entryId ?? "";
    return (game.actors?.get(id) as Actor.Implementation | undefined) ?? null;
  };
  const visible = (li: HTMLElement) => {
    const type = actorOf(li)?.type as string | undefined;
    return !!game.user?.isGM && (type === "character" || type === "npc");
  };
  const run = (li: HTMLElement) => {
    const actor = actorOf(li);
    if (actor) award(actor.uuid);
  };
  const v14 = (game.release?.generation ?? 13) >= 14;
  const v14Entry: V14ContextMenuEntry = {
    label: "FUDGE.Experience.Award",
    icon: "fa-solid fa-star",
    visible,
    onClick: (_e: Event, li: HTMLElement) => run(li),
  };
  entries.push(
    v14
      ? { [AWARD_ENTRY]: true, ...v14Entry }
      : {
          [AWARD_ENTRY]: true,
          name: "FUDGE.Experience.Award",
          icon: '<i class="fa-solid fa-star"></i>',
          condition: visible,
          callback: run,
        },
  );
}
