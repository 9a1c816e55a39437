/**
 * The attack pipelines on this client (src/rules/presets.ts loads each preset's on demand): the
 * world's preset's from `init`, a new preset's as soon as the GM picks it. Foundry does not wait for
 * a hook (v13 client/game.mjs Game#setupGame calls `Hooks.callAll("setup")` and renders the UI
 * without awaiting any listener), so what reads a pipeline awaits its load itself: a chat card in
 * `renderHTML` (src/foundry/chat.ts, its own card's presets, which may be an earlier preset's), a
 * sheet in `_prepareContext`, a flow before it resolves (src/system/flows).
 */
import { loadPreset } from "../rules";
import { worldRules } from "./bridge";
import { reportError } from "./foundry-util";

/**
 * Loads the world's preset's pipeline. Resolves once it is loaded, or once a failed load has been
 * reported (what reads the pipeline then says the preset is still loading, and loads it again).
 */
export async function loadWorldPreset(): Promise<void> {
  try {
    await loadPreset(worldRules().preset);
  } catch (e) {
    reportLoadFailure(e);
  }
}

let reported = false;

/**
 * A failed load (a chunk the browser could not fetch): in the console always, on screen once (each
 * card and sheet that tries again would repeat it), and not before the UI is there (at `init`).
 */
export function reportLoadFailure(e: unknown): void {
  if (reported || !ui.notifications) return console.error(e);
  reported = true;
  reportError(e);
}
