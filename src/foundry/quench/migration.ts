/** The world migration: every earlier stored shape becomes the current one, and nothing is left to do. */
import { PREFIX, QuenchLike, Scratch } from "./helpers";
import { migrateWorld } from "../migration";
import { SYSTEM_ID } from "../../system/registry";
import { STORED_SHAPES } from "../../system/stored-shapes";

export function registerMigrationBatch(quench: QuenchLike): void {
  quench.registerBatch(
    `${SYSTEM_ID}.migration`,
    ({ it, after, assert }) => {
      const s = new Scratch();
      after(() => s.cleanup());
      for (const shape of STORED_SHAPES.filter((x) => !x.invalid))
        it(shape.label, async () => {
          const cls = (shape.documentName === "Actor" ? Actor : Item) as unknown as {
            create(d: object): Promise<{ toObject(): { system: unknown }; items?: { size: number } }>;
          };
          const doc = s.track(
            await cls.create({
              ...structuredClone(shape.source),
              name: PREFIX + String(shape.source.name),
              ...(shape.items ? { items: structuredClone(shape.items) } : {}),
            }),
          );
          const sys = doc.toObject().system;
          const at = (path: string) =>
            path.split(".").reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]), sys);
          for (const [path, v] of Object.entries(shape.expect)) assert.deepEqual(at(path), v, path);
          for (const path of shape.gone ?? []) assert.equal(at(path), undefined, `${path} is gone`);
          if (shape.items) assert.equal(doc.items?.size, shape.items.length, "embedded items kept");
        });
      it("the world migration has nothing left to do, and reports no failure", async () => {
        const report = await migrateWorld();
        assert.ok(report === null || report.failed.length === 0, JSON.stringify(report?.failed ?? []));
      });
    },
    { displayName: "Fudge Combat & Wounds: migration of every stored shape" },
  );
}
