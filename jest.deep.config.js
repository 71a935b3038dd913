/**
 * The deep suite (npm run test:deep, which .ci/run runs after npm test): checks that take minutes of their own, kept
 * out of npm test so that it stays quick. Today: what `npm pack` ships, installed and run (it builds the package).
 * @type {import('jest').Config}
 */
const base = require('./jest.config');
module.exports = { ...base, roots: ['<rootDir>/test/deep'], testPathIgnorePatterns: [] };
