/** Rich-text notes in a live world: what a hostile player writes never runs. */
import { SYSTEM_ID } from "../../system/registry";
import { QuenchLike, Scratch, until } from "./helpers";

/** Notes a hostile player could write: each part would run script if it reached the page as it is. */
const HOSTILE_NOTES =
  '<p>Owes <strong>3 gp</strong></p><img src="x" onerror="window.__fudgeXss = true"><a href="javascript:window.__fudgeXss = true">x</a><script>window.__fudgeXss = true</script>';

/** Issue #9: rich-text notes in a live world (registered last, see QUENCH_BATCHES). */
export function registerRichTextBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.rich-text`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      let leroy: Actor.Implementation;
      before(async () => {
        leroy = await s.actorFromPack("characters", "Leroy");
        await leroy.update({ system: { notes: HOSTILE_NOTES } } as never);
      });
      after(() => s.cleanup());
      it("notes are a toggled <prose-mirror> for the owner, and hostile HTML in them runs nothing on the sheet", async () => {
        const sheet = leroy.sheet as unknown as {
          render(o?: object): Promise<unknown>;
          close(): Promise<unknown>;
          element: HTMLElement;
        };
        await sheet.render({ force: true });
        await until(() => !!sheet.element?.querySelector("prose-mirror"));
        const editor = sheet.element.querySelector('prose-mirror[name="system.notes"]');
        assert.ok(editor, "the notes editor is there");
        assert.ok(editor!.hasAttribute("toggled"), "toggled editor");
        assert.equal(editor!.querySelector("strong")?.textContent, "3 gp", "formatting shown");
        const bad = [...sheet.element.querySelectorAll("*")].filter(
          (el) =>
            el.tagName === "SCRIPT" ||
            [...el.attributes].some((a) => a.name.startsWith("on") || /^\s*javascript:/i.test(a.value)),
        );
        assert.deepEqual(
          bad.map((el) => el.outerHTML.slice(0, 80)),
          [],
          "nothing scriptable on the sheet",
        );
        await new Promise((r) => setTimeout(r, 100));
        assert.ok(!(window as unknown as { __fudgeXss?: boolean }).__fudgeXss, "no script ran");
        await sheet.close();
      });
    },
    { displayName: "Fudge Combat & Wounds: rich-text notes are edited with <prose-mirror> and shown safely" },
  );
}
