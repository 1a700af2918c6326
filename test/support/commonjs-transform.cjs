// A Jest transformer that compiles an ESM-only dependency to CommonJS, whatever Jest says of
// ESM support (@swc/jest follows it and keeps ESM): Jest requires ESM natively only from
// Node 24.9, and the service supports Node 22 too (jest.config.js names the packages).
const { transformSync } = require('@swc/core');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, { filename, jsc: { target: 'es2022' }, module: { type: 'commonjs' }, sourceMaps: true });
    return { code, map };
  },
};
