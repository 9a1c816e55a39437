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
