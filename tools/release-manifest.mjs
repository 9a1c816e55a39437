#!/usr/bin/env node
/**
 * Fills system.json for a release: version from the tag, `manifest` pointing at the latest
 * release's system.json, `download` at this release's zip, `url` at the repository.
 * Usage (release workflow): node tools/release-manifest.mjs <owner/repo> <tag>
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A stand-in the committed system.json holds where a release fills in its repository and tag. */
export const PLACEHOLDER = /\b(OWNER|REPO|VERSION)\b|vVERSION/;

/** The manifest's URL fields: the release fills them (fillManifest). */
export const URL_FIELDS = ["url", "manifest", "download"];

/**
 * The system.json a build ships: a URL field that still holds a placeholder is left out. A copy
 * built by hand is installed by hand (Foundry's update check then has no manifest URL to ask,
 * rather than a broken one); a release's filled manifest is shipped as it is.
 */
export function installableManifest(manifest) {
  const out = { ...manifest };
  for (const k of URL_FIELDS) if (typeof out[k] === "string" && PLACEHOLDER.test(out[k])) delete out[k];
  return out;
}

export function fillManifest(manifest, repo, tag) {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new Error(`bad repository name: ${repo}`);
  const version = tag.replace(/^v/, "");
  if (!/^\d+\.\d+\.\d+([-.+][\w.-]+)?$/.test(version)) throw new Error(`tag ${tag} is not a version (vX.Y.Z)`);
  const base = `https://github.com/${repo}`;
  return {
    ...manifest,
    version,
    url: base,
    manifest: `${base}/releases/latest/download/system.json`,
    download: `${base}/releases/download/${tag}/${manifest.id}.zip`,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [repo, tag] = process.argv.slice(2);
  if (!repo || !tag) {
    console.error("usage: node tools/release-manifest.mjs <owner/repo> <tag>");
    process.exit(2);
  }
  const file = "system.json";
  const filled = fillManifest(JSON.parse(fs.readFileSync(file, "utf8")), repo, tag);
  fs.writeFileSync(file, JSON.stringify(filled, null, 2) + "\n");
  console.log(`system.json ${filled.version}: ${filled.download}`);
}
