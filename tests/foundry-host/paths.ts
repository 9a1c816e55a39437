/** Where the host finds the system's files: the repository root, and the path Foundry serves them under. */
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
export const SYSTEM_PATH = "systems/fudge-wounds/";
