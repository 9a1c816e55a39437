/**
 * Builds the playground once and serves the static build (dist-playground/) for every browser
 * test file. PLAYGROUND_URL=http://… skips both and tests a server you already run.
 */
import type { TestProject } from "vitest/node";
import { servePlayground } from "../../tools/start.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    playgroundUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.PLAYGROUND_URL) {
    project.provide("playgroundUrl", process.env.PLAYGROUND_URL);
    return async () => {};
  }
  const { url, close } = await servePlayground({
    mode: "preview",
    quiet: true,
    build: process.env.PLAYGROUND_NO_BUILD !== "1",
  });
  project.provide("playgroundUrl", url);
  return close;
}
