export { importReferenceData, writeRuns } from './import-service';
export { loadDemoDataIfEmpty, isDatabaseEmpty } from './demo-data';
export { FILE_SECTIONS, IMPORT_SECTIONS } from './registry';
export {
  ImportFileError,
  ImportValidationError,
  ImportWriteError,
  recordOf,
  type ImportProblem,
  type ImportProgress,
  type ImportResult,
} from './types';
