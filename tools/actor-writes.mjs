// Issue 28: every write to a wound track, a wound / defence / Clipped log, a Guts state, a kill
// record or Fudge Points goes through the host port's serialised write (src/system/flows/port.ts
// writeActor / changeActor; in Foundry src/foundry/port.ts and bridge.ts updateActor, on the one
// writer's client). ESLint's no-restricted-syntax refuses a document write elsewhere that names
// one of those fields; eslint.config.mjs and tests/tools/actor-writes.test.ts read this list.

/** The fields only the serialised write may write (a key, a dotted path's part, or a flag key). */
export const GUARDED_FIELDS = [
  "woundTrack",
  "woundLog",
  "defenceLog",
  "clippedLog",
  "gutsState",
  "fudgePoints",
  "gmRecords",
  "killedFrom",
];

const WRITES = "update|updateSource|setFlag|unsetFlag|updateDocuments|updateEmbeddedDocuments|set";
const names = GUARDED_FIELDS.join("|");
const message =
  "Write wound tracks, logs, Guts states, kill records and Fudge Points only through the port's serialised write (HostPort.changeActor / writeActor), never with a direct document update (issue 28).";

/** no-restricted-syntax entries: an update's object naming a guarded key, a dotted path through one, or setFlag of one. */
export const GUARDED_WRITE_RULES = [
  {
    selector: `CallExpression[callee.property.name=/^(${WRITES})$/] Property[key.name=/^(${names})$/]`,
    message,
  },
  {
    selector: `CallExpression[callee.property.name=/^(${WRITES})$/] Property[key.value=/(^|\\.)(${names})(\\.|$)/]`,
    message,
  },
  {
    selector: `CallExpression[callee.property.name=/^(setFlag|unsetFlag)$/] > Literal[value=/^(${names})$/]`,
    message,
  },
];
