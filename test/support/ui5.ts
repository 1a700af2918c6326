import path from 'node:path';

// The $batch SAPUI5's v4 ODataModel sent for a create and a change in one change set, recorded
// by test/browser/ui5.browser.ts and replayed by test/rest/batch-clients.test.ts.

export const UI5_RECORDING = path.join(__dirname, '../fixtures/ui5/batch-request.http');

/** The headers UI5 sent with that $batch besides Content-Type and Authorization (the browser's own aside). */
export const UI5_BATCH_HEADERS: Readonly<Record<string, string>> = {
  accept: 'multipart/mixed',
  'accept-language': 'en',
  'mime-version': '1.0',
  'odata-maxversion': '4.0',
  'odata-version': '4.0',
  'x-csrf-token': 'Fetch',
};

/** The record the recorded change set changes (SEPA-LS of the demo data), and what it creates. */
export const UI5_RENAMED = { id: '54818bb4-0e71-4d4d-b5a7-aaebdb608f61', code: 'SEPA-LS', name: 'SEPA-Lastschrift (UI5)' } as const;
export const UI5_CREATED = { code: 'UI5-KARTE', name: 'Kartenzahlung (UI5)', sourceType: 'CreditCard' } as const;
