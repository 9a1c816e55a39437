export declare const PLAYGROUND_CONFIG: string;
export declare const PLAYGROUND_DIST: string;
export declare function buildPlayground(opts?: { quiet?: boolean }): Promise<string>;
export declare function servePlayground(opts?: {
  mode?: "dev" | "preview";
  port?: number;
  host?: string;
  build?: boolean;
  quiet?: boolean;
  strictPort?: boolean;
}): Promise<{ url: string; close: () => Promise<void> }>;
export declare function portFree(port: number, host?: string): Promise<boolean>;
export declare function choosePort(
  wanted: number,
  opts?: { explicit?: boolean; host?: string; tries?: number },
): Promise<{ port: number | null; taken: boolean }>;
export declare function watchedAncestors(env?: NodeJS.ProcessEnv): number[];
export declare function stopWithParent(
  close: () => Promise<void>,
  opts?: { ancestors?: number[]; everyMs?: number },
): (why?: string) => Promise<void>;
