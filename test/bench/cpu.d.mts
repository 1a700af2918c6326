// Types of cpu.mjs, for the benchmarks written in TypeScript.
export declare function cpuTicks(pid: number, children?: boolean): number;
export declare function processTicks(comm: string): number;
export declare function databaseBackends(name: string): Map<string, number>;
export declare function backendTicksSince(name: string, before: Map<string, number>): number;
