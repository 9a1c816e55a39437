/**
 * The system's templates and partials, loaded once at `init`. Foundry never waits for a
 * promise a hook returns (FOUNDRY-V13.md "Templates"), so anything that may render before the
 * partials are registered — chat cards drawn at start-up, a sheet left open — awaits
 * `templatesReady()` first.
 */
import { PARTIALS, TEMPLATES } from "../system/handlebars";
import { SYSTEM_ID } from "../system/registry";

export const systemPath = (p: string) => `systems/${SYSTEM_ID}/${p}`;

let ready: Promise<unknown> | null = null;

/** Starts loading (init): partials registered by name, the other templates cached by path. */
export function loadSystemTemplates(): Promise<unknown> {
  const partials = Object.fromEntries(Object.entries(PARTIALS).map(([name, p]) => [name, systemPath(p)]));
  const hb = foundry.applications.handlebars;
  ready = Promise.all([
    hb.loadTemplates(partials as never),
    hb.loadTemplates(Object.values(TEMPLATES).map(systemPath)),
  ]);
  return ready;
}

/** Resolves once the partials are registered (at once if loading never started, e.g. outside Foundry). */
export function templatesReady(): Promise<unknown> {
  return ready ?? Promise.resolve();
}
