import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import type { academicTermFields } from './fields';
import { academicTermResource } from './resource';

export class AcademicTermService extends ReadService<typeof academicTermFields> {
  constructor(deps: ServiceDeps) {
    super(deps, academicTermResource);
  }
}
