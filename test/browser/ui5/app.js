// The page's side of test/browser/ui5.browser.ts: SAPUI5's v4 ODataModel, unmodified, used as
// an app uses it: a list binding on PaymentSources, and creates, property changes and deletes
// collected in an API group ("edits") that submitBatch sends as one $batch. Each function
// answers plain JSON for the test to check; the test reads the database itself.
sap.ui.define(['sap/ui/model/odata/v4/ODataModel', 'sap/ui/core/Messaging', 'sap/ui/VersionInfo'], (ODataModel, Messaging, VersionInfo) => {
  'use strict';
  let model;
  let list;

  const byCode = (code) => list.getAllCurrentContexts().find((c) => c.getProperty('code') === code);
  const messages = () =>
    Messaging.getMessageModel()
      .getData()
      .map((m) => ({
        type: m.getType(),
        message: m.getMessage(),
        technical: m.getTechnical(),
        status: m.getTechnicalDetails()?.httpStatus,
      }));
  /** What a promise came to, without throwing: the page answers the test either way. */
  const outcome = (promise) =>
    promise.then(
      () => ({ ok: true }),
      (e) => ({ ok: false, canceled: Boolean(e.canceled), status: e.status, message: e.message }),
    );

  window.billing = {
    async version() {
      return (await VersionInfo.load({ library: 'sap.ui.core' })).version;
    },

    /** The model on the service, and the first page of its list binding, ordered by code. */
    async open(serviceUrl, token) {
      model = new ODataModel({
        serviceUrl,
        httpHeaders: { Authorization: `Bearer ${token}` },
        // Fetches the metadata and the security token (HEAD of the service root) at once, as
        // Fiori apps' manifests set it.
        earlyRequests: true,
        updateGroupId: 'edits',
      });
      list = model.bindList('/PaymentSources', undefined, undefined, undefined, { $orderby: 'code' });
      const contexts = await list.requestContexts(0, 100);
      return contexts.map((c) => c.getObject());
    },

    /** A new record and a change of an existing one, in one submitBatch. */
    async createAndRename(record, code, name) {
      const created = list.create(record);
      byCode(code).setProperty('name', name);
      await model.submitBatch('edits');
      const done = await outcome(created.created());
      return { done, created: created.getObject(), renamed: byCode(code).getObject(), pending: model.hasPendingChanges() };
    },

    async rename(code, name) {
      const context = byCode(code);
      const before = context.getProperty('@odata.etag');
      context.setProperty('name', name);
      await model.submitBatch('edits');
      return { before, after: context.getObject(), pending: model.hasPendingChanges(), messages: messages() };
    },

    /**
     * A change set whose last request breaks a rule (a second record with a code in use): what
     * UI5 reports before the app drops its changes, and what it holds after.
     */
    async failingChangeSet(renameCode, name, record) {
      Messaging.removeAllMessages();
      byCode(renameCode).setProperty('name', name);
      const created = list.create(record);
      const createdOutcome = outcome(created.created());
      await model.submitBatch('edits');
      const reported = { pending: model.hasPendingChanges('edits'), messages: messages() };
      await model.resetChanges('edits');
      return { reported, created: await createdOutcome, after: byCode(renameCode).getProperty('name'), pending: model.hasPendingChanges() };
    },

    /** A change based on the record as UI5 read it, which someone else has changed since. */
    async staleRename(code, name) {
      Messaging.removeAllMessages();
      byCode(code).setProperty('name', name);
      await model.submitBatch('edits');
      const reported = { messages: messages() };
      await model.resetChanges('edits');
      return reported;
    },

    async remove(code) {
      const deleted = outcome(byCode(code).delete());
      await model.submitBatch('edits');
      return { done: await deleted, left: list.getAllCurrentContexts().map((c) => c.getProperty('code')) };
    },
  };
});
