export { importReferenceData, writeRuns } from './import-service';
export { loadDemoDataIfEmpty, isDatabaseEmpty } from './demo-data';
export { FILE_SECTIONS, IMPORT_SECTIONS, type FileSection, type ImportSection } from './registry';
export {
  ImportFileError,
  ImportValidationError,
  ImportWriteError,
  recordOf,
  type ImportOptions,
  type ImportPhase,
  type ImportProblem,
  type ImportProgress,
  type ImportResult,
  type SectionCounts,
} from './types';
