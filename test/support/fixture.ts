import fs from 'node:fs';
import { DEMO_DATA_FILE } from '../../src/config/paths';

// The demo dataset the test apps load; expectations are computed from it, not typed in.
export interface Fixture {
  accounts: Array<{ id: string; code: string; name: string; type: string; isActive: boolean }>;
  taxCodes: Array<Record<string, unknown> & { id: string; code: string }>;
  articles: Array<Record<string, unknown> & { id: string; code: string }>;
  articlePrices: Array<{ id: string; articleId: string; amount: number; validFrom: string }>;
  customers: Array<Record<string, unknown> & { id: string; lastName: string; addresses: Array<Record<string, unknown> & { id: string }> }>;
  academicTerms: Array<Record<string, unknown> & { id: string; code: string }>;
  paymentSources: Array<
    {
      id: string;
      code: string;
      name: string;
      description: string | null;
      accountId: string;
      sourceType: string;
      isActive: boolean;
      isDefault: boolean;
    } & Record<string, unknown>
  >;
}

export const fixture: Fixture = JSON.parse(fs.readFileSync(DEMO_DATA_FILE, 'utf8')) as Fixture;

export const idsOf = (rows: Array<{ id: string }>): string[] => rows.map((r) => r.id).sort();

export const activeAssetAccount = () => fixture.accounts.find((a) => a.type === 'Asset' && a.isActive)!;
export const inactiveAssetAccount = () => fixture.accounts.find((a) => a.type === 'Asset' && !a.isActive)!;
export const nonAssetAccount = () => fixture.accounts.find((a) => a.type !== 'Asset' && a.isActive)!;
export const defaultSource = () => fixture.paymentSources.find((s) => s.isDefault)!;
export const inactiveSource = () => fixture.paymentSources.find((s) => !s.isActive)!;
