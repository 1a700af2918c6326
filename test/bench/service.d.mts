// Types of service.mjs, for the benchmarks written in TypeScript.
export declare const serviceDir: string;
export interface BuiltService {
  readonly base: string;
  stop(): Promise<void>;
  /** CPU time of every thread of the service so far, in ns. */
  cpuNs(): number;
  /** A token of this service's key with these scopes, valid for an hour. */
  token(scope: string): Promise<string>;
}
export declare function startBuiltService(o: {
  serviceDir: string;
  port: number;
  name: string;
  env?: Record<string, string>;
}): Promise<BuiltService>;
