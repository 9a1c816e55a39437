// The README and docs are what a user reads first: every image and relative link in them must
// point at a file in the repository (screenshots are copied from artifacts/ by hand).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const markdownIn = (dir: string) =>
  readdirSync(resolve(ROOT, dir))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `${dir}/${f}`);
const DOCS = ["README.md", "CHANGELOG.md", "NOTICE.md", ...markdownIn("docs"), ...markdownIn("docs/rules-api")];

function relativeTargets(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith("#") && !t.includes("<"));
}

describe("documentation links", () => {
  it.each(DOCS)("%s: every relative link and image exists", (doc) => {
    const text = readFileSync(resolve(ROOT, doc), "utf8");
    const missing = relativeTargets(text)
      .map((t) => decodeURI(t.split("#")[0]!))
      .filter((t) => t && !existsSync(resolve(dirname(resolve(ROOT, doc)), t)));
    expect(missing).toEqual([]);
  });
});
