// Types of resource-folders.mjs, for codegen.ts.
export interface ResourceFolder {
  readonly folder: string;
  readonly model: string;
  readonly declaration: string;
  readonly service: string;
}
export function resourceFolders(root: string): ResourceFolder[];
export function registrySources(folders: readonly ResourceFolder[]): Record<string, string>;
