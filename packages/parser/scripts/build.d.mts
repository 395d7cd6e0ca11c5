export const ASC_ARGS: string[];
export function parserBuildIsStale(): boolean;
export function buildParser(options?: { force?: boolean; quiet?: boolean }): Promise<boolean>;
export default function setup(): Promise<void>;
