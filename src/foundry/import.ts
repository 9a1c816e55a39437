/**
 * "Import from Fudge RPG" in the Actors directory (GM only): exported actor JSON files of the
 * fudge-rpg system become characters here. Thin: reading files, creating documents and posting
 * the report; the conversion is src/system/import-fudge-rpg.ts (pure, shared with the playground
 * and the CLI). All or nothing: when any chosen file is malformed, every error is shown and no
 * actor is created.
 */
import {
  importFudgeRpgBatch,
  importErrorText,
  importReportContext,
  type ConvertOptions,
  type FudgeRpgConversion,
} from "../system/import-fudge-rpg";
import { importedAward } from "../system/advancement";
import { worldRules } from "./bridge";
import { writeGmRecords } from "./gm-records";
import { userRef } from "./foundry-util";
import { SYSTEM_ID } from "../system/registry";

export const IMPORT_REPORT_TEMPLATE = `systems/${SYSTEM_ID}/templates/chat/import-report.hbs`;

const loc = (k: string) => game.i18n!.localize(k);
const esc = (s: string) => foundry.utils.escapeHTML(s);

/** Asks for files (Foundry's DialogV2 with a native multi-file input, as core's own "Import Data"). */
async function chooseFiles(): Promise<File[] | null> {
  const content = `<p class="hint">${esc(loc("FUDGE.Import.Hint"))}</p><input type="file" name="files" accept=".json,application/json" multiple required>`;
  const files = await foundry.applications.api.DialogV2.prompt({
    window: { title: "FUDGE.Import.Title", icon: "fa-solid fa-file-import" },
    content: `<div class="fudge-wounds fudge-import-dialog">${content}</div>`,
    ok: {
      label: "FUDGE.Import.Action",
      callback: (_event: Event, button: HTMLButtonElement) =>
        Array.from((button.form!.elements.namedItem("files") as HTMLInputElement).files ?? []),
    },
    rejectClose: false,
  } as never);
  return (files as File[] | null) ?? null;
}

export async function importFromFudgeRpg(): Promise<void> {
  if (!game.user?.isGM) return;
  const files = await chooseFiles();
  if (files === null) return;
  if (!files.length) {
    ui.notifications!.warn(loc("FUDGE.Import.Error.NoFiles"));
    return;
  }
  const inputs = await Promise.all(files.map(async (f) => ({ file: f.name, text: await f.text() })));
  await importFudgeRpgFiles(inputs);
}

/**
 * Converts the files' text and, only when every file converts, creates the actors and posts one
 * report each. `clock`: the batch's budget and clock (default FUDGE_RPG_BUDGET and Date.now; tests).
 */
export async function importFudgeRpgFiles(
  inputs: { file: string; text: string }[],
  clock: Pick<ConvertOptions, "budgetMs" | "now"> = {},
): Promise<Actor.Implementation[]> {
  // A batch over its time budget (FUDGE_RPG_BUDGET) is refused whole, shown like a file's error, nothing created.
  const outcome = importFudgeRpgBatch(inputs, { rules: worldRules(), ...clock });
  if (outcome.errors.length) {
    const items = outcome.errors
      .map(({ file, error }) => `<li>${esc(importErrorText(error, file, loc))}</li>`)
      .join("");
    await foundry.applications.api.DialogV2.prompt({
      window: { title: "FUDGE.Import.Title" },
      content: `<div class="fudge-wounds fudge-import-dialog"><p>${esc(loc("FUDGE.Import.Failed"))}</p><ul>${items}</ul></div>`,
      rejectClose: false,
    } as never);
    return [];
  }
  // Item ids are the converter's placeholders; Foundry gives the real ones.
  const sources = outcome.converted.map(({ result }) => withoutItemIds(result));
  const ActorClass = CONFIG.Actor.documentClass as unknown as {
    createDocuments(data: unknown[]): Promise<Actor.Implementation[]>;
  };
  const created = await ActorClass.createDocuments(sources);
  // The export's unspent EP: the importing GM's award, in her own records (never the actor's data).
  const at = new Date().toISOString();
  for (const [i, { result }] of outcome.converted.entries())
    if (result.award > 0 && created[i])
      await writeGmRecords(created[i].uuid, importedAward(result.award, userRef(), at));
  const whisper = ChatMessage.getWhisperRecipients("GM").map((u) => u.id);
  for (const { file, result } of outcome.converted) {
    const content = await foundry.applications.handlebars.renderTemplate(
      IMPORT_REPORT_TEMPLATE,
      importReportContext(file, result) as never,
    );
    await ChatMessage.create({
      content: `<div class="fudge-wounds fudge-card">${content}</div>`,
      whisper,
      speaker: { alias: loc("FUDGE.Import.Title") },
    } as never);
  }
  ui.notifications!.info(game.i18n!.format("FUDGE.Import.Created", { count: String(created.length) }));
  // One character imported: open its sheet, as creating an actor does.
  if (created.length === 1) await created[0].sheet?.render(true);
  return created;
}

function withoutItemIds(result: FudgeRpgConversion): Record<string, unknown> {
  return { ...result.actor, items: result.actor.items.map(({ _id: _ignored, ...item }) => item) };
}
