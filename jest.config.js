/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // test/deep/ is the deep suite (jest.deep.config.js, npm run test:deep).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/deep/'],
  // A worker per CPU: jest's default (one CPU less) ran every file one after another on CI's two CPUs.
  maxWorkers: '100%',
  // Typed arrays with the same bytes compare equal at once (jest's own walk took seconds per megabyte).
  setupFilesAfterEnv: ['<rootDir>/test/fixtures/typed-array-equality.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: true }] },
};
