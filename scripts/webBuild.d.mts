// Types of webBuild.mjs for the TypeScript entry points that use it (benchmarks).
export declare const ROOT: string;
export declare function webBuildIsStale(): boolean;
export declare function buildWeb(): Promise<void>;
