// Types of cpu.mjs, for the benchmarks written in TypeScript.
export declare function cpuTicks(pid: number, children?: boolean): number;
export declare function processTicks(comm: string): number;
export declare function databaseBackendTicks(name: string): number;
