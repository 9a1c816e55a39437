/**
 * Layer rules (npm run lint): src/rules ← src/system ← src/foundry and playground/ (docs/foundry.md
 * "How the pieces fit"). One rule per layer boundary: a new one is one more entry in `forbidden`.
 * Globals (game, CONFIG, foundry) are invisible here: tsconfig.pure.json type-checks src/rules and
 * src/system without Foundry's types.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "rules-are-pure",
      comment: "src/rules is the rules core: it imports nothing else of the project.",
      severity: "error",
      from: { path: "^src/rules/" },
      to: { path: "^(src|playground|tools|tests|bin)/", pathNot: "^src/rules/" },
    },
    {
      name: "rules-through-index",
      comment:
        "From outside the rules core, only src/rules/index.ts or a preset's own index.ts (src/rules/fudge/index.ts …): what is inside may move.",
      severity: "error",
      from: { pathNot: "^src/rules/" },
      to: { path: "^src/rules/", pathNot: "^src/rules/(index\\.ts|(?!forecast/)[^/]+/index\\.ts)$" },
    },
    {
      name: "system-on-rules-only",
      comment: "src/system (views, actions) imports only src/rules and itself.",
      severity: "error",
      from: { path: "^src/system/" },
      to: { path: "^(src|playground|tools|tests|bin)/", pathNot: "^src/(rules|system)/" },
    },
    {
      name: "playground-not-foundry",
      comment: "The playground is a second host: it never imports the Foundry adapter.",
      severity: "error",
      from: { path: "^playground/" },
      to: { path: "^src/foundry/" },
    },
    {
      name: "hosts-call-flows",
      comment:
        "Each click is written once, in src/system/flows (docs/foundry.md \"Flows and the host port\"): " +
        "src/foundry and playground/ run the flows, never the actions module (src/system/actions/) itself.",
      severity: "error",
      from: { path: "^(src/foundry|playground)/" },
      to: { path: "^src/system/actions/" },
    },
    {
      name: "no-cycles",
      comment: "No import cycles anywhere (type-only imports are erased at build, so they close no cycle).",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "not-to-unresolvable",
      comment: "Every import resolves.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist|dist-playground|artifacts|tests/fixtures)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: "specify",
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".mts", ".mjs", ".js", ".cjs", ".json", ".d.ts", ".d.mts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
