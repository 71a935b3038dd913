/**
 * The deep suite (npm run test:deep, which .ci/run runs after npm test): checks that take minutes of their own, kept
 * out of npm test so that it stays quick. What `npm pack` ships, installed and run (it builds the package); and, where
 * PTO_UPSTREAM_DIR names PTOAS's tree (.ci/run sets it when ../shared/upstream has it), the corpus tests in full:
 * the lit suites, the golden suites and the expansion sweep's fixed slice, each against its list of exceptions.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');
module.exports = { ...base, roots: ['<rootDir>/test/deep', '<rootDir>/test/corpus', '<rootDir>/test/expand'], testPathIgnorePatterns: [] };
