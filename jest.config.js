/** ESM all the way: the ACP SDK ships only ESM, so jest runs with --experimental-vm-modules. */
export default {
  testEnvironment: '<rootDir>/test/environment/closes-what-it-opens.js',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testTimeout: 20000,
  reporters: ['default', '<rootDir>/test/reporters/summary.js'],
};
